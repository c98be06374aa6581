"""`ctsbench import-release` on SYNTHETIC archives (tests/release_fixtures.py), never the real release."""

from __future__ import annotations

import json
import subprocess
import sys
import zipfile

import pytest
from click.testing import CliRunner

from cts_dataset.cli import main
from cts_dataset.jsonl import RecordFileError, read_records
from cts_dataset.records import Instance
from cts_dataset.release import values
from cts_dataset.release.fields import QUERY_ROLES, MappingError, map_fields, normalise, parse_overrides
from cts_dataset.release.gold import MappingOptions
from cts_dataset.release.importer import ReleaseError, import_release, locate
from cts_dataset.release.store import (
    ImportedInstance,
    NotImportedError,
    dataset_folder,
    load_imported,
    read_imported,
)
from cts_dataset.release.tables import read_records as read_release_records
from cts_dataset.release.tables import read_table
from tests.conftest import run_cli
from tests.release_fixtures import GOOD, ITEMS, synthetic_web, write_release_dir, write_release_zip

# The fixtures' label weights and the numbers the user gives them (none is guessed).
LABEL_MAPS = {"chinese_bom": {"高": 3.0, "中": 2.0, "低": 1.0}, "tsv_nested": {"vital": 1.0, "okay": 0.5}}


def options_for(variant: str) -> MappingOptions:
    return MappingOptions(weight_map=LABEL_MAPS.get(variant, {}))


@pytest.fixture(autouse=True)
def data_root(tmp_path, monkeypatch):
    """Imports go to a temporary data root, never the user's."""
    root = tmp_path / "data-root"
    monkeypatch.setenv("CTSBENCH_DATA_DIR", str(root))
    return root


# -- field mapping -----------------------------------------------------------------------------------
def test_names_are_compared_without_case_spaces_bom_or_full_width_forms():
    assert normalise("\ufeffFused Query") == "fused_query" == normalise("ＦＵＳＥＤ－QUERY")
    assert normalise(" 模糊查询 ") == "模糊查询"


def test_exact_aliases_beat_keywords_and_each_field_serves_one_role():
    found = map_fields(["Query", "blurred_query", "编号"], QUERY_ROLES, "q.csv")
    assert (found["queries.fused_query"], found["queries.blurred_query"], found["queries.id"]) == (
        "Query", "blurred_query", "编号")
    keyword = map_fields(["user_intent_text", "the_blurred_one"], QUERY_ROLES, "q.csv")
    assert keyword.how == {"queries.fused_query": "keyword", "queries.blurred_query": "keyword"}
    assert keyword["queries.id"] is None  # optional


def test_a_tie_or_a_missing_field_stops_with_the_fields_found_and_needed():
    with pytest.raises(MappingError, match="'fused_a' and 'fused_b' fit equally well") as tie:
        map_fields(["fused_a", "fused_b", "blurred"], QUERY_ROLES, "q.csv")
    assert "--map queries.fused_query=FIELD" in str(tie.value)
    with pytest.raises(MappingError) as missing:
        map_fields(["id", "text"], QUERY_ROLES, "q.csv")
    message = str(missing.value)
    assert message.startswith("q.csv: cannot map queries.fused_query, queries.blurred_query")
    assert "fields found: id, text" in message and "queries.blurred_query: one of blurred_query" in message


def test_map_overrides_settle_a_field_and_are_checked():
    found = map_fields(["a", "b"], QUERY_ROLES, "q.csv", {"queries.fused_query": "a", "queries.blurred_query": "B"})
    assert found["queries.fused_query"] == "a" and found["queries.blurred_query"] == "b"
    with pytest.raises(MappingError, match="--map queries.fused_query=zz: no such field"):
        map_fields(["a"], QUERY_ROLES, "q.csv", {"queries.fused_query": "zz"})
    assert parse_overrides(["nugget.weight = imp"], {"nugget.weight"}) == {"nugget.weight": "imp"}
    for bad in ("nugget.weight", "nope.x=a"):
        with pytest.raises(Exception, match="--map"):
            parse_overrides([bad], {"nugget.weight"})


