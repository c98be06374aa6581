"""Questions about the parts of a many-part intent, questions that name only generic things, and Chinese
choices whose sides the need does not take: settled by the rules, without the model."""

from __future__ import annotations

import pytest

from cts_dataset.models.scripted import ScriptedModel
from cts_dataset.protocol import answerer
from cts_dataset.protocol.answer_scope import clauses, names_nothing, scope_asked
from cts_dataset.protocol.roles import RoleSettings
from cts_dataset.protocol.views import UNKNOWN, AnswererView

CHOOSE = RoleSettings(prompt_version="v3")
MOUNTAIN = ("What is the highest mountain in Africa, and how tall is it?", "What is the highest mountain, and how tall is it?")
PHONE = ("Who invented the telephone, and in what year was it patented?", "Who invented it, and in what year was it patented?")
NOVEL = ("Which Irish novel of 1922 is the best known, and who wrote it?", "Which novel is the best known, and who wrote it?")
GOLD = ("2008年北京奥运会中国获得了多少枚金牌？", "奥运会中国获得了多少枚金牌？")
WAR = ("第二次世界大战在何时结束？", "世界大战在何时结束？")  # no 一 anywhere: only 二 tells the sides apart
CAPITALS = ("What are the capitals of the states in the Caucasus, and how many people live in each state?",
            "What are the capitals of the states, and how many people live in each state?")
BASKETBALL = ("2019年男篮世界杯冠军是哪个国家？", "世界杯冠军是哪个国家？")
BIRTHS = ("2023年全国出生人口是多少？", "全国出生人口是多少？")


UNKNOWN_REPLY = f'{{"answer": "{UNKNOWN}"}}'  # a scripted model that says unknown, for a case a rule must settle otherwise


def answered(pair: tuple[str, str], question: str, language: str = "en", model_says: str | None = None) -> tuple[str, str]:
    """The answer and the rule that gave it; the model may be asked only when ``model_says`` is given."""
    def reply(request):
        if model_says is None:
            pytest.fail(f"the model was asked: {request.messages[-1].content}")
        return model_says
    [answer] = answerer.answer(ScriptedModel(default=reply), [AnswererView(pair[0], language, question, pair[1])],
                               CHOOSE, mode="choose")
    return answer.text, answer.decided_by


def test_an_intent_is_split_into_its_questions_at_and_before_a_question_word():
    assert clauses(MOUNTAIN[0]) == ["What is the highest mountain in Africa", "how tall is it"]
    assert clauses("Which famous monuments were built as tombs, and for whom?") == [
        "Which famous monuments were built as tombs", "for whom"]
    assert clauses("Which cities are the fourth- and ninth-most populous?") == [
        "Which cities are the fourth- and ninth-most populous"]  # "and" before no question word: one question


@pytest.mark.parametrize(("pair", "question", "expected"), [
    (PHONE, "Besides the inventor, what else do you want to know?", "in what year was it patented"),
    (MOUNTAIN, "Apart from its name, what else should I find out?", "how tall is it"),
    (MOUNTAIN, "Only its name, or its height too?", "how tall is it"),  # "how tall": height
    (MOUNTAIN, "Do you want its height or its first ascent?", "how tall is it"),
    (NOVEL, "Just the title, or also the person behind it?", "who wrote it"),  # "who": person
])
def test_a_question_about_the_parts_of_the_intent_gets_the_intents_clause(pair, question, expected):
    assert answered(pair, question) == (expected, "scope")
    assert scope_asked(question, pair[0]) == expected


@pytest.mark.parametrize(("pair", "question"), [
    (MOUNTAIN, "Highest by elevation, or by prominence?"),  # a yardstick of the main question
    (MOUNTAIN, "Its height in metres or in feet?"),  # a unit: no alternative is all about a part
    (MOUNTAIN, "Which mountain do you mean, or which height?"),  # what the user means
    (MOUNTAIN, "Is its height what you want?"),  # a yes/no question: the confirmation rules answer it
    (("What is the highest mountain in Africa?", "What is the highest mountain?"), "Only its name, or its height too?"),
    (MOUNTAIN, "The mountains of Africa, or only the tall ones?"),  # "ones": picks among the mountains
    (CAPITALS, "All the states, or only those with full recognition?"),  # "states": the main question's own word
    (MOUNTAIN, "Besides Africa, which continent?"),  # "besides" a value: asks for another, not for a part
    (MOUNTAIN, "Besides Africa, which other continents do you want to know about?"),
    (MOUNTAIN, "Beyond Africa, what else should I include?"),  # more places, not another part
    (("How many people lived in Lagos in 2020, and what was its area?", "How many people lived in Lagos?"),
     "Apart from 2020, which other years do you want to know about?"),
])
def test_questions_that_are_not_about_a_part_are_not_answered_with_a_clause(pair, question):
    assert scope_asked(question, pair[0]) is None


