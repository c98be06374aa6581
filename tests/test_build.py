"""`ctsbench build`: blurring, one search per intent, nugget extraction and the checks, with a scripted model."""

from __future__ import annotations

import json
import re

import pytest
from click.testing import CliRunner

from cts_dataset.build.blur import blur_all, blur_problems, delete_values, deleted_spans, judge_reply
from cts_dataset.build.builder import BuildSettings, Intent, build, read_intents
from cts_dataset.build.nuggets import extract_all, nugget_problems, nugget_schema
from cts_dataset.cli import main
from cts_dataset.jsonl import RecordFileError
from cts_dataset.models.base import ChatResponse
from cts_dataset.models.scripted import ScriptedModel
from cts_dataset.records import Constraint, Document, Nugget
from cts_dataset.search import load_searcher

C = Constraint
EARTHQUAKE = "How many people died in the 1976 Tangshan earthquake?"
DOC = Document(id="Yangtze", title="Yangtze", description="", topic="",
               text="The Yangtze is the longest river in Asia. It is 6,300 km long.")


def blur_reply(blurred: str, *constraints: tuple[str, str]) -> str:
    return json.dumps({"blurred_query": blurred, "removed_constraints": [{"type": t, "value": v} for t, v in constraints]})


# -- blurring ----------------------------------------------------------------------------------------
def test_the_blur_check_is_the_papers_rule():
    assert blur_problems(EARTHQUAKE, "How many people died in the earthquake?",
                         [C(type="time", value="1976"), C(type="region", value="Tangshan")]) == []
    problems = blur_problems(EARTHQUAKE, "How many people died in the 1976 earthquake?",
                             [C(type="time", value="1976"), C(type="region", value="Hebei")])
    assert problems == ["removed value '1976' still occurs in the blurred query",
                        "removed value 'Hebei' does not occur in the intent query"]
    assert blur_problems(EARTHQUAKE, EARTHQUAKE.upper(), []) == ["the blurred query is the intent query unchanged",
                                                                "no removed constraint"]
    sushi = "What is the main ingredient of the Japanese dish sushi?"
    assert blur_problems(sushi, "What is the main ingredient of sushi? (Several different answers would fit.)",
                         [C(type="entity", value="Japanese dish")]) == [
        "the blurred query adds words the intent query does not have: answer, differ, fit, sever, would"]
    guitar = "How many strings does a guitar have, and what are they made of?"
    assert blur_problems(guitar, "How many strings does a guitar have?", [C(type="other", value="what are they made of")]) \
        == ["removed value 'what are they made of' is a question of its own, not a constraint"]


def test_values_are_deleted_with_the_words_they_leave_dangling():
    assert delete_values("How many people died in the earthquake in Tangshan in 1976?", ["Tangshan", "1976"], "en") == \
        "How many people died in the earthquake?"
    assert delete_values("Who painted the Mona Lisa in the early 16th century?", ["early 16th century"], "en") == \
        "Who painted the Mona Lisa?"
    assert delete_values("白鹭湖国家公园在2019年接待了多少游客？", ["2019年", "国家"], "zh") == "白鹭湖公园接待了多少游客？"
    assert deleted_spans("白鹭湖国家公园在2019年接待了多少游客？", "白鹭湖公园接待了多少游客？", "zh") == ["国家", "在2019年"]
    assert deleted_spans(EARTHQUAKE, "How many people died in the big earthquake?", "en") is None  # an insertion


def test_a_reply_passes_is_repaired_by_deletion_or_fails():
    good = judge_reply(EARTHQUAKE, "en", ChatResponse(blur_reply("How many people died in the earthquake?",
                                                                 ("time", "1976"), ("region", "Tangshan"))))[0]
    assert good.method == "llm" and [c.type.value for c in good.constraints] == ["time", "region"]
    leaky, record = judge_reply(EARTHQUAKE, "en", ChatResponse(blur_reply(EARTHQUAKE, ("time", "1976"))))
    assert leaky.method == "deletion" and leaky.blurred_query == "How many people died in the Tangshan earthquake?"
    assert record["problems"] and record["repaired"] == {"method": "deletion", "blurred_query": leaky.blurred_query}
    marie = "Why did Marie Curie receive the Nobel Prize in Chemistry in 1911?"
    misnamed, record = judge_reply(marie, "en", ChatResponse(blur_reply(
        "Why did Marie Curie receive the Nobel Prize in Chemistry?", ("entity", "Marie Curie"))))
    assert misnamed.method == "diff" and [(c.type.value, c.value) for c in misnamed.constraints] == [("time", "1911")]
    eiffel = "When was the Eiffel Tower in Paris completed?"
    unreadable, record = judge_reply(eiffel, "en", ChatResponse(blur_reply(eiffel, ("time", "Eiffel Tower"))))
    assert unreadable is None and "repaired" not in record  # "When was the in Paris completed?" is no query
    head, record = judge_reply(eiffel, "en", ChatResponse(blur_reply(eiffel, ("entity", "Eiffel Tower in Paris"))))
    assert head is None and "repaired" not in record  # an entity is not deleted: it would leave "When was the"
    invented, record = judge_reply(EARTHQUAKE, "en", ChatResponse(blur_reply("How many died in the quake?",
                                                                             ("region", "Hebei"))))
    assert invented is None and "does not occur in the intent query" in record["problems"][0]
    assert judge_reply(EARTHQUAKE, "en", ChatResponse("no json"))[0] is None
    assert judge_reply(EARTHQUAKE, "en", ChatResponse.failure("timeout"))[1]["problems"] == ["request failed: timeout"]