# -- values ------------------------------------------------------------------------------------------
def test_weights_sources_constraints_and_ids():
    labels = values.parse_weight_map(["vital=1,okay=0.5", "高=3", "Low = 1"])
    assert [values.weight(w, labels) for w in (2, "1.5", "vital", "okay", "高", "LOW")] == [2, 1.5, 1, 0.5, 3, 1]
    for bad in (-1, "very", None, True, "vital"):
        with pytest.raises(ValueError):
            values.weight(bad)  # a label without --weight-map is not given a number
    with pytest.raises(values.UnmappedWeightLabel, match="--weight-map vital=NUMBER"):
        values.weight("vital")
    assert values.sources("a, b;c | d") == ["a", "b", "c", "d"]
    assert values.sources("https://x.org/a,b") == ["https://x.org/a,b"]  # one URL stays whole
    assert values.sources('["u1", 7, {"url": "u2"}, "u1"]') == ["u1", "7", "u2"]
    assert values.constraints("时间：2021年；地点:青松市") == [{"type": "time", "value": "2021年"},
                                                         {"type": "region", "value": "青松市"}]
    assert values.constraints('{"year": "2021", "scope": "国家"}') == [{"type": "time", "value": "2021"},
                                                                       {"type": "scope", "value": "国家"}]
    assert values.constraints([{"类型": "实体", "值": "计算机学院"}]) == [{"type": "entity", "value": "计算机学院"}]
    assert values.constraints("") == [] and values.constraints("odd:x")[0]["type"] == "other"
    assert values.join_key(" 007 ") == values.join_key(7) == values.join_key(7.0) == "7"
    assert values.instance_id("q 1/二") == "q_1/"
    assert values.instance_id("H-1") == "H-1" and values.instance_id("_x") == "x"
    with pytest.raises(ValueError):
        values.instance_id("问题")


# -- reading files -----------------------------------------------------------------------------------
@pytest.mark.parametrize("encoding", ["utf-8", "utf-8-sig", "utf-16", "gb18030"])
def test_tables_read_csv_and_tsv_in_the_usual_encodings(tmp_path, encoding):
    path = tmp_path / "q.tsv"
    path.write_text("编号\t融合查询\n1\t\"多行\n的查询\"\n2\t第二\n", encoding=encoding)
    table = read_table(path)
    assert table.delimiter == "\t" and table.header == ("编号", "融合查询")
    assert [(line, row["融合查询"]) for line, row in table.rows] == [(2, "多行\n的查询"), (4, "第二")]
    csv_path = tmp_path / "q.csv"
    csv_path.write_text("a;b\n1;2;3\n", encoding="utf-8")
    with pytest.raises(RecordFileError, match=r"q.csv:2: \(row\): 3 cells for 2 columns"):
        read_table(csv_path)


def test_gold_may_be_a_json_array_and_bad_lines_are_named(tmp_path):
    array = tmp_path / "g.json"
    array.write_text(json.dumps([{"id": 1}, {"id": 2}]))
    assert [line for line, _ in read_release_records(array)[0]] == [1, 2]
    broken = tmp_path / "g.jsonl"
    broken.write_text('{"id": 1}\n[1]\n{oops\n')
    with pytest.raises(RecordFileError) as error:
        read_release_records(broken)
    assert [(p.line, p.field) for p in error.value.problems] == [(2, "(record)"), (3, "(json)")]


# -- whole archives ----------------------------------------------------------------------------------
def _essence(instance: Instance) -> tuple:
    return (instance.language, instance.fused_query, instance.blurred_query,
            tuple(n.text for n in instance.nuggets))


@pytest.mark.parametrize("variant", GOOD)
def test_every_header_variant_imports_to_the_same_instances(tmp_path, variant):
    result, folder = import_release(write_release_dir(tmp_path, variant), options_for(variant), dry_run=True)
    assert folder is None
    assert [_essence(i) for i in result.instances] == [
        ("zh", it.fused, it.blurred, tuple(t for t, _ in it.nuggets)) for it in ITEMS]
    assert all(n.sources and n.weight > 0 for i in result.instances for n in i.nuggets)
    annotated = variant in ("chinese_bom", "parallel_lists")
    assert result.annotated == (len(ITEMS) if annotated else 0)
    [candidates] = result.candidates.values()
    assert [c.id for c in candidates] == [i.id for i in result.instances]
    assert candidates[0].answer == ITEMS[0].answer and candidates[0].system == "synth1"
    assert [g.id for g in result.gold] == [i.id for i in result.instances]


def test_annotations_weights_and_ids_come_through(tmp_path):
    chinese, _ = import_release(write_release_dir(tmp_path / "a", "chinese_bom"), options_for("chinese_bom"),
                                dry_run=True)
    first = chinese.instances[1]
    assert [(c.type.value, c.value) for c in first.removed_constraints] == [("scope", "国家"), ("time", "2019年")]
    assert [n.weight for n in first.nuggets] == [3, 2] and len(first.nuggets[0].sources) == 2
    tsv, _ = import_release(write_release_dir(tmp_path / "b", "tsv_nested"), options_for("tsv_nested"), dry_run=True)
    assert [i.id for i in tsv.instances] == ["001", "002", "003", "004"]  # the gold's 1..4 matched by value
    assert [n.weight for n in tsv.instances[0].nuggets] == [1.0, 0.5]
    no_ids, _ = import_release(write_release_dir(tmp_path / "c", "no_ids"), dry_run=True)
    assert [i.id for i in no_ids.instances] == ["hard518-0001", "hard518-0002", "hard518-0003", "hard518-0004"]
    assert no_ids.mapping["queries"] == ["queries.fused_query <- 'fused' (alias)",
                                         "queries.blurred_query <- 'blurred' (alias)"]


