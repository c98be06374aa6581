"""Versioned judge prompts: one YAML file per version under ``judges/prompts/`` (or a user's file).

A file holds ``id`` (its file name without ``.yaml``), the declared ``placeholders`` and the ``system``
and ``user`` templates. The templates must use exactly the declared placeholders, and rendering fills
each exactly once (:mod:`cts_dataset.prompts`), so a drifted template raises instead of judging.

A user's file is named ``<file id>+<hash>`` (e.g. ``coverage-v1+3fa2b1c4``): an edited copy of a shipped
prompt is never named like it in records, summaries and judge names. It is read again when it changes.
"""

from __future__ import annotations

from functools import cache
from importlib import resources
from pathlib import Path

USER_HASH_DIGITS = 8  # of the content hash, in a user's prompt id

from cts_dataset.prompts import ChatPrompt, PromptError, Source, chat_prompt, read_yaml

Prompt = ChatPrompt

__all__ = ["Prompt", "PromptError", "is_prompt_file", "load_prompt"]


def is_prompt_file(prompt: str) -> bool:
    """Whether ``prompt`` names a user's YAML file rather than a shipped id."""
    return prompt.endswith((".yaml", ".yml"))


def load_prompt(prompt: str) -> ChatPrompt:
    """A shipped prompt by id (e.g. ``coverage-v1``), or a YAML file path in the same format."""
    if not is_prompt_file(prompt):
        return _shipped(prompt)
    path = Path(prompt).resolve()
    try:
        state = path.stat()
    except OSError:
        raise PromptError(f"{prompt}: no prompt file there") from None
    return _user_file(str(path), state.st_size, state.st_mtime_ns)


@cache
def _shipped(prompt: str) -> ChatPrompt:
    folder = resources.files("cts_dataset.judges").joinpath("prompts")
    source = folder.joinpath(f"{prompt}.yaml")
    if not source.is_file():
        known = sorted(p.name.removesuffix(".yaml") for p in folder.iterdir() if p.name.endswith(".yaml"))
        raise PromptError(f"no prompt {prompt!r}; shipped: {', '.join(known)}")
    return _built(source, prompt, prompt)


@cache
def _user_file(path: str, _size: int, _mtime_ns: int) -> ChatPrompt:
    """Keyed on size and mtime too: an edited file is read again, even in a long process (a notebook)."""
    source = Path(path)
    return _built(source, source.stem, None)


def _built(source: Source, file_id: str, prompt_id: str | None) -> ChatPrompt:
    """The checked prompt of a file whose ``id`` must be ``file_id``; named ``prompt_id`` (a shipped id),
    else ``<file_id>+<hash>``."""
    data, digest = read_yaml(source)
    if data.get("id") != file_id:
        raise PromptError(f"{source}: id: {data.get('id')!r} does not match the file name {file_id!r}")
    prompt_id = prompt_id or f"{file_id}+{digest[:USER_HASH_DIGITS]}"
    declared = data.get("placeholders")
    if not isinstance(declared, list):
        raise PromptError(f"{source}: placeholders: expected a list of names")
    built = chat_prompt(prompt_id, data, digest, source, skip=("id", "placeholders"))
    if built.fragments:
        raise PromptError(f"{source}: {built.fragments[0][0]}: unknown field (a judge prompt has id, "
                          "placeholders, system and user)")
    if built.placeholders != frozenset(declared):
        raise PromptError(f"{source}: placeholders: the templates use {sorted(built.placeholders)} but the "
                          f"file declares {sorted(declared)}")
    return built
