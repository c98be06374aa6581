"""The llamacpp backend for real: llama.cpp (xllamacpp) on the packaged SmolLM2-135M GGUF, and the default 1.5B."""

from __future__ import annotations

import json
import os
from dataclasses import replace
from pathlib import Path

import jsonschema
import pytest
import xllamacpp  # noqa: F401  (the dev extra installs it: a broken install must fail, not skip)

from cts_dataset.models.base import ChatRequest, Sampling, StructuredOutput
from cts_dataset.models.default_model import DEFAULT_LABEL, SMOLLM2, gguf_path
from cts_dataset.models.llamacpp_backend import LlamaCppModel
from cts_dataset.models.registry import files_hash, load_model, model_fingerprint, resolve_spec
from tests.tiny_models import CHATML

SCHEMA = {"type": "object", "properties": {"answer": {"enum": ["yes", "no", "unknown"]}, "sure": {"type": "boolean"}},
          "required": ["answer", "sure"], "additionalProperties": False}
# 2048 tokens a slot; one thread: llama.cpp busy-waits, and two threads stall when anything else runs.
ENGINE = {"n_ctx": 8192, "n_parallel": 4, "n_threads": 1}
TOPICS = ["France", "the Moon", "photosynthesis", "the Nile", "Mozart", "volcanoes"]


@pytest.fixture(scope="module")
def smol():
    return load_model(f"llamacpp:{gguf_path()}", cache=False, engine_args=ENGINE)


def ask(text: str, max_tokens: int = 24, **kwargs) -> ChatRequest:
    kwargs.setdefault("sampling", Sampling(max_tokens=max_tokens))
    return ChatRequest.of([{"role": "user", "content": text}], **kwargs)


def test_a_batch_comes_back_in_order_and_greedy_is_deterministic(smol):
    # Prompts of growing length: each response's prompt count shows which request it answers.
    requests = [ask(f"Tell me one fact about {t}." + " Please." * i) for i, t in enumerate(TOPICS)]
    batched = smol.complete(requests)
    counts = [smol.backend.count_tokens(r.messages) for r in requests]
    assert [r.usage.prompt_tokens for r in batched] == counts and counts == sorted(set(counts))
    assert all(r.text and not r.failed and r.model == smol.spec and r.latency_s > 0 for r in batched)
    assert all(0 < r.usage.completion_tokens <= 24 and r.finish_reason in ("stop", "length") for r in batched)
    assert [r.raw for r in smol.complete(requests)] == [r.raw for r in batched]
    assert [smol.complete([r])[0].raw for r in requests[:2]] == [r.raw for r in batched[:2]]
    assert smol.backend.max_model_len == ENGINE["n_ctx"] // ENGINE["n_parallel"]


def test_the_reproducible_engine_reads_a_shared_prompt_once_whatever_its_slot_count(smol):
    # Served one at a time, a role's requests must reuse its instructions: with 4 slots the second request
    # went to an empty slot and read the whole prompt again. Now each request starts from its prefix (the
    # instructions), read whole once and its last token reread; later requests restore that saved state.
    system = "You answer in one short sentence. " + " ".join(f"Rule {i}: be brief and exact." for i in range(10))
    first, second = ([{"role": "system", "content": system}, {"role": "user", "content": f"One fact about {t}?"}]
                     for t in ("Mars", "tea"))
    shared = smol.backend.count_tokens(system)
    prefix = smol.backend._prefix_tokens({"messages": first})
    before = smol.backend.prefix_tokens_read
    responses = [smol.complete([ChatRequest.of(m, sampling=Sampling(max_tokens=4))])[0] for m in (first, second)]
    assert smol.backend.deterministic and not any(r.failed for r in responses)
    assert shared < len(prefix) and all(r.usage.cached_tokens == len(prefix) for r in responses)
    assert smol.backend.prefix_tokens_read - before == len(prefix) + 1


def test_each_role_prefix_is_read_once_while_roles_take_turns_and_the_saved_states_go_with_the_engine():
    # The pipeline sends one role's requests, then another's: each change of role read the new role's
    # prefix whole again (measured: 1,666 of the main job's prompt tokens). Saved states end that.
    engine = LlamaCppModel(gguf_path(), **ENGINE)
    try:
        roles = [f"You are role {name}. " + " ".join(f"Rule {i}: {name} answers briefly." for i in range(12))
                 for name in ("one", "two")]
        bodies = [{"messages": [{"role": "system", "content": system}, {"role": "user", "content": f"Say {word}."}],
                   "max_tokens": 2, "temperature": 0.0} for system in roles for word in ("yes", "no")]
        prefixes = [len(engine._prefix_tokens(body)) for body in bodies[::2]]
        folder = Path(engine._saved.folder)
        for _ in range(3):
            for body in bodies:
                engine.chat(body)
        assert engine.prefix_tokens_read == sum(prefixes) + len(prefixes)  # each read whole, last token reread, once
        assert len(list(folder.iterdir())) == len(prefixes)
    finally:
        engine.close()
    assert not folder.exists()


