"""The choosing user answerer's rules: what the question's form and the (intent, query) pair settle is
answered without the model, the same on every engine; the rest is offered to the model as a short list."""

from __future__ import annotations

import pytest

from cts_dataset.models.scripted import ScriptedModel
from cts_dataset.protocol import answerer
from cts_dataset.protocol.answer_rules import decide
from cts_dataset.protocol.roles import RoleSettings
from cts_dataset.protocol.span_types import span_type
from cts_dataset.protocol.views import UNKNOWN, AnswererView

CHOOSE = RoleSettings(prompt_version="v3")
MOUNTAIN = ("What is the highest mountain in Africa, and how tall is it?", "What is the highest mountain, and how tall is it?")
NOBEL = ("Who shared the 1903 Nobel Prize in Physics, and for what?", "Who shared the Nobel Prize in Physics, and for what?")
LAKE = ("Which is the largest lake in Canada by area, and how deep is it?", "Which is the largest lake in Canada, and how deep is it?")
PHONE = ("Who invented the telephone, and in what year was it patented?", "Who invented it, and in what year was it patented?")
CITY = ("Which is the third-largest city of Brazil, and how many people live there?",
        "Which is one of the largest cities, and how many people live there?")
TICKETS = ("成都杜甫草堂的门票是多少钱？", "杜甫草堂的门票是多少钱？")


def answered(pair: tuple[str, str], question: str, language: str = "en") -> tuple[str, str]:
    """The answer and the rule that gave it, with a model that must not be asked."""
    model = ScriptedModel(default=lambda r: pytest.fail(f"the model was asked: {r.messages[-1].content}"))
    [answer] = answerer.answer(model, [AnswererView(pair[0], language, question, pair[1])], CHOOSE, mode="choose")
    return answer.text, answer.decided_by


@pytest.mark.parametrize(("pair", "question", "language", "expected", "rule"), [
    (MOUNTAIN, "Which continent or part of the world do you mean?", "en", "Africa", "typed"),
    (NOBEL, "Which year's prize do you mean?", "en", "1903", "typed"),
    (NOBEL, "Is there a particular year you have in mind?", "en", "Yes, 1903", "typed"),
    (LAKE, "By area or by volume?", "en", "area", "either_or"),
    (NOBEL, "Are you asking about the 1903 prize?", "en", "Yes, 1903", "confirmation"),
    (NOBEL, "Do you mean the 1911 one?", "en", "No, 1903", "confirmation"),
    (MOUNTAIN, "Would you also like climbing routes?", "en", UNKNOWN, "scope"),  # an offer of more the intent does not ask for
    (PHONE, "Which country do you mean?", "en", UNKNOWN, "typed"),  # the intent names no place
    (CITY, "Which city is one of the largest cities in the world?", "en", UNKNOWN, "own_question"),
    (TICKETS, "您想了解哪个城市的？", "zh", "成都", "typed"),
    (LAKE, "Could you be a bit more specific?", "en", "Yes, area", "open_request"),
    (LAKE, "What other detail should narrow the search?", "en", "area", "open_request"),
    (TICKETS, "是北京的那个吗？", "zh", "不是，成都", "confirmation"),  # a wrong guess of the left-out kind
    (TICKETS, "是学生票吗？", "zh", UNKNOWN, "confirmation"),  # a guess of another kind: not stated
    (TICKETS, "是成都的那个吗？", "zh", "是的，成都", "confirmation"),
])
def test_what_the_questions_form_settles_is_answered_without_the_model(pair, question, language, expected, rule):
    assert answered(pair, question, language) == (expected, rule)


BAVARIA = ("Which is the second-largest city in Bavaria, and how many people live there?",
           "Which is the second-largest city, and how many people live there?")
KRAKOW = ("What is the oldest university in Kraków, and when was it founded?",
          "What is the oldest university, and when was it founded?")
RIVER = ("Which is the longest river in Nigeria, and where does it rise?", "Which is the longest river, and where does it rise?")
RANKS = ("Which lakes rank third and fifth in Africa by area?", "Which lakes rank among the largest by area?")
FILM = ("Which film won the Oscar for Best Picture in 1998?", "Which film won the award for best picture?")
SCORER = ("Who is the top scorer in the history of the Premier League?", "Who is the top scorer in history?")
TOWER = ("What is the tallest building in New York?", "What is the tallest building?")
ENGLAND = ("What is the longest river in England?", "What is the longest river?")
CAPE = ("Which is the largest city in South Africa?", "Which is the largest city?")


