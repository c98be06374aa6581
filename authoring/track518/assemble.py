"""Assemble the shipped `test` and `smoke` splits from the staged, second-read instances.

    python authoring/track518/assemble.py [--size 518] [--smoke 20]

The rule looks at the data only, never at a score:
1. every staged instance the second reading kept from the reviewed demo, the headroom rework and the
   growth round, and the new ones with retrieval headroom; of instances with the same blurred query, the
   first in that order only;
2. of the new instances whose blurred query already finds every cited document in BM25's top 10 (no
   retrieval headroom), only as many as the size needs: those citing two or more documents first, then the
   removed-constraint type least represented so far, then id; a new instance whose rework was kept under
   the same id is left out (the rework replaces it);
3. the track is ordered by the SHA-256 of the staged ids, so that `--limit N` reads a mixed sample, and
   renumbered `cts-0001` ... ; `smoke` is `cts_dataset.data.stratified_sample(test, 20)`.

Writes `loaders/ctsbench/data/{test,smoke}.jsonl` with their evidence files beside them, and
`authoring/track518/track_ids.tsv` (final id, staged id, source, headroom, documents cited): where each
shipped instance comes from.
"""

from __future__ import annotations

import argparse
import hashlib
from collections import Counter
from pathlib import Path

from cts_dataset.data import stratified_sample
from cts_dataset.jsonl import read_records, write_jsonl
from cts_dataset.quality.headroom import gold_documents, headroom
from cts_dataset.records import Instance, InstanceEvidence

HERE = Path(__file__).parent
DATA = HERE.parents[1] / "loaders" / "ctsbench" / "data"
SOURCES = {  # name: staged instances (their evidence lies beside them as NAME.evidence.jsonl)
    "demo": HERE / "demo.jsonl",
    "new": HERE / "new.jsonl",
    "rework": HERE / "headroom" / "instances.jsonl",
    "growth": HERE / "growth" / "instances.jsonl",
}
K = 10  # the depth check-data measures retrieval headroom at


def evidence_path(path: Path) -> Path:
    return path.with_name(path.name.removesuffix(".jsonl") + ".evidence.jsonl")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--size", type=int, default=518)
    parser.add_argument("--smoke", type=int, default=20)
    parser.add_argument("--out", type=Path, default=DATA, help="where the split files go")
    parser.add_argument("--ids", type=Path, default=HERE / "track_ids.tsv", help="where the provenance table goes")
    args = parser.parse_args(argv)

    staged: list[tuple[str, Instance, InstanceEvidence]] = []
    for source, path in SOURCES.items():
        evidence = {e.id: e for e in read_records(evidence_path(path), "evidence")}
        staged += [(source, i, evidence[i.id]) for i in read_records(path, "instance")]
    # keyed by source too: a rework keeps the id of the new instance it rewrites
    rows_k = headroom([i for _, i, _ in staged], K)
    room = {(source, i.id): row.gap > 0 for (source, i, _), row in zip(staged, rows_k, strict=True)}
    reworked = {i.id for source, i, _ in staged if source == "rework"}

    seen: set[str] = set()

    def first_of_its_query(s: tuple[str, Instance, InstanceEvidence]) -> bool:
        query = " ".join(s[1].blurred_query.lower().split())
        fresh = query not in seen
        seen.add(query)
        return fresh

    chosen = [s for s in staged if (s[0] != "new" or room[s[0], s[1].id]) and first_of_its_query(s)]
    spare = [s for s in staged if s[0] == "new" and not room[s[0], s[1].id] and s[1].id not in reworked
             and first_of_its_query(s)]
    if len(chosen) > args.size:
        raise SystemExit(f"{len(chosen)} instances with headroom or from the demo exceed --size {args.size}")
    types = Counter(i.removed_constraints[0].type.value for _, i, _ in chosen)
    while len(chosen) < args.size:
        if not spare:
            raise SystemExit(f"only {len(chosen)} staged instances for --size {args.size}")
        best = min(spare, key=lambda s: (len(gold_documents(s[1])) < 2, types[s[1].removed_constraints[0].type.value], s[1].id))
        spare.remove(best)
        chosen.append(best)
        types[best[1].removed_constraints[0].type.value] += 1

    assert len({i.id for _, i, _ in chosen}) == len(chosen), "staged ids repeat across the chosen sources"
    chosen.sort(key=lambda s: hashlib.sha256(s[1].id.encode()).hexdigest())
    test, evidence, rows = [], [], ["id\tstaged_id\tsource\theadroom\tdocuments"]
    for n, (source, instance, record) in enumerate(chosen, 1):
        new_id = f"cts-{n:04d}"
        test.append(instance.model_copy(update={"id": new_id}))
        evidence.append(record.model_copy(update={"id": new_id}))
        rows.append(f"{new_id}\t{instance.id}\t{source}\t{'yes' if room[source, instance.id] else 'no'}\t{len(gold_documents(instance))}")
    smoke = stratified_sample(test, args.smoke)
    smoke_ids = {i.id for i in smoke}
    write_jsonl(args.out / "test.jsonl", test)
    write_jsonl(args.out / "test.evidence.jsonl", evidence)
    write_jsonl(args.out / "smoke.jsonl", smoke)
    write_jsonl(args.out / "smoke.evidence.jsonl", [e for e in evidence if e.id in smoke_ids])
    args.ids.write_text("\n".join(rows) + "\n", encoding="utf-8")
    print(f"test: {len(test)} ({sum(room[s, i.id] for s, i, _ in chosen)} with headroom); smoke: {len(smoke)}; "
          f"by source: {dict(Counter(s for s, _, _ in chosen))}")


if __name__ == "__main__":
    main()
