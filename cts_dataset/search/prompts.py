"""The search package's versioned prompt files: ``prompts/<name>.<version>.txt`` (English) and
``prompts/<name>.<version>.zh.txt`` (Chinese, for Chinese queries such as Hard518's).

One file per version and language, never edited once used: a change is a new version. Loading, checked
rendering and the identity (id ``name.version`` or ``name.version.zh``, hash of the file's bytes) are
:mod:`cts_dataset.prompts`'s.
"""

from __future__ import annotations

from functools import cache
from importlib import resources

from cts_dataset.prompts import PromptError, TextPrompt, load_text_prompt

__all__ = ["Prompt", "PromptError", "load_prompt"]


class Prompt(TextPrompt):
    """A search prompt built in code: ``Prompt(name, version, text)``, id ``name.version``."""

    def __init__(self, name: str, version: str, text: str, hash: str = "", source: str = "") -> None:
        super().__init__(f"{name}.{version}", text, hash, source)


@cache
def load_prompt(name: str, version: str = "v1", language: str = "en") -> TextPrompt:
    """A shipped prompt of the search package, e.g. ``load_prompt("react_system", "v1", "zh")``."""
    stem = f"{name}.{version}" if language == "en" else f"{name}.{version}.{language}"
    resource = resources.files("cts_dataset.search").joinpath("prompts", f"{stem}.txt")
    if not resource.is_file():
        raise PromptError(f"no prompt file prompts/{stem}.txt in cts_dataset.search")
    return load_text_prompt(resource, stem)
