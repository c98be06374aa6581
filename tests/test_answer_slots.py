"""Guesses put in the place of what the query left out, names that qualify the query's own thing, yes/no
questions with a relative clause, questions for two kinds or for a place of no level, and Chinese choices
that the query itself answers."""

from __future__ import annotations

import pytest

from cts_dataset.protocol.answer_choices import missing_spans
from cts_dataset.protocol.answer_phrasing import before_relative, is_yes_no
from cts_dataset.protocol.question_forms import ranks_in
from cts_dataset.protocol.role_guards import unsupported_words
from cts_dataset.protocol.span_types import span_kinds, span_type
from cts_dataset.protocol.views import UNKNOWN
from tests.test_answer_scope import answered

DAM = ("Which is the tallest concrete dam, and on which river does it stand?",
       "Which is the tallest dam, and on which river does it stand?")
SULTAN = ("Which mosques did Suleiman the Magnificent build, and in which cities?",
          "Which mosques did the sultan build, and in which cities?")
CORONATION = ("Who was crowned king of Norway in 1906, and who chose him?", "Who was crowned king of Norway, and who chose him?")
KINGDOM = ("Which was the largest kingdom in medieval West Africa, and what was its capital?",
           "Which was the largest kingdom, and what was its capital?")
DYNASTY = ("Which Chinese dynasty ruled from 618 to 907, and who founded it?",
           "Which Chinese dynasty ruled, and who founded it?")
PORT = ("Which is the busiest port in Southeast Asia, and how much cargo does it handle?",
        "Which is the busiest port, and how much cargo does it handle?")
STRIKE = ("Who led the general strike in Seattle, and what did it win?", "Who led the general strike, and what did it win?")
ISLANDS = ("Which are the two largest islands of Indonesia, and how many people live on each?",
           "Which are the two largest islands, and how many people live on each?")
CITY = ("Which was the largest city in Tang-dynasty China, and how many people lived there?",
        "Which was the largest city, and how many people lived there?")
TOWER = ("Which is the tallest tower in the Arab world, and how tall is it?",
         "Which is the tallest tower, and how tall is it?")


@pytest.mark.parametrize(("pair", "question", "expected"), [
    (CORONATION, "Are you asking about the king who was crowned in 1957?", "No, 1906"),  # a year in a relative clause
    (("Which is the largest German state, and what is its capital?", "Which is the largest state, and what is its capital?"),
     "Do you mean the largest US state, Alaska?", "No, German"),  # a place of its own where the intent's stands
])
def test_a_value_of_the_spans_kind_in_its_place_is_denied_with_it(pair, question, expected):
    assert answered(pair, question) == (expected, "confirmation")


@pytest.mark.parametrize(("pair", "question", "expected"), [
    (DAM, "Do you mean the tallest earthen dam, like Nurek?", "concrete"),  # "earthen" where "concrete" stands
    (DAM, "Do you mean the tallest gravity dam?", "concrete"),  # perhaps the same dam: no "no"
    (("Which is the largest man-made lake, and which countries share it?", "Which is the largest lake, and which countries share it?"),
     "Do you mean the largest artificial lake?", "man-made"),  # the span in other words: no "no"
    (SULTAN, "Do you mean the sultan Mehmed?", "Suleiman the Magnificent"),  # a name given for the query's "sultan"
    (SULTAN, "Do you mean the sultan Süleyman?", "Suleiman the Magnificent"),  # ... perhaps spelt otherwise
])
def test_a_guess_in_the_place_of_what_the_query_left_out_is_answered_with_the_span_alone(pair, question, expected):
    assert answered(pair, question) == (expected, "confirmation")


