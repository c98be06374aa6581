from importlib import resources

import pytest

from cts_dataset.data import load
from cts_dataset.models.scripted import ScriptedModel
from cts_dataset.pipeline.config import load_config
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


PRESETS = sorted(p.name.removesuffix(".yaml") for p in resources.files("cts_dataset.pipeline").joinpath("presets")
                 .iterdir() if p.name.endswith(".yaml"))
# Words of the templates' own wording that some demo intent also holds and its blurred query lacks. None
# names an entity, a date or a number of an instance; any other intent word in a template fails the test.
GENERIC_TEMPLATE_WORDS = frozenset({"countri", "end", "name", "one", "state", "two", "whose", "write", "year"})


def template_leaks(versions: dict[str, str]) -> dict[str, list[str]]:
    """Per demo instance, the intent-only words that the clarifier and rewriter templates of ``versions``
    put into its requests. The template's wording is NOT allowed wholesale (that would hide the very words
    a template adds); the views come from the blurred query, so any such word comes from the template."""
    history = (QA("Which period do you mean?", "unknown"),)
    dialogue = [text for qa in history for text in (qa.question, qa.answer)]
    clarifier_settings = RoleSettings(prompt_version=versions["clarifier"])
    rewriter_settings = RoleSettings(prompt_version=versions["rewriter"])
    found = {}
    for instance in load():
        requests = [clarifier.clarifier_request(ClarifierView(instance.blurred_query, instance.language, history,
                                                              turn=2, budget=budget), clarifier_settings)
                    for budget in (None, 3)]
        requests.append(rewriter.rewriter_request(RewriterView(instance.blurred_query, instance.language, history),
                                                  rewriter_settings))
        words = {w for request in requests for w in leaked_words(request, instance.fused_query, instance.blurred_query,
                                                                 dialogue=dialogue, protocol_values=["1", "2", "3"])}
        if words - GENERIC_TEMPLATE_WORDS:
            found[instance.id] = sorted(words - GENERIC_TEMPLATE_WORDS)
    return found


@pytest.mark.parametrize("preset", PRESETS)
def test_the_templates_a_preset_plays_add_no_intent_word_to_any_demo_instance(preset):
    config = load_config(None, preset=preset)
    versions = {role: config.prompt_for(role) for role in ("clarifier", "rewriter")}
    assert template_leaks(versions) == {}, versions


def test_a_template_that_names_an_intent_word_is_caught(tmp_path):
    shipped = resources.files("cts_dataset.protocol").joinpath("prompts", "clarifier.v3.yaml").read_text(encoding="utf-8")
    example = "    Search query: How many people died in the earthquake?\n    Good reply: The 1976 Tangshan one?\n"
    leaky = tmp_path / "clarifier.leaky.yaml"
    leaky.write_text(shipped.replace("    Examples.\n", "    Examples.\n" + example, 1), encoding="utf-8")
    found = template_leaks({"clarifier": str(leaky), "rewriter": "v1"})
    assert found["demo-0001"] == ["1976", "tangshan"]
    view = ClarifierView(load()[0].blurred_query, "en", (), 1)
    request = clarifier.clarifier_request(view, RoleSettings(prompt_version=str(leaky)))
    wholesale = RoleSettings(prompt_version=str(leaky)).prompt("clarifier", "en")
    assert leaked_words(request, load()[0].fused_query, load()[0].blurred_query, prompt=wholesale) == [], (
        "allowing the template's words wholesale hides the leak: why template_leaks does not")


def test_the_audit_catches_a_leak():
    instance = load()[0]
    leaky = clarifier.clarifier_request(ClarifierView(instance.fused_query, "en", (), 1), SETTINGS)
    leaks = leaked_words(leaky, instance.fused_query, instance.blurred_query, prompt=load_prompt("clarifier", "v1", "en"))
    assert leaks, "a prompt holding the fused query must be reported"
