"""Tolerant field mapping for the release's files, whose column and key names are not published.

Each field we need (a *role*, e.g. ``queries.fused_query``) is looked up among a file's fields (CSV
headers or JSON keys, nested keys as ``parent.child``) by its aliases, English or Chinese, compared
after normalisation (case, spaces, dashes, dots, a BOM, full-width forms). An exact alias beats a
keyword match, an earlier alias a later one; each field serves one role. When a required role has no
field, or two fields fit a role equally well, :class:`MappingError` names the file, the fields found
and the fields needed; ``--map ROLE=FIELD`` settles either.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from cts_dataset.errors import CtsbenchError


@dataclass(frozen=True)
class Role:
    """One field we need: exact aliases (best first) and keywords that suggest it."""

    name: str
    aliases: tuple[str, ...]
    keywords: tuple[str, ...] = ()
    required: bool = True


class MappingError(CtsbenchError, ValueError):
    """A file whose fields cannot be mapped to ours; nothing was written."""

    def __init__(self, file: str, problem: str, found: Sequence[str], needed: Sequence[Role], hint: str = "") -> None:
        self.file, self.problem, self.found, self.needed = file, problem, list(found), list(needed)
        wanted = "\n".join(f"    {r.name}{'' if r.required else ' (optional)'}: one of {', '.join(r.aliases)}"
                           for r in needed)
        super().__init__(f"{file}: {problem}\n  fields found: {', '.join(found) or '(none)'}\n"
                         f"  fields needed:\n{wanted}\n  {hint or 'name the field with --map ROLE=FIELD'}")

    def with_hint(self, hint: str) -> MappingError:
        return MappingError(self.file, self.problem, self.found, self.needed, hint)


def normalise(name: object) -> str:
    """A field name compared by: NFKC (full-width forms), no BOM or quotes, lower case, ``_`` separators."""
    text = unicodedata.normalize("NFKC", str(name)).replace("\ufeff", "").strip().strip("\"'").lower()
    return re.sub(r"[\s\-./:]+", "_", text).strip("_")


def _score(role: Role, field: str) -> int:
    """How well a field fits a role: 100 - alias rank for an exact alias, 10 for a keyword, 0 for none."""
    name = normalise(field)
    for rank, alias in enumerate(role.aliases):
        if name == normalise(alias):
            return 100 - rank
    return 10 if any(_suggests(normalise(k), name) for k in role.keywords) else 0


def _suggests(keyword: str, name: str) -> bool:
    """A Latin keyword starts a word of the name ("import" in "importance", not "text" in "context"); a
    Chinese one occurs anywhere in it."""
    if keyword.isascii():
        return any(word.startswith(keyword) for word in name.split("_"))
    return keyword in name


@dataclass(frozen=True)
class FieldMap:
    """The field each role maps to (None: an optional role with no field), and how it was chosen."""

    file: str
    fields: tuple[str, ...]
    chosen: Mapping[str, str | None]
    how: Mapping[str, str]

    def __getitem__(self, role: str) -> str | None:
        return self.chosen.get(role)

    def describe(self) -> list[str]:
        """``role <- field (how)`` lines for the import log and manifest."""
        return [f"{role} <- {field!r} ({self.how[role]})" for role, field in self.chosen.items() if field is not None]


def map_fields(fields: Iterable[str], roles: Sequence[Role], file: str,
               overrides: Mapping[str, str] | None = None, hint: str = "") -> FieldMap:
    """Map ``roles`` onto ``fields`` (see the module docstring); raises :class:`MappingError`."""
    found = list(dict.fromkeys(str(f) for f in fields))
    chosen: dict[str, str | None] = {}
    how: dict[str, str] = {}
    used: set[str] = set()
    for role in roles:
        wanted = (overrides or {}).get(role.name)
        if wanted is None:
            continue
        match = [f for f in found if f == wanted] or [f for f in found if normalise(f) == normalise(wanted)]
        if not match:
            raise MappingError(file, f"--map {role.name}={wanted}: no such field", found, roles, hint)
        chosen[role.name], how[role.name] = match[0], "--map"
        used.add(match[0])
    # Roles with the strongest evidence choose first, so "blurred_query" is taken before "query" is guessed.
    pending = [r for r in roles if r.name not in chosen]
    pending.sort(key=lambda r: -max((_score(r, f) for f in found), default=0))
    for role in pending:
        scored = sorted(((_score(role, f), f) for f in found if f not in used), key=lambda s: -s[0])
        scored = [s for s in scored if s[0] > 0]
        if not scored:
            chosen[role.name] = None
            continue
        if len(scored) > 1 and scored[0][0] == scored[1][0]:
            raise MappingError(file, f"{role.name}: fields {scored[0][1]!r} and {scored[1][1]!r} fit equally well",
                               found, roles, hint or f"choose one with --map {role.name}=FIELD")
        chosen[role.name] = scored[0][1]
        how[role.name] = "alias" if scored[0][0] > 10 else "keyword"
        used.add(scored[0][1])
    missing = [r for r in roles if r.required and chosen.get(r.name) is None]
    if missing:
        raise MappingError(file, "cannot map " + ", ".join(r.name for r in missing), found, roles, hint)
    return FieldMap(file, tuple(found), {r.name: chosen.get(r.name) for r in roles}, how)


def known_roles(*groups: Sequence[Role]) -> set[str]:
    return {r.name for group in groups for r in group}


def parse_overrides(items: Iterable[str], allowed: set[str]) -> dict[str, str]:
    """``ROLE=FIELD`` pairs from the command line, checked against the known roles."""
    out: dict[str, str] = {}
    for item in items:
        role, sep, field = item.partition("=")
        role, field = role.strip(), field.strip()
        if not sep or not field:
            raise CtsbenchError(f"--map {item!r}: expected ROLE=FIELD, e.g. --map queries.fused_query=意图")
        if role not in allowed:
            raise CtsbenchError(f"--map {item!r}: unknown role {role!r}; known: {', '.join(sorted(allowed))}")
        out[role] = field
    return out


_ID = ("id", "qid", "query_id", "queryid", "instance_id", "item_id", "sample_id", "question_id", "uid", "idx",
       "index", "no", "编号", "序号", "问题编号", "查询编号", "样本编号", "题号", "id号")
ID_KEYWORDS = ("编号",)

QUERY_ROLES: tuple[Role, ...] = (
    Role("queries.id", _ID, ID_KEYWORDS, required=False),
    Role("queries.fused_query",
         ("fused_query", "fused", "intent_query", "intent", "q_star", "qstar", "q*", "full_query", "original_query",
          "clear_query", "specific_query", "query_fused", "融合查询", "融合后查询", "意图查询", "真实意图", "用户意图",
          "完整查询", "明确查询", "原始查询", "原查询", "query", "question", "查询", "问题"),
         ("fused", "intent", "融合", "意图", "完整", "原始")),
    Role("queries.blurred_query",
         ("blurred_query", "blurred", "blur_query", "blurry_query", "vague_query", "ambiguous_query",
          "underspecified_query", "query_blurred", "模糊查询", "模糊化查询", "模糊后查询", "模糊问题", "模糊query"),
         ("blur", "vague", "ambig", "underspec", "模糊")),
    Role("queries.language", ("language", "lang", "语言", "语种"), ("lang", "语言"), required=False),
    Role("queries.removed_constraints",
         ("removed_constraints", "constraints", "missing_constraints", "removed", "blur_constraints",
          "删除约束", "移除约束", "缺失约束", "被删除的约束", "约束"),
         ("constraint", "约束"), required=False),
)

GOLD_ROLES: tuple[Role, ...] = (
    Role("gold.id", _ID, ID_KEYWORDS, required=False),
    Role("gold.query", ("query", "fused_query", "intent_query", "question", "q", "查询", "问题", "意图查询"),
         ("query", "question", "查询"), required=False),
    Role("gold.nuggets", ("nuggets", "gold_nuggets", "golden_nuggets", "nugget_list", "gold", "golden", "facts",
                          "key_points", "points", "claims", "要点", "信息点", "金标", "知识点"),
         ("nugget", "要点")),
    # Parallel lists beside a list of nugget strings.
    Role("gold.weights", ("weights", "nugget_weights", "权重"), ("weights",), required=False),
    Role("gold.sources", ("sources", "nugget_sources", "source_ids", "来源"), ("sources",), required=False),
)

NUGGET_ROLES: tuple[Role, ...] = (
    Role("nugget.text", ("text", "nugget", "content", "statement", "fact", "claim", "point", "description",
                         "nugget_text", "内容", "文本", "要点", "信息点", "描述"), ("text", "内容")),
    Role("nugget.weight", ("weight", "w", "importance", "score", "priority", "level", "权重", "重要性", "重要度",
                           "分值", "分数"), ("weight", "import", "权重", "重要")),
    Role("nugget.sources", ("sources", "source", "source_ids", "source_id", "doc_ids", "doc_id", "docids",
                            "evidence_ids", "evidence", "refs", "references", "citations", "urls", "url", "links",
                            "来源", "出处", "证据", "引用"), ("source", "evid", "cit", "ref", "url", "来源", "出处")),
)

CANDIDATE_ROLES: tuple[Role, ...] = (
    Role("candidate.id", _ID, ID_KEYWORDS, required=False),
    Role("candidate.answer", ("answer", "final_answer", "prediction", "pred", "output", "response", "result",
                              "generation", "report", "content", "text", "回答", "答案", "最终答案", "输出"),
         ("answer", "output", "response", "回答", "答案")),
    Role("candidate.query", ("query", "rewritten_query", "question", "查询", "问题"), ("query",), required=False),
    Role("candidate.condition", ("condition", "setting", "budget", "k", "条件"), (), required=False),
)
