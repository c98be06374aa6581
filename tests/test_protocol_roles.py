import pytest

from cts_dataset.data import load
from cts_dataset.models.scripted import ScriptedModel
from cts_dataset.protocol import answerer, clarifier, rewriter
from cts_dataset.protocol.leakage import leaked_words
from cts_dataset.protocol.prompts import load_prompt
from cts_dataset.protocol.roles import RoleSettings
from cts_dataset.protocol.views import QA, AnswererView, ClarifierView, RewriterView

SETTINGS = RoleSettings()


@pytest.mark.parametrize("language", ["en", "zh"])
def test_prompts_render_with_every_placeholder_filled(language):
    view = ClarifierView("best universities", language, (QA("Which field?", "AI"),), turn=2, budget=3)
    messages = clarifier.clarifier_request(view, SETTINGS).message_dicts()
    assert "$" not in messages[0]["content"] + messages[1]["content"]
    assert "best universities" in messages[1]["content"] and "AI" in messages[1]["content"]
    assert "3" in messages[1]["content"]
    request = rewriter.rewriter_request(RewriterView("best universities", language, ()), SETTINGS)
    assert "$" not in request.messages[1].content


def test_prompt_with_a_missing_value_is_refused():
    prompt = load_prompt("rewriter", "v1", "en")
    with pytest.raises(ValueError, match="without a value"):
        prompt.render(blurred_query="x")
    with pytest.raises(ValueError, match="no placeholder"):
        prompt.render(blurred_query="x", pairs="", fused_query="leak")


def test_answers_are_normalised_and_checked_for_fidelity():
    model = ScriptedModel({"user_answerer": ['{"answer": "Unknown."}', '```json\n{"answer": "in 1976"}\n```',
                                             '{"answer": "Hebei, China"}', "Your information need: the 1976 earthquake"]})
    views = [AnswererView("the 1976 earthquake in Hebei", "en", q) for q in ("Which country?", "Which year?", "Where?", "When?")]
    unknown, year, place, echo = answerer.answer(model, views, SETTINGS)
    assert unknown.is_unknown and unknown.parsed
    assert year.text == "in 1976" and year.faithful
    assert place.parsed and place.unsupported == ("china",)
    assert not echo.parsed and echo.is_unknown, "a reply that is not the JSON is never forwarded"
    assert model.batches == [4]
    assert model.calls[0].structured.json_schema == answerer.ANSWER_SCHEMA


def test_clarifier_and_rewriter_parse_tolerantly():
    model = ScriptedModel({"clarifier": ["<think>time?</think>\nQuestion: Which year do you mean?\nThanks", "  "],
                           "rewriter": ['Rewritten query: "Tangshan earthquake 1976 deaths"', ""]})
    views = [ClarifierView("the earthquake", "en", (), 1)] * 2
    good, empty = clarifier.ask(model, views, SETTINGS, reask=False)
    assert good.text == "Which year do you mean?" and good.valid and not empty.valid
    rviews = [RewriterView("the earthquake", "en", (QA("Which year?", "1976"),))] * 2
    done, fallback = rewriter.rewrite(model, rviews, SETTINGS, guard=False)
    assert done.query == "Tangshan earthquake 1976 deaths" and not done.fallback
    assert fallback.query == "the earthquake" and fallback.fallback


def test_the_shipped_templates_add_no_intent_word_to_any_demo_instance():
    for instance in load():
        history = (QA("Which period do you mean?", "unknown"),)
        dialogue = [text for qa in history for text in (qa.question, qa.answer)]
        view = ClarifierView(instance.blurred_query, instance.language, history, turn=2)
        request = clarifier.clarifier_request(view, SETTINGS)
        prompt = load_prompt("clarifier", "v1", instance.language)
        assert leaked_words(request, instance.fused_query, instance.blurred_query, prompt=prompt,
                            dialogue=dialogue, protocol_values=["1", "2"]) == [], instance.id
        rview = RewriterView(instance.blurred_query, instance.language, history)
        request = rewriter.rewriter_request(rview, SETTINGS)
        prompt = load_prompt("rewriter", "v1", instance.language)
        assert leaked_words(request, instance.fused_query, instance.blurred_query, prompt=prompt,
                            dialogue=dialogue, protocol_values=["1"]) == [], instance.id


def test_the_audit_catches_a_leak():
    instance = load()[0]
    leaky = clarifier.clarifier_request(ClarifierView(instance.fused_query, "en", (), 1), SETTINGS)
    leaks = leaked_words(leaky, instance.fused_query, instance.blurred_query, prompt=load_prompt("clarifier", "v1", "en"))
    assert leaks, "a prompt holding the fused query must be reported"
