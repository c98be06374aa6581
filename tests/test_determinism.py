"""The fixed roles give the same records whatever else runs beside them: the real pipeline on llama.cpp
(SmolLM2-135M playing every role, no response cache), four instances run alone and inside a larger run,
configured with 1 and 4 slots and in two orders. (The reproducible engine serves from one slot whatever
n_parallel says; the concurrent engine, 4 slots decoding together, is what it is compared against.)"""

from __future__ import annotations

import json
from pathlib import Path

from cts_dataset.models.backends import release_backends
from cts_dataset.models.default_model import gguf_path
from cts_dataset.models.registry import load_model
from cts_dataset.pipeline.config import load_config
from cts_dataset.pipeline.experiment import Experiment

# Four watched instances, and others that only share the run with them (the demo split is English).
WATCHED = ["demo-0001", "demo-0004", "demo-0102", "demo-0147"]
OTHERS = ["demo-0002", "demo-0005", "demo-0009", "demo-0103", "demo-0110", "demo-0015"]
ENGINES = {1: {"n_ctx": 4096, "n_parallel": 1, "n_threads": 1}, 4: {"n_ctx": 16384, "n_parallel": 4, "n_threads": 1}}
TEXT_FIELDS = {"clarify": ("question", "raw"), "answer": ("answer", "raw"), "rewrite": ("rewrite", "raw"),
               "search": ("answer", "retrieved_doc_ids"), "judge": ("labels",)}


def run(folder: Path, ids: list[str], slots: int, deterministic: bool = True) -> dict[str, str]:
    """The watched instances' stage records (their text fields) after a cache-less run of ``ids``."""
    model = load_model(f"llamacpp:{gguf_path()}", cache=False,
                       engine_args={**ENGINES[slots], "deterministic": deterministic})
    assert model.determinism["batch_invariant"] is deterministic
    try:
        config = load_config(preset="cpu-smoke", out_dir=folder, ids=ids, budgets=[1, 2, 3])
        Experiment(config, models={"clarifier": model, "user_answerer": model, "rewriter": model},
                   progress=False).run()
    finally:
        release_backends()  # each run starts a fresh engine: nothing carries over but the weights
    texts = {}
    for stage, fields in TEXT_FIELDS.items():
        for line in (folder / f"{stage}.jsonl").read_text(encoding="utf-8").splitlines():
            record = json.loads(line)
            if record["instance"] in WATCHED:
                key = "|".join(str(record.get(k)) for k in ("instance", "condition", "budget", "turn", "repeat"))
                texts[f"{stage}|{key}"] = json.dumps([record.get(f) for f in fields], ensure_ascii=False)
    return texts


def differing(a: dict[str, str], b: dict[str, str]) -> list[str]:
    assert a.keys() == b.keys()
    return [key for key in a if a[key] != b[key]]


def test_the_fixed_roles_give_the_same_records_alone_in_a_larger_run_with_1_or_4_slots_in_any_order(tmp_path):
    alone = run(tmp_path / "alone", WATCHED, slots=1)
    assert sum(key.startswith("clarify|") for key in alone) == 12  # 4 instances x 3 turns were asked
    recorded = json.loads((tmp_path / "alone" / "config.json").read_text())["identity"]["roles"]
    assert recorded["user_answerer"]["determinism"]["batch_invariant"] is True
    mixed = [OTHERS[0], WATCHED[2], *OTHERS[1:3], WATCHED[0], OTHERS[3], WATCHED[3], *OTHERS[4:], WATCHED[1]]
    for name, ids, slots in (("larger, 4 slots", mixed, 4), ("larger, reversed, 4 slots", mixed[::-1], 4)):
        assert differing(alone, run(tmp_path / name.replace(", ", "-"), ids, slots)) == [], name


def test_the_run_identity_and_summary_say_whether_the_fixed_roles_are_reproducible():
    from cts_dataset.models.determinism import determinism_of
    from cts_dataset.models.scripted import ScriptedModel
    from cts_dataset.pipeline.summary import determinism_warnings

    class Batched:  # an engine that says nothing of itself, of a kind that batches
        spec = "vllm:some/model"

    assert determinism_of(ScriptedModel())["batch_invariant"] is True
    assert determinism_of(Batched(), "vllm")["batch_invariant"] is False
    concurrent = determinism_of(Batched(), "llamacpp", {"deterministic": False, "n_parallel": 4})
    assert concurrent["batch_invariant"] is False and "4 requests" in concurrent["how"]
    assert determinism_of(Batched(), "llamacpp", {})["batch_invariant"] is True
    identity = {"roles": {"user_answerer": {"determinism": concurrent},
                          "rewriter": {"determinism": determinism_of(Batched(), "llamacpp", {})}}}
    shown = determinism_warnings(identity)
    assert len(shown) == 1 and shown[0].startswith("not reproducible: the user_answerer's engine")


