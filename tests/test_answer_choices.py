"""The choosing user answerer: its options, yes/no answers, and the guard's word forms (en and zh)."""

from __future__ import annotations

import json

import pytest

from cts_dataset.data import load
from cts_dataset.models.scripted import ScriptedModel
from cts_dataset.prompts import PromptError
from cts_dataset.protocol import answerer
from cts_dataset.protocol.answer_choices import choices, missing_spans
from cts_dataset.protocol.answer_phrasing import answer_of, is_yes_no
from cts_dataset.protocol.role_guards import (
    deterministic_rewrite,
    elicited,
    rewrite_problem,
    unsupported_words,
)
from cts_dataset.protocol.roles import RoleSettings
from cts_dataset.protocol.views import QA, UNKNOWN, AnswererView


def demo(instance_id: str):
    return next(i for i in load() if i.id == instance_id)


@pytest.mark.parametrize(("instance_id", "wanted"), [
    ("demo-0001", ["1976", "Tangshan, Hebei"]),
    ("demo-0003", ["Democratic Republic of the Congo"]),  # the name the query cut, made whole again
    ("demo-0005", ["Africa"]),  # "in Africa" without its preposition
    ("demo-0010", ["Europe", "1346 to 1353"]),  # one block of the intent, split at its prepositions
    ("demo-0011", ["Michael Jordan", "NBA"]),
])
def test_the_options_begin_with_what_the_query_left_out(instance_id, wanted):
    instance = demo(instance_id)
    missing = missing_spans(instance.fused_query, instance.blurred_query, "en")
    offered = choices(instance.fused_query, instance.blurred_query, "en")
    assert set(wanted) <= set(missing)
    assert offered[:len(missing)] == missing[:len(offered)]  # first of all, before the intent's other phrases
    assert all(o in instance.fused_query for o in offered) and UNKNOWN not in offered


@pytest.mark.parametrize(("intent", "query", "first"), [
    ("Who was Prime Minister of New Zealand in 1984?", "Who was Prime Minister in 1984?", "New Zealand"),  # not the title too
    ("Who was the British Prime Minister during the Falklands War?", "Who was the British Prime Minister?", "Falklands War"),
    ("Who won a record four Academy Awards for Best Director?", "Who won a record four Academy Awards?", "Best Director"),
    ("When did Francis I of France reign?", "When did Francis I reign?", "Francis I of France"),  # a name, made whole
    ("Who won Super Bowl XLIX?", "Who won the Super Bowl?", "Super Bowl XLIX"),
    ("Who founded the Republic of China?", "Who founded the republic?", "Republic of China"),
])
def test_a_block_is_widened_over_a_name_it_cuts_not_over_the_querys_common_words(intent, query, first):
    assert missing_spans(intent, query, "en")[0] == first


def test_chinese_options_split_a_time_from_a_place():
    missing = missing_spans("2023年杭州亚运会中国代表团获得了多少枚金牌？", "亚运会中国代表团获得了多少枚金牌？", "zh")
    assert {"2023年", "杭州"} <= set(missing)
    assert "唐朝诗人" in choices("唐朝诗人李白的代表作有哪些？", "李白的代表作有哪些？", "zh")


def test_without_the_query_the_options_are_the_intents_phrases():
    offered = choices("How much does a monthly bus pass cost for students in Oslo?", "", "en")
    assert {"students", "Oslo"} <= set(offered) and any("monthly bus pass" in o for o in offered)


@pytest.mark.parametrize(("question", "language", "answer"), [
    ("Do you mean the 1976 one?", "en", "Yes, 1976"),
    ("Just to be sure, is this the 1976 one?", "en", "Yes, 1976"),
    ("Do you mean a particular year?", "en", "Yes, 1976"),  # no guess of its own: yes, and the value
    ("Are you asking about the 1906 earthquake?", "en", "No, 1976"),  # a wrong guess: no, and the value
    ("Is the 1976 one the one in Sichuan?", "en", UNKNOWN),  # a guess about the value itself: not stated
    ("Is it the modern or the ancient one?", "en", "1976"),  # a choice, not a yes/no question
    ("Which year?", "en", "1976"),
    ("Which year was 1976?", "en", UNKNOWN),  # the span only echoes the question
    ("您是想问1976年那次吗？", "zh", "是的，1976"),
    ("您是想问2008年那次吗？", "zh", "不是，1976"),
    ("是国内还是国外？", "zh", "1976"),
])
def test_the_chosen_span_is_phrased_as_the_users_answer(question, language, answer):
    intent = "1976年唐山大地震死了多少人？" if language == "zh" else "How many people died in the 1976 earthquake?"
    assert answer_of(question, "1976", intent, language) == answer
    if answer != UNKNOWN:
        assert is_yes_no(question, language) == answer.startswith(("Yes", "No", "是的", "不是"))