def test_a_killed_engines_saved_prefixes_are_removed_and_a_live_ones_are_kept(tmp_path):
    import subprocess
    import sys

    from cts_dataset.models import llamacpp_saved_prefixes as saved

    ended = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], check=True,
                           capture_output=True, text=True).stdout.strip()
    host = saved._owner().split(".", 1)[1]
    killed, live, mine, other_host = (tmp_path / f"{saved.FOLDER_PREFIX}{owner}-x" for owner in (
        f"{ended}.{host}", f"{os.getppid()}.{host}", saved._owner(), f"{ended}.0000beef"))
    for folder in (killed, live, mine, other_host):
        folder.mkdir()
        (folder / "state.bin").write_bytes(b"kv")
    saved.remove_folders_of_ended_processes(str(tmp_path))
    assert not killed.exists() and live.exists() and mine.exists() and other_host.exists()


def test_a_prefix_whose_saved_state_is_lost_is_read_again_with_the_same_bytes():
    engine = LlamaCppModel(gguf_path(), **ENGINE)
    bodies = [{"messages": [{"role": "system", "content": f"You are the {name}. Answer in a few words."},
                            {"role": "user", "content": "Name a large river."}],
               "max_tokens": 8, "temperature": 0.0, "logprobs": True, "top_logprobs": 1} for name in ("guide", "poet")]

    def answer(body: dict) -> tuple[str, list[float]]:
        choice = engine.chat(body)["choices"][0]
        return choice["message"]["content"], [t["logprob"] for t in choice["logprobs"]["content"]]

    try:
        first = [answer(body) for body in bodies]
        read, guide = engine.prefix_tokens_read, engine._saved.name_of(engine._prefix_tokens(bodies[0]))
        Path(engine._saved.folder, guide).write_bytes(b"not a slot state")  # the restore fails
        assert answer(bodies[0]) == first[0] and engine.prefix_tokens_read > read  # read again, same bytes
        read = engine.prefix_tokens_read
        assert [answer(body) for body in bodies] == first and engine.prefix_tokens_read == read  # saved anew
    finally:
        engine.close()


def test_the_reproducible_engine_gives_a_request_the_same_bytes_whatever_came_before(smol):
    # What came before decides how much of a prompt llama.cpp could reuse, and so where its prompt chunks
    # fall: chunks of other sizes sum otherwise (measured), so each request must be read the same way.
    system = "You are a careful assistant. " + " ".join(f"Note {i}: answer with facts only." for i in range(8))
    # Long enough that the part after the prefix is read in more than one 512-token chunk.
    question = " ".join(f"River {i} is long." for i in range(150)) + " Which river is the longest?"

    def chat(user: str, seed: int | None = None, system_text: str = system, **extra) -> tuple[str, list[float]]:
        body = {"messages": [{"role": "system", "content": system_text}, {"role": "user", "content": user}],
                "max_tokens": 24, "temperature": 0.0 if seed is None else 1.0, "top_k": 0, "min_p": 0.0,
                "logprobs": True, "top_logprobs": 1, **({"seed": seed} if seed is not None else {}), **extra}
        choice = smol.backend.chat(body)["choices"][0]
        return choice["message"]["content"], [t["logprob"] for t in choice["logprobs"]["content"]]

    first = chat(question)
    assert smol.backend.count_tokens([{"role": "user", "content": question}]) > 600
    schema = {"type": "object", "properties": {"river": {"type": "string"}}, "required": ["river"]}
    before = {
        "the same prompt, sampled": lambda: chat(question, seed=7),
        "a prompt sharing half of the question": lambda: chat(question[:900] + " Which is the shortest?"),
        "the question with more after it": lambda: chat(question + " Then name two lakes."),
        "a structured request of the same role": lambda: chat("Name a river.", response_format={
            "type": "json_schema", "json_schema": {"name": "output", "schema": schema}}),
        "a request too long for the context": lambda: pytest.raises(RuntimeError, chat, "word " * 3000),
        "another role's prompt": lambda: chat("Say hello.", system_text="You greet people."),
    }
    for name, other in before.items():
        other()
        assert chat(question) == first, f"after {name}"


def test_structured_output_json_schema_and_choice_are_obeyed(smol):
    responses = smol.complete([
        ask("Is Paris in France? Reply in JSON.", max_tokens=64, structured=StructuredOutput(json_schema=SCHEMA)),
        ask("Is the sky green?", max_tokens=8, structured=StructuredOutput(choice=("yes", "no", "unknown"))),
        ask("天空是绿色的吗？", max_tokens=8, structured=StructuredOutput(choice=("是", "否", "不知道"))),
        ask("Say anything.", max_tokens=8),
    ])
    jsonschema.validate(json.loads(responses[0].text), SCHEMA)
    assert responses[1].text in ("yes", "no", "unknown") and responses[2].text in ("是", "否", "不知道")
    assert not responses[3].failed


