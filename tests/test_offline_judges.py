"""The lexical and embedding judges on real text: the demo instances' nuggets and the Wikipedia corpus."""

import pytest

import cts_dataset
from cts_dataset.judges import JudgeItem, make_judge
from cts_dataset.judges.embedding import EmbeddingJudge, answer_passages
from cts_dataset.judges.lexical import LexicalJudge
from cts_dataset.judges.text import content_tokens, sentences
from cts_dataset.scoring import restore_score


@pytest.fixture(scope="session")
def embedding_judge() -> EmbeddingJudge:
    # The dev extra installs the embed extra: a missing or broken install fails here, it does not skip.
    judge = EmbeddingJudge()
    _ = judge.model  # loaded once for the whole session
    return judge


@pytest.fixture(scope="module")
def demo():
    """(references, answers from the nuggets' own source documents, answers from another instance's)."""
    instances = cts_dataset.load()[:20]  # a fixed slice keeps the embedding run short
    documents = {d.id: d for d in cts_dataset.load_corpus()}
    references = [[n.model_dump() for n in i.nuggets] for i in instances]
    own = ["\n".join(dict.fromkeys(documents[s].text for n in i.nuggets for s in n.sources)) for i in instances]
    return references, own, own[1:] + own[:1]


def test_tokens_keep_numbers_stem_english_and_split_chinese_into_bigrams():
    assert content_tokens("The official count gave 242,469 deaths in 1976.") == [
        "offici", "count", "gave", "242469", "death", "1976"]
    assert content_tokens("唐山大地震") == ["唐山", "山大", "大地", "地震"]
    assert content_tokens("造成24万人死亡") == ["造成", "24", "万人", "人死", "死亡"]
    assert sentences("It hit at 3.5 km. Then it stopped!\n唐山大地震。造成死亡") == [
        "It hit at 3.5 km.", "Then it stopped!", "唐山大地震。", "造成死亡"]


@pytest.mark.parametrize("judge_name", ["lexical", "embedding"])
def test_source_documents_score_high_and_unrelated_ones_low(judge_name, demo, request):
    judge = request.getfixturevalue("embedding_judge") if judge_name == "embedding" else LexicalJudge()
    references, own, other = demo
    with_source = restore_score(own, references, judge=judge)
    unrelated = restore_score(other, references, judge=judge)
    assert with_source["restore_score_100"] >= (90 if judge_name == "lexical" else 60)
    assert unrelated["restore_score_100"] <= 15
    assert all(a > b for a, b in zip(with_source["per_instance"], unrelated["per_instance"]))
    assert with_source["n_unscored_nuggets"] == 0


def test_lexical_labels_by_coverage_thresholds():
    judge = LexicalJudge()
    [result] = judge.judge([JudgeItem(
        answer="The earthquake struck Tangshan in 1976. The official count gave 242,469 deaths.",
        nuggets=("The official count gave 242,469 deaths.",        # all 5 content tokens: full
                 "Historians accept that 242,469 people died in the 1976 Tangshan earthquake.",  # 4 of 8: partial
                 "Mercury is a liquid metal.",                        # none
                 "It was all of that."))])                              # only stop words: unscored
    assert result.labels == ["full", "partial", "none", None]
    assert result.evidence[:3] == [1.0, pytest.approx(4 / 8), 0.0]


def test_lexical_judge_on_chinese_text():
    answer = "1976年7月28日，河北唐山发生7.8级大地震，官方公布死亡人数为242469人。"
    [result] = LexicalJudge().judge([JudgeItem(answer=answer, nuggets=(
        "唐山大地震发生在1976年。", "官方公布死亡人数为242469人。", "汞是常温下唯一的液态金属。"))])
    assert result.labels[1] == "full"
    assert result.labels[0] in ("full", "partial")
    assert result.labels[2] == "none"


def test_embedding_judge_sees_paraphrase_and_empty_answers(embedding_judge):
    paraphrase = "According to the government's figures, the disaster killed 242,469 people."
    nugget = "The official count gave 242,469 deaths."
    [emb, empty] = embedding_judge.judge([JudgeItem(paraphrase, (nugget, "Mercury is commonly known as quicksilver.")),
                                          JudgeItem("", (nugget,))])
    [lex] = LexicalJudge().judge([JudgeItem(paraphrase, (nugget,))])
    assert emb.evidence[0] > emb.evidence[1] + 0.3
    assert emb.labels[1] == "none"
    assert emb.evidence[0] > lex.evidence[0]
    assert empty.labels == ["none"] and empty.evidence == [0.0]


def test_embedding_passages_include_neighbour_pairs():
    assert answer_passages("A b. C d. E f.") == ["A b.", "C d.", "E f.", "A b. C d.", "C d. E f."]


def test_factory_and_threshold_checks():
    assert isinstance(make_judge("lexical", full=0.9, partial=0.1), LexicalJudge)
    with pytest.raises(ValueError):
        LexicalJudge(full=0.2, partial=0.5)
