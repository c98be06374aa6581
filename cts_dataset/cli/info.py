"""`ctsbench info`: what data this installation has (instances, constraints, nuggets, corpus)."""

from __future__ import annotations

from collections import Counter

import click

from cts_dataset.data import SPLITS


@click.command()
@click.option("--split", default="demo", show_default=True, type=click.Choice(SPLITS))
def info(split: str) -> None:
    """Summarise the shipped instances and the corpus."""
    from cts_dataset.corpus import SOURCE_DISTRIBUTION, load_corpus
    from cts_dataset.data import dataset_revision, load
    from cts_dataset.quality.headroom import gold_documents

    instances = load(split)
    documents = load_corpus()
    types = Counter(c.type.value for i in instances for c in i.removed_constraints)
    nuggets = [len(i.nuggets) for i in instances]
    multi_doc = sum(1 for i in instances if len(gold_documents(i)) > 1)
    click.echo(f"split {split}: {len(instances)} instances (revision {dataset_revision(split)})")
    click.echo("removed constraints: " + ", ".join(f"{t} {n}" for t, n in types.most_common()))
    click.echo(f"nuggets per instance: min {min(nuggets)}, mean {sum(nuggets) / len(nuggets):.1f}, max {max(nuggets)}")
    click.echo(f"instances citing two or more documents: {multi_doc}")
    click.echo(f"corpus: {len(documents)} documents from {SOURCE_DISTRIBUTION} (Wikipedia text, CC BY-SA 4.0)")
