"""The stage bars: a role's bar moves as requests are answered; the search agent's as its runs end."""

from cts_dataset.pipeline.progress import Progress


def test_a_role_bar_moves_with_each_answer():
    progress = Progress()
    progress.start("answer turn 1", 4)
    progress.answered(3)
    assert progress.bar.n == 3
    progress("answer turn 1", 4)
    assert progress.bar.n == 4
    progress.close()


def test_the_agents_bar_is_not_filled_by_its_first_step_and_counts_its_calls():
    progress = Progress()
    progress.start("search", 4, calls_per_record=False)
    progress.answered(4)  # the first step of four runs
    progress.answered(3)  # the second step: three runs still going
    assert progress.bar.n == 0 and progress.calls == 7
    assert "7 agent calls" in str(progress.bar)
    progress("search", 4)  # the runs ended and their records were written
    assert progress.bar.n == 4
    progress.close()
