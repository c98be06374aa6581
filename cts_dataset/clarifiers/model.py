"""The model-backed clarifier: the protocol's clarifier prompt on a chat model, guarded (a reply that is
no question is asked once more)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from cts_dataset.models.base import ChatModel
from cts_dataset.protocol import clarifier
from cts_dataset.protocol.clarifier import Question
from cts_dataset.protocol.roles import RoleSettings
from cts_dataset.protocol.views import ClarifierView


class ModelClarifier:
    """Asks ``model`` with the clarifier prompt of ``settings``; ``reask`` a reply that is no question."""

    def __init__(self, model: ChatModel, settings: RoleSettings | None = None, reask: bool = True) -> None:
        self.model, self.settings, self.reask = model, settings or RoleSettings(), reask
        self.spec = self.name = model.spec

    @property
    def identity(self) -> Any:
        from cts_dataset.pipeline.identity import model_identity

        return model_identity(self.model)

    def ask(self, views: Sequence[ClarifierView], tags: Sequence[str] = (), repeat: int = 0) -> list[Question]:
        """Questions for the views; ``repeat`` draws another sample when the clarifier samples."""
        settings = self.settings
        if repeat and settings.sampling.temperature > 0:
            settings = replace(settings, sample_index=repeat)
        return clarifier.ask(self.model, views, settings, tags, reask=self.reask)
