"""Versioned prompts: one YAML file per role and version, with a system and a user template per language.

Every rendered request records the prompt id (``role/version/language``) and a hash of the template,
so results name the exact prompt that produced them.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from functools import cache
from importlib import resources

import yaml

from cts_dataset.templates import fill, placeholders

LANGUAGES = ("en", "zh")


@dataclass(frozen=True)
class Prompt:
    role: str
    version: str
    language: str
    system: str
    user: str
    fragments: tuple[tuple[str, str], ...] = ()

    @property
    def id(self) -> str:
        return f"{self.role}/{self.version}/{self.language}"

    @property
    def hash(self) -> str:
        text = "\0".join([self.system, self.user, *(f"{k}={v}" for k, v in self.fragments)])
        return hashlib.sha256(text.encode()).hexdigest()[:12]

    def fragment(self, name: str, **values: str) -> str:
        """A small language-specific piece (e.g. a turn note) filled with its own values."""
        return fill(dict(self.fragments)[name], values)

    def render(self, **values: str) -> list[dict[str, str]]:
        """Chat messages; every placeholder must get a value and every value a placeholder."""
        system_keys = placeholders(self.system)
        system = fill(self.system, {k: v for k, v in values.items() if k in system_keys})
        user = fill(self.user, {k: v for k, v in values.items() if k not in system_keys})
        return [{"role": "system", "content": system}, {"role": "user", "content": user}]


@cache
def load_prompt(role: str, version: str, language: str) -> Prompt:
    """The prompt of a role, version and language (e.g. ``clarifier``, ``v1``, ``en``)."""
    name = f"{role}.{version}.yaml"
    folder = resources.files("cts_dataset.protocol").joinpath("prompts")
    if not folder.joinpath(name).is_file():
        known = sorted(p.name for p in folder.iterdir() if p.name.endswith(".yaml"))
        raise FileNotFoundError(f"no prompt file {name}; known: {', '.join(known)}")
    data = yaml.safe_load(folder.joinpath(name).read_text(encoding="utf-8"))
    if language not in data:
        raise KeyError(f"prompt {name} has no language {language!r}; it has {sorted(data)}")
    entry = dict(data[language])
    system, user = entry.pop("system").strip(), entry.pop("user").strip()
    fragments = tuple(sorted((k, str(v).strip()) for k, v in entry.items()))
    return Prompt(role, version, language, system, user, fragments)