def test_unmappable_headers_stop_naming_the_file_and_fields_and_write_nothing(tmp_path, data_root):
    release = write_release_dir(tmp_path, "broken_headers")
    result = CliRunner().invoke(main, ["import-release", str(release)])
    assert result.exit_code == 1
    assert "hard_518_queries.csv: cannot map queries.fused_query, queries.blurred_query" in result.output
    assert "fields found: id, question_text, user_input" in result.output
    assert "queries.fused_query: one of fused_query" in result.output and "nothing was written" in result.output
    assert not data_root.exists()
    mapped = CliRunner().invoke(main, ["import-release", str(release), "--dry-run", "--map",
                                       "queries.fused_query=question_text", "--map", "queries.blurred_query=user_input"])
    assert mapped.exit_code == 0, mapped.output
    assert "queries.fused_query <- 'question_text' (--map)" in mapped.output and "dry run" in mapped.output


def test_unmapped_nugget_weights_list_the_nugget_fields_and_can_be_named_or_defaulted(tmp_path):
    release = write_release_dir(tmp_path, "broken_weights")
    with pytest.raises(MappingError) as error:
        import_release(release, dry_run=True)
    assert "(the nuggets under 'nuggets'): cannot map nugget.weight" in str(error.value)
    assert "fields found: content, imp_lvl, links" in str(error.value) and "--default-weight" in str(error.value)
    named, _ = import_release(release, MappingOptions({"nugget.weight": "imp_lvl"}), dry_run=True)
    assert [n.weight for n in named.instances[0].nuggets] == [3, 1]
    defaulted, _ = import_release(release, MappingOptions(default_weight=1.0), dry_run=True)
    assert {n.weight for i in defaulted.instances for n in i.nuggets} == {1.0}


def test_bad_rows_are_all_reported_with_file_line_and_field(tmp_path, data_root):
    with pytest.raises(RecordFileError) as error:
        import_release(write_release_dir(tmp_path, "broken_rows"))
    found = [(p.file.rsplit("/", 1)[1], p.line, p.field) for p in error.value.problems]
    assert found == [("hard_518_queries.csv", 3, "blurred_query"), ("gold_public_hard518.jsonl", 3, "nuggets[0].weight"),
                     ("hard_518_queries.csv", 6, "id"), ("hard_518_queries.csv", 7, "id")]
    assert "no gold record with this id ('q99')" in str(error.value) and not data_root.exists()


def test_unmatched_rows_can_be_skipped(tmp_path):
    release = write_release_dir(tmp_path, "english")
    queries = release / "data" / "hard_518_queries.csv"
    queries.write_text(queries.read_text(encoding="utf-8") + "q9,无金标的查询？,查询？\n", encoding="utf-8")
    with pytest.raises(RecordFileError, match="--allow-unmatched"):
        import_release(release, dry_run=True)
    result, _ = import_release(release, allow_unmatched=True, dry_run=True)
    assert len(result.instances) == len(ITEMS)
    assert any("hard_518_queries.csv:6: no gold record with this id ('q9'); skipped" in w for w in result.warnings)


def test_files_are_found_in_other_layouts_or_named(tmp_path):
    release = write_release_dir(tmp_path / "a", "english")
    (release / "data" / "hard_518_queries.csv").rename(release / "data" / "queries_v2.csv")
    assert locate(tmp_path / "a").queries.name == "queries_v2.csv"
    (release / "data" / "queries_v2.csv").rename(tmp_path / "elsewhere.csv")
    with pytest.raises(ReleaseError, match=r"no queries file\(s\) \(data/hard_518_queries.csv .*--queries FILE"):
        locate(tmp_path / "a")
    assert locate(tmp_path / "a", queries=tmp_path / "elsewhere.csv").queries.name == "elsewhere.csv"


