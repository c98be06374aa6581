"""Versioned protocol prompts: one YAML file per role and version, a system and a user template (and
fragments) per language; or a user's YAML file of the same format (a clarifier of one's own).

Every rendered request records the prompt id and hash (:mod:`cts_dataset.prompts`): a shipped prompt is
``role/version/language`` (``clarifier/v1/en``), a user's file ``role/<file name>/language``.
"""

from __future__ import annotations

import os
from functools import cache
from importlib import resources
from pathlib import Path

from cts_dataset.prompts import ChatPrompt, PromptError, load_chat_prompt, placeholders_of

LANGUAGES = ("en", "zh")
Prompt = ChatPrompt

__all__ = ["LANGUAGES", "Prompt", "PromptError", "load_prompt", "load_prompt_file"]


@cache
def load_prompt(role: str, version: str, language: str) -> ChatPrompt:
    """The shipped prompt of a role, version and language (e.g. ``clarifier``, ``v1``, ``en``)."""
    folder = resources.files("cts_dataset.protocol").joinpath("prompts")
    source = folder.joinpath(f"{role}.{version}.yaml")
    if not source.is_file():
        known = sorted(p.name for p in folder.iterdir() if p.name.endswith(".yaml"))
        raise PromptError(f"no prompt file {role}.{version}.yaml; shipped: {', '.join(known)}")
    return load_chat_prompt(source, f"{role}/{version}/{language}", section=language)


def load_prompt_file(path: str | os.PathLike, role: str, language: str, reference: str = "v1") -> ChatPrompt:
    """A role's prompt from a user's YAML file, in the format of the shipped ``<role>.<reference>.yaml``.

    The file must give every field of the shipped prompt with the same placeholders (the role fills
    exactly those); extra fields are allowed. Read again whenever the file changes (size or mtime).
    """
    resolved = Path(path).resolve()
    try:
        state = resolved.stat()
    except FileNotFoundError:
        raise PromptError(f"{path}: no prompt file there") from None
    return _load_file(str(resolved), role, language, reference, (state.st_size, state.st_mtime_ns))


@cache
def _load_file(path: str, role: str, language: str, reference: str, _state: tuple[int, int]) -> ChatPrompt:
    prompt = load_chat_prompt(Path(path), f"{role}/{Path(path).name}/{language}", section=language)
    # A file in the format of any shipped version will do (the answerer's v3 lists ${options}, v1 does not);
    # the error names the mismatch against ``reference``.
    problems = {version: _mismatch(prompt, load_prompt(role, version, language), role)
                for version in [reference, *(v for v in shipped_versions(role) if v != reference)]}
    if all(problems.values()):
        raise PromptError(problems[reference])
    return prompt


def shipped_versions(role: str) -> list[str]:
    folder = resources.files("cts_dataset.protocol").joinpath("prompts")
    return sorted(p.name[len(role) + 1:-5] for p in folder.iterdir() if p.name.startswith(f"{role}.") and p.name.endswith(".yaml"))


def _mismatch(prompt: ChatPrompt, shipped: ChatPrompt, role: str) -> str:
    """Why ``prompt`` is not in the format of ``shipped`` ("" when it is)."""
    mine = {"system": prompt.system, "user": prompt.user, **dict(prompt.fragments)}
    for field, template in (("system", shipped.system), ("user", shipped.user), *shipped.fragments):
        if field not in mine:
            return f"{prompt.where(field)}: missing (the {role} prompt needs it)"
        needed, found = placeholders_of(template, shipped.where(field)), placeholders_of(mine[field], prompt.where(field))
        if found != needed:
            return f"{prompt.where(field)}: placeholders {sorted(found)}, but the {role} role fills {sorted(needed)}"
    return ""
