"""The report page: one self-contained HTML file (inline CSS and script, plots as data URIs, the rows as
embedded JSON), so it opens from disk with no server and no network. It shows the leaderboard, the
paired comparisons, the plots, and an instance browser filtered by clarifier, condition and question
type that shows an instance's dialogue, rewrite, search answer and each nugget's label.
"""

from __future__ import annotations

import base64
import html
import json
import math
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from cts_dataset.report.leaderboard import Leaderboard

# The search answer is what the judge read; the page keeps its start (the full text is in search.jsonl).
ANSWER_CHARS = 4000

_STYLE = """
body{font:14px/1.45 system-ui,-apple-system,"Segoe UI",sans-serif;margin:0;color:#1d2330;background:#f6f7f9}
header{background:#1d2330;color:#fff;padding:14px 24px}header h1{margin:0 0 4px;font-size:20px}
header p{margin:0;color:#c9cfdb;font-size:13px}nav{margin-top:8px}nav a{color:#9cc3ff;margin-right:14px}
main{padding:8px 24px 40px;max-width:1280px}section{background:#fff;border:1px solid #e1e4ea;border-radius:6px;
padding:12px 16px;margin:14px 0}h2{font-size:16px;margin:4px 0 10px}
table{border-collapse:collapse;font-size:13px}#matches,#nuggets{width:100%}.scroll{overflow-x:auto}th,td{border-bottom:1px solid #e8eaef;padding:4px 8px;
text-align:left;vertical-align:top}th{background:#f0f2f5;position:sticky;top:0}td.num{text-align:right;
font-variant-numeric:tabular-nums;white-space:nowrap}.warn{background:#fff4e0;border-left:4px solid #f0a020;
padding:6px 10px;margin:6px 0;white-space:pre-wrap}.note{color:#5b6475;font-size:12px}
.plots{display:grid;grid-template-columns:repeat(auto-fill,minmax(520px,1fr));gap:12px}
figure{margin:0}figure img{width:100%;border:1px solid #e1e4ea}figcaption{font-size:12px;color:#5b6475}
.filters{display:flex;flex-wrap:wrap;gap:12px;align-items:end;margin-bottom:8px}.filters label{font-size:12px;
color:#5b6475;display:flex;flex-direction:column;gap:2px}select,input{font:inherit;padding:3px 6px}
.browser{display:grid;grid-template-columns:minmax(300px,2fr) 3fr;gap:14px}
.list{max-height:640px;overflow:auto;border:1px solid #e1e4ea}
#matches tr{cursor:pointer}#matches tr:hover{background:#eef4ff}#matches tr.selected{background:#dbe8ff}
.detail h3{margin:0 0 6px;font-size:15px}.field{margin:8px 0}.field b{display:block;font-size:12px;color:#5b6475}
ol.dialogue{padding-left:22px;margin:4px 0}ol.dialogue li{margin:4px 0}.q{font-weight:600}
.badge{display:inline-block;border-radius:3px;padding:0 6px;font-size:11px;margin-left:6px;background:#e8eaef}
.badge.unknown{background:#ffe1e1}.badge.answered{background:#dff5e3}.badge.invalid,.badge.declined{background:#eee}
.label-full{background:#cdeed5}.label-partial{background:#fff0c2}.label-none{background:#ffd9d9}
.label-unscored{background:#eee}pre.answer{white-space:pre-wrap;background:#f6f7f9;padding:8px;max-height:260px;
overflow:auto;font-size:12px;margin:2px 0}
"""