@pytest.mark.parametrize(("pair", "question", "expected"), [
    (BAVARIA, "Do you mean Munich?", UNKNOWN),  # a city, what the query asks for: the user does not know it
    (BAVARIA, "Is it Nuremberg?", UNKNOWN),
    (BAVARIA, "Do you mean in Austria?", "No, Bavaria"),  # a country: a guess of the constraint, denied
    (NOBEL, "Do you mean the 1911 one?", "No, 1903"),
    (FILM, "Do you mean Titanic?", UNKNOWN),  # a film, what the query asks for
    (FILM, "Do you mean at the Golden Globes?", "No, Oscar"),  # placed by a preposition: a constraint
    (SCORER, "Do you mean in La Liga?", "No, Premier League"),
    (RIVER, "Do you mean in Europe?", "No, Nigeria"),
])
def test_a_guess_at_what_the_user_searches_for_is_unknown_and_a_wrong_constraint_is_denied(pair, question, expected):
    assert answered(pair, question)[0] == expected


@pytest.mark.parametrize(("pair", "question", "expected"), [
    (KRAKOW, "Which country do you mean?", UNKNOWN),  # the intent names a city, not its country
    (KRAKOW, "Which city do you mean?", "Kraków"),
    (RIVER, "Which continent do you mean?", UNKNOWN),
    (RIVER, "Which country do you mean?", "Nigeria"),
    (MOUNTAIN, "Which continent or part of the world do you mean?", "Africa"),
    (TOWER, "Which city do you mean?", "New York"),  # a state's name, and its city's
    (ENGLAND, "Which country do you mean?", "England"),  # a subdivision of the type Country
    (CAPE, "Which continent do you mean?", UNKNOWN),  # South Africa is a country, not Africa
    (CAPE, "Which country do you mean?", "South Africa"),
])
def test_a_question_for_one_level_of_place_is_answered_by_a_place_of_that_level(pair, question, expected):
    assert answered(pair, question)[0] == expected


@pytest.mark.parametrize(("pair", "question", "expected"), [
    (RANKS, "In square kilometres or square miles?", UNKNOWN),  # units, not the ranks the intent holds
    (LAKE, "Measured by its surface or by its shoreline?", UNKNOWN),  # the asked kind is a number
    (NOBEL, "Before or after 1950?", "1903"),  # times: the intent's year answers
])
def test_alternatives_that_offer_no_value_of_the_asked_kind_are_not_answered_with_one(pair, question, expected):
    assert answered(pair, question)[0] == expected


SUIT = ("In law, what is a suit, and who brings it?", "What is a suit, and who brings it?")
NOVEL = ("Who wrote the best-known Irish novel of 1922, and what is it about?",
         "Who wrote the best-known novel, and what is it about?")


@pytest.mark.parametrize(("pair", "question", "expected"), [
    (SUIT, "What type of suit do you mean?", "law"),
    (NOVEL, "Which novel are you referring to?", "Irish novel of 1922"),  # all the query left out beside it
    (NOBEL, "Which Nobel Prize do you mean?", "1903"),
])
def test_a_request_to_specify_what_the_query_names_is_answered_by_what_the_query_left_out_beside_it(
        pair, question, expected):
    assert answered(pair, question) == (expected, "specify")


def test_a_request_to_specify_what_the_intent_does_not_qualify_is_left_to_the_model():
    view = AnswererView(NOBEL[0], "en", "What kind of physics do you mean?", NOBEL[1])  # 1903 is the prize's
    spans = answerer._Spans.of(view)
    assert decide(view, spans.missing, spans.spans) is None


def test_the_model_is_offered_what_the_query_left_out_and_what_the_question_points_at():
    view = AnswererView(*NOBEL[:1], "en", "What aspect of the prize are you after?", NOBEL[1])
    options = answerer.options_of(view)
    assert options[0] == "1903" and options[-1] == UNKNOWN
    assert "Nobel Prize" in options  # the question names the prize
    assert "shared" not in options  # a phrase the query holds and the question does not point at


def test_a_question_for_a_value_is_not_offered_its_own_words():
    view = AnswererView("Which river is the longest in Europe, and where does it rise?", "en",
                        "Which river do you mean?", "Which river is the longest, and where does it rise?")
    assert "river" not in answerer.options_of(view)


