"""Assemble the shipped `test` and `smoke` splits from the staged, second-read instances.

    python authoring/track518/assemble.py [--size 518] [--smoke 20] [--out DIR] [--ids FILE]
    python -m cts_dataset.hf.regenerate          # then: the dataset card states the splits' figures

The rule looks at the data only, never at a score:
1. every staged instance the second reading kept from the reviewed demo, the headroom rework and the
   growth round, and the new ones with retrieval headroom (BM25's top 10 holds more cited documents for
   the fused query than for the blurred one); of instances with the same blurred query, the first in that
   order only;
2. of the new instances without headroom, only as many as the size needs: those citing two or more
   documents first, then the removed-constraint type least represented so far, then id; a new instance
   whose rework was kept under the same id is left out (the rework replaces it);
3. ids are append-only: an instance listed in the provenance table (``--ids``, read when it exists) keeps
   its `cts-NNNN` id; the others are numbered after the highest, in the order of the SHA-256 of their
   staged ids (so that `--limit N` reads a mixed sample). The split is written in id order;
4. `smoke` is `cts_dataset.data.stratified_sample(test, 20)`.

Writes `loaders/ctsbench/data/{test,smoke}.jsonl` with their evidence files beside them, and the
provenance table `authoring/track518/track_ids.tsv` (final id, staged id, source, headroom, documents
cited): where each shipped instance comes from.
"""

from __future__ import annotations

import argparse
import hashlib
from collections import Counter
from pathlib import Path

from cts_dataset.data import evidence_beside, stratified_sample
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
HEADER = "id\tstaged_id\tsource\theadroom\tdocuments"
Staged = tuple[str, Instance, InstanceEvidence]  # (source, instance, its evidence)


def read_staged() -> list[Staged]:
    staged: list[Staged] = []
    for source, path in SOURCES.items():
        evidence = {e.id: e for e in read_records(evidence_beside(path), "evidence")}
        staged += [(source, i, evidence[i.id]) for i in read_records(path, "instance")]
    return staged


def first_type(instance: Instance) -> str:
    return instance.removed_constraints[0].type.value


def select(staged: list[Staged], room: dict[tuple[str, str], bool], size: int) -> list[Staged]:
    """Steps 1 and 2 of the rule. ``room`` is keyed by source too: a rework keeps the id it rewrites."""
    reworked = {i.id for source, i, _ in staged if source == "rework"}
    seen: set[str] = set()

    def first_of_its_query(instance: Instance) -> bool:
        query = " ".join(instance.blurred_query.lower().split())
        fresh = query not in seen
        seen.add(query)
        return fresh

    chosen = [s for s in staged if (s[0] != "new" or room[s[0], s[1].id]) and first_of_its_query(s[1])]
    spare = [s for s in staged if s[0] == "new" and not room[s[0], s[1].id] and s[1].id not in reworked
             and first_of_its_query(s[1])]
    if len(chosen) > size:
        raise SystemExit(f"{len(chosen)} instances with headroom or from the demo exceed --size {size}")
    types = Counter(first_type(i) for _, i, _ in chosen)
    while len(chosen) < size:
        if not spare:
            raise SystemExit(f"only {len(chosen)} staged instances for --size {size}")
        best = min(spare, key=lambda s: (len(gold_documents(s[1])) < 2, types[first_type(s[1])], s[1].id))
        spare.remove(best)
        chosen.append(best)
        types[first_type(best[1])] += 1
    if len({(s, i.id) for s, i, _ in chosen}) != len(chosen):
        raise SystemExit("a staged instance was chosen twice")
    return chosen


def number(chosen: list[Staged], previous: dict[tuple[str, str], str]) -> dict[tuple[str, str], str]:
    """Step 3: ids from the provenance table where listed, the next numbers for the rest."""
    ids = {(s, i.id): previous[s, i.id] for s, i, _ in chosen if (s, i.id) in previous}
    fresh = sorted((s for s in chosen if (s[0], s[1].id) not in ids),
                   key=lambda s: hashlib.sha256(s[1].id.encode()).hexdigest())
    start = max((int(v.removeprefix("cts-")) for v in previous.values()), default=0)
    ids.update({(s, i.id): f"cts-{start + n:04d}" for n, (s, i, _) in enumerate(fresh, 1)})
    return ids


def read_provenance(path: Path) -> dict[tuple[str, str], str]:
    if not path.is_file():
        return {}
    rows = [line.split("\t") for line in path.read_text(encoding="utf-8").splitlines()[1:] if line]
    return {(source, staged): final for final, staged, source, *_ in rows}


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--size", type=int, default=518)
    parser.add_argument("--smoke", type=int, default=20)
    parser.add_argument("--out", type=Path, default=DATA, help="where the split files go")
    parser.add_argument("--ids", type=Path, default=HERE / "track_ids.tsv",
                        help="the provenance table: read for the ids it fixes, then written")
    args = parser.parse_args(argv)

    staged = read_staged()
    rows = headroom([i for _, i, _ in staged], K)
    room = {(s, i.id): row.has_room for (s, i, _), row in zip(staged, rows, strict=True)}
    chosen = select(staged, room, args.size)
    ids = number(chosen, read_provenance(args.ids))
    chosen.sort(key=lambda s: ids[s[0], s[1].id])

    test, evidence, table = [], [], [HEADER]
    for source, instance, record in chosen:
        final = ids[source, instance.id]
        test.append(instance.model_copy(update={"id": final}))
        evidence.append(record.model_copy(update={"id": final}))
        has_room = "yes" if room[source, instance.id] else "no"
        table.append(f"{final}\t{instance.id}\t{source}\t{has_room}\t{len(gold_documents(instance))}")
    smoke = stratified_sample(test, args.smoke)
    smoke_ids = {i.id for i in smoke}
    write_jsonl(args.out / "test.jsonl", test)
    write_jsonl(args.out / "test.evidence.jsonl", evidence)
    write_jsonl(args.out / "smoke.jsonl", smoke)
    write_jsonl(args.out / "smoke.evidence.jsonl", [e for e in evidence if e.id in smoke_ids])
    args.ids.write_text("\n".join(table) + "\n", encoding="utf-8")
    print(f"test: {len(test)} ({sum(room[s, i.id] for s, i, _ in chosen)} with headroom); smoke: {len(smoke)}; "
          f"by source: {dict(Counter(s for s, _, _ in chosen))}")


if __name__ == "__main__":
    main()