_SCRIPT = r"""
(function () {
  "use strict";
  var data = JSON.parse(document.getElementById("report-data").textContent);
  var byId = function (id) { return document.getElementById(id); };
  var el = function (tag, text, cls) {
    var node = document.createElement(tag);
    if (text !== undefined && text !== null) node.textContent = String(text);
    if (cls) node.className = cls;
    return node;
  };
  var fmt = function (v) { return v === null || v === undefined ? "n/a" : Number(v).toFixed(1); };
  function fill(select, values) {
    values.forEach(function (v) { var o = el("option", v); o.value = v; select.appendChild(o); });
  }
  fill(byId("f-clarifier"), data.runs);
  fill(byId("f-condition"), data.labels);
  fill(byId("f-qtype"), data.types);
  var selected = null;

  function matches() {
    var run = byId("f-clarifier").value, label = byId("f-condition").value, type = byId("f-qtype").value;
    var text = byId("f-text").value.trim().toLowerCase();
    return data.rows.filter(function (r) {
      if (run && r.run !== run) return false;
      if (label && r.label !== label) return false;
      if (type && r.question_types.indexOf(type) < 0) return false;
      if (text) {
        var inst = data.instances[r.instance];
        var hay = [r.instance, inst.blurred_query, inst.intent].join(" ").toLowerCase();
        if (hay.indexOf(text) < 0) return false;
      }
      return true;
    });
  }

  function renderList() {
    var found = matches(), body = byId("matches").tBodies[0];
    body.textContent = "";
    byId("match-count").textContent = found.length + " of " + data.rows.length + " rows";
    found.slice(0, 500).forEach(function (r) {
      var tr = el("tr");
      tr.dataset.key = r.key;
      [r.instance, r.run, r.label + (r.repeat ? " r" + r.repeat : ""), fmt(r.score), r.status].forEach(function (v, i) {
        tr.appendChild(el("td", v, i === 3 ? "num" : ""));
      });
      tr.addEventListener("click", function () { show(r); });
      body.appendChild(tr);
    });
    if (found.length > 500) byId("match-count").textContent += " (first 500 listed)";
    if (!found.length) { selected = null; byId("detail").textContent = "No row matches these filters."; return; }
    var keep = selected && found.some(function (r) { return r.key === selected.key; });
    show(keep ? selected : found[0]);
  }

  function field(parent, title, content) {
    var box = el("div", null, "field");
    box.appendChild(el("b", title));
    if (typeof content === "string") box.appendChild(el("div", content)); else box.appendChild(content);
    parent.appendChild(box);
    return box;
  }

  function show(r) {
    selected = r;
    Array.prototype.forEach.call(byId("matches").tBodies[0].rows, function (tr) {
      tr.classList.toggle("selected", tr.dataset.key === r.key);
    });
    var inst = data.instances[r.instance], box = byId("detail");
    box.textContent = "";
    box.dataset.key = r.key;
    box.appendChild(el("h3", r.instance + " \u00b7 " + r.run + " \u00b7 " + r.label));
    box.appendChild(el("div", "restore_score_100 " + fmt(r.score) + " \u00b7 strict " + fmt(r.strict) +
      " \u00b7 status " + r.status + (r.error ? " (" + r.error + ")" : ""), "note"));
    var same = data.rows.filter(function (o) { return o.run === r.run && o.instance === r.instance && o.repeat === r.repeat; });
    box.appendChild(el("div", "This instance in this run: " + same.map(function (o) {
      return o.label + " " + fmt(o.score);
    }).join(" \u00b7 "), "note"));
    field(box, "Blurred query (what the clarifier and the baseline saw)", inst.blurred_query);
    field(box, "Hidden intent (what the user answerer saw)", inst.intent);
    field(box, "Removed constraints", inst.constraints.map(function (c) { return c[0] + ": " + c[1]; }).join("; ") || "none");
    if (r.label.indexOf("clarify@") === 0) {
      var list = el("ol", null, "dialogue");
      list.id = "dialogue";
      r.questions.forEach(function (q, i) {
        var item = el("li"), question = el("div", null, "q");
        question.appendChild(el("span", q || "(no question)"));
        if (r.question_types[i]) question.appendChild(el("span", r.question_types[i], "badge"));
        item.appendChild(question);
        var answer = el("div");
        var said = r.turn_status[i] === "answered" ? r.answers[i] : r.turn_status[i] === "unknown" ? "" : "(not asked)";
        if (said) answer.appendChild(el("span", said));
        answer.appendChild(el("span", r.turn_status[i], "badge " + r.turn_status[i]));
        item.appendChild(answer);
        list.appendChild(item);
      });
      field(box, "Dialogue", r.questions === null ? "(not finished)" : (r.questions.length ? list : "(no turn)"));
      field(box, "Rewrite (the query clarify@k searched)", r.rewrite === null ? "(none)" : r.rewrite).id = "rewrite";
    } else {
      field(box, "Searched query", r.query === null ? "(none)" : r.query);
    }
    var answer = el("pre", r.answer === null ? "(no search answer)" : data.texts[r.answer], "answer");
    answer.id = "answer";
    field(box, "Search answer (what the judge read; termination: " + (r.termination || "n/a") + ")", answer);
    if (r.docs && r.docs.length) field(box, "Retrieved documents", r.docs.join(", "));
    var table = el("table"), head = el("tr");
    table.id = "nuggets";
    ["nugget", "weight", "label"].forEach(function (h) { head.appendChild(el("th", h)); });
    table.appendChild(head);
    inst.nuggets.forEach(function (n, i) {
      var tr = el("tr"), label = r.labels ? (r.labels[i] || "unscored") : "unscored";
      tr.appendChild(el("td", n[0]));
      tr.appendChild(el("td", n[1], "num"));
      tr.appendChild(el("td", label, "nugget-label label-" + label));
      table.appendChild(tr);
    });
    field(box, "Golden nuggets and the judge's labels", table);
  }

  ["f-clarifier", "f-condition", "f-qtype"].forEach(function (id) { byId(id).addEventListener("change", renderList); });
  byId("f-text").addEventListener("input", renderList);
  renderList();
})();
"""