@pytest.mark.parametrize(("pair", "question"), [
    (("Which buildings did the Tudor king Henry VIII have built?", "Which buildings did the Tudor king have built?"),
     "Do you mean the king Henry VIII?"),  # the intent keeps the query's word: the name says which, not "no"
    (("In chemistry, what is a bond, and how strong is it?", "What is a bond, and how strong is it?"),
     "Do you mean the bond whose strength is measured in joules?"),  # "whose" guesses no sense
    (KINGDOM, "Do you mean the kingdom whose capital was Timbuktu?"),  # an era and a place are no field
])
def test_a_description_or_a_name_the_intent_keeps_is_not_denied(pair, question):
    text, _ = answered(pair, question, model_says='{"answer": "unknown"}')
    assert not text.startswith("No")


@pytest.mark.parametrize(("pair", "question"), [
    (TOWER, "Would that be Dubai?"),  # "that" is the answer: a place guessed for it, whatever its level
    (ISLANDS, "Is that Sumatra?"),
    (ISLANDS, "Sumatra and Java, I assume?"),
])
def test_a_name_given_for_that_or_it_guesses_the_answer(pair, question):
    assert answered(pair, question) == (UNKNOWN, "answer_guess")


def test_a_country_given_for_it_may_place_what_the_user_means():
    _, rule = answered(TOWER, "Is it Egypt you're thinking of?", model_says='{"answer": "unknown"}')
    assert rule != "answer_guess"


def test_a_name_that_qualifies_the_querys_thing_is_answered_with_the_span_alone():
    # "the Ottoman sultan" says which sultan without saying his name: the intent's name, neither yes nor no
    assert answered(SULTAN, "Is this the Ottoman sultan who married Roxelana?") == ("Suleiman the Magnificent", "confirmation")


@pytest.mark.parametrize("question", [
    "Are you asking about the king who took the throne in 1957?",
    "Is this the war in which Hannibal crossed the Alps?",
    "Are you referring to Augustus, who ruled until AD 14?",
    "Should I include shapeshifters who are only part animal some of the time?",
])
def test_a_question_word_that_opens_a_relative_clause_leaves_a_yes_no_question(question):
    assert is_yes_no(question, "en")


@pytest.mark.parametrize("question", [
    "Do you know what year the films came out?",
    "Would you like a description of how the device worked?",
    "Can you tell me which year?",
    "Is it about when it was built?",
    "Are you interested in which year the prize was given?",
    "Could you confirm which year?",
    "Do you know exactly which year?",
    "Are you curious which one?",
    "Is the question which country won?",
])
def test_a_question_word_after_a_verb_of_telling_or_a_preposition_asks_for_a_value(question):
    assert not is_yes_no(question, "en")


def test_the_guess_before_a_relative_clause_is_what_the_question_guesses():
    assert before_relative("Is this the Ottoman sultan who married Roxelana?") == "Is this the Ottoman sultan?"


@pytest.mark.parametrize(("pair", "question", "expected"), [
    (KINGDOM, "Which region and era?", "medieval West Africa"),  # a block that holds a place and a time
    (CITY, "Which region and period?", "Tang-dynasty China"),
    (CITY, "In which country?", "Tang-dynasty China"),  # a time that holds a place
    (KINGDOM, "Could you specify the region and the period you mean?", "Yes, medieval West Africa"),
    (DYNASTY, "Which years of its rule do you have in mind?", "618 to 907"),  # years too early to tell by their digits
    (("Which Roman emperor ruled from 98 to 117, and where was he born?", "Which Roman emperor ruled, and where was he born?"),
     "Which time or period do you mean?", "98 to 117"),  # two digits, after a verb of reigning
    (("What did the popes who led the church from 590 to 604 and from 858 to 867 write?",
      "What did the popes who led the church write?"), "Which time or period do you mean?",
     "590 to 604 and from 858 to 867"),
    (PORT, "The busiest port in which region?", "Southeast Asia"),  # a place of no level, though the query asks a port
])
def test_a_question_for_a_kind_gets_the_block_of_that_kind(pair, question, expected):
    assert answered(pair, question) == (expected, "typed")