@pytest.mark.parametrize(("span", "language"), [
    ("Philippines", "en"), ("North Carolina", "en"), ("Southern Sudan", "en"), ("Hamburg", "en"),
    ("深圳", "zh"), ("卡塔尔", "zh"),
    ("河南", "zh"), ("成都杜甫草堂", "zh"),
])
def test_places_outside_the_corpus_are_known_by_their_names(span, language):
    assert span_type(span, language) == "region"


@pytest.mark.parametrize(("span", "language"), [
    ("Michael Jordan", "en"), ("women's", "en"), ("Reading", "en"), ("High Point", "en"),  # cities, common words
    ("电视剧", "zh"), ("德文版", "zh"), ("中央电视台", "zh"),  # 德文 and 中央 are place names inside other words
])
def test_names_and_words_that_are_not_places_stay_untyped(span, language):
    assert span_type(span, language) is None


def test_a_run_records_which_answers_the_rules_settled_and_sends_them_to_no_model(tmp_path):
    import json as json_

    from cts_dataset.data import load
    from cts_dataset.search.corpus_tool import CorpusSearchTool
    from cts_dataset.search.retrieval import RetrievalSearcher
    from tests.diagnostics_runs import region_only_models, run

    instances = load()[:4]
    models = region_only_models(instances)  # every question: "Which country or region do you mean?"
    searcher = RetrievalSearcher(CorpusSearchTool(cache_root=tmp_path / "bm25"))
    summary = run(tmp_path / "run", searcher, models=models, limit=4, answer_mode="choose",
                  prompts={"user_answerer": "v3"}, budgets=[1], conditions=["clarify"])
    records = [json_.loads(line) for line in (tmp_path / "run" / "answer.jsonl").read_text().splitlines()]
    settled = [r for r in records if r["decided_by"]]
    assert len(settled) >= 3 and {r["decided_by"] for r in settled} == {"typed"}
    assert len(models["user_answerer"].calls) == len(records) - len(settled)  # demo-0004 names no place
    assert summary["guards"]["answers_by_rule"] == len(settled) and summary["guards"]["answers"] == len(records)
    intents = {i.id: i.fused_query for i in instances}
    assert all(r["answer"] == UNKNOWN or r["answer"] in intents[r["instance"]] for r in records)
    assert any(r["answer"] != UNKNOWN for r in records)


def test_a_function_word_the_intent_adds_is_not_what_the_query_left_out():
    from cts_dataset.protocol.answer_choices import missing_spans

    assert missing_spans("In law, what is a suit, and who brings it?", "What is a suit, and who brings it?", "en") == ["law"]


def test_a_question_in_another_script_than_the_need_is_left_to_the_model():
    view = AnswererView(TICKETS[0], "zh", "Which city?", TICKETS[1])
    spans = answerer._Spans.of(view)
    assert decide(view, spans.missing, spans.spans) is None



FLOW = ("Which river is the largest in Europe by discharge, and how long is it?",
        "Which river is the largest in Europe, and how long is it?")
AIRPORTS = ("As of 2020, which country had the most airports per person?", "Which country had the most airports?")


@pytest.mark.parametrize(("pair", "question", "expected", "rule"), [
    # A place in a ranking: the ranks the query left out, without what places them ("in Africa").
    (RANKS, "Which positions in the ranking do you want?", "third and fifth", "rank"),
    (RANKS, "The top two, or places further down the list?", "third and fifth", "rank"),
    (CITY, "Where in the ranking should the city be?", "third-largest", "rank"),
    # The yardstick of the query's ranking: what the query left out, a time last ("As of 2020" ranks nothing).
    (FLOW, "What criteria do you use to decide which river is the largest?", "discharge", "criterion"),
    (FLOW, "How should 'largest' be measured?", "discharge", "criterion"),
    (AIRPORTS, "What criteria are you using to determine the country with the most airports?", "per person", "criterion"),
    (LAKE, "In what sense do you mean largest?", "area", "criterion"),
    # A fact asked in the third person: what the user searches for, not what they mean.
    (SUIT, "What is the definition of a suit?", UNKNOWN, "fact"),
    (SUIT, "What was the main purpose of a suit in the Middle Ages?", UNKNOWN, "fact"),
    (CITY, "What is the population of São Paulo?", UNKNOWN, "fact"),  # a number, and a guess at the city
    # Not facts: a question for a time, a place or a number that guesses nothing asks which one the user means.
    (NOBEL, "Which year is that?", "1903", "typed"),
    (NOBEL, "What year was the prize awarded?", "1903", "typed"),
    (MOUNTAIN, "What is the region?", "Africa", "typed"),
    (NOBEL, "What is the specific year?", "1903", "typed"),
])
def test_rankings_yardsticks_and_facts_are_settled_by_the_questions_form(pair, question, expected, rule):
    assert answered(pair, question) == (expected, rule)


