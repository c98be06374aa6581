"""Clarifiers: what asks the questions. A model with the protocol's prompt is one kind; a Python object
of a user's, a reference clarifier (``none``, ``template:<type>``, ``oracle-types``) or a person at the
terminal are others. They all meet :class:`Clarifier`."""

from cts_dataset.clarifiers.base import NO_QUESTION, Clarifier, as_question
from cts_dataset.clarifiers.loading import load_clarifier
from cts_dataset.clarifiers.model import ModelClarifier

__all__ = ["NO_QUESTION", "Clarifier", "ModelClarifier", "as_question", "load_clarifier"]