def test_a_question_for_a_continent_is_not_answered_with_the_world():
    pair = ("Which is the world's deepest limestone cave?", "Which is the world's deepest cave?")
    assert answered(pair, "On which continent?") == (UNKNOWN, "typed")
    assert answered(pair, "Which continent does the deepest cave lie in?") == (UNKNOWN, "typed")
    # asked what the user means, "the world" may answer it: the model chooses
    assert answered(pair, "Which continent do you mean?",
                    model_says='{"answer": "world\'s deepest limestone cave"}')[0] != UNKNOWN


def test_words_for_the_whole_world_are_not_left_out_when_the_query_says_one():
    assert missing_spans("Which is the world's longest rail tunnel?", "Which is the longest tunnel on Earth?", "en") == ["rail"]
    assert "world's" in missing_spans("Which is the world's longest rail tunnel?", "Which is the longest tunnel?", "en")


@pytest.mark.parametrize(("span", "kind"), [
    ("pre-Columbian Mexico", "time"), ("medieval", "time"), ("antiquity", "time"), ("the post-war years", "time"),
    ("pre-eminent", None), ("post-secondary education", None), ("pre-existing", None),  # no eras
    ("America's Cup", None), ("Captain America", None),  # names, not the continent
    ("the coastal one", None), ("one without a port", None), ("the one Picasso painted", None), ("one book", "number"),
    ("Queen's", None),  # the band's, not the New York borough
])
def test_span_type(span, kind):
    assert span_type(span, "en") == kind


@pytest.mark.parametrize(("span", "kinds"), [
    ("Tang-dynasty China", {"time", "region"}), ("pre-Columbian Peru", {"time", "region"}),
    ("medieval", {"time"}), ("Old English", set()), ("2023年杭州", {"time"}),  # Chinese: one kind
])
def test_span_kinds(span, kinds):
    assert span_kinds(span, "zh" if "年" in span else "en") == kinds


def test_what_kind_gets_the_kind_the_query_says_with_what_it_left_out():
    assert answered(STRIKE, "What kind of strike do you mean?") == ("general strike in Seattle", "specify")


@pytest.mark.parametrize(("pair", "question", "expected"), [
    (("Which famous frescoes were painted in Padua, and by whom?", "Which famous frescoes were painted, and by whom?"),
     "What kind of frescoes do you mean?", "Padua"),  # praise says no kind; a verb stands between
    (("What are the main exports of Chile, and where do they go?", "What are the main exports, and where do they go?"),
     "What kind of exports do you mean?", "Chile"),
])
def test_what_kind_is_answered_with_the_span_alone_where_the_query_says_no_kind(pair, question, expected):
    assert answered(pair, question) == (expected, "specify")


def test_a_name_inside_a_hyphenated_word_is_no_span_of_its_own():
    assert "Columbian Peru" not in missing_spans("Which was the largest city in pre-Columbian Peru?",
                                                 "Which was the largest city?", "en")


def test_an_alternative_that_would_help_names_its_part():
    pair = ("In physics, what is work, and what is a typical example?", "What is work, and what is a typical example?")
    assert answered(pair, "Only the definition, or would an example help too?") == ("what is a typical example", "scope")


@pytest.mark.parametrize(("pair", "question", "expected"), [
    (("上海迪士尼乐园的夜场门票多少钱？", "迪士尼乐园的夜场门票多少钱？"), "您想了解的是夜场还是日场？", "夜场"),
    (("北京地铁末班车是几点？", "北京地铁末班车是几点？".replace("北京", "")), "您想知道首班车还是末班车？", "末班车"),
    (("2024年深圳马拉松全程的关门时间是几个小时？", "马拉松全程的关门时间是几个小时？"), "您问的是全程，还是半程的关门时间？", "全程"),
])
def test_a_chinese_choice_the_query_answers_gets_that_alternative(pair, question, expected):
    assert answered(pair, question, "zh") == (expected, "either_or")


def test_a_chinese_choice_that_restricts_the_querys_thing_is_not_answered_from_the_query():
    pair = ("2022年全国普通高校毕业生人数是多少？", "全国高校毕业生人数是多少？")
    text, _ = answered(pair, "您需要包括研究生在内的数据，还是只统计本专科毕业生？", "zh", model_says='{"answer": "unknown"}')
    assert text == UNKNOWN