@pytest.mark.parametrize("question", ["What is the specific field?", "What is your field?", "What is the genre of the suit?",
                                      "Which suit is being referred to?", "Which field is meant?",
                                      "Which suit is the question referring to?", "Which field is mentioned in the query?",
                                      "What is the context?", "What is the relevant field?"])  # nothing of the search
def test_a_question_for_what_the_user_means_is_not_a_fact(question):
    view = AnswererView(SUIT[0], "en", question, SUIT[1])
    [answer] = answerer.answer(ScriptedModel(default='{"answer": "law"}'), [view], CHOOSE, mode="choose")
    assert answer.decided_by != "fact"


FERRY = ("厦门鼓浪屿的往返轮渡票多少钱？", "鼓浪屿的轮渡票多少钱？")


@pytest.mark.parametrize(("pair", "question", "expected"), [
    (TICKETS, "是成都那一家吧？", "是的，成都"),  # "那一家" points at the place the question names: no guess
    (FERRY, "是往返的那种票吧？", "是的，往返"),
    (FERRY, "您是从厦门邮轮中心码头出发吗？", UNKNOWN),  # a detail of the named place that the need lacks
    (TICKETS, "您是从成都东站出发吗？", UNKNOWN),
])
def test_a_chinese_confirmation_with_words_the_need_lacks_is_settled_by_what_it_names(pair, question, expected):
    assert answered(pair, question, "zh") == (expected, "confirmation")


QUAKE = ("How many people died in the 1976 earthquake in Tangshan, and how strong was it?",
         "How many people died in the big earthquake in China, and how strong was it?")


@pytest.mark.parametrize(("pair", "question", "expected"), [
    (QUAKE, "Was it an earthquake, or a flood?", "earthquake"),
    (MOUNTAIN, "A mountain, a volcano or a hill?", "mountain"),
    (NOBEL, "The prize in physics, or in chemistry?", "Prize in Physics"),  # as the intent writes it
    (LAKE, "Do you mean a lake, or a reservoir?", "lake"),  # the query says lake: the user means one
])
def test_the_one_alternative_the_query_already_says_is_chosen(pair, question, expected):
    assert answered(pair, question) == (expected, "either_or")


PRIME_MINISTER = ("Who was Pakistan's first female prime minister, and when did she take office?",
                  "Who was the first female prime minister, and when did she take office?")
REGIONS = ("Which metropolitan regions are the second and third biggest in the European Union by GDP?",
           "Which metropolitan regions are the second and third biggest in the European Union?")


@pytest.mark.parametrize(("pair", "question", "expected", "rule"), [
    (MOUNTAIN, "Which continent do you mean?", "Africa", "typed"),
    (MOUNTAIN, "Which continent is the mountain in, Asia?", "Africa", "typed"),  # a constraint guessed: no fact
    (PRIME_MINISTER, "Which country did she serve?", "Pakistan's", "typed"),  # a possessive names its owner
    (PRIME_MINISTER, "Which city do you mean?", UNKNOWN, "typed"),  # "Pakistan's" is a country's: no city
    (REGIONS, "Which ranks are you after?", "second and third biggest", "rank"),  # the ranks the query states
    (CITY, "The biggest city, or the runner-up?", "third-largest", "rank"),
])
def test_places_and_stated_ranks(pair, question, expected, rule):
    assert answered(pair, question) == (expected, rule)


CENTURY = ("Which were the largest cities in the world in the 19th century?", "Which were the largest cities in the world?")
NEW_YORK = ("What is the population of New York City, and how big is it?",
            "What is the population of New York, and how big is it?")


@pytest.mark.parametrize(("pair", "question", "expected", "rule"), [
    (LAKE, "What is the metric?", "area", "criterion"),
    (NEW_YORK, "New York City, or New York State?", "New York City", "either_or"),  # the alternative whole
])
def test_more_forms_of_yardsticks_and_choices(pair, question, expected, rule):
    assert answered(pair, question) == (expected, rule)


