"""The local corpus tool and the retrieval searcher over a real BM25 index."""

from __future__ import annotations

import json

import pytest

import cts_dataset
from cts_dataset.records import Document
from cts_dataset.search import load_searcher, load_tool
from cts_dataset.search.corpus_tool import CorpusSearchTool
from cts_dataset.search.records import Termination
from cts_dataset.text import tokenize


@pytest.fixture(scope="module")
def shipped_tool(tmp_path_factory):
    """The shipped corpus, indexed into a temporary cache folder (never the user's cache)."""
    return CorpusSearchTool(cache_root=tmp_path_factory.mktemp("bm25"))


def gold(instance) -> set[str]:
    return {source for nugget in instance.nuggets for source in nugget.sources}


def test_bm25_finds_the_cited_documents_from_the_fused_queries(shipped_tool):
    instances = cts_dataset.load()
    outputs = load_searcher("retrieval", tool=shipped_tool).search([i.fused_query for i in instances])
    cited = sum(len(gold(i)) for i in instances)
    found = sum(len(gold(i) & set(o.retrieved_doc_ids[:10])) for i, o in zip(instances, outputs))
    assert found / cited >= 0.9, f"recall@10 of the cited documents: {found}/{cited}"
    for instance, output in zip(instances, outputs):
        assert output.retrieved_doc_ids, instance.id


def test_retrieval_answer_is_the_top_passages_capped_and_deterministic(shipped_tool):
    query = "How many people died in the 1976 earthquake in Tangshan, Hebei?"
    searcher = load_searcher({"kind": "retrieval", "retrieval": {"passages": 2, "max_answer_words": 40}},
                             tool=shipped_tool)
    first, again = searcher.search([query])[0], searcher.search([query])[0]
    assert first == again and first.termination is Termination.answer
    assert first.answer.startswith("[1] 1976 Tangshan earthquake (https://en.wikipedia.org/wiki/1976_Tangshan_earthquake)")
    body_words = sum(len(part.split("\n", 1)[1].replace(" ...", "").split()) for part in first.answer.split("\n\n"))
    assert body_words == 40 and "[3]" not in first.answer
    assert len(first.retrieved_doc_ids) == 10 and first.model is None and first.llm_calls == 0
    assert first.trace[1].tool == "search" and first.trace[1].doc_ids == first.retrieved_doc_ids


def test_no_match_is_answer_not_found(shipped_tool):
    [out] = load_searcher("retrieval", tool=shipped_tool).search(["zzqxv wqxzz"])
    assert out.termination is Termination.answer_not_found and out.answer == "" and out.retrieved_doc_ids == []


def test_visit_resolves_links_ids_and_titles(shipped_tool):
    for doc in ("https://en.wikipedia.org/wiki/1976_Tangshan_earthquake", "1976_Tangshan_earthquake",
                "1976 Tangshan earthquake", "[x](https://en.wikipedia.org/wiki/1976_Tangshan_earthquake)"):
        page = shipped_tool.visit(doc, "deaths")
        assert page.found and page.doc_id == "1976_Tangshan_earthquake" and "Tangshan" in page.text, doc
    assert not shipped_tool.visit("https://en.wikipedia.org/wiki/No_such_page_xyz").found


def write_corpus(path, documents) -> None:
    path.write_text("".join(json.dumps(d.model_dump()) + "\n" for d in documents))


DOCS = [
    Document(id="Great_Wall", title="Great Wall", description="", topic="", text="The Great Wall of China is long."),
    Document(id="Yangtze", title="Yangtze", description="", topic="", text="The Yangtze is the longest river in Asia."),
]


def test_index_is_reused_and_rebuilt_only_when_the_corpus_file_changes(tmp_path):
    corpus, cache = tmp_path / "corpus.jsonl", tmp_path / "cache"
    write_corpus(corpus, DOCS)
    first = load_tool({"kind": "corpus", "corpus_file": str(corpus)}, cache_root=cache)
    assert first.index.built
    folders = sorted(p.name for p in cache.iterdir())
    again = load_tool({"kind": "corpus", "corpus_file": str(corpus)}, cache_root=cache)
    assert not again.index.built and again.name == first.name
    assert sorted(p.name for p in cache.iterdir()) == folders
    assert again.search(["longest river"])[0][0].doc_id == "Yangtze"

    changed = [*DOCS, Document(id="Mekong", title="Mekong", description="", topic="", text="The Mekong river flows south.")]
    write_corpus(corpus, changed)
    rebuilt = load_tool({"kind": "corpus", "corpus_file": str(corpus)}, cache_root=cache)
    assert rebuilt.index.built and rebuilt.name != first.name
    assert len(list(cache.iterdir())) == len(folders) + 1
    assert rebuilt.search(["Mekong"])[0][0].doc_id == "Mekong"


def test_a_description_only_change_rebuilds_the_index_and_renames_the_tool(tmp_path):
    first = CorpusSearchTool(DOCS, cache_root=tmp_path)
    assert first.search(["tributaries"]) == [[]]
    edited = [DOCS[0], DOCS[1].model_copy(update={"description": "River with many tributaries"})]
    second = CorpusSearchTool(edited, cache_root=tmp_path)
    assert second.index.built and second.name != first.name
    assert [h.doc_id for h in second.search(["tributaries"])[0]] == ["Yangtze"]
    assert "many tributaries" in second.visit("Yangtze").text


def test_the_cache_folder_comes_from_the_environment(tmp_path, monkeypatch):
    monkeypatch.setenv("CTSBENCH_CACHE_DIR", str(tmp_path))
    CorpusSearchTool(DOCS)
    assert [p.name for p in (tmp_path / "bm25").iterdir() if not p.name.startswith(".")]


ZH_DOCS = [
    Document(id="唐山大地震", title="唐山大地震", description="", topic="",
             text="唐山大地震发生于1976年7月28日，震级为7.8级，造成二十四万余人死亡。"),
    Document(id="长江", title="长江", description="", topic="", text="长江是中国第一长河，流经上海入海。"),
    Document(id="北京", title="北京", description="", topic="", text="北京是中华人民共和国的首都。"),
]


def test_chinese_text_is_tokenised_into_characters_and_bigrams():
    tokens = tokenize("唐山大地震死亡人数")
    assert {"唐山", "地震", "死亡", "人数", "唐"} <= set(tokens)
    assert "唐山大地震死亡人数" not in tokens  # a run of Chinese is never one token
    assert {"1976", "年", "唐山"} <= set(tokenize("1976年唐山"))  # digits do not swallow the Chinese after them
    mixed = tokenize("Tangshan 地震 earthquakes")
    assert {"tangshan", "earthquak", "地震"} <= set(mixed)


def test_chinese_queries_find_chinese_documents(tmp_path):
    tool = CorpusSearchTool(ZH_DOCS, cache_root=tmp_path)
    results = tool.search(["1976年唐山地震死了多少人", "中国最长的河流", "首都是哪里"], k=3)
    assert [hits[0].doc_id for hits in results] == ["唐山大地震", "长江", "北京"]
    assert tool.visit("唐山大地震").found