def test_a_zip_member_outside_the_archive_is_refused(tmp_path):
    bad = tmp_path / "bad.zip"
    with zipfile.ZipFile(bad, "w") as archive:
        archive.writestr("../evil.txt", "x")
    with pytest.raises(ReleaseError, match="points outside the archive"):
        import_release(bad, dry_run=True)
    text = tmp_path / "notes.txt"
    text.write_text("not an archive")
    with pytest.raises(ReleaseError, match="neither a folder nor a zip"):
        import_release(text, dry_run=True)
    with pytest.raises(ReleaseError, match="no such file or folder"):
        import_release(tmp_path / "absent.zip", dry_run=True)


# -- the split: written, read back, replaced, strict demo --------------------------------------------
def test_import_writes_the_split_and_a_reimport_replaces_it(tmp_path, data_root):
    from cts_dataset.pipeline import components
    from cts_dataset.pipeline.config import RunConfig

    with pytest.raises(NotImportedError, match="ctsbench import-release"):
        load_imported("hard518")
    _, folder = import_release(write_release_zip(tmp_path / "clarify-then-search-518-release.zip", "english"),
                               install=False)
    assert folder == dataset_folder("hard518") == data_root / "ctsbench-hard518"
    assert {p.name for p in folder.iterdir()} == {"README.md", "data", "gold.jsonl", "candidates", "manifest.json"}
    manifest = json.loads((folder / "manifest.json").read_text())
    assert manifest["files"]["queries"]["file"] == "release/data/hard_518_queries.csv"
    assert manifest["counts"] == {"instances": 4, "annotated_constraints": 0, "candidates": {"synth1": 4}}
    card = (folder / "README.md").read_text()
    assert card.startswith("---\npretty_name: Hard518") and "license: cc-by-4.0" in card and "4 instances (zh: 4)" in card
    config = RunConfig(dataset="hard518", limit=2)
    assert [i.id for i in components.load_instances(config)] == ["q1", "q2"]
    revision = components.dataset_revision(config)
    import_release(write_release_dir(tmp_path / "b", "chinese_bom"), options_for("chinese_bom"), install=False)
    assert [i.id for i in load_imported()] == ["1", "2", "3", "4"] and components.dataset_revision(config) != revision
    assert not [p for p in data_root.iterdir() if p.name.startswith(".")]  # no staging folder left behind


def test_not_annotated_is_allowed_only_in_imported_splits(tmp_path):
    imported, _ = import_release(write_release_dir(tmp_path, "english"), dry_run=True)
    record = imported.instances[0].model_dump(mode="json")
    assert record["removed_constraints"] == [] and isinstance(imported.instances[0], Instance)
    with pytest.raises(ValueError, match="at least 1 item"):
        Instance.model_validate(record)  # the shipped demo split stays strict
    path = tmp_path / "split.jsonl"
    path.write_text(json.dumps(record, ensure_ascii=False) + "\n" + json.dumps({**record, "nuggets": []}) + "\n")
    with pytest.raises(RecordFileError) as imported:
        read_imported(path)
    assert [(p.line, p.field) for p in imported.value.problems] == [(2, "nuggets")]
    with pytest.raises(RecordFileError, match="removed_constraints"):
        read_records(path, "instance")
    assert ImportedInstance.model_validate(record).removed_constraints == []