@pytest.mark.parametrize(("pair", "question", "rule"), [
    (MOUNTAIN, "How should 'highest' be measured?", "criterion"),  # a place is no measure
    (NOBEL, "What criteria are you using?", "criterion"),  # nor a time a yardstick
    (CENTURY, "Which ranks are you interested in?", "rank"),  # "19th century" is no rank
    (RANKS, "Which year's ranking?", "rank"),  # a question for a time
    (CITY, "Population ranking or area ranking?", "rank"),  # a choice of yardstick
])
def test_rules_that_do_not_apply_leave_the_question_to_others(pair, question, rule):
    view = AnswererView(pair[0], "en", question, pair[1])
    [answer] = answerer.answer(ScriptedModel(default='{"answer": "unknown"}'), [view], CHOOSE, mode="choose")
    assert answer.decided_by != rule


@pytest.mark.parametrize(("question", "language", "expected"), [
    ("What kind of poem: epic, lyric, or ballad?", "en", ["epic", "lyric", "ballad?"]),  # the lead-in only asks
    ("By area or by population?", "en", ["By area", "by population?"]),
    ("The top ten, or some places further down?", "en", ["The top ten", "some places further down?"]),
    ("Nominal GDP; or adjusted for purchasing power?", "en", ["Nominal GDP", "adjusted for purchasing power?"]),
    ("您要国内还是国外的？", "zh", ["您要国内", "国外的？"]),
    ("男足或者女足？", "zh", ["男足", "女足？"]),
])
def test_the_alternatives_of_an_either_or_question_are_split_one_way(question, language, expected):
    from cts_dataset.protocol.answer_phrasing import alternatives

    assert alternatives(question, language) == expected


PORTS = ("Which ports were the fourth- and seventh-busiest in Europe by container traffic, and where are they?",
         "Which ports are among the busiest in Europe by container traffic, and where are they?")


@pytest.mark.parametrize(("question", "expected"), [
    # The yardstick the intent ranks by, though the query says it too: the user says it again.
    ("What criteria are you using to determine the busiest ports?", "container traffic"),
    ("How should 'busiest' be measured?", "container traffic"),
    # A question that names the yardstick itself asks for the rest: what the query left out.
    ("What criteria do you use to rank the busiest ports by container traffic?", "fourth- and seventh-busiest"),
])
def test_a_question_for_the_yardstick_is_answered_by_the_one_the_intent_ranks_by(question, expected):
    assert answered(PORTS, question) == (expected, "criterion")


@pytest.mark.parametrize(("intent", "expected"), [
    ("Which lakes rank eighth and tenth in the world by area, and how large are they?", "area"),
    ("Which is the smallest capital city in the European Union by both area and population?", "both area and population"),
    ("Which metropolitan regions are the second and third biggest in the European Union by GDP, and what are their populations?", "GDP"),
    ("Which companies were the largest by revenue in 2020?", "revenue"),  # the time is not part of it
    ("Which were the largest companies by market capitalization as of 2021?", "market capitalization"),
    ("What is the oldest book by Dickens?", None),  # an author is no yardstick
    ("Who wrote the most famous novel written by a Russian?", None),
    ("As of 2020, which country had the most airports per person?", None),
])
def test_the_yardstick_of_an_intent_is_what_it_ranks_by(intent, expected):
    from cts_dataset.protocol.question_forms import yardstick_in

    assert yardstick_in(intent) == expected


@pytest.mark.parametrize("intent", [
    "What is the best-selling album by the Beatles?",  # a name, not a measure
    "What is the most famous painting by van Gogh?",
    "What is the largest telescope launched by NASA?",  # who did it
    "What is the most famous novel written by women?",
    "Which museum is the most visited by tourists in Paris?",
    "Which city will be the most populous by the end of the century?",  # a time
    "What is the oldest building by the river Thames?",  # a place
    "What is the most common surname by far in Korea?",  # an idiom
    "What is the fastest way to get to Paris by train?",  # a means
    "What are the interest rates by country?",  # "interest" is no superlative
    "Which cities in the Midwest are served by rail?",
    "What are the most famous novels by women?",  # the people who make works, with no participle
    "Which city will be the most populous by the turn of the century?",
    "Which will be the largest economy by the next decade?",
    "What is the fastest way to get there by taxi?",
    "What is the cheapest way to travel by train or bus?",
    "Which will be the most populous country by the year 2050?",
    "Which was the largest city by the mid-1990s?",
    "Which is the oldest pub by the river bank?",
    "What is the best-selling album by the rock band Queen?",  # a name after the first words
    "Which are the most cited papers by economists?",  # the people who wrote them
    "What is the cheapest way to get there by public transport?",
    "What is the cheapest way to ship goods by air or sea?",
])
def test_an_agent_a_name_a_time_or_a_means_is_no_yardstick(intent):
    from cts_dataset.protocol.question_forms import yardstick_in

    assert yardstick_in(intent) is None


