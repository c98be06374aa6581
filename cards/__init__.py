"""Card sources of the datasets (instances and corpus); installed as ``cts_dataset.cards``.

The metric card's source is ``metric/restore_score/README.md`` itself."""
