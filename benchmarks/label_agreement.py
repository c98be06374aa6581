"""How far the answerer probes' labels can be trusted: the held-out labels against a second labelling.

    python benchmarks/label_agreement.py [--labels benchmarks/probes/answerer_second_labels.jsonl]
        [--answers RUN.json ...] [--json OUT]

answerer_second_labels.jsonl holds 600 held-out answerer probes (realistic-heldout, heldout2..heldout11; 150
per language and stratum) labelled a second time under the writers' labelling rules, blind to the first
labels and to any answer. The sample is stratified by how guards version 31 answered (``answered_right`` /
``answered_wrong`` against the first label), so that the answerer's misses are well represented; each row's
``weight`` is its stratum's size over the held-out sets divided by its sample size, and every figure below
is weighted, an estimate for all held-out probes of its language. Printed per language:
- agreement: both labels ``unknown``, or both name a span and one holds the other's words (accepted forms
  count);
- the second labelling scored as an answer against the first, as ``role_compliance.py`` scores the answerer:
  answered (answerable probes answered with the first label's value) and unknown (unanswerable probes left
  ``unknown``): what a careful labeller reaches, beside the targets of 85% / 95%;
- with ``--answers`` (``role_compliance.py --json`` outputs that cover the sampled probes): the answerer's
  share right against each labelling, and how many of its misses against the first the second sides with.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import defaultdict
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from role_compliance import PROBES, holds, read_probes

from cts_dataset.protocol.views import UNKNOWN

SECOND_LABELS = PROBES / "answerer_second_labels.jsonl"
# The held-out sets the sample was drawn from, whose sizes its weights stand for (later sets are not in it).
SAMPLED_FROM = ("realistic-heldout", *(f"heldout{n}" for n in range(2, 12)))


def read_labels(path: Path) -> list[dict[str, Any]]:
    """The second labels, each joined to its probe (``probe``); a bad line or an unknown id is named."""
    probes = {s: {p["id"]: p for p in read_probes("answerer.jsonl", s)} for s in SAMPLED_FROM}
    rows = []
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        if not line.strip():
            continue
        try:
            row = json.loads(line)
            row["probe"] = probes[row["split"]][row["id"]]
        except (json.JSONDecodeError, KeyError, TypeError) as error:
            raise SystemExit(f"{path}:{number}: not a second label of a held-out probe ({error!r})") from None
        rows.append(row)
    return rows


def values(label: dict[str, Any]) -> list[str]:
    return [label["expected"], *label.get("accept", [])]


def agree(first: dict[str, Any], second: dict[str, Any]) -> bool:
    """The two labels name the same answer: both ``unknown``, or spans one of which holds the other's words."""
    if UNKNOWN in (first["expected"], second["expected"]):
        return first["expected"] == second["expected"]
    return any(holds(a, b) or holds(b, a) for a in values(first) for b in values(second))


def right(answer: str, label: dict[str, Any]) -> bool:
    """``answer`` is right against ``label``, as role_compliance.py scores it."""
    if label["expected"] == UNKNOWN:
        return answer == UNKNOWN
    return any(holds(answer, v) for v in values(label))


def read_answers(paths: list[str]) -> dict[str, str]:
    found = {}
    for path in paths:
        for item in json.loads(Path(path).read_text(encoding="utf-8"))["answerer"]["modes"]["choose"]["items"]:
            found[item["id"]] = item["answer"]
    return found


def figures(rows: list[dict[str, Any]], answers: dict[str, str]) -> dict[str, dict[str, Any]]:
    sums: dict[str, defaultdict[str, float]] = defaultdict(lambda: defaultdict(float))
    for row in rows:
        first, w, s = row["probe"], row["weight"], sums[row["language"]]
        s["n"] += 1
        s["weight"] += w
        s["agree"] += w * agree(first, row)
        answerable = first["expected"] != UNKNOWN
        s["answerable" if answerable else "unanswerable"] += w
        said = " ".join(values(row)) if row["expected"] != UNKNOWN else UNKNOWN
        s["second_right_answerable" if answerable else "second_right_unanswerable"] += w * right(said, first)
        if row["id"] in answers:
            answer = answers[row["id"]]
            s["answered_n"] += 1
            s["answered_weight"] += w
            s["answer_right_first"] += w * right(answer, first)
            s["answer_right_second"] += w * right(answer, row)
            if not right(answer, first):
                s["misses"] += 1
                s["misses_second_sides_with_answer"] += right(answer, row)
    out = {}
    for language, s in sorted(sums.items()):
        row = {"probes": int(s["n"]), "agreement": _pct(s["agree"], s["weight"]),
               "second_answered": _pct(s["second_right_answerable"], s["answerable"]),
               "second_unknown": _pct(s["second_right_unanswerable"], s["unanswerable"])}
        if s["answered_n"]:
            row |= {"answer_right_first": _pct(s["answer_right_first"], s["answered_weight"]),
                    "answer_right_second": _pct(s["answer_right_second"], s["answered_weight"]),
                    "misses_sampled": int(s["misses"]),
                    "misses_second_sides_with_answer": int(s["misses_second_sides_with_answer"])}
        out[language] = row
    return out


def _pct(part: float, whole: float) -> float | None:
    return round(100 * part / whole, 1) if whole else None


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--labels", type=Path, default=SECOND_LABELS)
    parser.add_argument("--answers", nargs="*", default=[], help="role_compliance.py --json outputs")
    parser.add_argument("--json", type=Path, help="write the figures here too")
    args = parser.parse_args(argv)
    result = figures(read_labels(args.labels), read_answers(args.answers))
    for language, row in result.items():
        line = (f"{language}: {row['probes']} probes, agreement {row['agreement']}%; the second labelling as an "
                f"answer: answered {row['second_answered']}%, unknown {row['second_unknown']}%")
        if "answer_right_first" in row:
            line += (f"; answers right against the first labels {row['answer_right_first']}%, against the second "
                     f"{row['answer_right_second']}%; of {row['misses_sampled']} sampled misses the second "
                     f"labelling sides with {row['misses_second_sides_with_answer']}")
        print(line)
    if args.json:
        args.json.write_text(json.dumps(result, indent=2) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
