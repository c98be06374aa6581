import shutil

import pytest

from cts_dataset import corpus


def test_corpus_checksum_count_and_stable_ids():
    documents = corpus.load_corpus()
    assert len(documents) == corpus.DOCUMENT_COUNT == 10033
    index = corpus.corpus_index()
    einstein = index["Albert_Einstein"]
    assert einstein.title == "Albert Einstein" and "physicist" in einstein.text
    assert corpus.doc_url("Albert_Einstein") == "https://en.wikipedia.org/wiki/Albert_Einstein"
    assert [d.id for d in documents] == sorted(d.id for d in documents)


def test_a_changed_source_file_is_refused(tmp_path, monkeypatch):
    copy = tmp_path / "summaries_en-us.json"
    shutil.copyfile(corpus.source_path(), copy)
    with open(copy, "ab") as handle:
        handle.write(b" ")
    monkeypatch.setattr(corpus, "source_path", lambda: copy)
    corpus.load_corpus.cache_clear()
    try:
        with pytest.raises(corpus.CorpusError, match="differs from the pinned"):
            corpus.load_corpus()
    finally:
        corpus.load_corpus.cache_clear()
