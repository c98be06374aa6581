"""Versioned prompt files and their checked rendering.

A prompt is the file ``prompts/<name>.<version>.txt`` (one file per version, never edited once
used: a change is a new version). Placeholders are ``$name`` (``$$`` is a literal dollar), so JSON
examples need no escaping. Rendering fails on a missing or an extra variable, and every output records
the prompt's id and content hash.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from functools import cache
from importlib import resources

from cts_dataset.templates import TemplateError, fill, placeholders


class PromptError(TemplateError):
    """A prompt file is missing, malformed, or rendered with the wrong variables."""


@dataclass(frozen=True)
class Prompt:
    name: str
    version: str
    text: str

    @property
    def id(self) -> str:
        return f"{self.name}.{self.version}"

    @property
    def hash(self) -> str:
        return hashlib.sha256(self.text.encode()).hexdigest()[:16]

    @property
    def placeholders(self) -> frozenset[str]:
        try:
            return placeholders(self.text, self.id)
        except TemplateError as error:
            raise PromptError(str(error)) from None

    def render(self, **variables: object) -> str:
        expected, given = self.placeholders, set(variables)
        if expected != given:
            missing, extra = sorted(expected - given), sorted(given - expected)
            raise PromptError(f"{self.id}: missing variables {missing}, unexpected variables {extra}")
        return fill(self.text, variables, self.id)


@cache
def load_prompt(name: str, version: str = "v1") -> Prompt:
    """A shipped prompt of the search package, e.g. ``load_prompt("react_system", "v1")``."""
    resource = resources.files("cts_dataset.search").joinpath("prompts", f"{name}.{version}.txt")
    if not resource.is_file():
        raise PromptError(f"no prompt file prompts/{name}.{version}.txt in cts_dataset.search")
    prompt = Prompt(name, version, resource.read_text(encoding="utf-8"))
    prompt.placeholders  # noqa: B018  (fail on a malformed file at load, not mid-run)
    return prompt
