"""Versioned judge prompts: one YAML file per version under ``judges/prompts/``.

Rendering checks placeholders both ways: a template naming a placeholder the file does not declare,
or a render call missing or adding a value, raises instead of producing a plausible prompt.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from functools import cache
from importlib import resources

import yaml

from cts_dataset.templates import TemplateError, fill, placeholders


class PromptError(TemplateError):
    """A prompt file or a render call whose placeholders do not match."""


@dataclass(frozen=True)
class Prompt:
    """A system and a user template with declared ``${name}`` placeholders."""

    id: str
    system: str
    user: str
    placeholders: frozenset[str]
    sha256: str

    def __post_init__(self) -> None:
        try:
            used = placeholders(self.system, self.id) | placeholders(self.user, self.id)
        except TemplateError as error:
            raise PromptError(str(error)) from None
        if used != self.placeholders:
            raise PromptError(f"prompt {self.id}: template uses {sorted(used)} but declares {sorted(self.placeholders)}")

    def render(self, **values: object) -> list[dict[str, str]]:
        """The chat messages, every declared placeholder filled exactly once."""
        given = set(values)
        if given != self.placeholders:
            missing, extra = sorted(self.placeholders - given), sorted(given - self.placeholders)
            raise PromptError(f"prompt {self.id}: missing values {missing}, unexpected values {extra}")
        system_names = placeholders(self.system)
        system = fill(self.system, {k: v for k, v in values.items() if k in system_names}, self.id)
        user = fill(self.user, {k: v for k, v in values.items() if k in placeholders(self.user)}, self.id)
        return [{"role": "system", "content": system.strip()}, {"role": "user", "content": user.strip()}]


@cache
def load_prompt(prompt_id: str) -> Prompt:
    """A shipped prompt by id (the file name without ``.yaml``), e.g. ``coverage-v1``."""
    folder = resources.files("cts_dataset.judges").joinpath("prompts")
    source = folder.joinpath(f"{prompt_id}.yaml")
    if not source.is_file():
        known = sorted(p.name.removesuffix(".yaml") for p in folder.iterdir() if p.name.endswith(".yaml"))
        raise PromptError(f"no prompt {prompt_id!r}; shipped: {', '.join(known)}")
    raw = source.read_text(encoding="utf-8")
    data = yaml.safe_load(raw)
    if data.get("id") != prompt_id:
        raise PromptError(f"{source}: id {data.get('id')!r} does not match the file name")
    return Prompt(id=prompt_id, system=data["system"], user=data["user"],
                  placeholders=frozenset(data["placeholders"]), sha256=hashlib.sha256(raw.encode()).hexdigest())
