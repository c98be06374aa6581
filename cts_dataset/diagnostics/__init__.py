"""Diagnostics of a run: why clarification helped or failed, recomputed from the run folder's records.

``diagnose(folder, instances=None) -> dict`` (no model call unless an LLM classifier is given), with keys:

- ``version``; ``run``: instances, dataset, limit, budgets, show_budget, repeats, conditions.
- ``errors``: failed requests standing for the run's instances, per stage (clarify, answer, rewrite, search,
  judge) and in calls.jsonl.
- ``question_types``: classifier, questions, invalid_questions, unknown_rate; ``per_type`` (every type:
  asked, share, unknown, unknown_rate, gain_when_asked {n, mean}); ``by_turn`` (turn: questions, invalid,
  unknown_rate, types asked); ``region_only`` (k: dialogues, region_only, rate, questions, unknown_rate);
  ``llm_classifier`` when one ran (classifier, questions, share, agreement_with_rules).
- ``elicitation``: ``by_constraint_type`` (type: instances, at_k {k: dialogues, targeted, targeted_rate,
  revealed, revealed_rate}); ``redundant`` (k: later_questions, redundant, rate, dialogues,
  dialogues_with_redundant, dialogues_rate); ``over_disclosure`` (answers, beyond_question(_rate),
  revealed_unasked_type(_rate)).
- ``utility``: ``marginal_gain`` (k: n, mean, by_status {answered, unknown, invalid}, by_type {type: n,
  mean and the same by status}; empty with a shown budget, ``marginal_gain_note`` then says why);
  ``restoration_rate`` (clarify@k: estimator, defined, no_headroom, unscored, mean_gain, mean_headroom,
  mean = mean_gain / mean_headroom, low, high, confidence, per_instance {id: rate}, for the spread only).
- ``cost``: total, by_role, by_condition, by_role_and_condition (calls, prompt_tokens, completion_tokens,
  seconds, cache_hits, errors); per_point (clarify@k: gain, extra_per_instance (a clarify@k row over a
  baseline row, per instance and repeat), per_point).
- ``search``: per condition: trajectories, errors, tool_calls_per_trajectory, llm_calls_per_trajectory,
  tokens_per_trajectory, termination, gold_recall_retrieved, gold_recall_visited, all_gold_retrieved_rate.

``question_types``, ``elicitation`` and ``utility`` are present when the run has the clarify condition.
"""

from cts_dataset.diagnostics.core import diagnose
from cts_dataset.diagnostics.render import render_markdown
from cts_dataset.diagnostics.rules import classify
from cts_dataset.diagnostics.types import CONSTRAINT_TYPES, QUESTION_TYPES

__all__ = ["CONSTRAINT_TYPES", "QUESTION_TYPES", "classify", "diagnose", "render_markdown"]
