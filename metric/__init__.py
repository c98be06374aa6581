"""The `evaluate` metric module folder(s); installed as ``cts_dataset.metric``."""
