"""The identity of a run: everything that changes what its records hold, compared on every resume.

A run folder is resumed only onto the same identity: each role's resolved model (backend, model id,
revision or file hash, base URLs, answer-changing engine args, template defaults), each role's
generation settings and prompt ids+hashes, a Python clarifier's import path and options, the searcher's and judge's resolved settings and prompt
hashes, the dataset revision, the protocol switches and the ctsbench version. What only extends a run
(more instances, budgets, conditions or repeats) or changes how it goes (batch size, cache, error
limit) is not part of it: records are keyed per instance, condition, budget and repeat.
"""

from __future__ import annotations

import json
from dataclasses import asdict
from pathlib import Path
from typing import Any

from cts_dataset.errors import CtsbenchError
from cts_dataset.identity import differences
from cts_dataset.protocol.roles import RoleSettings


class IdentityMismatch(CtsbenchError, ValueError):
    """A run folder that holds records of another identity."""


def model_identity(model: Any) -> dict[str, Any]:
    """A loaded model's identity (``LoadedModel.identity``), or, for an object passed in code, its class,
    its ``spec`` and what it says of itself (an ``identity`` attribute or method, if it has one)."""
    identity = getattr(model, "identity", None)
    if callable(identity):
        identity = identity()
    if isinstance(identity, dict) and "backend" in identity:
        return json.loads(json.dumps(identity, default=str))
    kind = type(model)
    described: dict[str, Any] = {"object": f"{kind.__module__}.{kind.__qualname__}",
                                 "spec": str(getattr(model, "spec", ""))}
    if identity is not None:
        described["identity"] = json.loads(json.dumps(identity, default=str))
    return described


def check_identity(stored: dict[str, Any] | None, current: dict[str, Any], where: str) -> None:
    """Raise :class:`IdentityMismatch` naming every difference (nothing when ``stored`` is None)."""
    if stored is None:
        return
    found = differences(stored, json.loads(json.dumps(current, default=str)))
    if found:
        shown = "\n  ".join(found[:12]) + (f"\n  ... and {len(found) - 12} more" if len(found) > 12 else "")
        raise IdentityMismatch(f"{where}: this folder holds a run of another identity; what changed:\n  {shown}\n"
                               "Choose another --out-dir (or delete the folder to start over).")


def stored_identity(folder: Path) -> dict[str, Any] | None:
    """The identity a run folder's ``config.json`` holds (None for a new folder); a damaged or older
    file is refused with a message naming it."""
    from cts_dataset.jsonl import read_json

    path = Path(folder) / "config.json"
    if not path.exists():
        return None
    stored = read_json(path)
    if "identity" not in stored:
        raise CtsbenchError(f"{path}: this folder was written by an older ctsbench and records no run "
                            "identity; choose another --out-dir")
    return stored["identity"]


def settings_identity(settings: RoleSettings) -> dict[str, Any]:
    """A role's generation settings as its identity records them."""
    return {"sampling": asdict(settings.sampling), "chat_template_kwargs": dict(settings.chat_template_kwargs),
            "structured": settings.structured}


def pick(stored: dict[str, Any] | None, like: dict[str, Any]) -> dict[str, Any] | None:
    """The part of a stored identity that has the keys of ``like`` (the cheap, pre-load check)."""
    if stored is None:
        return None
    picked: dict[str, Any] = {}
    for key, value in like.items():
        if key not in stored:
            continue
        if isinstance(value, dict) and isinstance(stored[key], dict):
            picked[key] = pick(stored[key], value)
        else:
            picked[key] = stored[key]
    return picked
