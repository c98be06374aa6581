"""The deep-search backbone: search tools (local BM25 corpus, web) and searchers (retrieval, ReAct)."""