# -- the guard: forms of the intent's words are not content it lacks --------------------------------------
@pytest.mark.parametrize(("answer", "intent"), [
    ("Mexico", "What were the main causes of the Mexican Revolution?"),
    ("Indonesia", "Which volcano on Indonesian territory erupted in 1815?"),
    ("French", "When did the revolution in France begin?"),
    ("2", "Which two cities hosted the Games?"),
    ("the second", "Which river is the 2nd longest?"),
    ("北京", "北京市2024年积分落户的申请条件有哪些？"),
    ("北京市", "北京2024年积分落户的申请条件有哪些？"),
    ("二〇二三年", "2023年杭州亚运会中国代表团获得了多少枚金牌？"),
])
def test_another_form_of_an_intent_word_is_not_content_the_intent_lacks(answer, intent):
    assert unsupported_words(answer, intent) == ()


@pytest.mark.parametrize(("answer", "intent"), [
    ("Jupiter", "How many moons does the seventh planet have?"),  # world knowledge, rightly refused
    ("Austria", "What is the capital of Australia?"),  # one stem, another country
    ("1977", "How many people died in the 1976 earthquake?"),
    ("上海", "北京市2024年积分落户的申请条件有哪些？"),
    ("Niger", "What is the capital of Nigeria?"),  # a prefix is not a derived form
    ("Indiana", "Which is the largest city of India?"),
])
def test_content_the_intent_lacks_is_still_caught(answer, intent):
    assert unsupported_words(answer, intent) != ()


@pytest.mark.parametrize(("yes", "no"), [("Yes", "No"), ("yes, 1976", "no, 1976"), ("是的", "不是")])
def test_yes_and_no_pass_the_answer_guard_alike(yes, no):
    intent = "How many people died in the 1976 earthquake in Tangshan?"
    assert unsupported_words(yes, intent) == unsupported_words(no, intent) == ()


def test_a_bare_yes_or_no_is_never_appended_to_the_query_and_a_span_with_it_is():
    query = "How many people died in the big earthquake?"
    for word in ("Yes", "No", "是的", "不是"):
        dialogue = (QA("Do you mean the 1976 one?", word),)
        assert elicited(dialogue) == [] and deterministic_rewrite(query, dialogue, "en") == query
    dialogue = (QA("Do you mean the 1906 one?", "No, 1976"),)
    assert deterministic_rewrite(query, dialogue, "en") == f"{query.rstrip()} (1976)"
    assert rewrite_problem(f"{query} in 1906", query, dialogue) == "drops the answer 'No, 1976'"
    assert rewrite_problem("How many people died in the 1976 earthquake?", query, dialogue) is None


# -- the answerer in mode choose ------------------------------------------------------------------------
INTENT = "How many people died in the 1976 earthquake in Tangshan, Hebei, and how strong was it?"
QUERY = "How many people died in the big earthquake in China, and how strong was it?"
CHOOSE = RoleSettings(prompt_version="v3")


def test_a_choosing_answerer_is_offered_the_intents_phrases_and_phrases_its_choice():
    replies = {"Do you mean the 1906 one?": "1976", "Which province?": "Tangshan, Hebei", "How would you like the strength measured?": UNKNOWN}
    model = ScriptedModel(default=lambda r: json.dumps({"answer": replies[r.messages[1].content.splitlines()[-1].split(": ", 1)[1]]}))
    views = [AnswererView(INTENT, "en", q, QUERY) for q in replies]
    answers = answerer.answer(model, views, CHOOSE, mode="choose")
    assert [a.text for a in answers] == ["No, 1976", "Tangshan, Hebei", UNKNOWN]
    assert all(a.faithful and a.parsed for a in answers)
    request = model.calls[0]
    enum = request.structured.json_schema["properties"]["answer"]["enum"]
    assert enum[:2] == ["1976", "Tangshan, Hebei"] and enum[-1] == UNKNOWN
    assert '"1976" | "Tangshan, Hebei"' in request.messages[1].content


def test_a_choice_outside_the_options_is_never_forwarded():
    model = ScriptedModel(default=lambda r: json.dumps({"answer": "Sichuan"}))  # a backend that ignored the grammar
    view = AnswererView(INTENT, "en", "How would you like the strength measured?", QUERY)  # one the rules leave to the model
    [answer] = answerer.answer(model, [view], CHOOSE, mode="choose")
    assert answer.text == UNKNOWN and answer.replaced == "Sichuan" and not answer.decided_by


@pytest.mark.parametrize(("prompt", "mode", "message"), [
    ("v2", "choose", "answer mode 'choose' needs a prompt with \\$\\{options\\} \\(v3\\)"),
    ("v3", "replace", "answer mode 'replace' needs a prompt without \\$\\{options\\} \\(v1, v2\\)"),
])
def test_an_answer_mode_refuses_a_prompt_of_the_other_kind(prompt, mode, message):
    with pytest.raises(PromptError, match=message):
        answerer.answerer_request(AnswererView(INTENT, "en", "Which year?", QUERY), RoleSettings(prompt_version=prompt), mode=mode)


def test_the_questions_own_script_decides_how_it_is_read():
    intent = "2023年杭州亚运会中国代表团获得了多少枚金牌？"
    assert answer_of("Which year?", "2023年", intent, "zh") == "2023年"  # an English question on a zh need
    assert unsupported_words("① 2023年", intent) != ()  # a digit int() refuses does not crash the guard
