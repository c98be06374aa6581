"""Chat models behind one batch-first protocol (see :mod:`cts_dataset.models.base`)."""

from cts_dataset.models.base import ChatModel, ChatRequest, ChatResponse, Sampling, StructuredOutput, Usage

__all__ = ["ChatModel", "ChatRequest", "ChatResponse", "Sampling", "StructuredOutput", "Usage"]
