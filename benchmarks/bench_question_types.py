"""Accuracy and confusion matrix of the rule question-type classifier on the labelled questions
(tests/data/question_types.jsonl) and on the held-out set written after the rules were fixed
(tests/data/question_types_heldout.jsonl), overall and per language.

With ``--llm SPEC`` the LLM classifier labels both sets too: its accuracy and its agreement with the
rules (percent and Cohen's kappa). Run: python benchmarks/bench_question_types.py [--llm default]
"""

from __future__ import annotations

import argparse
import json
import time
from collections import Counter
from pathlib import Path

from cts_dataset.diagnostics.llm import agreement
from cts_dataset.diagnostics.rules import classify_all
from cts_dataset.diagnostics.types import QUESTION_TYPES

DATA = Path(__file__).resolve().parents[1] / "tests" / "data"
SETS = {"labelled": DATA / "question_types.jsonl", "held-out": DATA / "question_types_heldout.jsonl"}


def load(path: Path) -> list[dict[str, str]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def accuracy(gold: list[str], got: list[str | None]) -> float:
    return sum(g == p for g, p in zip(gold, got, strict=True)) / len(gold)


def confusion(gold: list[str], got: list[str | None]) -> str:
    """Rows: the label; columns: the prediction (abbreviated to four letters)."""
    counts = Counter(zip(gold, got, strict=True))
    columns = [*QUESTION_TYPES, None] if None in got else list(QUESTION_TYPES)
    head = "label \\ got".ljust(12) + "".join(str(c)[:4].rjust(6) for c in columns)
    rows = [kind.ljust(12) + "".join(str(counts[(kind, c)] or ".").rjust(6) for c in columns) for kind in QUESTION_TYPES]
    return "\n".join([head, *rows])


def report(name: str, rows: list[dict[str, str]], predicted: list[str | None], who: str) -> None:
    gold = [r["type"] for r in rows]
    per_language = {lang: accuracy([g for g, r in zip(gold, rows) if r["language"] == lang],
                                   [p for p, r in zip(predicted, rows) if r["language"] == lang])
                    for lang in sorted({r["language"] for r in rows})}
    shown = ", ".join(f"{lang} {100 * a:.1f}%" for lang, a in per_language.items())
    print(f"\n{who} on the {name} set ({len(rows)} questions): accuracy {100 * accuracy(gold, predicted):.1f}% ({shown})")
    print(confusion(gold, predicted))


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--llm", help="a model spec for the LLM classifier (e.g. default)")
    args = parser.parse_args()
    sets = {name: load(path) for name, path in SETS.items()}
    rules = {}
    for name, rows in sets.items():
        start = time.perf_counter()
        rules[name] = classify_all(r["text"] for r in rows)
        elapsed = time.perf_counter() - start
        report(name, rows, list(rules[name]), "rules")
        print(f"({1000 * elapsed / len(rows):.3f} ms per question)")
    if args.llm:
        from cts_dataset.diagnostics.llm import LLMClassifier

        classifier = LLMClassifier.from_spec(args.llm)
        for name, rows in sets.items():
            labels = classifier.classify([r["text"] for r in rows])
            report(name, rows, labels, classifier.name)
            a = agreement(rules[name], labels)
            print(f"agreement with the rules: {a['percent_agreement']}% over {a['n']}, kappa {a['cohen_kappa']}, "
                  f"{a['unlabelled']} unparsed")


if __name__ == "__main__":
    main()
