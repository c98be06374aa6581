"""Tests run offline, against a temporary HF_HOME, whatever the machine has cached."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
# Run overrides for the free-form answerer (v2, guarded by `replace`): every question reaches the answer
# model, where a choosing answerer would settle year and place questions by its rules.
FREE_FORM_ANSWERER = {"answer_mode": "replace", "prompts": {"user_answerer": "v2"}}
_HF_HOME = tempfile.mkdtemp(prefix="ctsbench-test-hf-")
# Indexes, the converted default model and response caches go here, never to the user's cache; the
# default model is converted once per test session and shared by the tests (and their subprocesses).
_CACHE = tempfile.mkdtemp(prefix="ctsbench-test-cache-")
OFFLINE_ENV = {"HF_HUB_OFFLINE": "1", "HF_DATASETS_OFFLINE": "1", "HF_EVALUATE_OFFLINE": "1", "HF_HOME": _HF_HOME,
               "CTSBENCH_CACHE_DIR": _CACHE}


def pytest_configure(config: pytest.Config) -> None:
    # Set before any test imports datasets/evaluate, which read these at import time.
    os.environ.update(OFFLINE_ENV)
    os.environ.pop("HF_DATASETS_CACHE", None)
    os.environ.pop("HF_MODULES_CACHE", None)


def pytest_unconfigure(config: pytest.Config) -> None:
    # The session's HF_HOME and cache hold a converted model (~0.5 GB): leave nothing behind.
    for folder in (_HF_HOME, _CACHE):
        shutil.rmtree(folder, ignore_errors=True)


@pytest.fixture(scope="module")
def packaged_model(tmp_path_factory: pytest.TempPathFactory):
    """The packaged default model on llama.cpp, one thread (a test module's own cache), or a failure that
    says how to install it."""
    from cts_dataset.models.registry import load_model

    try:
        return load_model("default", cache=tmp_path_factory.mktemp("cache") / "c.sqlite", engine_args={"n_threads": 1})
    except (FileNotFoundError, ImportError) as error:
        pytest.fail(f"the default model is missing: run `ctsbench models install-default` ({error})")


@pytest.fixture
def fresh_hf_env(tmp_path: Path) -> dict[str, str]:
    """Environment for a subprocess with its own empty HF_HOME and the offline switches on."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("HF_")}
    env.update(OFFLINE_ENV)
    env["HF_HOME"] = str(tmp_path / "hf_home")
    return env


def run_cli(*args: str, env: dict[str, str] | None = None, cwd: Path | None = None) -> subprocess.CompletedProcess:
    """The real `ctsbench` console entry point, in a subprocess."""
    return subprocess.run(
        [sys.executable, "-m", "cts_dataset.cli", *args],
        env=env or dict(os.environ), cwd=cwd or REPO, capture_output=True, text=True, timeout=600,
    )
