"""Chat models behind one batch-first protocol (see :mod:`cts_dataset.models.base`)."""

from cts_dataset.models.base import ChatModel, ChatRequest, ChatResponse, Sampling, StructuredOutput, Usage
from cts_dataset.models.registry import load_model
from cts_dataset.models.spec import ModelSpec

__all__ = ["ChatModel", "ChatRequest", "ChatResponse", "ModelSpec", "Sampling", "StructuredOutput", "Usage",
           "load_model"]