@pytest.mark.parametrize(("intent", "expected"), [
    ("What is the largest country by area and its capital?", "area"),  # the clause that follows is not part of it
    ("What is the biggest stadium by capacity used by FIFA?", "capacity"),
    ("Most visited museums by attendance in 2019?", "attendance"),  # a capitalised superlative
    ("Which cities are ranked highest by population?", "population"),  # ranking is a measuring verb
    ("What is the fastest car in the world by top speed?", "top speed"),  # "speed" is no participle
    ("Which states have the most seats by number of registered voters?", "number of registered voters"),
    ("Which cities are the largest by the estimated population?", "the estimated population"),
    ("Which countries in Europe are ranked highest by birth rate?", "birth rate"),  # "birth" alone is no measure
    ("What is the largest dog breed by weight?", "weight"),  # "breed" is a noun
    ("Which are the most populous cities listed by population?", "population"),
    ("Which countries are ranked highest by number of Nobel laureates?", "number of Nobel laureates"),
    ("What are the interest rates of the largest economies by GDP?", "GDP"),  # the superlative after "interest"
    ("Which Test cricket team ranks highest by wins?", "wins"),
    ("Which forest is the largest by area?", "area"),
    ("What is the largest social network in the world by users?", "users"),  # people can be the measure
    ("Which are the most visited countries in Europe by tourists?", "tourists"),
    ("Which are the largest companies by revenue reported by Forbes?", "revenue"),  # not who reported it
    ("Which is the oldest university in Europe by year founded?", "year founded"),  # a time word begins a measure
    ("Which is the most popular game in Japan by time played?", "time played"),
    ("Which is the largest bank in Europe by bank deposits?", "bank deposits"),  # so does a place word
    ("Which is the lowest city in Asia by sea level?", "sea level"),
    ("Which country has the highest population growth by birth and death rates?", "birth and death rates"),
    ("Which country has the longest network by road and rail length?", "road and rail length"),
    ("Which universities are the richest by public and private funding?", "public and private funding"),
])
def test_a_yardstick_ends_where_its_clause_does(intent, expected):
    from cts_dataset.protocol.question_forms import yardstick_in

    assert yardstick_in(intent) == expected


COMPANIES = ("Which were the largest companies by market capitalization in {}?",
             "Which were the largest companies by market capitalization?")


@pytest.mark.parametrize(("left_out", "question", "expected", "rule"), [
    ("2021", "Based on which year?", "2021", "typed"),  # a criterion's words, but it asks for a time
    ("2021", "In terms of which time period?", "2021", "typed"),
    ("Germany", "Based on which country?", "Germany", "typed"),
    ("2021", "What criteria are you using to determine the largest companies?", "market capitalization", "criterion"),
    ("2021", "What criteria are you using when you say largest?", "market capitalization", "criterion"),
    ("2021", "How should 'largest' be measured when comparing companies?", "market capitalization", "criterion"),
    ("Germany", "What criteria are you using where companies are compared?", "market capitalization", "criterion"),
])
def test_a_question_for_a_time_or_a_place_is_not_answered_with_the_yardstick(left_out, question, expected, rule):
    pair = (COMPANIES[0].format(left_out), COMPANIES[1])
    assert answered(pair, question) == (expected, rule)


@pytest.mark.parametrize(("question", "asked"), [("Based on which year?", "2021"), ("Based on which country?", "Germany")])
def test_a_question_for_a_time_or_a_place_gets_the_span_that_holds_it_though_the_query_also_lacks_the_yardstick(
        question, asked):
    # The query left "by market capitalization in 2021" out as one phrase: the span of the asked kind is that
    # phrase (the time rule's answer), not the yardstick alone.
    intent = f"Which were the largest companies by market capitalization in {asked}?"
    assert answered((intent, "Which were the largest companies?"), question) == (
        f"market capitalization in {asked}", "typed")


