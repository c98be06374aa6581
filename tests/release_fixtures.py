"""A SYNTHETIC stand-in for the Clarify-Then-Search release archive, for testing `ctsbench import-release`.

Everything here is made up for tests: the places, numbers and facts are fictional, and the archive is not
the official release (whose column names are not published). It follows the documented layout,
``release/data/hard_518_queries.csv``, ``release/data/gold_public_hard518.jsonl`` and
``release/results/candidates/<system>__cand_hard518.jsonl``, under several plausible header variants
(English, Chinese, BOM, TSV, nested and parallel nuggets, no ids) and broken ones.
"""

from __future__ import annotations

import csv
import io
import json
import threading
import zipfile
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlparse

NOTICE = ("SYNTHETIC TEST FIXTURE written by the ctsbench test suite. It is NOT the Clarify-Then-Search "
          "release: every query, nugget and answer in it is fictional.\n")


@dataclass(frozen=True)
class Item:
    fused: str
    blurred: str
    constraints: tuple[tuple[str, str], ...]
    nuggets: tuple[tuple[str, int], ...]  # (text, weight)
    answer: str


ITEMS = (
    Item("2021年青松市的常住人口是多少？", "青松市的常住人口是多少？", (("时间", "2021年"),),
         (("2021年青松市常住人口为128万人。", 3), ("其中城镇人口占百分之六十二。", 1)),
         "2021年青松市常住人口为128万人。"),
    Item("白鹭湖国家公园在2019年接待了多少游客？", "白鹭湖公园接待了多少游客？", (("范围", "国家"), ("时间", "2019年")),
         (("白鹭湖国家公园2019年接待游客340万人次。", 3), ("游客中外地游客约占七成。", 2)),
         "白鹭湖国家公园2019年接待游客340万人次，外地游客约占七成。"),
    Item("星河牌电动车在华南地区的售价是多少？", "星河牌电动车的售价是多少？", (("地区", "华南地区"),),
         (("星河牌电动车在华南地区的起售价为五万八千元。", 2), ("高配版售价为七万二千元。", 1)),
         "星河牌电动车的价格大约在六万元左右。"),
    Item("云杉大学计算机学院2022年录取了多少名研究生？", "云杉大学录取了多少名研究生？",
         (("实体", "计算机学院"), ("时间", "2022年")),
         (("云杉大学计算机学院2022年录取研究生416名。", 3), ("其中博士研究生58名。", 1)),
         "没有找到相关信息。"),
)


def source_of(variant: str, item: int, nugget: int) -> str:
    return f"https://synthetic.invalid/{variant}/{item}/{nugget}"


def _csv(header: list[str], rows: list[list[str]], delimiter: str = ",", bom: bool = False) -> bytes:
    buffer = io.StringIO(newline="")
    writer = csv.writer(buffer, delimiter=delimiter, lineterminator="\n")
    writer.writerow(header)
    writer.writerows(rows)
    return (("\ufeff" if bom else "") + buffer.getvalue()).encode("utf-8")


def _jsonl(records: list[dict[str, Any]], bom: bool = False) -> bytes:
    text = "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in records)
    return (("\ufeff" if bom else "") + text).encode("utf-8")


def _constraints_text(item: Item) -> str:
    return ";".join(f"{t}:{v}" for t, v in item.constraints)


# Each variant: (queries file name, queries bytes, gold bytes, candidates bytes), built from ITEMS.
def english(variant: str) -> tuple[str, bytes, bytes, bytes]:
    """The documented names (fused_query, blurred_query) and plain English keys."""
    queries = _csv(["id", "fused_query", "blurred_query"],
                   [[f"q{i}", it.fused, it.blurred] for i, it in enumerate(ITEMS, 1)])
    gold = _jsonl([{"id": f"q{i}", "query": it.fused,
                    "nuggets": [{"text": t, "weight": w, "sources": [source_of(variant, i, j)]}
                                for j, (t, w) in enumerate(it.nuggets, 1)]} for i, it in enumerate(ITEMS, 1)])
    cands = _jsonl([{"id": f"q{i}", "answer": it.answer} for i, it in enumerate(ITEMS, 1)])
    return "hard_518_queries.csv", queries, gold, cands