@pytest.mark.parametrize(("pair", "question", "expected"), [
    (MOUNTAIN, "Which specific person, thing or organisation do you mean?", "Africa"),
    (NOVEL, "Which part or aspect of it do you want to know about?", "Irish"),
])
def test_a_question_naming_only_generic_things_gets_what_the_query_left_out(pair, question, expected):
    assert names_nothing(question)
    text, rule = answered(pair, question)
    assert expected in text and rule == "open_request"


def test_a_question_naming_only_generic_things_is_not_answered_with_a_time():
    """What the query left out is a year: a question for a thing is the model's to answer, not a year."""
    pair = ("Who shared the 1903 Nobel Prize in Physics?", "Who shared the Nobel Prize in Physics?")
    assert answered(pair, "Which specific person, thing or organisation do you mean?", model_says='{"answer": "unknown"}') \
        == (UNKNOWN, "")
    assert not names_nothing("Which mountain range do you mean?")


@pytest.mark.parametrize(("pair", "question"), [
    (GOLD, "您说的是夏季奥运会还是冬季奥运会？"),  # parallel sides, the need says neither 夏 nor 冬
    (GOLD, "您要的是官方统计，还是媒体报道的数字？"),
])
def test_a_chinese_choice_the_need_takes_no_side_of_is_unknown(pair, question):
    assert answered(pair, question, "zh") == (UNKNOWN, "either_or")


@pytest.mark.parametrize(("pair", "question"), [
    (WAR, "您问的是一战还是二战？"),  # 二 of 二战 is in 第二次世界大战
    (("第2次世界大战在何时结束？", "世界大战在何时结束？"), "您问的是一战还是二战？"),  # 二 written 2
    (BASKETBALL, "您问的是男子还是女子比赛？"),  # 男 of 男子 is in 男篮: the sides end differently
    (("二战在何时结束？", "战争在何时结束？"), "您问的是第一次还是第二次世界大战？"),
    (BIRTHS, "是去年的数据还是更早的？"),  # a time offered, and the need names one
])
def test_a_chinese_choice_the_need_may_take_a_side_of_is_left_to_the_model(pair, question):
    _, rule = answered(pair, question, "zh", model_says=f'{{"answer": "{pair[0][:4]}"}}')
    assert rule == ""


@pytest.mark.parametrize(("intent", "question"), [
    ("Which Nobel laureate was the first, and what else did he create?",
     "Which Nobel laureate was the first, and what did he create?"),  # commas, no alternatives: the query again
    ("Which athlete is ranked the best ever, and in which years did they fight?",
     "Who is the best athlete, and in what years did they fight?"),
])
def test_a_question_with_commas_and_no_alternatives_is_no_question_about_parts(intent, question):
    assert scope_asked(question, intent) is None


@pytest.mark.parametrize("question", [
    "Which one, a person or an organisation?", "Which do you mean: people or organisations?",
])
def test_a_choice_between_generic_kinds_is_not_a_request_to_specify(question):
    assert not names_nothing(question)
    pair = ("Who won the Nobel Peace Prize in 1917 for relief work in Geneva?", "Who won the Nobel Peace Prize?")
    assert answered(pair, question, model_says='{"answer": "unknown"}')[1] != "open_request"



ISLAND = ("Which is the largest island in the Mediterranean Sea by area?", "Which is the largest island by area?")
RIVERS = ("Which rivers are the world's tenth- and twelfth-longest?", "Which rivers are the tenth- and twelfth-longest?")
CITIES = ("Which are the most populous French-speaking cities in West Africa?", "Which are the most populous cities in West Africa?")


@pytest.mark.parametrize(("pair", "question"), [
    (ISLAND, "Should islands that are independent countries count?"),
    (RIVERS, "Should lengths be measured from the most distant source of each river system?"),
    (ISLAND, "Should I count the city proper or the whole metropolitan area?"),
    (RIVERS, "Would you like details on who named them, or just their names?"),
    (CITIES, "Do you include suburbs in the population?"),
])
def test_a_question_of_how_to_count_measure_or_present_is_unknown(pair, question):
    assert answered(pair, question) == (UNKNOWN, "method")


@pytest.mark.parametrize(("pair", "question", "expected"), [
    (CITIES, "Should I count only French-speaking cities?", "French-speaking"),  # names what the user means
    (ISLAND, "Should I look only at the Mediterranean?", "Mediterranean"),
])
def test_a_question_of_method_that_names_what_only_the_intent_holds_is_answered(pair, question, expected):
    text, rule = answered(pair, question, model_says='{"answer": "unknown"}')
    assert rule != "method" and expected in text
