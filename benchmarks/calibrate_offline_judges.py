"""Calibrate the lexical and embedding judges' thresholds on real text, and print what was found.

Cases, built from the shipped demo instances and the Wikipedia corpus (every nugget of every instance):
- full:    the nugget against the text of its own source document(s), which state it;
- partial: the nugget joined to a nugget of another instance ("A; B"), against A's source document:
           half of the information is there;
- none:    the nugget against the source document of another instance (unrelated).
For each judge, the (partial, full) threshold pair on a 0.01 grid that maximises the mean per-class
recall over these three is printed with its confusion table. A fourth set is only reported, never fitted:
- related: the nugget against the best BM25 match in the corpus that is not a source (a neighbouring
           article). Its true labels are mixed (some neighbours restate the fact, e.g. Honshu's article
           names Java the most populous island), so it shows how often such text earns credit.
Run: python benchmarks/calibrate_offline_judges.py

With ``--pairs`` (the shipped calibration set when no file is given) the thresholds are fitted instead on
the labelled pairs of the dev split, the distinct (query, output, nugget) once each, by the same rule; the
held-out figures come from ``ctsbench judge-check`` (``benchmarks/judge_agreement.py``). The shipped
thresholds are the ``--pairs`` fit.
"""

from __future__ import annotations

import random
from collections import Counter

import cts_dataset
from cts_dataset.judges.base import JudgeItem
from cts_dataset.judges.embedding import EmbeddingJudge
from cts_dataset.judges.lexical import LexicalJudge, label_for

CLASSES = ("full", "partial", "none")


def cases(seed: int = 0) -> list[tuple[str, str, str]]:
    """(expected label, nugget, answer) triples."""
    from cts_dataset.search.bm25 import corpus_bm25

    rng = random.Random(seed)
    documents = {d.id: d for d in cts_dataset.load_corpus()}
    instances = cts_dataset.load()
    index = corpus_bm25()
    out = []
    for instance in instances:
        others = [i for i in instances if i.id != instance.id]
        for nugget in instance.nuggets:
            source_text = "\n".join(documents[s].text for s in nugget.sources)
            other = rng.choice(others)
            out.append(("full", nugget.text, source_text))
            out.append(("partial", f"{nugget.text.rstrip('.')}; {rng.choice(other.nuggets).text}", source_text))
            out.append(("none", nugget.text, "\n".join(documents[s].text for s in other.nuggets[0].sources)))
            hits = [d for d, _ in index.search([nugget.text], k=10)[0] if d.id not in nugget.sources]
            out.append(("related", nugget.text, hits[0].text))
    return out


def best_thresholds(expected: list[str], values: list[float]) -> tuple[float, float, float]:
    """(partial, full, mean per-class recall): the middle of the grid region that maximises mean recall.

    Many neighbouring pairs tie on so few cases; the middle of the tied region keeps the thresholds
    away from the edge of any one class.
    """
    grid = [i / 100 for i in range(101)]
    totals = Counter(expected)
    scored = {}
    for partial in grid:
        for full in grid:
            if full >= partial:
                hits = Counter(e for e, v in zip(expected, values) if label_for(v, full, partial) == e)
                scored[(partial, full)] = sum(hits[c] / totals[c] for c in CLASSES) / len(CLASSES)
    top = max(scored.values())
    tied = [pair for pair, recall in scored.items() if recall >= top - 1e-9]
    partial = round((min(p for p, _ in tied) + max(p for p, _ in tied)) / 2, 2)
    full = round((min(f for _, f in tied) + max(f for _, f in tied)) / 2, 2)
    return partial, full, scored.get((partial, full), top)


def report(name: str, expected: list[str], values: list[float], partial: float, full: float) -> None:
    table = Counter((e, label_for(v, full, partial)) for e, v in zip(expected, values))
    print(f"  {name}: partial >= {partial:.2f}, full >= {full:.2f}")
    print("    expected -> judged " + "  ".join(f"{c:>7}" for c in CLASSES))
    for e in (*CLASSES, *(["related"] if "related" in expected else [])):
        print(f"    {e:>17}  " + "  ".join(f"{table[(e, c)]:>7}" for c in CLASSES))


def labelled_cases(path: str | None, split: str = "dev") -> list[tuple[str, str, str]]:
    """(label, nugget, output) of the distinct pairs of one split of a labelled pairs file."""
    from cts_dataset.judges.check import distinct_pairs
    from cts_dataset.judges.pairs import default_pairs_path, read_pairs

    pairs = read_pairs(path or default_pairs_path()).select(split)
    return [(pairs[i].label, pairs[i].nugget, pairs[i].output) for i in distinct_pairs(pairs)]


def main() -> None:
    import argparse

    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--pairs", nargs="?", const="", default=None,
                        help="fit on a labelled pairs file's dev split (no value: the shipped set)")
    args = parser.parse_args()
    triples = cases() if args.pairs is None else labelled_cases(args.pairs or None)
    expected = [e for e, _, _ in triples]
    items = [JudgeItem(answer=a, nuggets=(n,)) for _, n, a in triples]
    print(f"{len(triples)} cases: {dict(Counter(expected))}")
    for judge in (LexicalJudge(), EmbeddingJudge()):  # the shipped thresholds are the defaults
        values = [j.evidence[0] if j.evidence[0] is not None else 0.0 for j in judge.judge(items)]
        for label in (*CLASSES, "related"):
            chosen = sorted(v for e, v in zip(expected, values) if e == label)
            if not chosen:
                continue
            quartiles = [chosen[int(q * (len(chosen) - 1))] for q in (0.1, 0.25, 0.5, 0.75, 0.9)]
            print(f"{judge.name} {label:>7}: p10/p25/p50/p75/p90 = " + " / ".join(f"{q:.2f}" for q in quartiles))
        fitted = [(e, v) for e, v in zip(expected, values) if e in CLASSES]
        partial, full, recall = best_thresholds([e for e, _ in fitted], [v for _, v in fitted])
        print(f"{judge.name}: best mean per-class recall {recall:.3f}")
        report("best", expected, values, partial, full)
        report("shipped", expected, values, judge.partial, judge.full)


if __name__ == "__main__":
    main()
