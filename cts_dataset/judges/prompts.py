"""Versioned judge prompts: one YAML file per version under ``judges/prompts/`` (or a user's file).

A file holds ``id`` (its file name without ``.yaml``), the declared ``placeholders`` and the ``system``
and ``user`` templates. The templates must use exactly the declared placeholders, and rendering fills
each exactly once (:mod:`cts_dataset.prompts`), so a drifted template raises instead of judging.
"""

from __future__ import annotations

from functools import cache
from importlib import resources
from pathlib import Path

from cts_dataset.prompts import ChatPrompt, PromptError, chat_prompt, read_yaml

Prompt = ChatPrompt

__all__ = ["Prompt", "PromptError", "load_prompt"]


@cache
def load_prompt(prompt: str) -> ChatPrompt:
    """A shipped prompt by id (e.g. ``coverage-v1``), or a YAML file path in the same format."""
    if prompt.endswith((".yaml", ".yml")):
        source = Path(prompt)
        prompt_id = source.stem
    else:
        folder = resources.files("cts_dataset.judges").joinpath("prompts")
        source = folder.joinpath(f"{prompt}.yaml")  # type: ignore[assignment]
        prompt_id = prompt
        if not source.is_file():
            known = sorted(p.name.removesuffix(".yaml") for p in folder.iterdir() if p.name.endswith(".yaml"))
            raise PromptError(f"no prompt {prompt!r}; shipped: {', '.join(known)}")
    data, digest = read_yaml(source)
    if data.get("id") != prompt_id:
        raise PromptError(f"{source}: id: {data.get('id')!r} does not match the file name {prompt_id!r}")
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