# -- end to end: CLI import, load by name offline elsewhere, run on a web provider, score ---------------
@pytest.mark.slow
def test_import_load_by_name_run_and_score(tmp_path, fresh_hf_env):
    env = {**fresh_hf_env, "CTSBENCH_DATA_DIR": str(tmp_path / "data-root")}
    archive = write_release_zip(tmp_path / "clarify-then-search-518-release.zip", "tsv_nested")
    imported = run_cli("import-release", str(archive), "--weight-map", "vital=1,okay=0.5", env=env)
    assert imported.returncode == 0, imported.stderr
    assert "hard518: 4 instances, 0 with removed-constraint annotations; candidates: synth1 (4)" in imported.stdout
    neutral = tmp_path / "neutral"
    neutral.mkdir()
    code = ("import datasets\nd = datasets.load_dataset('ctsbench-hard518')['hard518']\n"
            "print(d.num_rows, d[0]['id'], d[0]['nuggets'][0]['weight'], d[0]['removed_constraints'])\n")
    loaded = subprocess.run([sys.executable, "-c", code], cwd=neutral, env=env, capture_output=True, text=True,
                            check=False)
    assert loaded.returncode == 0, loaded.stderr
    assert loaded.stdout.split() == ["4", "001", "1.0", "[]"]

    with synthetic_web() as url:
        config = tmp_path / "hard518.yaml"
        config.write_text(f"searcher:\n  kind: retrieval\n  options:\n    tool: {{kind: searxng, url: '{url}'}}\n")
        ran = run_cli("run", "--config", str(config), "--dataset", "hard518", "--limit", "2", "--preset", "cpu-smoke",
                      "--budgets", "1", "--out-dir", str(tmp_path / "run"), "--quiet", env=env, cwd=neutral)
    assert ran.returncode == 0, ran.stderr[-3000:]
    summary = json.loads((tmp_path / "run" / "summary.json").read_text())
    assert "dataset `hard518`" in ran.stdout and summary
    searches = [json.loads(line) for line in (tmp_path / "run" / "search.jsonl").read_text().splitlines()]
    assert {s["instance"] for s in searches} == {"001", "002"} and all(s["tool"].startswith("searxng:") for s in searches)
    oracle = [s for s in searches if s["condition"] == "oracle"]
    assert all("/page/" in s["retrieved_doc_ids"][0] for s in oracle)

    release = tmp_path / "release"
    with zipfile.ZipFile(archive) as unpacked:
        unpacked.extractall(tmp_path)
    scored = run_cli("score", "--gold", str(release / "data" / "gold_public_hard518.jsonl"), "--candidates",
                     str(release / "results" / "candidates" / "synth1__cand_hard518.jsonl"),
                     "--out-dir", str(tmp_path / "scored"), env=env, cwd=neutral)
    assert scored.returncode != 0 and "--weight-map vital=NUMBER" in scored.stderr  # labels: imported, not guessed
    folder = tmp_path / "data-root" / "ctsbench-hard518"
    again = run_cli("score", "--gold", str(folder / "gold.jsonl"), "--candidates", str(folder / "candidates" / "synth1.jsonl"),
                    "--out-dir", str(tmp_path / "scored-imported"), env=env, cwd=neutral)
    assert again.returncode == 0, again.stderr
    assert json.loads((tmp_path / "scored-imported" / "summary.json").read_text())["restore_score_100"] > 0


@pytest.mark.slow
def test_a_reimport_replaces_what_the_bare_name_loads(tmp_path, monkeypatch):
    import datasets

    monkeypatch.chdir(tmp_path)  # no folder named like the dataset here
    import_release(write_release_dir(tmp_path / "a", "english"), verify=False)
    assert datasets.load_dataset("ctsbench-hard518")["hard518"][0]["id"] == "q1"
    import_release(write_release_dir(tmp_path / "b", "parallel_lists"), verify=False)
    again = datasets.load_dataset("ctsbench-hard518")["hard518"]
    assert again[0]["id"] == "H-1" and again[0]["removed_constraints"] == [{"type": "time", "value": "2021年"}]


# -- ctsbench score on the release's own files ----------------------------------------------------------
@pytest.mark.parametrize("variant", GOOD)
def test_score_reads_the_release_gold_and_candidates_directly(tmp_path, variant):
    release = write_release_dir(tmp_path, variant)
    out = tmp_path / "scored"
    result = CliRunner().invoke(main, ["score", "--gold", str(release / "data" / "gold_public_hard518.jsonl"),
                                       "--candidates", str(release / "results" / "candidates" / "synth1__cand_hard518.jsonl"),
                                       "--out-dir", str(out)])
    if variant in LABEL_MAPS:  # label weights: their numbers come from import-release --weight-map
        assert result.exit_code == 1 and "give each label its number: --weight-map" in result.output
        assert "ctsbench import-release" in result.output and not (out / "summary.json").exists()
        return
    assert result.exit_code == 0, result.output
    assert "over 4 scored item(s)" in result.output
    summary = json.loads((out / "summary.json").read_text())
    assert summary["candidates_without_gold"] == [] == summary["gold_without_candidate"]
    if variant == "english":  # already our format: read as it is
        assert "read the candidates" not in result.output and not (out / "inputs").exists()
        return
    assert "read the candidates" in result.output
    converted = [json.loads(line) for line in (out / "inputs" / "candidates.synth1.jsonl").read_text().splitlines()]
    assert converted[0]["answer"] == ITEMS[0].answer and converted[0]["system"] == "synth1"


def test_score_names_the_fields_of_a_candidates_file_it_cannot_map(tmp_path):
    release = write_release_dir(tmp_path, "english")
    odd = tmp_path / "odd__cand_hard518.jsonl"
    odd.write_text('{"id": "q1", "blob": "x"}\n')
    result = CliRunner().invoke(main, ["score", "--gold", str(release / "data" / "gold_public_hard518.jsonl"),
                                       "--candidates", str(odd), "--out-dir", str(tmp_path / "o")])
    assert result.exit_code == 1
    assert "odd__cand_hard518.jsonl: cannot map candidate.answer" in result.output
    assert "fields found: id, blob" in result.output and "ctsbench import-release" in result.output
