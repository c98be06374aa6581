"""Dataset loading: the no-code Hugging Face dataset folder(s).

Installed as ``cts_dataset.loaders``; ``ctsbench/`` is the instances dataset folder
(``datasets.load_dataset("loaders/ctsbench")`` in a checkout).
"""
