"""The prompts of ``ctsbench build`` (blurring, nugget extraction), English and Chinese, versioned by id.

They are built in code; each has an id (``build/<step>/v1/<language>``) and a hash of its templates,
recorded in ``build.json`` so that a set of built instances names the prompts that made it.
"""

from __future__ import annotations

from cts_dataset.prompts import ChatPrompt

TYPES = "time|region|scope|entity|number|definition|other"

BLUR_EN = ChatPrompt(
    "build/blur/v1/en",
    system="You write underspecified versions of search queries for a benchmark of clarifying questions.",
    user=f"""Intent query (fully specified): $query

Remove one or two of its constraints so that the query becomes underspecified: several different answers
would fit what is left, and a good assistant would need to ask a clarifying question. A constraint is a
time, a region (place), a scope, an entity qualifier, a number or a definition that the intent query states.

Rules:
- Copy each removed constraint's "value" exactly, character for character, from the intent query.
- The blurred query must not contain any removed value; otherwise keep the intent query's wording.
- Keep it a natural, fluent question in the intent query's language.
$feedback
Reply with JSON only: {{"blurred_query": "...", "removed_constraints": [{{"type": "{TYPES}", "value": "..."}}]}}""",
)

BLUR_ZH = ChatPrompt(
    "build/blur/v1/zh",
    system="你负责为一个澄清问题基准改写搜索查询：把意图明确的查询改写成信息不足的模糊查询。",
    user=f"""意图查询（信息完整）：$query

请从中删除一到两个约束，使查询变得信息不足：剩下的内容可以对应多个不同的答案，一个好的助手需要先提出澄清问题。约束是指意图查询中写明的时间、地区（地点）、范围、实体限定、数量或定义。

要求：
- 每个被删除约束的 "value" 必须从意图查询中逐字照抄。
- 模糊查询中不得出现任何被删除的值；其余部分尽量保留意图查询的原有措辞。
- 模糊查询要自然通顺，并使用与意图查询相同的语言。
$feedback
只输出 JSON：{{"blurred_query": "...", "removed_constraints": [{{"type": "{TYPES}", "value": "..."}}]}}""",
)

NUGGETS_EN = ChatPrompt(
    "build/nuggets/v1/en",
    system="You extract gold nuggets for judging search answers: atomic facts, each stated by the given documents.",
    user="""Question: $query

Documents:
$documents

List $min_nuggets to $max_nuggets nuggets: the facts that a complete answer to the question must state, each
taken from the documents above.
- A nugget is one short sentence that states one fact, in the documents' own words where possible. No
  opinions, and nothing that the documents do not say.
- "weight": 3 for the core answer to the question, 2 for an important detail, 1 for a supporting detail.
- "sources": the ids (in square brackets above) of the documents that state the fact.
$feedback
Reply with JSON only: {"nuggets": [{"text": "...", "weight": 3, "sources": ["..."]}]}""",
)

NUGGETS_ZH = ChatPrompt(
    "build/nuggets/v1/zh",
    system="你负责为评判搜索答案抽取金标信息点：每个信息点是一条原子事实，并且由给定文档写明。",
    user="""问题：$query

文档：
$documents

请列出 $min_nuggets 到 $max_nuggets 个信息点：一个完整回答该问题时必须写明的事实，每一条都取自上面的文档。
- 一个信息点是一句简短的话，只陈述一条事实，尽量使用文档原文的措辞；不要写观点，也不要写文档中没有的内容。
- "weight"：问题的核心答案为 3，重要细节为 2，辅助细节为 1。
- "sources"：写明该事实的文档编号（上文方括号中的编号）。
$feedback
只输出 JSON：{"nuggets": [{"text": "...", "weight": 3, "sources": ["..."]}]}""",
)

BLUR = {"en": BLUR_EN, "zh": BLUR_ZH}
NUGGETS = {"en": NUGGETS_EN, "zh": NUGGETS_ZH}

FEEDBACK = {
    "en": "Your previous reply had these problems; avoid them: {problems}",
    "zh": "你上一次的回答有以下问题，请避免：{problems}",
}


def prompt_ids() -> dict[str, str]:
    """Prompt id -> hash of every build prompt."""
    return {p.id: p.hash or "" for table in (BLUR, NUGGETS) for p in table.values()}
