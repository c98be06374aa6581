"""Pure scoring functions: restore_score_100 and its variants, confidence intervals, paired tests."""
