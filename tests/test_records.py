import json

import pytest
from pydantic import ValidationError

from cts_dataset.hf.features import document_features, instance_features
from cts_dataset.records import RECORD_KINDS, Document, Instance, Nugget, gold_of
from cts_dataset.schemas import SCHEMA_DIR, generate_schema


def make_instance(**changes) -> Instance:
    base = dict(
        id="t-1", language="en", fused_query="Who won in 1998?", blurred_query="Who won?",
        removed_constraints=[{"type": "time", "value": "1998"}],
        nuggets=[{"text": "France won.", "weight": 2.0, "sources": ["France"]}],
    )
    return Instance.model_validate({**base, **changes})


def test_instance_round_trips_through_json():
    instance = make_instance()
    again = Instance.model_validate_json(instance.model_dump_json())
    assert again == instance
    assert again.removed_constraints[0].type.value == "time"
    assert isinstance(again.nuggets[0], Nugget)


def test_gold_of_instance_uses_the_fused_query():
    gold = gold_of(make_instance())
    assert gold.query == "Who won in 1998?" and gold.nuggets[0].weight == 2.0


@pytest.mark.parametrize(
    "change",
    [
        {"language": "fr"},
        {"removed_constraints": [{"type": "weather", "value": "x"}]},
        {"nuggets": [{"text": "x", "weight": -1, "sources": []}]},
        {"nuggets": []},
        {"surprise": 1},
    ],
)
def test_instance_rejects_bad_fields(change):
    with pytest.raises(ValidationError):
        make_instance(**change)


@pytest.mark.parametrize("kind", sorted(RECORD_KINDS))
def test_shipped_schema_files_match_the_models(kind):
    shipped = json.loads((SCHEMA_DIR / f"{kind}.schema.json").read_text())
    assert shipped == generate_schema(kind), "run: python -m cts_dataset.hf.regenerate"


def test_hf_features_mirror_the_records():
    assert list(instance_features()) == list(Instance.model_fields)
    assert list(document_features()) == list(Document.model_fields)
    nugget = instance_features()["nuggets"].feature
    assert list(nugget) == list(Nugget.model_fields)
    assert nugget["weight"].dtype == "float64"
