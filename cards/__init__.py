"""Card sources (dataset, corpus and metric cards); installed as ``cts_dataset.cards``."""