def test_answers_of_the_reproducible_and_the_concurrent_engine_are_cached_apart():
    from cts_dataset.models.base import ChatRequest
    from cts_dataset.models.cache import cache_key
    from cts_dataset.models.registry import identity_of, resolve_spec

    class Proxy:  # how a Ray actor's engine looks from the driver: a spec, no statement of its own
        spec = "llamacpp:qwen2.5-coder-1.5b-instruct-q4_k_m"

    request = ChatRequest.of([{"role": "user", "content": "Which year?"}])
    reproducible = identity_of(resolve_spec("qwen2.5-coder-1.5b"), Proxy(), files="f")
    spec = resolve_spec("qwen2.5-coder-1.5b")
    concurrent = identity_of(spec.replace(engine_args={**spec.engine_args, "deterministic": False}), Proxy(), files="f")
    earlier = identity_of(spec.replace(engine_args={**spec.engine_args, "prompt_reuse": "longest"}), Proxy(), files="f")
    assert "fixed prefix" in reproducible["engine_setting"] and "engine_setting" not in concurrent
    assert "one-token prompt chunks" in earlier["engine_setting"]
    # The earlier setting keeps the identity it had before prompt_reuse existed (its caches and folders).
    assert earlier["engine_args"] == reproducible["engine_args"] and "prompt_reuse" not in earlier["engine_args"]
    keys = {cache_key(identity, request) for identity in (reproducible, concurrent, earlier)}
    assert len(keys) == 3


def test_answers_of_a_llamacpp_build_with_other_cpu_kernels_are_cached_apart(monkeypatch):
    # A build compiled for other kernels (AVX-512, say) sums in another order: the same request can get other
    # bytes, so its answers must never be read as the prebuilt wheel's. The wheel's keep their keys.
    import xllamacpp

    from cts_dataset.models.base import ChatRequest
    from cts_dataset.models.cache import cache_key
    from cts_dataset.models.determinism import determinism_of
    from cts_dataset.models.llamacpp_backend import REFERENCE_KERNELS
    from cts_dataset.models.registry import identity_of, resolve_spec

    class Proxy:
        spec = "llamacpp:qwen2.5-coder-1.5b-instruct-q4_k_m"

    request, spec = ChatRequest.of([{"role": "user", "content": "Which year?"}]), resolve_spec("qwen2.5-coder-1.5b")
    wheel = "CPU : " + " | ".join(f"{kernel} = 1" for kernel in REFERENCE_KERNELS.split()) + " | "
    monkeypatch.setattr(xllamacpp, "get_system_info", lambda: wheel)
    reference, promise = identity_of(spec, Proxy(), files="f"), determinism_of(Proxy(), "llamacpp", {})
    # The wheel's engine setting and record are those of every run folder and cache made before.
    assert reference["engine_setting"] == ("one request at a time, flash attention, each prompt read from its "
                                           "fixed prefix in 512-token chunks, 2 threads")
    assert "cpu_kernels" not in promise
    native_build = "CUDA : ARCHS = 890 | USE_GRAPHS = 1 | " + wheel.replace("AVX2 = 1 |", "AVX2 = 1 | AVX512 = 1 |")
    monkeypatch.setattr(xllamacpp, "get_system_info", lambda: native_build)
    native, promise = identity_of(spec, Proxy(), files="f"), determinism_of(Proxy(), "llamacpp", {})
    kernels = "SSE3 SSSE3 AVX AVX2 AVX512 F16C FMA BMI2 LLAMAFILE OPENMP REPACK"
    assert native["engine_setting"] == f"{reference['engine_setting']}, CPU kernels {kernels}"
    assert promise["cpu_kernels"] == kernels and cache_key(reference, request) != cache_key(native, request)


def test_the_pinned_wheel_is_the_reference_build():
    import importlib.metadata

    from cts_dataset.models.llamacpp_backend import REFERENCE_KERNELS, cpu_kernels

    tags = importlib.metadata.distribution("xllamacpp").read_text("WHEEL") or ""
    if "manylinux" not in tags or "x86_64" not in tags:
        import pytest

        pytest.skip("the installed xllamacpp is not the prebuilt x86-64 wheel")
    assert cpu_kernels() == REFERENCE_KERNELS
