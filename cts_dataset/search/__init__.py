"""The deep-search backbone: search tools (local BM25 corpus, web) and searchers (retrieval, ReAct).

``load_searcher("retrieval")`` or ``load_searcher("react", model=...)`` gives a :class:`Searcher`
whose ``search(queries)`` returns one :class:`SearchOutput` per query.
"""

from cts_dataset.search.records import SearchOutput, Termination, TraceEvent
from cts_dataset.search.searcher import Searcher, SearcherConfig, ToolConfig, load_searcher, load_tool
from cts_dataset.search.tool import Page, SearchHit, SearchTool

__all__ = [
    "Page", "SearchHit", "SearchOutput", "SearchTool", "Searcher", "SearcherConfig", "Termination",
    "ToolConfig", "TraceEvent", "load_searcher", "load_tool",
]