def test_a_chinese_offer_of_more_than_the_need_asks_is_unknown():
    pair = ("2022年卡塔尔世界杯冠军是哪个国家？", "世界杯冠军是哪个国家？")
    assert answered(pair, "您还想了解那届的金球奖得主吗？", "zh") == (UNKNOWN, "scope")


def test_a_chinese_choice_whose_telling_word_the_query_says_too_takes_no_side():
    pair = ("2020年美国总统大选的投票日是哪一天？", "美国总统大选的投票日是哪一天？")
    assert answered(pair, "日期按美国东部时间还是北京时间给出？", "zh") == (UNKNOWN, "either_or")


def test_a_guess_described_in_a_relative_clause_is_answered_with_the_span_alone():
    pair = ("Which pillars did Ashoka have carved, and what do they say?", "Which pillars did the emperor have carved, and what do they say?")
    text, _ = answered(pair, "Are you referring to the emperor who converted after the war in Kalinga?",
                       model_says='{"answer": "Ashoka"}')
    assert text == "Ashoka"  # neither yes nor no: the intent does not say what he did


def test_a_guess_of_another_kind_described_in_a_relative_clause_is_left_to_the_model():
    pair = ("When did John III Sobieski reign, and how did his reign end?", "When did the king reign, and how did his reign end?")
    assert answered(pair, "Are you referring to the Polish king who relieved Vienna in 1683?",
                    model_says='{"answer": "unknown"}') == (UNKNOWN, "")  # "" : the model chose


@pytest.mark.parametrize(("pair", "question"), [
    (("Which vitamins should children aged from 4 to 8 take?", "Which vitamins should children take?"), "For which year?"),
    (("Which bus lines run from 5 to 9 in the morning in Zurich?", "Which bus lines run in Zurich?"), "What time of day?"),
    (KINGDOM, "Which country and year?"),  # a block of another level than the one asked
])
def test_ages_hours_and_places_of_another_level_answer_no_question_for_a_time_or_a_country(pair, question):
    assert answered(pair, question) == (UNKNOWN, "typed")


def test_a_quoted_kind_word_is_read_without_its_quotes():
    pair = ('What did the "communist" revolution in Cuba change for farmers?',
            'What did the "communist" revolution change for farmers?')
    assert answered(pair, "What kind of revolution do you mean?") == ("communist revolution in Cuba", "specify")


def test_a_chinese_offer_of_more_is_unknown_even_where_it_names_the_needs_own_value():
    pair = ("2023年全国出生人口是多少？", "全国出生人口是多少？")
    assert answered(pair, "您还需要知道2023年的死亡人口吗？", "zh") == (UNKNOWN, "scope")
    assert answered(pair, "您也想知道是哪一年的吗？", "zh") == ("2023年", "typed")  # it asks a value: not an offer


@pytest.mark.parametrize(("answer", "intent", "lacking"), [
    ("HPV", "9到14岁女孩接种HPV九价疫苗一共要打几针？", ()),
    ("iPhone15", "iPhone十五的电池容量是多少？", ()),  # digits and letters apart, numerals as digits
    ("G20", "G二十峰会在哪里开？", ()),
    ("2024年", "2023年的出生人口是多少？", ("2024",)),  # another year still lacks
    ("iPhone16", "iPhone十五的电池容量是多少？", ("16",)),
])
def test_the_guard_reads_numerals_and_latin_names_apart(answer, intent, lacking):
    assert unsupported_words(answer, intent) == lacking


def test_a_latin_name_beside_a_chinese_numeral_is_a_word_of_the_need():
    # "HPV九价": the numeral read as a digit must not glue onto the name ("hpv9")
    pair = ("9到14岁女孩接种HPV九价疫苗一共要打几针？", "HPV疫苗一共要打几针？")
    assert answered(pair, "您问的是HPV疫苗还是流感疫苗？", "zh") == ("HPV", "either_or")


