"""Prompt files: one loader and one identity for every prompt of the project (protocol, judge, search).

A prompt is named by ``id`` and ``hash``; the hash is the first 16 hex digits of the SHA-256 of the
file's bytes as stored, so any edit (wording, comments, another language's section) gives a new hash.
Two shapes:

- a chat prompt (YAML): ``system`` and ``user`` templates plus named fragments, at the top level or
  under a language key (``en:``, ``zh:``); rendered to chat messages;
- a text prompt (``.txt``): one template rendered to a string.

Templates use ``$name``/``${name}`` (``$$`` is a dollar, see :mod:`cts_dataset.templates`). Rendering
checks both ways (a placeholder without a value, a value without a placeholder), and every error is a
:class:`PromptError` naming the file and the field.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Collection, Mapping
from dataclasses import dataclass
from importlib.resources.abc import Traversable
from pathlib import Path
from typing import Any

import yaml

from cts_dataset.templates import TemplateError, fill, placeholders

HASH_DIGITS = 16
Source = Path | Traversable


class PromptError(TemplateError):
    """A prompt file that is missing or malformed, or a render call with the wrong values."""


def content_hash(data: bytes) -> str:
    """The prompt identity hash: SHA-256 of the bytes, first :data:`HASH_DIGITS` hex digits."""
    return hashlib.sha256(data).hexdigest()[:HASH_DIGITS]


def placeholders_of(template: str, where: str) -> frozenset[str]:
    """The placeholders of a template; PromptError naming ``where`` on a stray ``$``."""
    try:
        return placeholders(template, where)
    except TemplateError as error:
        raise PromptError(str(error)) from None


def _fill(template: str, values: Mapping[str, object], where: str) -> str:
    used, given = placeholders_of(template, where), set(values)
    missing, extra = sorted(used - given), sorted(given - used)
    if missing or extra:
        raise PromptError(f"{where}: " + _mismatch(missing, extra))
    return fill(template, dict(values), where)


def _mismatch(missing: list[str], extra: list[str]) -> str:
    return "; ".join(([f"missing variables {missing} (placeholders without a value)"] if missing else [])
                     + ([f"unexpected variables {extra} (values with no placeholder)"] if extra else []))


@dataclass(frozen=True)
class TextPrompt:
    """One template rendered to a string. ``hash`` defaults to the hash of the text."""

    id: str
    text: str
    hash: str = ""
    source: str = ""

    def __post_init__(self) -> None:
        if not self.hash:
            object.__setattr__(self, "hash", content_hash(self.text.encode()))
        self.placeholders  # noqa: B018  (a stray '$' fails at load, not mid-run)

    @property
    def placeholders(self) -> frozenset[str]:
        return placeholders_of(self.text, self.source or self.id)

    def render(self, **values: object) -> str:
        return _fill(self.text, values, self.source or self.id)


@dataclass(frozen=True)
class ChatPrompt:
    """A system and a user template and named fragments (small pieces a caller fills on its own).

    ``source`` and ``section`` say where it was read (errors name them); ``hash`` defaults to a hash of
    the templates for a prompt built in code.
    """

    id: str
    system: str
    user: str
    fragments: tuple[tuple[str, str], ...] = ()
    hash: str = ""
    source: str = ""
    section: str = ""

    def __post_init__(self) -> None:
        if not self.hash:
            text = json.dumps([self.system, self.user, list(self.fragments)], ensure_ascii=False)
            object.__setattr__(self, "hash", content_hash(text.encode()))
        for name, template in (("system", self.system), ("user", self.user), *self.fragments):
            placeholders_of(template, self.where(name))

    def where(self, field: str) -> str:
        """``file: section.field`` for messages."""
        return f"{self.source or self.id}: {self.section + '.' if self.section else ''}{field}"

    @property
    def placeholders(self) -> frozenset[str]:
        """The placeholders of the system and user templates (fragments are filled apart)."""
        return placeholders_of(self.system, self.where("system")) | placeholders_of(self.user, self.where("user"))

    def render(self, **values: object) -> list[dict[str, str]]:
        """Chat messages; every placeholder must get a value and every value a placeholder."""
        missing, extra = sorted(self.placeholders - set(values)), sorted(set(values) - self.placeholders)
        if missing or extra:
            raise PromptError(f"{self.where('render')}: " + _mismatch(missing, extra))
        messages = []
        for role, template in (("system", self.system), ("user", self.user)):
            names = placeholders_of(template, self.where(role))
            messages.append({"role": role, "content": _fill(
                template, {k: v for k, v in values.items() if k in names}, self.where(role))})
        return messages

    def fragment(self, name: str, **values: object) -> str:
        """A named piece (e.g. a turn note) filled with its own values."""
        found = dict(self.fragments)
        if name not in found:
            raise PromptError(f"{self.where(name)}: no such fragment; the prompt has {sorted(found)}")
        return _fill(found[name], values, self.where(name))


def read_source(source: Source) -> bytes:
    """A prompt file's bytes; PromptError when there is none."""
    if not source.is_file():
        raise PromptError(f"{source}: no prompt file there")
    return source.read_bytes()


def read_yaml(source: Source) -> tuple[dict[str, Any], str]:
    """A YAML prompt file's mapping and its hash."""
    raw = read_source(source)
    try:
        data = yaml.safe_load(raw.decode("utf-8"))
    except (UnicodeDecodeError, yaml.YAMLError) as error:
        raise PromptError(f"{source}: not a YAML prompt file: {error}") from None
    if not isinstance(data, dict):
        raise PromptError(f"{source}: expected a mapping with system and user templates")
    return data, content_hash(raw)


def chat_prompt(prompt_id: str, data: Mapping[str, Any], digest: str, source: Source | str,
                section: str | None = None, skip: Collection[str] = ()) -> ChatPrompt:
    """The chat prompt of a YAML mapping (or of its ``section``): ``system``, ``user``, and every
    other string field but ``skip`` as a fragment. Templates are stripped of surrounding blank lines."""
    entry: Any = data
    if section is not None:
        if section not in data:
            raise PromptError(f"{source}: {section}: missing; the file has {sorted(map(str, data))}")
        entry = data[section]
        if not isinstance(entry, dict):
            raise PromptError(f"{source}: {section}: expected a mapping with system and user templates")
    prefix = f"{section}." if section else ""
    templates = {}
    for key, value in entry.items():
        if key in skip:
            continue
        if not isinstance(value, str):
            raise PromptError(f"{source}: {prefix}{key}: expected a template string, found {type(value).__name__}")
        templates[str(key)] = value.strip()
    for required in ("system", "user"):
        if required not in templates:
            raise PromptError(f"{source}: {prefix}{required}: missing")
    system, user = templates.pop("system"), templates.pop("user")
    return ChatPrompt(prompt_id, system, user, tuple(sorted(templates.items())), digest, str(source), section or "")


def load_chat_prompt(source: Source, prompt_id: str, section: str | None = None,
                     skip: Collection[str] = ()) -> ChatPrompt:
    """A YAML chat prompt file (see :func:`chat_prompt`), named ``prompt_id`` and hashed by its bytes."""
    data, digest = read_yaml(source)
    return chat_prompt(prompt_id, data, digest, source, section, skip)


def load_text_prompt(source: Source, prompt_id: str) -> TextPrompt:
    """A text prompt file, named ``prompt_id`` and hashed by its bytes."""
    raw = read_source(source)
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as error:
        raise PromptError(f"{source}: not UTF-8 text: {error}") from None
    return TextPrompt(prompt_id, text, content_hash(raw), str(source))