def test_sampling_seeds_stops_and_template_kwargs(smol):
    sampling = Sampling(temperature=1.0, max_tokens=24, seed=3)
    first, again, other = smol.complete([ask("Tell me a story.", sampling=sampling) for _ in range(2)]
                                        + [ask("Tell me a story.", sampling=sampling, sample_index=1)])
    assert first.raw == again.raw and first.raw != other.raw
    words = first.raw.split()
    stop = words[len(words) // 2]
    [cut] = smol.complete([ask("Tell me a story.", sampling=replace(sampling, stop=(stop,)))])
    assert cut.raw.rstrip() == first.raw[:first.raw.index(stop)].rstrip() and cut.finish_reason == "stop"
    # chat_template_kwargs reach the template (one that prints a variable when given it).
    templated = LlamaCppModel(gguf_path(), n_ctx=1024, n_parallel=2, n_threads=1,
                              chat_template=CHATML + "{% if hint is defined %}{{ hint }}{% endif %}")
    try:
        plain, hinted = templated.complete([ask("hi", max_tokens=4),
                                            ask("hi", max_tokens=4, chat_template_kwargs={"hint": "Answer briefly. " * 4})])
        assert hinted.usage.prompt_tokens > plain.usage.prompt_tokens
        assert hinted.usage.prompt_tokens == templated.count_tokens([{"role": "user", "content": "hi"}],
                                                                    {"hint": "Answer briefly. " * 4})
    finally:
        templated.close()


def test_a_bad_request_fails_alone_and_the_batch_is_kept(smol):
    responses = smol.complete([
        ask("Name a fruit."),
        ask("word " * 3000),  # longer than a slot's context
        ask("Name a colour.", structured=StructuredOutput(json_schema={"type": "bogus"})),
        ask("Name an animal."),
    ])
    assert [r.failed for r in responses] == [False, True, True, False]
    assert "context" in responses[1].error and "bogus" in responses[2].error
    assert responses[1].finish_reason == "error" and responses[1].model == smol.spec
    assert responses[0].text and responses[3].text


def test_load_model_goes_through_cache_and_trace(smol, tmp_path):
    model = load_model(f"llamacpp:{gguf_path()}", cache=tmp_path / "cache.sqlite", trace=tmp_path / "trace.jsonl",
                       engine_args=ENGINE)
    assert model.backend is smol.backend, "one engine per spec in a process"
    requests = [ask("Name a fruit."), ask("Name a colour.")]
    sent = model.backend.requests_sent
    first = model.complete(requests)
    assert model.backend.requests_sent == sent + 2 and not any(r.cached for r in first)
    again = model.complete(requests)
    assert model.backend.requests_sent == sent + 2, "a rerun of the same batch must make no engine call"
    assert all(r.cached for r in again) and [r.text for r in again] == [r.text for r in first]
    assert (model.stats.hits, model.stats.misses) == (2, 2)
    lines = [json.loads(line) for line in (tmp_path / "trace.jsonl").open()]
    assert len(lines) == 4 and all(line["model"] == f"llamacpp:{gguf_path()}" for line in lines)
    # The GGUF's contents fingerprint the cached answers; a packaged name is fingerprinted by its SHA-256.
    assert model.identity["files"] == files_hash(gguf_path())
    assert model_fingerprint(resolve_spec("smollm2-135m")) == resolve_spec("smollm2-135m").revision
    assert resolve_spec("smollm2-135m").label == f"llamacpp:{SMOLLM2}"


@pytest.mark.slow
def test_the_packaged_default_model_loads_and_answers(tmp_path):
    # In a test session the cache folder is fresh: the 22 installed parts are joined and verified here (~5 s).
    try:
        model = load_model("default", cache=tmp_path / "cache.sqlite", engine_args={"n_threads": 1})
    except (FileNotFoundError, ImportError) as error:
        pytest.fail(f"the default model is missing: run `ctsbench models install-default` ({error})")
    assert model.spec == DEFAULT_LABEL == "llamacpp:qwen2.5-coder-1.5b-instruct-q4_k_m"
    same = load_model("qwen2.5-coder-1.5b", cache=False, engine_args={"n_ctx": 16384, "n_parallel": 4, "n_threads": 1})
    assert same.backend is model.backend, "one copy in memory"
    capital, choice = model.complete([
        ask("What is the capital of France? Answer with one word.", max_tokens=8),
        ask("Is Paris in France?", structured=StructuredOutput(choice=("yes", "no", "unknown")))])
    assert "Paris" in capital.text and capital.model == DEFAULT_LABEL
    assert choice.text == "yes"


@pytest.mark.parametrize("n_ctx, n_parallel", [(4096, 0), (2, 4)])
def test_a_slot_count_or_context_that_leaves_no_room_is_refused_before_loading(n_ctx, n_parallel):
    with pytest.raises(ValueError, match="need n_parallel >= 1 and n_ctx >= n_parallel"):
        LlamaCppModel(gguf_path(), n_ctx=n_ctx, n_parallel=n_parallel)