def chinese_bom(variant: str) -> tuple[str, bytes, bytes, bytes]:
    """Chinese headers and keys, files with a UTF-8 BOM, constraints as text, weights as labels, sources as text."""
    labels = {3: "高", 2: "中", 1: "低"}
    queries = _csv(["编号", "融合查询", "模糊查询", "删除约束"],
                   [[str(i), it.fused, it.blurred, _constraints_text(it)] for i, it in enumerate(ITEMS, 1)], bom=True)
    gold = _jsonl([{"编号": str(i), "查询": it.fused,
                    "要点": [{"内容": t, "权重": labels[w], "来源": f"{source_of(variant, i, j)}, {source_of(variant, i, 0)}"}
                           for j, (t, w) in enumerate(it.nuggets, 1)]} for i, it in enumerate(ITEMS, 1)], bom=True)
    cands = _jsonl([{"编号": str(i), "回答": it.answer} for i, it in enumerate(ITEMS, 1)], bom=True)
    return "hard_518_queries.csv", queries, gold, cands


def tsv_nested(variant: str) -> tuple[str, bytes, bytes, bytes]:
    """TSV, zero-padded ids in the queries but numbers in the gold, nuggets nested under "gold", a language
    column, TREC-style vital/okay weights, answers nested in an object."""
    queries = _csv(["qid", "intent_query", "vague_query", "lang"],
                   [[f"{i:03d}", it.fused, it.blurred, "中文"] for i, it in enumerate(ITEMS, 1)], delimiter="\t")
    gold = _jsonl([{"qid": i, "gold": {"nuggets": [
        {"nugget": t, "importance": "vital" if w >= 2 else "okay", "evidence_ids": [source_of(variant, i, j)]}
        for j, (t, w) in enumerate(it.nuggets, 1)]}} for i, it in enumerate(ITEMS, 1)])
    cands = _jsonl([{"qid": f"{i:03d}", "output": {"final_answer": it.answer}} for i, it in enumerate(ITEMS, 1)])
    return "hard_518_queries.csv", queries, gold, cands


def parallel_lists(variant: str) -> tuple[str, bytes, bytes, bytes]:
    """Headers with spaces and capitals, constraints as JSON, nuggets as strings with parallel lists."""
    queries = _csv(["Query ID", "Fused Query", "Blurred Query", "Removed Constraints"],
                   [[f"H-{i}", it.fused, it.blurred,
                     json.dumps([{"type": t, "value": v} for t, v in it.constraints], ensure_ascii=False)]
                    for i, it in enumerate(ITEMS, 1)])
    gold = _jsonl([{"query_id": f"H-{i}", "nuggets": [t for t, _ in it.nuggets], "weights": [w for _, w in it.nuggets],
                    "sources": [[source_of(variant, i, j)] for j in range(1, len(it.nuggets) + 1)]}
                   for i, it in enumerate(ITEMS, 1)])
    cands = _jsonl([{"query_id": f"H-{i}", "prediction": it.answer} for i, it in enumerate(ITEMS, 1)])
    return "hard_518_queries.csv", queries, gold, cands


def no_ids(variant: str) -> tuple[str, bytes, bytes, bytes]:
    """No id anywhere: queries and gold are joined by the query text, candidates by theirs."""
    queries = _csv(["fused", "blurred"], [[it.fused, it.blurred] for it in ITEMS])
    gold = _jsonl([{"question": it.fused, "key_points": [{"statement": t, "score": w, "refs": source_of(variant, i, j)}
                                                          for j, (t, w) in enumerate(it.nuggets, 1)]}
                   for i, it in enumerate(ITEMS, 1)])
    cands = _jsonl([{"query": it.fused, "response": it.answer} for it in ITEMS])
    return "hard_518_queries.csv", queries, gold, cands


def broken_headers(variant: str) -> tuple[str, bytes, bytes, bytes]:
    """BROKEN: query columns under names nothing maps (the import must stop and list them)."""
    _, _, gold, cands = english(variant)
    queries = _csv(["id", "question_text", "user_input"], [[f"q{i}", it.fused, it.blurred] for i, it in enumerate(ITEMS, 1)])
    return "hard_518_queries.csv", queries, gold, cands


def broken_weights(variant: str) -> tuple[str, bytes, bytes, bytes]:
    """BROKEN: nugget weights under a name nothing maps."""
    name, queries, _, cands = english(variant)
    gold = _jsonl([{"id": f"q{i}", "query": it.fused,
                    "nuggets": [{"content": t, "imp_lvl": w, "links": [source_of(variant, i, j)]}
                                for j, (t, w) in enumerate(it.nuggets, 1)]} for i, it in enumerate(ITEMS, 1)])
    return name, queries, gold, cands


