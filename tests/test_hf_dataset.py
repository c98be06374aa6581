import json
import subprocess
import sys

import pytest

from cts_dataset.data import SPLITS, evidence_path, load
from cts_dataset.hf.folders import instances_card
from cts_dataset.hf.regenerate import repository_card_path
from cts_dataset.templates import fill
from tests.conftest import REPO, run_cli


def test_repository_card_is_generated_from_cards_and_features():
    assert repository_card_path().read_text() == instances_card(), "run: python -m cts_dataset.hf.regenerate"


def test_card_placeholders_are_checked():
    with pytest.raises(ValueError, match=r"without a value: \['b'\]$"):
        fill("$a ${b}", {"a": "1"})
    with pytest.raises(ValueError, match=r"no placeholder: \['c'\]$"):
        fill("$a", {"a": "1", "c": "2"})
    with pytest.raises(ValueError, match=r"line 2: a '\$' that starts no placeholder"):
        fill("costs\n$ 5", {})
    assert fill('{"json": "$$${a}"}', {"a": 1}) == '{"json": "$1"}'


def test_load_dataset_on_the_repository_folder_keeps_nested_types():
    import datasets

    loaded = datasets.load_dataset(str(REPO / "loaders" / "ctsbench"))
    demo = loaded["demo"]
    assert demo.num_rows == len(load())
    nugget = demo.features["nuggets"]
    assert isinstance(nugget, datasets.List)
    assert nugget.feature["weight"] == datasets.Value("float64")
    assert nugget.feature["sources"] == datasets.List(datasets.Value("string"))
    first = demo[0]
    assert isinstance(first["nuggets"], list) and isinstance(first["nuggets"][0]["weight"], float)
    assert first == json.loads(json.dumps(load()[0].model_dump(mode="json")))


@pytest.mark.slow
def test_bare_names_load_offline_anywhere_after_hub_install(tmp_path, fresh_hf_env):
    installed = run_cli("hub", "install", env=fresh_hf_env)
    assert installed.returncode == 0, installed.stderr
    assert "verified offline by bare name" in installed.stdout
    code = (
        "import datasets\n"
        "d = datasets.load_dataset('ctsbench')\n"
        "c = datasets.load_dataset('ctsbench-corpus')\n"
        "print(d['demo'].num_rows, type(d['demo'].features['nuggets']).__name__, c['corpus'].num_rows, d['test'].num_rows)\n"
    )
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    result = subprocess.run([sys.executable, "-c", code], cwd=elsewhere, env=fresh_hf_env, capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == [str(len(load())), "List", "10033", str(len(load("test")))]


def test_hub_export_writes_loadable_folders(tmp_path):
    import datasets

    result = run_cli("hub", "export", str(tmp_path / "out"))
    assert result.returncode == 0, result.stderr
    assert "hf upload" in result.stdout
    corpus = datasets.load_dataset(str(tmp_path / "out" / "ctsbench-corpus"))
    assert corpus["corpus"].num_rows == 10033
    assert (tmp_path / "out" / "ctsbench" / "README.md").read_text().startswith("---\npretty_name:")
    instances = datasets.load_dataset(str(tmp_path / "out" / "ctsbench"))
    assert {name: rows.num_rows for name, rows in instances.items()} == {s: len(load(s)) for s in SPLITS}
    for split in ("test", "smoke"):  # the evidence travels with its split, not as a split of its own
        exported = tmp_path / "out" / "ctsbench" / "data" / evidence_path(split).name
        assert exported.read_bytes() == evidence_path(split).read_bytes()