def test_the_text_a_chinese_query_left_out_is_a_span_where_the_segmenter_cuts_it_otherwise():
    pair = ("一个人去长白山北坡玩两天大概要花多少钱？", "去长白山北坡玩大概要花多少钱？")  # jieba: 一个|人去
    assert "一个人" in missing_spans(*pair, "zh")
    assert answered(pair, "您是一个人去对吗？", "zh") == ("是的，一个人", "confirmation")
    text, _ = answered(pair, "您是要避开一个人去的情况吗？", "zh", model_says='{"answer": "unknown"}')
    assert not text.startswith("是的")  # a span the question avoids is not confirmed


@pytest.mark.parametrize(("fused", "blurred", "junk"), [
    ("孩子发烧到39度要吃什么药？", "孩子发烧要吃什么药？", "到39度"),  # 到 joins it: 39度 is the span
    ("哪个平台上的课程最多？", "哪个课程最多？", "个平台上"),  # it would begin inside 哪个
])
def test_the_inserted_text_is_a_span_only_from_a_word_boundary_without_joining_words(fused, blurred, junk):
    assert junk not in missing_spans(fused, blurred, "zh")


def test_a_restricting_chinese_confirmation_of_part_of_the_need_is_not_confirmed():
    pair = ("北京和上海的房价哪个涨得多？", "房价哪个涨得多？")
    text, _ = answered(pair, "只有北京吗？", "zh", model_says='{"answer": "unknown"}')
    assert not text.startswith("是的")  # the need asks both cities


def test_a_chinese_guess_the_segmenter_cut_apart_is_denied_with_the_needs_span():
    # "二|套房" is written like 首套房: another value, not a confirmation of 套房 or of the whole span
    pair = ("北京首套房公积金贷款最高可以贷多少？", "公积金贷款最高可以贷多少？")
    text, _ = answered(pair, "您这次买的是二套房吗？", "zh", model_says='{"answer": "unknown"}')
    assert text.startswith("不是") and "首套房" in text


@pytest.mark.parametrize(("text", "ranks"), [
    ("Which is the fourth largest peninsula in the world?", ["fourth largest"]),
    ("Which cities are the fourth- and ninth-most populous in the United States?", ["fourth- and ninth-most populous"]),
    ("Which rivers are the world's tenth- and twelfth-longest?", ["tenth- and twelfth-longest"]),
    ("Which lakes rank eighth and tenth in the world by area?", ["eighth and tenth"]),
    ("the third least densely populated state", ["third least densely populated"]),
    ("the third-most by volume", ["third-most"]),  # "by" ranks by nothing
    ("the second-most  populous city", ["second-most  populous"]),  # as the text writes it
    ("Who was the seventh US president?", []),  # an ordinal that ranks by nothing
])
def test_a_rank_is_given_with_what_it_ranks_by(text, ranks):
    assert ranks_in(text) == ranks


def test_a_question_for_the_rank_gets_the_rank_with_its_superlative():
    pair = ("Which is the fourth largest bay in the world, and which countries border it?",
            "Which is one of the largest bays in the world, and which countries border it?")
    assert answered(pair, "Which position in the ranking do you mean?") == ("fourth largest", "rank")


@pytest.mark.parametrize(("pair", "question"), [
    (("2025年冬至是哪一天？", "冬至是哪一天？"), "您查这个是为了安排冬至家庭聚餐吗？"),
    (("在杭州首次申请普通护照需要哪些材料？", "申请护照需要哪些材料？"), "您是护照快到期了要换发新护照吗？"),
])
def test_a_chinese_word_before_the_needs_word_says_no_other_one_of_it(pair, question):
    text, _ = answered(pair, question, "zh", model_says='{"answer": "unknown"}')
    assert not text.startswith("不是")  # "安排冬至", "新护照" are no rivals of 2025年冬至, 普通护照


OCEANIA = ("What is the highest mountain in Oceania, and how tall is it?", "What is the highest mountain, and how tall is it?")