def broken_rows(variant: str) -> tuple[str, bytes, bytes, bytes]:
    """BROKEN: mappable fields, bad rows (an empty blurred query, a bad weight, a duplicate id, a row with no gold)."""
    name, _, gold, cands = english(variant)
    rows = [[f"q{i}", it.fused, it.blurred] for i, it in enumerate(ITEMS, 1)]
    rows[1][2] = ""
    rows.append(["q1", "重复的编号？", "重复？"])
    rows.append(["q99", "没有金标的查询？", "查询？"])
    records = [json.loads(line) for line in gold.decode().splitlines()]
    records[2]["nuggets"][0]["weight"] = "very"
    return name, _csv(["id", "fused_query", "blurred_query"], rows), _jsonl(records), cands


VARIANTS: dict[str, Callable[[str], tuple[str, bytes, bytes, bytes]]] = {
    "english": english, "chinese_bom": chinese_bom, "tsv_nested": tsv_nested, "parallel_lists": parallel_lists,
    "no_ids": no_ids, "broken_headers": broken_headers, "broken_weights": broken_weights, "broken_rows": broken_rows,
}
GOOD = ("english", "chinese_bom", "tsv_nested", "parallel_lists", "no_ids")


def files_of(variant: str, system: str = "synth1") -> dict[str, bytes]:
    """Archive member path -> bytes, in the documented layout under release/."""
    name, queries, gold, cands = VARIANTS[variant](variant)
    return {"release/SYNTHETIC_NOT_THE_RELEASE.txt": NOTICE.encode(),
            f"release/data/{name}": queries, "release/data/gold_public_hard518.jsonl": gold,
            f"release/results/candidates/{system}__cand_hard518.jsonl": cands}


def write_release_dir(root: Path, variant: str = "english") -> Path:
    """The unzipped form: ``root/release/...``; returns ``root/release``."""
    for member, data in files_of(variant).items():
        path = root / member
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)
    return root / "release"


def write_release_zip(path: Path, variant: str = "english") -> Path:
    """A zip archive named like the release's, holding the synthetic files under release/."""
    with zipfile.ZipFile(path, "w") as archive:
        for member, data in files_of(variant).items():
            archive.writestr(member, data)
    return path


def _bigrams(text: str) -> set[str]:
    return {text[i:i + 2] for i in range(len(text) - 1)}


def synthetic_page(index: int) -> str:
    """The fictional web page of item ``index`` (1-based): it states every nugget of that item."""
    item = ITEMS[index - 1]
    body = "".join(f"<p>{text}</p>" for text, _ in item.nuggets)
    return f"<html><head><title>合成网页 {index}</title></head><body><h1>{item.fused}</h1>{body}</body></html>"


@contextmanager
def synthetic_web(stop_after_s: float = 900) -> Iterator[str]:
    """A SearXNG-compatible server on 127.0.0.1 over the fictional pages; yields its base URL.

    ``/search?q=...&format=json`` ranks the pages by character bigrams shared with the query and lists
    the best two; ``/page/<n>`` serves page n. It stops by itself after ``stop_after_s`` even if a test hangs."""

    class Handler(BaseHTTPRequestHandler):
        def log_message(self, *args: object) -> None:
            pass

        def _send(self, code: int, body: str, kind: str) -> None:
            data = body.encode()
            self.send_response(code)
            self.send_header("Content-Type", kind)
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def do_GET(self) -> None:
            url = urlparse(self.path)
            if url.path.startswith("/page/"):
                index = int(url.path.rsplit("/", 1)[1])
                return self._send(200, synthetic_page(index), "text/html; charset=utf-8")
            query = parse_qs(url.query).get("q", [""])[0]
            ranked = sorted(range(1, len(ITEMS) + 1), key=lambda i: -len(
                _bigrams(query) & _bigrams(ITEMS[i - 1].fused + "".join(t for t, _ in ITEMS[i - 1].nuggets))))
            results = [{"title": f"合成网页 {i}", "url": f"http://{self.headers['Host']}/page/{i}",
                        "content": ITEMS[i - 1].nuggets[0][0]} for i in ranked[:2]]
            self._send(200, json.dumps({"query": query, "results": results}, ensure_ascii=False), "application/json")

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)
    thread.start()
    deadline = threading.Timer(stop_after_s, server.shutdown)
    deadline.daemon = True
    deadline.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        deadline.cancel()
        server.shutdown()
        server.server_close()
        thread.join(timeout=5)