def _cell(value: Any, digits: int = 2, percent: bool = False) -> str:
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return "n/a"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if percent:
        return f"{100 * float(value):.1f}%"
    if isinstance(value, float):
        return f"{value:.{digits}f}"
    return str(value)


def _table(table_id: str, headers: list[str], rows: list[list[str]], numeric: set[int]) -> str:
    head = "".join(f"<th>{html.escape(h)}</th>" for h in headers)
    body = "".join("<tr>" + "".join(f'<td class="num">{html.escape(c)}</td>' if i in numeric else f"<td>{html.escape(c)}</td>"
                                    for i, c in enumerate(row)) + "</tr>" for row in rows)
    return f'<table id="{table_id}"><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>'


def _leaderboard(rows: list[dict[str, Any]], table_id: str) -> str:
    from cts_dataset.report.tables import LEADERBOARD_HEADERS, leaderboard_cells

    # the CSV and JSON hold every column; the page what fits a screen, as leaderboard.md
    return _table(table_id, list(LEADERBOARD_HEADERS), [leaderboard_cells(r) for r in rows],
                  {0, 1, *range(3, len(LEADERBOARD_HEADERS))})


def _comparisons(board: Leaderboard) -> str:
    from cts_dataset.report.frame import json_records
    from cts_dataset.report.tables import p_text

    rows = [[_cell(r["k"]), r["a"], r["b"], _cell(r["n_pairs"]), _cell(r["mean_difference"]),
             f"[{_cell(r['ci_low'])}, {_cell(r['ci_high'])}]", p_text(r["p_value"], 4), p_text(r["p_holm"], 4),
             _cell(r["significant"])] for r in json_records(board.comparisons)]
    return _table("comparisons-table", ["k", "A", "B", "pairs", "A - B", "95% CI", "p", "p Holm", "significant (0.05)"],
                  rows, {0, 3, 4, 5, 6, 7})


def _references(board: Leaderboard) -> str:
    from cts_dataset.report.frame import json_records

    rows = [[r["clarifier"], r["condition"], _cell(r["restore_score_100"]), f"[{_cell(r['ci_low'])}, {_cell(r['ci_high'])}]",
             _cell(r["n"])] for r in json_records(board.references)]
    return _table("references-table", ["run", "condition", "restore_score_100", "95% CI", "n"], rows, {2, 3, 4})


def page_data(board: Leaderboard) -> dict[str, Any]:
    """What the instance browser needs: per row its dialogue, rewrite, answer and labels; per instance its
    queries, constraints and nuggets (once)."""
    from cts_dataset.diagnostics import QUESTION_TYPES
    from cts_dataset.report.frame import plain

    instances: dict[str, Any] = {}
    rows, labels, types = [], [], set()
    texts: dict[str, int] = {}  # search answers, each stored once: baseline and oracle repeat across runs
    for run in board.runs:
        for r in run.frame.to_dict(orient="records"):
            r = {k: plain(v) for k, v in r.items()}
            instances.setdefault(r["instance"], {
                "blurred_query": r["blurred_query"], "intent": r["intent"],
                "constraints": [list(c) for c in zip(r["constraint_types"] or [], r["constraint_values"] or [], strict=True)],
                "nuggets": [[t, w] for t, w in zip(r["nuggets"] or [], r["nugget_weights"] or [], strict=True)]})
            answer = r["answer"]
            if isinstance(answer, str) and len(answer) > ANSWER_CHARS:
                answer = answer[:ANSWER_CHARS] + " ... (cut here; the full answer is in search.jsonl)"
            if isinstance(answer, str):
                answer = texts.setdefault(answer, len(texts))
            kinds = [t for t in (r["question_types"] or []) if t]
            types.update(kinds)
            if r["label"] not in labels:
                labels.append(r["label"])
            rows.append({"key": f"{run.name}|{r['instance']}|{r['label']}|{r['repeat']}", "run": run.name,
                         "instance": r["instance"], "label": r["label"], "repeat": r["repeat"], "status": r["status"],
                         "error": r["error"], "score": r["restore_score_100"], "strict": r["strict_100"],
                         "labels": r["labels"], "questions": r["questions"], "answers": r["answers"],
                         "question_types": r["question_types"] or [], "turn_status": r["turn_status"],
                         "rewrite": r["rewrite"], "query": r["query"], "answer": answer,
                         "termination": r["termination"], "docs": (r["retrieved_doc_ids"] or [])[:10]})
    order = {name: i for i, name in enumerate(["baseline", *sorted((x for x in labels if x.startswith("clarify@")),
                                                                   key=lambda x: int(x.split("@")[1])), "oracle"])}
    return {"runs": [r.name for r in board.runs], "labels": sorted(labels, key=lambda x: order.get(x, 99)),
            "types": [t for t in QUESTION_TYPES if t in types], "instances": instances, "rows": rows,
            "texts": list(texts)}