@pytest.mark.parametrize(("question", "expected"), [
    ("Which year should the ranking be based on?", "2021"),  # the asked noun need not end the question
    ("Based on which fiscal year?", "2021"),
    ("Based on which year's data?", "2021"),
    ("Based on rankings from when?", "2021"),
    ("Which time period should the measurement be based on?", "2021"),
    ("Which country should the ranking be based on?", UNKNOWN),  # the intent names no country
])
def test_a_criterion_question_that_asks_for_a_time_or_a_place_is_answered_by_the_time_and_place_rules(
        question, expected):
    pair = (COMPANIES[0].format("2021"), COMPANIES[1])
    assert answered(pair, question) == (expected, "typed")


@pytest.mark.parametrize(("pair", "question", "expected"), [
    (("Which cities are the eleventh- and eighteenth-largest in Africa by population?",
      "Which cities are among the largest in Africa by population?"),
     "What criteria determine which cities count as largest?", "population"),
    (("Which nation is the largest in Africa by area?", "Which nation is the largest in Africa?"),
     "What criteria determine which country counts as largest?", "area"),  # the query says "nation"
    (("What is the largest economy in Europe by nominal GDP?", "What is the largest economy in Europe?"),
     "What metric should determine which country's economy is largest?", "nominal GDP"),
    (("Which was the warmest year on record by global average temperature?", "When was the warmest time on record?"),
     "What measurement determines which year was the warmest?", "global average temperature"),
    (("Which company had the highest revenue growth by year-over-year percentage?",
      "Which company had the highest revenue growth?"), "What year-over-year metric should be used?",
     "year-over-year percentage"),
])
def test_a_criterion_question_that_names_a_time_or_a_place_on_the_way_gets_the_yardstick(pair, question, expected):
    assert answered(pair, question) == (expected, "criterion")


@pytest.mark.parametrize(("question", "language", "expected"), [
    ("Area or volume: which one?", "en", ["Area", "volume"]),  # the choice before the colon
    ("Area or volume: which one, exactly?", "en", ["Area", "volume"]),
    ("是男足或女足？", "zh", ["男足", "女足？"]),  # a lone 或, the choice after 是
])
def test_a_choice_is_found_on_either_side_of_a_colon_and_after_a_lone_huo(question, language, expected):
    from cts_dataset.protocol.answer_phrasing import alternatives, is_either_or

    assert alternatives(question, language) == expected
    assert is_either_or(question, language)


@pytest.mark.parametrize(("question", "expected"), [
    ("Area or volume: which one?", "area"),
])
def test_an_either_or_question_with_its_choice_before_a_colon_is_settled(question, expected):
    assert answered(LAKE, question) == (expected, "either_or")


def test_a_lone_huo_offers_a_choice_not_a_yes_no_question():
    from cts_dataset.protocol.answer_phrasing import is_either_or

    assert answered(TICKETS, "是成都或北京的？", "zh") == ("成都", "either_or")
    for no_choice in ("或许是成都的？", "门票是您旅行中不可或缺的吗？", "价格或将调整吗？", "是成都的吗，或多或少？", "是2022年或称第19届的吗？"):
        assert not is_either_or(no_choice, "zh"), no_choice  # 或许, 不可或缺, 或将, 或多或少, 或称: no choice
    for choice in ("您是指人口最多或面积最大的城市？", "您问的是现在或将来的线路？", "一个或多个？", "中文名或称号？",
                   "您问的是开幕时间或闭幕时间？", "您是指总统的配偶或子女？"):
        assert is_either_or(choice, "zh"), choice  # 多, 将来, 称号 after a lone 或, 时间 and 配偶 before it are words


@pytest.mark.parametrize(("pair", "question", "expected"), [
    (("Which cities are the eleventh- and eighteenth-largest in Africa by population?",
      "Which cities are among the largest in Africa by population?"),
     "What criteria are you using to determine the size of the cities?", "population"),
    (("Which is the smallest capital city in the European Union by both area and population?",
      "Which is the smallest capital city by both area and population?"),
     "What criteria are you using to determine the smallest capital city?", "both area and population"),
])
def test_a_question_for_the_yardstick_that_mentions_a_place_still_gets_the_yardstick(pair, question, expected):
    assert answered(pair, question) == (expected, "criterion")
