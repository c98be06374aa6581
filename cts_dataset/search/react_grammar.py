"""A GBNF grammar for one agent step in WebDancer's format: free thinking, then one valid action.

Small models think well enough but write the action wrongly (a tool call in a ```json fence, no tags, an
answer from memory), so the step's reply is held to ``<think>...</think>`` followed by exactly one of:
a ``search`` call, a ``visit`` call to a link the run has already been shown, or an ``<answer>``. The
transcript stays WebDancer's: the grammar only rules out replies the parser would reject.
"""

from __future__ import annotations

import json
from collections.abc import Sequence

THOUGHT_CHARS = 600  # a step's thinking: a few sentences; a bound keeps a rambling model from running out of tokens
QUERY_CHARS = 120
GOAL_CHARS = 200

# A JSON string the parser reads back: no quote, backslash, control character or "<", and not blank.
_STRING = '"\\"" [^"\\\\\\x00-\\x1f< ] [^"\\\\\\x00-\\x1f<]{0,%d} "\\""'


def _literal(text: str) -> str:
    """``text`` as a GBNF string literal (JSON escapes are GBNF escapes)."""
    return json.dumps(text, ensure_ascii=False)


def step_grammar(*, search: bool, visit_urls: Sequence[str] = (), answer: bool = True,
                 max_queries: int = 3, first_query: str | None = None) -> str:
    """The grammar of one step. ``search``/``answer``: whether those actions are allowed;
    ``visit_urls``: the links a visit may name (none: no visit); ``first_query``: a search must begin
    with this query (the user's question, so the first results are at least one retrieval's)."""
    actions: list[str] = []
    rules = [
        "root ::= think action",
        f'think ::= "<think>\\n" [^<]{{0,{THOUGHT_CHARS}}} "\\n</think>\\n"',
    ]
    if search:
        extra = f' ("," " "? query){{0,{max_queries - 1}}}' if max_queries > 1 else ""
        first = _literal(_literal(" ".join(first_query.split()))) if first_query else "query"
        rules += [
            'search ::= "<tool_call>\\n{\\"name\\": \\"search\\", \\"arguments\\": {\\"query\\": [" '
            + first + extra + ' "]}}\\n</tool_call>"',
            "query ::= " + _STRING % (QUERY_CHARS - 1),
        ]
        actions.append("search")
    if any(url.strip() for url in visit_urls):
        links = " | ".join(_literal(_literal(url)) for url in dict.fromkeys(visit_urls) if url.strip())
        rules += [
            ('visit ::= "<tool_call>\\n{\\"name\\": \\"visit\\", \\"arguments\\": {\\"url\\": [" link'
             ' "], \\"goal\\": " goal "}}\\n</tool_call>"'),
            f"link ::= {links}",
            "goal ::= " + _STRING % (GOAL_CHARS - 1),
        ]
        actions.append("visit")
    if answer:
        rules.append('answer ::= "<answer>" [^<]{1,2000} "</answer>"')
        actions.append("answer")
    if not actions:
        raise ValueError("a step grammar needs at least one allowed action")
    rules.insert(1, "action ::= " + " | ".join(actions))
    return "\n".join(rules) + "\n"
