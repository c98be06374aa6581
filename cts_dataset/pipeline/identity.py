"""The identity of a run: everything that changes what its records hold, compared on every resume, and
the ``config.json`` that holds it.

A run folder is resumed only onto the same identity: each role's resolved model (backend, model id,
revision or file hash, base URLs, answer-changing engine args, template defaults), each role's
generation settings and prompt ids+hashes, a Python clarifier's import path and options, the searcher's and judge's resolved settings and prompt
hashes, the dataset revision, the protocol switches and the ctsbench version. What only extends a run
(more instances, budgets, conditions or repeats) or changes how it goes (batch size, cache, error
limit) is not part of it: records are keyed per instance, condition, budget and repeat.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import asdict
from pathlib import Path
from typing import Any

from cts_dataset.differences import differences
from cts_dataset.errors import CtsbenchError
from cts_dataset.pipeline import components
from cts_dataset.pipeline.config import ROLES, RunConfig
from cts_dataset.protocol.role_guards import GUARDS_VERSION, guards_source
from cts_dataset.protocol.roles import RoleSettings

PromptIds = dict[str, dict[str, dict[str, str]]]  # role -> language -> {"prompt", "prompt_hash"}


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


def determinism_identity(model: Any) -> dict[str, Any] | None:
    """What the role's engine promises about one request's bytes (None for an object that says nothing).
    It names a llama.cpp build's CPU kernels where they are not the prebuilt wheel's, never the machine's
    CPU: resuming on another machine that runs the same build is allowed."""
    from cts_dataset.models.determinism import determinism_of

    if model is None or not hasattr(model, "complete"):
        return None
    return json.loads(json.dumps(determinism_of(model), default=str))  # a loaded model states it itself


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


# -- assembling a run's identity (:class:`~cts_dataset.pipeline.experiment.Experiment` calls these) ------
def protocol_identity(config: RunConfig, settings: Mapping[str, RoleSettings], prompt_ids: PromptIds,
                      clarifier_import: dict[str, Any] | None = None) -> dict[str, Any]:
    """The part of the identity known before any model loads: checked first, so that a refused resume
    costs no engine start-up."""
    from cts_dataset import __version__

    identity: dict[str, Any] = {
        "ctsbench_version": __version__,
        "dataset_revision": components.dataset_revision(config),
        "protocol": {"preset": config.preset, "show_budget": config.show_budget,
                     "answer_mode": config.answer_mode, "clarifier_reask": config.clarifier_reask,
                     "rewriter_guard": config.rewriter_guard, "guards_version": GUARDS_VERSION,
                     "guards_source": guards_source(),
                     "answer_options": components.answer_options_identity(config.answer_mode)},
        "roles": {role: {"generation": settings_identity(settings[role]), "prompts": prompt_ids[role]}
                  for role in ROLES},
    }
    if clarifier_import is not None:
        identity["roles"]["clarifier"]["import"] = clarifier_import
    return identity


def run_identity(protocol: dict[str, Any], role_models: Mapping[str, Any], clarifier: Any, searcher: Any,
                 judge: Any) -> dict[str, Any]:
    """The whole identity: ``protocol`` (:func:`protocol_identity`) with each role's model
    (``role_models``: role -> what answers it), the searcher's and the judge's. JSON values only."""
    from cts_dataset.scoring.judging import judge_identity

    identity = json.loads(json.dumps(protocol, default=str))
    for role in ROLES:
        identity["roles"][role]["model"] = model_identity(role_models.get(role))
        identity["roles"][role]["determinism"] = determinism_identity(role_models.get(role))
    if getattr(clarifier, "sees_constraint_types", False):
        identity["protocol"]["clarifier_sees"] = "the types of the removed constraints (never their values)"
    describe = getattr(searcher, "describe", None)
    identity["searcher"] = describe() if callable(describe) else model_identity(searcher)
    identity["judge"] = judge_identity(judge)
    return json.loads(json.dumps(identity, default=str))


def write_config(folder: Path, config: RunConfig, identity: dict[str, Any], instances: int,
                 models: Mapping[str, Any], prompt_ids: PromptIds, labels: Mapping[str, str] | None = None) -> None:
    """``config.json``: the run identity (written once, compared on every resume) and the resolved config
    of the latest invocation (limit, budgets, conditions may grow). ``models``: role -> model object;
    ``labels``: role -> a name that says better than the object's ``spec`` what ran."""
    from cts_dataset import __version__
    from cts_dataset.jsonl import read_json, write_json

    path = folder / "config.json"
    previous = read_json(path) if path.exists() else {}
    resolved_config = json.loads(config.model_dump_json())
    resolved_config["out_dir"] = str(folder)
    described = {role: model_description(model, (labels or {}).get(role)) for role, model in models.items()}
    resolved = {
        "identity": identity,
        "config": resolved_config,
        "ctsbench_version": __version__,
        "dataset_revision": components.dataset_revision(config),
        "instances": instances,
        "models": described,
        "searcher": identity["searcher"],
        "judge": identity["judge"],
        "prompts": prompt_ids,
        "invocations": previous.get("invocations", 0) + 1,
    }
    write_json(path, resolved)  # the only copy of the identity: a temporary file renamed into place


def model_description(model: Any, label: str | None = None) -> dict[str, Any]:
    """How ``config.json`` names a role's model: its spec (or ``label``), its resolved spec if loaded
    from one, else the class of an object passed in code."""
    spec = label or getattr(model, "spec", str(model))
    resolved = getattr(model, "model_spec", None)
    description: dict[str, Any] = {"spec": spec}
    if resolved is None and not hasattr(model, "complete"):
        description["object"] = f"{type(model).__module__}.{type(model).__qualname__}"
    if resolved is not None and hasattr(resolved, "to_dict"):
        description["resolved"] = resolved.to_dict()
    return description
