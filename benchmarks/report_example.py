"""The README's example report: two scripted clarifiers on one protocol (the demo split, BM25 retrieval,
lexical judge, a faithful scripted user that states its intent's year or place when asked), compared by
`ctsbench report`. Copies the score-vs-budget plot to docs/report_score_vs_budget.png.

    python benchmarks/report_example.py [--limit 200] [--out /tmp/ctsbench-report-example]
"""

from __future__ import annotations

import argparse
import json
import shutil
import tempfile
from pathlib import Path

from click.testing import CliRunner

from cts_dataset.cli import main
from cts_dataset.data import load
from cts_dataset.judges.lexical import LexicalJudge
from cts_dataset.models.scripted import ScriptedModel
from cts_dataset.pipeline.config import load_config
from cts_dataset.pipeline.experiment import Experiment
from cts_dataset.search.corpus_tool import CorpusSearchTool
from cts_dataset.search.retrieval import RetrievalSearcher

DOCS = Path(__file__).resolve().parents[1] / "docs"
INTENTS = {i.fused_query: i for i in load()}


def user(request) -> str:
    """States the intent's year for a year question and its place for a place question; else unknown."""
    intent, question = request.messages[1].content.split("\n")[:2]
    instance = next((i for query, i in INTENTS.items() if query in intent), None)
    wanted = "time" if "year" in question else "region" if "place" in question or "region" in question else None
    values = [c.value for c in (instance.removed_constraints if instance else []) if c.type.value == wanted]
    return json.dumps({"answer": values[0] if values else "unknown"})


def rewrite(request) -> str:
    """The blurred query with the known answers appended."""
    lines = request.messages[1].content.split("\n")
    query = lines[0].removeprefix("Original query: ")
    answers = [line.split(": ", 1)[1] for line in lines if line.startswith("A") and ": " in line]
    return " ".join([query, *[a for a in answers if a != "unknown"]])


def year_then_place(request) -> str:
    return "Which year do you mean?" if "question 1" in request.messages[1].content else "Which place do you mean?"


def main_(limit: int, out: Path) -> None:
    searcher = RetrievalSearcher(CorpusSearchTool(cache_root=out / "bm25"))
    runs = []
    for name, clarifier in (("year-then-place", None), ("template-region", "template:region")):
        models = {"user_answerer": ScriptedModel(default=user), "rewriter": ScriptedModel(default=rewrite)}
        if clarifier is None:
            models["clarifier"] = ScriptedModel(default=year_then_place, spec="year-then-place")
        overrides = {"clarifier": clarifier} if clarifier else {}
        config = load_config(out_dir=out / name, limit=limit, budgets=[1, 2, 3], **overrides)
        Experiment(config, models=models, searcher=searcher, judge=LexicalJudge(), progress=False).run()
        runs.append(str(out / name))
    result = CliRunner().invoke(main, ["report", *runs, "--out", str(out / "report")])
    print(result.output)
    DOCS.mkdir(exist_ok=True)
    shutil.copy(out / "report" / "plots" / "score_vs_budget.png", DOCS / "report_score_vs_budget.png")
    print(f"copied to {DOCS / 'report_score_vs_budget.png'}; the page is {out / 'report' / 'report.html'}")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--limit", type=int, default=200)
    parser.add_argument("--out", type=Path, default=None)
    args = parser.parse_args()
    main_(args.limit, args.out or Path(tempfile.mkdtemp(prefix="ctsbench-report-example-")))