@pytest.mark.parametrize("question", ["Which region or continent are you asking about?",
                                      "Are you thinking of Africa or South America?"])
def test_a_continent_of_geonames_is_a_place(question):
    assert answered(OCEANIA, question) == ("Oceania", "typed")


def test_a_common_word_after_a_value_the_intent_holds_is_no_guess():
    pair = ("Which country won the most gold medals at the 1936 Summer Olympics?",
            "Which country won the most gold medals at the Summer Olympics?")
    assert answered(pair, "Do you mean the 1936 Games?") == ("Yes, 1936", "confirmation")
    assert answered(pair, "Do you mean the 1948 Games?") == ("No, 1936", "confirmation")
    # "Winter" stands against the intent's Summer: a guess, whatever the model picks
    assert answered(pair, "Do you mean the 1936 Winter Olympics?", model_says='{"answer": "1936"}')[0] != "Yes, 1936"
    war = ("Who commanded the Union army in the American Civil War?", "Who commanded the Union army?")
    assert answered(war, "Do you mean the American Revolution?", model_says='{"answer": "unknown"}')[0] != "Yes, American Civil War"


CYCLIST = ("Who is the greatest road cyclist ever and what did he win?", "Who is the greatest ever and what did he win?")
LAW = ("What is a law in science?", "What is a law?")
RIVER = ("Which river is the largest in the world by discharge volume, and how long is it?",
         "Which river is the largest in the world, and how long is it?")
TEQUILA = ("What plant is tequila made from, and in which Mexican state is it produced?",
           "What plant is the spirit made from, and in which state is it produced?")


@pytest.mark.parametrize(("pair", "question", "expected"), [
    (CYCLIST, "Are you asking about the greatest footballer of all time?", "road cyclist"),
    (LAW, "Do you mean a law passed by a parliament?", "science"),  # the intent neither says nor denies it
])
def test_a_description_of_what_is_meant_is_answered_with_what_the_query_left_out(pair, question, expected):
    assert answered(pair, question, model_says='{"answer": "unknown"}') == (expected, "meant")


@pytest.mark.parametrize(("pair", "question"), [
    (RIVER, "Are you thinking of the Amazon?"),  # a name: it guesses the answer
    (TEQUILA, "Is that blue agave you're thinking of?"),  # "that" is the answer
    (CYCLIST, "Are you asking about his wins in the Tour de France too?"),  # an offer of more
])
def test_a_guess_of_the_answer_or_an_offer_of_more_is_not_what_is_meant(pair, question):
    from cts_dataset.protocol.answer_choices import missing_spans
    from cts_dataset.protocol.answer_rules import _what_is_meant
    assert _what_is_meant(question, pair[0], pair[1], missing_spans(pair[0], pair[1], "en")) is None


def test_a_phrase_naming_what_a_choice_is_about_is_no_alternative():
    from cts_dataset.protocol.answer_phrasing import alternatives
    assert alternatives("By background, do you mean his family origins or his military career?", "en") == [
        "do you mean his family origins", "his military career?"]
    assert alternatives("For the capital, or for the whole country?", "en") == ["For the capital", "for the whole country?"]


@pytest.mark.parametrize(("pair", "question"), [
    (("Which Roman emperor ruled from 284 to 305, and what was his background?", "Which Roman emperor ruled, and what was his background?"),
     "By background, do you mean his family origins or his military career?"),
    (("Which planet in the Solar System has the shortest day, and how long is it?", "Which planet has the shortest day, and how long is it?"),
     "Do you mean the sidereal day or the solar day?"),  # "Solar System" is no solar day
])
def test_a_choice_the_intent_takes_no_side_of_is_unknown(pair, question):
    assert answered(pair, question, model_says='{"answer": "unknown"}')[0] == UNKNOWN


def test_a_qualifier_the_intent_has_before_the_shared_head_takes_a_side():
    pair = ("Which planet has the longest solar day, and how long is it?", "Which planet has the longest day, and how long is it?")
    assert answered(pair, "Do you mean the sidereal day or the solar day?") == ("solar", "either_or")


