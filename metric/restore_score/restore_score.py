"""restore_score: weighted nugget recall of a search output (Clarify-Then-Search), as an evaluate metric.

A thin shim: the scoring lives in ``cts_dataset.scoring`` (pip install ctsbench) and works without evaluate.
"""

import datasets
import evaluate

from cts_dataset.hf.features import nugget_feature
from cts_dataset.scoring.compute import restore_score

_CITATION = """\
@inproceedings{huang2026clarifythensearch,
  title     = {Clarify-Then-Search: A Clarification Benchmark for Deep Search with End-to-End Nugget Restoration},
  author    = {Huang, Deqiang and Zhou, Jingbo and Lu, Xinjiang and Xu, Tong and Wu, Hua and Chen, Enhong},
  booktitle = {Proceedings of the 32nd ACM SIGKDD Conference on Knowledge Discovery and Data Mining (Datasets and Benchmarks Track)},
  year      = {2026}
}
"""

_DESCRIPTION = """\
restore_score_100 measures how much of a hidden search intent a search output restores: a coverage judge
labels each weighted golden nugget full (1), partial (0.5) or none (0) against the output, and
restore_score_100 = 100 * sum(w_i * s_i) / sum(w_i), averaged over instances. Also reported: strict_100
(full only), unweighted_100 (all weights 1), per-instance scores and a bootstrap 95% confidence interval.
A nugget the judge could not label is unscored: left out of its instance's sums and counted; an instance
with no scored nugget (or whose scored nuggets weigh 0 in total) is unscored (None), never 0.
"""

_KWARGS_DESCRIPTION = """
Args:
    predictions (`list` of `str`): the final text of the search system for each instance (may be empty).
    references (`list` of `list` of `dict`): each instance's golden nuggets, as in the ctsbench dataset:
        `{"text": str, "weight": float >= 0, "sources": [str, ...]}`.
    labels (`list` of `list` of `str` or `None`, optional): precomputed labels, one per nugget in order:
        "full", "partial", "none", or None (unscored).
    judge (`str` or judge object, optional): instead of labels: "lexical", "embedding" (offline judges for
        smoke runs and cheap bounds), or a chat-model spec such as "openai:ernie-4.5-turbo-128k" for the
        LLM judge; a judge object is any object with `name` and `judge(items)`.
    judge_options (`dict`, optional): passed to the judge (thresholds, batch_size, max_attempts, prompt_id, ...).
    queries (`list` of `str`, optional): the question each prediction answers, one per prediction. The LLM
        judge's prompt shows it (as `ctsbench score` and `ctsbench run` do); without it the prompt says
        "(not given)", which gives other numbers. The offline judges ignore it.
    confidence (`float`, optional, default 0.95) and seed (`int`, optional, default 0): of the bootstrap CI.
Returns:
    restore_score_100 (`float` or None): mean over scored instances; strict_100, unweighted_100 likewise.
    restore_score_100_ci (`list`): [low, high] percentile bootstrap interval (None with < 2 instances).
    per_instance, per_instance_strict, per_instance_unweighted (`list`): scores per instance (None = unscored).
    n_instances, n_scored_instances, n_unscored_instances, n_zero_weight_instances, n_unscored_nuggets (`int`).
    labels (`list` of `list`): the labels used; judge (`str`): the judge's name ("precomputed" for labels).
    queries_given (`bool`): whether queries were given. With a judge: judge_prompt and judge_prompt_hash
        (None for the offline judges), judge_raw (raw outputs per instance), and, when model requests
        failed, judge_errors (per instance) and n_failed_instances: such an instance is unscored (its
        labels are all None), as `ctsbench run` and `ctsbench score` leave it; compute again to retry.
Examples:
    >>> import evaluate
    >>> restore = evaluate.load("restore_score")
    >>> references = [
    ...     [{"text": "The official count gave 242,469 deaths.", "weight": 2.0, "sources": ["1976_Tangshan_earthquake"]},
    ...      {"text": "It struck on 28 July 1976.", "weight": 1.0, "sources": ["1976_Tangshan_earthquake"]}],
    ...     [{"text": "Mercury is liquid at room temperature.", "weight": 1.0, "sources": ["Mercury_(element)"]}],
    ... ]
    >>> predictions = ["The 1976 Tangshan earthquake killed 242,469 people by the official count.", ""]
    >>> result = restore.compute(predictions=predictions, references=references,
    ...                          labels=[["full", "partial"], [None]])
    >>> round(result["restore_score_100"], 2), result["n_unscored_instances"], result["n_unscored_nuggets"]
    (83.33, 1, 1)
    >>> result["per_instance"]
    [83.33333333333333, None]
"""


@evaluate.utils.file_utils.add_start_docstrings(_DESCRIPTION, _KWARGS_DESCRIPTION)
class RestoreScore(evaluate.Metric):
    """restore_score_100 and its variants; ``evaluate.load(..., judge=SPEC)`` sets a default judge."""

    def __init__(self, judge=None, judge_options=None, **kwargs):
        super().__init__(**kwargs)
        self.default_judge = judge
        self.default_judge_options = judge_options

    def _info(self):
        return evaluate.MetricInfo(
            description=_DESCRIPTION,
            citation=_CITATION,
            inputs_description=_KWARGS_DESCRIPTION,
            features=datasets.Features(
                {"predictions": datasets.Value("string"), "references": datasets.List(nugget_feature())}
            ),
            homepage="https://clarify-then-search.github.io",
            license="MIT",
            reference_urls=["https://clarify-then-search.github.io"],
        )

    def _compute(self, predictions, references, labels=None, judge=None, judge_options=None,
                 confidence=0.95, seed=0, queries=None):
        if labels is None and judge is None:
            judge, judge_options = self.default_judge, judge_options or self.default_judge_options
        return restore_score(predictions, references, labels=labels, judge=judge, judge_options=judge_options,
                             confidence=confidence, seed=seed, queries=queries)