def test_a_failed_blur_is_asked_again_with_its_problems():
    model = ScriptedModel({"build_blur": [blur_reply("x", ("region", "Hebei")),
                                          blur_reply("How many people died in the earthquake?", ("time", "1976"),
                                                     ("region", "Tangshan"))]})
    [result] = blur_all(model, [(EARTHQUAKE, "en")], attempts=3)
    assert result.method == "llm" and len(result.attempts) == 2 and model.batches == [1, 1]
    assert "'Hebei' does not occur in the intent query" in model.calls[1].messages[1].content
    assert model.calls[0].structured is not None and model.calls[1].sampling.temperature > 0
    assert [(c.sample_index, c.sampling.seed) for c in model.calls] == [(0, 0), (1, 1)]  # a retry samples anew
    [failed] = blur_all(ScriptedModel(default=blur_reply("x", ("region", "Hebei"))), [(EARTHQUAKE, "en")], attempts=2)
    assert not failed.ok and len(failed.attempts) == 2


def test_chinese_intents_get_the_chinese_prompt():
    model = ScriptedModel(default=blur_reply("青松市的常住人口是多少？", ("time", "2021年")))
    [result] = blur_all(model, [("2021年青松市的常住人口是多少？", "zh")])
    assert result.method == "llm" and "意图查询（信息完整）" in model.calls[0].messages[1].content


# -- nuggets -----------------------------------------------------------------------------------------
def test_nuggets_must_be_atomic_cited_and_grounded():
    evidence = {"Yangtze": DOC}
    assert nugget_problems(Nugget(text="The Yangtze is 6,300 km long.", weight=3, sources=["Yangtze"]), "en", evidence) == []
    two = nugget_problems(Nugget(text="The Yangtze is long. It is in Asia.", weight=1, sources=["Yangtze"]), "en", evidence)
    assert two == ["not atomic: more than one sentence"]
    long = " ".join(["river"] * 31)
    assert nugget_problems(Nugget(text=long, weight=1, sources=["Yangtze"]), "en", evidence)[0].startswith("not atomic: 31")
    assert "not among the evidence" in nugget_problems(Nugget(text="x", weight=1, sources=["Nile"]), "en", evidence)[0]
    ungrounded = nugget_problems(Nugget(text="The Nile flows through Egypt.", weight=1, sources=["Yangtze"]), "en", evidence)
    assert ungrounded[0].startswith("not grounded: only 0%")
    schema = nugget_schema(["Yangtze", "Nile"], 4)
    assert schema["properties"]["nuggets"]["items"]["properties"]["sources"]["items"]["enum"] == ["Yangtze", "Nile"]


def test_extraction_drops_bad_nuggets_and_retries_when_too_few_are_left():
    first = json.dumps({"nuggets": [{"text": "The Yangtze is 6,300 km long.", "weight": 3, "sources": ["Yangtze"]},
                                    {"text": "The Yangtze is 6,300 km long!", "weight": 2, "sources": ["Yangtze"]}]})
    second = json.dumps({"nuggets": [{"text": "The Yangtze is 6,300 km long.", "weight": 3, "sources": ["Yangtze"]},
                                     {"text": "The Yangtze is the longest river in Asia.", "weight": 2,
                                      "sources": ["Yangtze"]}]})
    model = ScriptedModel({"build_nuggets": [first, second]})
    [result] = extract_all(model, [("How long is the Yangtze?", "en", [DOC])], min_nuggets=2)
    assert [n.text for n in result.nuggets] == ["The Yangtze is 6,300 km long.", "The Yangtze is the longest river in Asia."]
    assert result.attempts[0]["dropped"] == [{"text": "The Yangtze is 6,300 km long!", "problems": ["repeats another nugget"]}]
    assert "[Yangtze] Yangtze\nThe Yangtze is the longest" in model.calls[0].messages[1].content
    assert "repeats another nugget" in model.calls[1].messages[1].content