BALLET = ("Which ballet premiered in 1913, and who composed it?", "Which ballet premiered, and who composed it?")
GRASSES = ("Which grasses grow the largest?", "Which plants grow the largest?")
NOVELS = ("Which novels are counted among the most important works in the Spanish language?",
          "Which novels are counted among the most important works?")


@pytest.mark.parametrize(("pair", "question", "expected"), [
    (BALLET, "Which ballet did you mean?", "1913"),  # the user says which by what their query left out
    (GRASSES, "Which plant species or genus do you mean?", "grasses"),  # a choice of kinds the intent lacks
    (NOVELS, "Which genre of novels are you interested in?", "Spanish language"),
    (("Which European empires came to an end in 1918?", "Which European empires came to an end?"),
     "Which European empires did you mean to ask about?", "1918"),  # a place word that asks no place
])
def test_a_question_for_which_thing_is_meant_is_answered_with_what_the_query_left_out(pair, question, expected):
    assert answered(pair, question) == (expected, "meant")


def test_a_time_says_which_only_of_the_thing_the_query_searches_for():
    nobel = ("Who shared the 1903 Nobel Prize in Physics, and for what?", "Who shared the Nobel Prize in Physics, and for what?")
    assert answered(nobel, "What kind of physics do you mean?", model_says='{"answer": "unknown"}') == (UNKNOWN, "")


def test_a_question_for_which_place_or_values_the_intent_does_not_name_is_not_answered_as_meant():
    capital = ("Which city was the official capital of Poland until 1596, and how many people live there today?",
               "Which city was the official capital of Poland, and how many people live there today?")
    assert answered(capital, "Which place or region do you mean?", model_says='{"answer": "Poland"}') == ("Poland", "")
    award = ("Which footballer and boxer were honoured as the greatest of the century in 1999?",
             "Who were honoured as the greatest of the century?")
    assert answered(award, "Which organisation's award do you mean — FIFA's, or a magazine poll?",
                    model_says='{"answer": "unknown"}')[1] != "meant"


def test_a_name_is_answered_without_the_verb_the_query_replaced_beside_it():
    novels = ("Which novels did Fyodor Dostoevsky write, and when were they published?",
              "Which novels did the writer produce, and when were they published?")
    assert answered(novels, "Which writer are you referring to?") == ("Fyodor Dostoevsky", "meant")


def test_what_is_meant_does_not_override_a_rules_unknown():
    suit = ("In law, what is a suit, and who brings it?", "What is a suit, and who brings it?")
    assert answered(suit, "You mean a lawsuit, in the legal sense?") == (UNKNOWN, "confirmation")


@pytest.mark.parametrize(("pair", "question"), [
    (("Which Romantic poet wrote the ode to a nightingale, and which poem made him famous?",
      "Which poet wrote the ode to a nightingale, and which poem made him famous?"),
     "Which poem are you asking about?"),  # the thing of the intent's other question
    (CYCLIST, "What format are you interested in, a list or a table?"),  # a preference
    (BALLET, "Which Giselle are you referring to?"),  # a name the intent lacks guesses
])
def test_a_question_about_another_thing_a_preference_or_a_named_guess_is_not_which_is_meant(pair, question):
    assert answered(pair, question, model_says='{"answer": "unknown"}')[1] != "meant"


def test_a_choice_before_the_question_is_no_frame_and_a_dotted_abbreviation_no_sentence_end():
    from cts_dataset.protocol.answer_phrasing import alternatives
    from cts_dataset.protocol.answer_rules import _asking_part
    assert alternatives("By length or by discharge, which do you mean?", "en")[:2] == ["By length", "by discharge"]
    assert _asking_part("Which year's figure for Washington, D.C.?") == "Which year's figure for Washington, D.C.?"
    assert _asking_part("Which fire do you mean? Rome burned more than once.") == "Which fire do you mean?"