# Inside a <script> element the HTML parser looks for "</script" and, after "<!--", for "<script": text
# from a model or a web page holding either would end the data block early or swallow the page script.
# Outside strings JSON has no "<", ">" or "&"; inside them the \u escapes read back as the same text.
_SCRIPT_SAFE = str.maketrans({"<": "\\u003c", ">": "\\u003e", "&": "\\u0026"})


def embedded_json(value: Any) -> str:
    """JSON to place inside a <script> element: no "<", ">" or "&" left, so no text can end the element
    or switch the parser into its escaped states."""
    return json.dumps(value, ensure_ascii=False, separators=(",", ":")).translate(_SCRIPT_SAFE)


def render(board: Leaderboard, plots: Mapping[str, Path]) -> str:
    from cts_dataset.markdown import offline_judge_note
    from cts_dataset.report.plots import PLOTS
    from cts_dataset.report.tables import LEADERBOARD_NOTE, REFERENCE_TITLE, ranked_and_references

    p = board.protocol
    protocol = (f"preset {p['preset']} · judge {p['judge']} · dataset {p['dataset']} rev {p['dataset_revision']} · "
                f"searcher {p['searcher']} · user answerer {p['user_answerer']} · rewriter {p['rewriter']} · "
                f"{len(board.runs)} run(s)")
    warnings = "".join(f'<div class="warn">{html.escape(w)}</div>' for w in board.warnings)
    ranked, apart = ranked_and_references(board)
    references = (f'<h2>{html.escape(REFERENCE_TITLE)}</h2><div class="scroll">'
                  f'{_leaderboard(apart, "reference-clarifiers-table")}</div>' if apart else "")
    note = offline_judge_note(str(p["judge"] or ""))
    figures = []
    for name, path in plots.items():
        encoded = base64.b64encode(Path(path).read_bytes()).decode("ascii")
        caption = PLOTS.get(name, (None, name))[1]
        figures.append(f'<figure id="plot-{name}"><img alt="{html.escape(caption)}" src="data:image/png;base64,{encoded}">'
                       f"<figcaption>{html.escape(caption)}</figcaption></figure>")
    return f"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>ctsbench report</title><style>{_STYLE}</style></head>
<body><header><h1>ctsbench report</h1><p>{html.escape(protocol)}</p>
<nav><a href="#leaderboard">Leaderboard</a><a href="#comparisons">Comparisons</a><a href="#plots">Plots</a>
<a href="#browser">Instances</a></nav></header><main>
{warnings}
<section id="leaderboard"><h2>Leaderboard: restore_score_100 per clarifier and budget k</h2>
{f'<p class="note">{html.escape(note)}</p>' if note else ''}
<div class="scroll">{_leaderboard(ranked, "leaderboard-table")}</div>
{references}
<p class="note">CI: 95% percentile bootstrap over instances. {html.escape(LEADERBOARD_NOTE)}</p>
<h2>References: baseline (blurred query) and oracle (hidden intent)</h2><div class="scroll">{_references(board)}</div></section>
<section id="comparisons"><h2>Paired comparisons between clarifiers (common instances, Holm-corrected)</h2>
<div class="scroll">{_comparisons(board)}</div></section>
<section id="plots"><h2>Plots</h2><div class="plots">{''.join(figures)}</div></section>
<section id="browser"><h2>Instances</h2>
<div class="filters">
<label>clarifier<select id="f-clarifier"><option value="">all</option></select></label>
<label>condition<select id="f-condition"><option value="">all</option></select></label>
<label>question type<select id="f-qtype"><option value="">all</option></select></label>
<label>instance or query text<input id="f-text" type="search" placeholder="e.g. demo-0001"></label>
<span id="match-count" class="note"></span></div>
<div class="browser"><div class="list"><table id="matches"><thead><tr><th>instance</th><th>clarifier</th>
<th>condition</th><th>score</th><th>status</th></tr></thead><tbody></tbody></table></div>
<div id="detail" class="detail"></div></div></section>
</main>
<script id="report-data" type="application/json">{embedded_json(page_data(board))}</script>
<script>{_SCRIPT}</script>
</body></html>
"""


def write_html(board: Leaderboard, plots: Mapping[str, Path], path: Path) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(render(board, plots), encoding="utf-8")
    return path
