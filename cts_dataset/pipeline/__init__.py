"""`ctsbench run`: the experiment over instances, conditions and budgets, stage by stage, resumable."""
