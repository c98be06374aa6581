"""The main job's fixed sample: stratified by the first removed constraint's type, from the data alone."""

from collections import Counter

from cts_dataset.data import load, stratified_sample
from cts_dataset.pipeline.components import load_instances
from cts_dataset.pipeline.config import load_config


def first_type(instance):
    return instance.removed_constraints[0].type.value


def test_the_sample_keeps_each_types_share_and_the_dataset_order():
    demo = load()
    sample = stratified_sample(demo, 20)
    assert len(sample) == 20 == len({i.id for i in sample})
    shares, counts = Counter(map(first_type, demo)), Counter(map(first_type, sample))
    assert set(counts) == set(shares), "every type is in the sample"
    for kind, n in shares.items():  # e.g. entity 46 of 200 -> 4.6 -> 4 or 5
        assert abs(counts[kind] - 20 * n / len(demo)) < 1, kind
    order = [i.id for i in demo]
    assert [i.id for i in sample] == sorted((i.id for i in sample), key=order.index)
    assert stratified_sample(demo, 20) == sample and stratified_sample(demo, 500) == demo


def test_run_sample_selects_the_same_instances():
    config = load_config(sample=20)
    assert [i.id for i in load_instances(config)] == [i.id for i in stratified_sample(load(), 20)]
    assert len(load_instances(load_config(sample=20, limit=5))) == 5