def test_intents_come_from_text_or_jsonl(tmp_path):
    text = tmp_path / "intents.txt"
    text.write_text("# my intents\nHow long is the Yangtze?\n\n2021年青松市的常住人口是多少？\n")
    assert read_intents(text) == [Intent("built-0001", "How long is the Yangtze?", "en"),
                                  Intent("built-0002", "2021年青松市的常住人口是多少？", "zh")]
    lines = tmp_path / "intents.jsonl"
    lines.write_text('{"id": "x-1", "query": "Q?"}\n{"fused_query": "R?", "language": "zh"}\n{"id": "x-1", "query": "S"}\n'
                     '{"nope": 1}\n')
    with pytest.raises(RecordFileError) as error:
        read_intents(lines)
    assert [(p.line, p.field) for p in error.value.problems] == [(3, "id"), (4, "query")]


# -- the whole build over the shipped corpus -----------------------------------------------------------
INTENTS = [  # blurs as in the demo split, which the data checks accept
    ("war", "Who led the two sides in the Nigerian civil war that began in 1967?",
     ("Who led the two sides in the civil war?", [("region", "Nigerian"), ("time", "that began in 1967")])),
    ("extinction", "What does extinction mean in astronomy?", ("What does extinction mean?", [("definition", "in astronomy")])),
    ("bad", "What is the boiling point of mercury?", ("What is the boiling point of the metal?", [("entity", "lead")])),
]


def scripted_builder() -> ScriptedModel:
    blurs = {fused: blur_reply(blurred, *constraints) for _, fused, (blurred, constraints) in INTENTS}

    def blur(request) -> str:
        fused = re.search(r": (.*)\n", request.messages[1].content).group(1)
        return blurs[fused]

    def nuggets(request) -> str:
        """Two facts copied from the first evidence document: grounded by construction."""
        text = request.messages[1].content
        doc_id, body = re.search(r"\n\[([^\]]+)\] [^\n]*\n(.*?)\n\n(?:\[|List)", text, re.DOTALL).groups()
        sentences = [s.strip() for s in re.split(r"(?<=[.])\s+", body) if 6 <= len(s.split()) <= 30][:2]
        return json.dumps({"nuggets": [{"text": s, "weight": 3 - i, "sources": [doc_id]} for i, s in enumerate(sentences)]})

    return ScriptedModel({}, default=lambda r: blur(r) if r.role == "build_blur" else nuggets(r))


@pytest.mark.slow
def test_build_writes_instances_that_pass_validate_and_check_data(tmp_path):
    model = scripted_builder()
    searcher = load_searcher("retrieval")
    intents = [Intent(i, fused, "en") for i, fused, _ in INTENTS]
    summary = build(intents, model, searcher, tmp_path, BuildSettings(), log=lambda m: None)
    assert summary["intents"] == 3 and set(summary["rejected"]) == {"bad"}
    assert "blurring failed" in summary["rejected"]["bad"][0]
    kept = [json.loads(line) for line in (tmp_path / "instances.jsonl").read_text().splitlines()]
    assert [k["id"] for k in kept] == ["war", "extinction"]
    assert kept[0]["removed_constraints"] == [{"type": "region", "value": "Nigerian"},
                                              {"type": "time", "value": "that began in 1967"}]
    assert all(n["sources"] == ["Nigerian_Civil_War"] for n in kept[0]["nuggets"]) and len(kept[0]["nuggets"]) == 2
    traces = [json.loads(line) for line in (tmp_path / "traces.jsonl").read_text().splitlines()]
    assert [t["id"] for t in traces] == ["war", "extinction", "bad"] and traces[0]["status"] == "kept"
    assert traces[0]["search"]["query"] == INTENTS[0][1] and traces[0]["search"]["trace"]
    assert traces[0]["evidence"][0] == "Nigerian_Civil_War"
    assert traces[2]["status"] == "rejected" and len(traces[2]["blur"]["attempts"]) == 3 and traces[2]["search"] is None
    assert summary["checks"] == "check-data (corpus)" and (tmp_path / "report.md").exists()
    runner = CliRunner()
    validated = runner.invoke(main, ["validate", str(tmp_path / "instances.jsonl")])
    assert validated.exit_code == 0, validated.output
    checked = runner.invoke(main, ["check-data", str(tmp_path / "instances.jsonl")])
    assert checked.exit_code == 0, checked.output


def test_the_build_command_reports_and_refuses_bad_input(tmp_path, monkeypatch):
    from cts_dataset.models import registry

    monkeypatch.setattr(registry, "load_model", lambda spec, **kw: scripted_builder())
    intents = tmp_path / "intents.jsonl"
    intents.write_text("".join(json.dumps({"id": i, "query": fused}) + "\n" for i, fused, _ in INTENTS[2:]))
    result = CliRunner().invoke(main, ["build", str(intents), "--out-dir", str(tmp_path / "out"),
                                       "--searcher", "retrieval"])
    assert result.exit_code == 1 and "rejected bad: blurring failed" in result.output
    assert "kept 0 of 1 intent(s)" in result.output
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"nope": 1}\n')
    refused = CliRunner().invoke(main, ["build", str(bad), "--out-dir", str(tmp_path / "o2")])
    assert refused.exit_code == 1 and "bad.jsonl:1: query" in refused.output
