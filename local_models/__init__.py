"""Running models locally (vLLM, transformers, the packaged default model); installed as ``cts_dataset.local_models``."""
