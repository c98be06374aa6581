"""Data quality checks for instance files: grounding, blurring, duplicates, retrieval headroom, report."""
