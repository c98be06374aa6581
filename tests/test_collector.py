"""The collector's state around a run's bulk work: paused or slowed inside, as it was after."""

import gc

import pytest

from cts_dataset.collector import RUN_THRESHOLD, collector_paused, collector_slowed


def test_paused_nests_and_restores_even_on_error():
    assert gc.isenabled()
    with pytest.raises(RuntimeError), collector_paused():
        with collector_paused():
            assert not gc.isenabled()
        assert not gc.isenabled()  # the outer block still holds the pause
        raise RuntimeError
    assert gc.isenabled()


def test_paused_leaves_a_disabled_collector_disabled():
    gc.disable()
    try:
        with collector_paused():
            pass
        assert not gc.isenabled()
    finally:
        gc.enable()


def test_slowed_raises_only_the_young_threshold_and_restores_it():
    before = gc.get_threshold()
    with collector_slowed():
        assert gc.get_threshold() == (max(RUN_THRESHOLD, before[0]), *before[1:])
    assert gc.get_threshold() == before
    gc.set_threshold(RUN_THRESHOLD * 2, *before[1:])
    try:
        with collector_slowed():
            assert gc.get_threshold()[0] == RUN_THRESHOLD * 2  # never more often than it was
    finally:
        gc.set_threshold(*before)
