"""Where a model's batch of cache misses runs: this process (``local``) or a Ray cluster (``ray``).

The run folder, stage records, run identity, response cache and trace always stay in the driver; an
executor only replaces the backend under :class:`cts_dataset.models.registry.LoadedModel`.
"""

EXECUTORS: tuple[str, ...] = ("local", "ray")
