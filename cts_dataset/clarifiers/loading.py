"""``--clarifier`` resolves to a clarifier: a reference name, a Python import path, or a model spec."""

from __future__ import annotations

import hashlib
import importlib
import json
import sys
from pathlib import Path
from typing import Any

from cts_dataset.clarifiers.reference import reference_clarifier
from cts_dataset.errors import CtsbenchError


class ClarifierLoadError(CtsbenchError, ValueError):
    """A clarifier reference that cannot be resolved or imported."""


def import_path(ref: Any) -> tuple[str, str, dict[str, Any]] | None:
    """(module, attribute, options) when ``ref`` names Python code: ``module:object`` (a module that is
    not a model backend), or a mapping ``{import: "module:object", options: {...}}``."""
    from cts_dataset.models.spec import BACKENDS

    if isinstance(ref, dict) and "import" in ref:
        target, options = str(ref["import"]), dict(ref.get("options") or {})
    elif isinstance(ref, str) and ":" in ref and ref.partition(":")[0] not in (*BACKENDS, "template"):
        target, options = ref, {}
    else:
        return None
    module, sep, attribute = target.partition(":")
    if not sep or not module or not attribute:
        raise ClarifierLoadError(f"clarifier {target!r}: an import path is MODULE:OBJECT, e.g. my_clarifiers:Asker")
    return module, attribute, options


def import_reference(ref: Any) -> dict[str, Any] | None:
    """``{"import": "module:object", "options": {...}}`` when ``ref`` names Python code (None otherwise):
    what a run records of such a clarifier, since the options change its questions as much as the class."""
    path = import_path(ref)
    if path is None:
        return None
    module, attribute, options = path
    return {"import": f"{module}:{attribute}", "options": json.loads(json.dumps(options, sort_keys=True, default=str))}


def options_digest(options: dict[str, Any]) -> str:
    """A short hash of a clarifier's options: the default folder of each point of a sweep is its own."""
    text = json.dumps(options, sort_keys=True, ensure_ascii=False, default=str)
    return hashlib.sha256(text.encode()).hexdigest()[:8]


def load_object(module: str, attribute: str, options: dict[str, Any]) -> Any:
    """Import ``module`` (from the current directory too, as ``python -m`` would) and build the object:
    a class or factory is called with ``options``, anything else is used as it is."""
    if str(Path.cwd()) not in sys.path:
        sys.path.insert(0, str(Path.cwd()))
    try:
        found = importlib.import_module(module)
    except ImportError as error:
        raise ClarifierLoadError(f"clarifier {module}:{attribute}: cannot import {module!r}: {error}") from None
    target = found
    for part in attribute.split("."):
        if not hasattr(target, part):
            raise ClarifierLoadError(f"clarifier {module}:{attribute}: {module!r} has no {part!r}")
        target = getattr(target, part)
    if isinstance(target, type) or (callable(target) and not hasattr(target, "ask")):
        built = target(**options)  # a class or a factory
    elif options:
        raise ClarifierLoadError(f"clarifier {module}:{attribute}: options given, but it is an object, not a class")
    else:
        built = target
    if not callable(getattr(built, "ask", None)):
        raise ClarifierLoadError(f"clarifier {module}:{attribute}: the object has no ask(views) method")
    return built


def load_clarifier(ref: Any) -> Any | None:
    """The clarifier object ``ref`` denotes, or None when it is a model spec (built by the registry)."""
    if isinstance(ref, str):
        found = reference_clarifier(ref)
        if found is not None:
            return found
    path = import_path(ref)
    return load_object(*path) if path else None
