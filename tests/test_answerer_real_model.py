"""The choosing user answerer on the packaged model for real (llama.cpp, Qwen2.5-Coder-1.5B, greedy):
its answers are the intent's own words or unknown, whatever the model would have written."""

import pytest

from cts_dataset.data import load
from cts_dataset.protocol import answerer
from cts_dataset.protocol.answer_choices import choices
from cts_dataset.protocol.roles import RoleSettings
from cts_dataset.protocol.views import AnswererView


@pytest.fixture(scope="module")
def model(packaged_model):
    return packaged_model


def test_the_packaged_model_chooses_the_intents_words(model):
    tangshan = next(i for i in load() if i.id == "demo-0001")
    questions = ["Which year do you mean?", "Which part of the world?", "Do you mean the 1976 one?",
                 "How would you like the strength measured?"]
    views = [AnswererView(tangshan.fused_query, "en", q, tangshan.blurred_query) for q in questions]
    views.append(AnswererView("2023年杭州亚运会中国代表团获得了多少枚金牌？", "zh", "您指的是哪一年的亚运会？",
                              "亚运会中国代表团获得了多少枚金牌？"))
    answers = answerer.answer(model, views, RoleSettings(prompt_version="v3"), mode="choose")
    assert all(a.parsed and a.faithful for a in answers), [a.raw for a in answers]
    for view, a in zip(views, answers, strict=True):  # faithful by construction: an option, phrased, or unknown
        offered = choices(view.fused_query, view.blurred_query, view.language)
        assert a.is_unknown or any(a.text.endswith(o) for o in offered), a.text
    assert answers[0].text == "1976" and answers[1].text == "Tangshan, Hebei"
    assert answers[2].text.startswith("Yes, ") and "1976" in answers[2].text  # "Yes, 1976 earthquake" will do
    assert answers[4].text == "2023年"
    assert not answers[3].decided_by, "how to measure the strength is no rule's: the model chose"
