"""Comparing runs: `load_run` frames, `ctsbench export`, the leaderboard and its paired tests, the plots and
the report page (in a real headless Chromium).

Two runs of different clarifiers on one protocol: a scripted year-then-place clarifier and the reference
`template:region`, the same faithful scripted user (it states the year or place its intent has), scripted
rewriter, the real BM25 retrieval searcher and lexical judge. Every model call is traced with known usage.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from cts_dataset.cli import main
from cts_dataset.data import load
from cts_dataset.judges.lexical import LexicalJudge
from cts_dataset.models.scripted import ScriptedModel
from cts_dataset.pipeline.config import load_config
from cts_dataset.pipeline.experiment import Experiment
from cts_dataset.search.corpus_tool import CorpusSearchTool
from cts_dataset.search.retrieval import RetrievalSearcher
from tests.conftest import FREE_FORM_ANSWERER
from tests.diagnostics_runs import Traced
from tests.scripted_roles import rewrite_with_answers

pd = pytest.importorskip("pandas")
pytest.importorskip("matplotlib")

LIMITS = {"year-then-place": 16, "template": 12}  # the second run's instances are the first 12 of the first's
INTENTS = {i.fused_query: i for i in load()}


def faithful_user(request):
    """States its intent's year for a year question, its place for a place question, else unknown."""
    intent, question = request.messages[1].content.split("\n")[:2]
    instance = next((i for query, i in INTENTS.items() if query in intent), None)
    wanted = "time" if "year" in question else "region" if "place" in question or "region" in question else None
    values = [c.value for c in (instance.removed_constraints if instance else []) if c.type.value == wanted]
    return json.dumps({"answer": values[0] if values else "unknown"})


def make_run(folder: Path, searcher, clarifier: str | None) -> dict:
    folder.mkdir(parents=True)
    trace = folder / "calls.jsonl"
    models = {"user_answerer": Traced(ScriptedModel(default=faithful_user), trace),
              "rewriter": Traced(ScriptedModel(default=rewrite_with_answers), trace)}
    overrides = {"clarifier": clarifier} if clarifier else {}
    if clarifier is None:
        asks = ScriptedModel(default=lambda r: "Which year do you mean?" if "question 1" in r.messages[1].content
                             else "Which place do you mean?", spec="year-then-place")
        models["clarifier"] = Traced(asks, trace)
    limit = LIMITS["template" if clarifier else "year-then-place"]
    # The hand counts assume the scripted user is asked and its answer forwarded: the free-form answerer
    # (a choosing one would settle these year and place questions by its rules, with no call).
    config = load_config(out_dir=folder, limit=limit, budgets=[1, 2, 3], **FREE_FORM_ANSWERER, **overrides)
    summary = Experiment(config, models=models, searcher=searcher, judge=LexicalJudge(), progress=False).run()
    for model in models.values():
        model.close()
    return summary


@pytest.fixture(scope="module")
def searcher(tmp_path_factory):
    return RetrievalSearcher(CorpusSearchTool(cache_root=tmp_path_factory.mktemp("bm25")))


@pytest.fixture(scope="module")
def runs(tmp_path_factory, searcher):
    root = tmp_path_factory.mktemp("runs")
    make_run(root / "year", searcher, None)
    make_run(root / "region", searcher, "template:region")
    return root / "year", root / "region"


@pytest.fixture(scope="module")
def report(runs, tmp_path_factory):
    out = tmp_path_factory.mktemp("report")
    result = CliRunner().invoke(main, ["report", *map(str, runs), "--out", str(out)])
    assert result.exit_code == 0, result.output
    return out, result.output


def summary_of(folder: Path) -> dict:
    return json.loads((folder / "summary.json").read_text())


def stage(folder: Path, name: str) -> list[dict]:
    return [json.loads(line) for line in (folder / f"{name}.jsonl").read_text().splitlines()]


# -- load_run and export -----------------------------------------------------------------------------
def test_load_run_has_a_row_per_instance_condition_and_budget_whose_means_are_the_summary(runs):
    import cts_dataset
    from cts_dataset.report import COLUMNS, condition_means

    for folder in runs:
        frame = cts_dataset.load_run(folder)
        summary = summary_of(folder)
        assert tuple(frame.columns) == COLUMNS
        assert len(frame) == summary["instances"] * 5 and set(frame["status"]) == {"judged"}
        means = frame.groupby("label")["restore_score_100"].mean()
        for label, entry in summary["conditions"].items():
            assert means[label] == pytest.approx(entry["restore_score_100"]["mean"], abs=1e-9), label
            assert condition_means(frame)[label] == pytest.approx(entry["restore_score_100"]["mean"], abs=1e-9)
            assert frame.loc[frame["label"] == label, "strict_100"].mean() == pytest.approx(entry["strict_100"])


def test_a_clarify_row_joins_its_dialogue_rewrite_search_judgement_and_cost(runs):
    from cts_dataset.report import load_run

    frame = load_run(runs[0])
    row = frame[(frame["instance"] == "demo-0001") & (frame["label"] == "clarify@2")].iloc[0]
    answers = {(a["turn"]): a for a in stage(runs[0], "answer") if a["instance"] == "demo-0001"}
    assert row["questions"] == ["Which year do you mean?", "Which place do you mean?"]
    assert row["answers"] == [answers[1]["answer"], answers[2]["answer"]] == ["1976", "Tangshan, Hebei"]
    assert row["question_types"] == ["time", "region"] and row["turn_status"] == ["answered", "answered"]
    assert row["questions_asked"] == 2 and row["unknown_answers"] == 0 and not row["all_unknown"]
    rewrite = next(r for r in stage(runs[0], "rewrite") if r["instance"] == "demo-0001" and r["budget"] == 2)
    search = next(r for r in stage(runs[0], "search") if r["instance"] == "demo-0001" and r["budget"] == 2)
    judged = next(r for r in stage(runs[0], "judge") if r["instance"] == "demo-0001" and r["budget"] == 2)
    assert row["rewrite"] == rewrite["query"] == row["query"]
    assert row["answer"] == search["answer"] and row["retrieved_doc_ids"] == search["retrieved_doc_ids"]
    assert row["labels"] == judged["labels"] and row["restore_score_100"] == judged["restore_score_100"]
    assert len(row["nuggets"]) == len(row["labels"]) == len(row["nugget_weights"])
    # two dialogue turns (a question and an answer each) and one rewrite; the judge is not the system's cost
    assert row["calls"] == 5 and row["prompt_tokens"] > 0 and row["seconds"] == pytest.approx(5 * 0.25)
    assert frame.loc[frame["label"] == "baseline", "calls"].eq(0).all()
    at_3 = frame[frame["label"] == "clarify@3"]  # no rewriter call when every answer was unknown
    assert at_3["calls"].tolist() == [6 if unknown else 7 for unknown in at_3["all_unknown"]]


def test_ctsbench_export_writes_csv_parquet_and_jsonl_that_read_back(runs, tmp_path):
    from cts_dataset.report import load_run

    frame = load_run(runs[1])
    for kind in ("csv", "parquet", "jsonl"):
        out = tmp_path / f"rows.{kind}"
        result = CliRunner().invoke(main, ["export", str(runs[1]), "--format", kind, "--out", str(out)])
        assert result.exit_code == 0, result.output
        back = {"csv": pd.read_csv, "parquet": pd.read_parquet, "jsonl": lambda p: pd.read_json(p, lines=True)}[kind](out)
        assert list(back.columns) == list(frame.columns) and len(back) == len(frame)
        assert back["restore_score_100"].tolist() == pytest.approx(frame["restore_score_100"].tolist())
        questions = back["questions"].iloc[1]
        assert list(json.loads(questions) if kind == "csv" else questions) == ["Which place or region do you mean?"]
    default = CliRunner().invoke(main, ["export", str(runs[1])])
    assert default.exit_code == 0 and (runs[1] / "results.csv").is_file()


# -- the leaderboard ---------------------------------------------------------------------------------
def test_the_leaderboard_numbers_are_the_runs_summaries_and_diagnostics(runs, report):
    from cts_dataset.diagnostics import diagnose

    out, printed = report
    board = json.loads((out / "leaderboard.json").read_text())
    names = {"year-then-place": runs[0], "reference:template:region": runs[1]}
    assert {r["name"] for r in board["runs"]} == set(names)
    assert len(board["leaderboard"]) == 6
    for row in board["leaderboard"]:
        folder = names[row["clarifier"]]
        summary, found = summary_of(folder), diagnose(folder)
        assert summary.get("diagnostics", found)["utility"] == found["utility"]  # the summary's copy, when it has one
        entry = summary["conditions"][f"clarify@{row['k']}"]
        score, gain = entry["restore_score_100"], entry["gain_over_baseline"]
        assert (row["restore_score_100"], row["ci_low"], row["ci_high"], row["n"]) == (
            score["mean"], score["low"], score["high"], score["n"])
        assert (row["gain_over_baseline"], row["gain_p_value"], row["gain_pairs"]) == (
            gain["mean_difference"], gain["p_value"], gain["n_pairs"])
        assert row["all_unknown_rate"] == summary["dialogue"]["all_unknown_rate_at_k"][str(row["k"])]
        assert row["questions_asked"] == entry["questions_asked"]
        assert row["restoration_rate"] == found["utility"]["restoration_rate"][f"clarify@{row['k']}"]["mean"]
        assert row["region_only_rate"] == found["question_types"]["region_only"][str(row["k"])]["rate"]
        # per turn an answerer call (and a clarifier call: the reference template is no model); one rewrite
        # unless every answer was unknown
        turn_calls = 2 if row["clarifier"] == "year-then-place" else 1
        assert row["calls_per_instance"] == pytest.approx(turn_calls * row["k"] + 1 - row["all_unknown_rate"])
        if row["k"] == 1:
            assert row["unknown_rate"] == pytest.approx(summary["dialogue"]["unknown_rate_per_turn"]["1"])
    by_name = {(r["clarifier"], r["k"]): r for r in board["leaderboard"]}
    assert by_name[("reference:template:region", 2)]["region_only_rate"] == 1.0
    assert by_name[("year-then-place", 2)]["region_only_rate"] == 0.0
    csv = pd.read_csv(out / "leaderboard.csv")
    assert csv["restore_score_100"].tolist() == pytest.approx([r["restore_score_100"] for r in board["leaderboard"]])
    mean = summary_of(runs[1])["conditions"]["clarify@1"]["restore_score_100"]["mean"]
    assert f"{mean:.2f}" in (out / "leaderboard.md").read_text() and f"{mean:.2f}" in printed


def test_paired_tests_use_the_common_instances_and_holm_across_comparisons(runs, report):
    from cts_dataset.report.leaderboard import holm
    from cts_dataset.scoring.stats import paired_test

    board = json.loads((report[0] / "leaderboard.json").read_text())
    rows = board["comparisons"]
    assert [(r["k"], r["a"], r["b"]) for r in rows] == [(k, "year-then-place", "reference:template:region")
                                                        for k in (1, 2, 3)]
    scores = {folder: {(j["instance"], j["budget"]): j["restore_score_100"] for j in stage(folder, "judge")
                       if j["condition"] == "clarify"} for folder in runs}
    common = [i.id for i in load()[:LIMITS["template"]]]
    for row in rows:
        expected = paired_test([scores[runs[0]][(i, row["k"])] for i in common],
                               [scores[runs[1]][(i, row["k"])] for i in common])
        assert row["n_pairs"] == len(common) == 12
        assert (row["mean_difference"], row["ci_low"], row["ci_high"], row["p_value"]) == pytest.approx(
            (expected.mean_difference, expected.ci_low, expected.ci_high, expected.p_value))
    assert [r["p_holm"] for r in rows] == pytest.approx(holm([r["p_value"] for r in rows]))
    assert all(r["significant"] == (r["p_holm"] < 0.05) for r in rows)
    # Holm by hand: sorted 0.01, 0.03, 0.04 times 3, 2, 1, kept monotone; an undefined p is no test
    adjusted = holm([0.01, 0.04, 0.03, None])
    assert adjusted[:3] == pytest.approx([0.03, 0.06, 0.06]) and adjusted[3] is None
    assert holm([0.5, 0.9]) == [1.0, 1.0]


def test_runs_of_another_protocol_are_refused_naming_what_differs(runs, tmp_path):
    from cts_dataset.report.leaderboard import ProtocolMismatch, build

    other = tmp_path / "other"
    shutil.copytree(runs[1], other)
    stored = json.loads((other / "config.json").read_text())
    stored["identity"]["judge"]["thresholds"]["full"] = 0.9
    stored["identity"]["protocol"]["preset"] = "gpu-full"
    (other / "config.json").write_text(json.dumps(stored))
    with pytest.raises(ProtocolMismatch) as refused:
        build([runs[0], other])
    assert "judge.thresholds.full: 0.91 -> 0.9" in str(refused.value)
    assert 'protocol.preset: "cpu-smoke" -> "gpu-full"' in str(refused.value)
    result = CliRunner().invoke(main, ["report", str(runs[0]), str(other), "--out", str(tmp_path / "r")])
    assert result.exit_code != 0 and "judge.thresholds.full" in result.output
    board = build([runs[0], other], allow_mixed=True)
    assert any(w.startswith("MIXED PROTOCOL") and "protocol.preset" in w for w in board.warnings)
    # the clarifier is what a leaderboard compares: its differences are no protocol difference; the fixture's
    # runs (16 and 12 instances) get the one warning of instance sets that differ
    assert [w for w in build(list(runs)).warnings if "different instances" not in w] == []
    again = tmp_path / "again"
    shutil.copytree(runs[1], again)
    assert build([runs[1], again]).warnings == []


def test_runs_on_different_instance_sets_are_ranked_on_the_instances_all_scored(runs, report):
    board = json.loads((report[0] / "leaderboard.json").read_text())
    warnings = [w for w in board["warnings"] if "different instances" in w]
    assert len(warnings) == 1  # 16 and 12 instances
    assert "k=1, 2, 3: 12 common (year-then-place 16, reference:template:region 12)" in warnings[0]
    names = {"year-then-place": runs[0], "reference:template:region": runs[1]}
    common = [i.id for i in load()[:LIMITS["template"]]]
    judged = {folder: {(j["instance"], j["budget"]): j["restore_score_100"] for j in stage(folder, "judge")
                       if j["condition"] == "clarify"} for folder in runs}
    flipped = []
    for k in (1, 2, 3):
        rows = sorted((r for r in board["leaderboard"] if r["k"] == k), key=lambda r: r["rank"])
        for row in rows:
            scores = [judged[names[row["clarifier"]]][(i, k)] for i in common]
            assert row["common_n"] == 12 and row["common_score_100"] == pytest.approx(sum(scores) / 12)
        assert rows[0]["common_score_100"] >= rows[1]["common_score_100"]
        assert rows[1]["rank"] == (1 if rows[0]["common_score_100"] == pytest.approx(rows[1]["common_score_100"]) else 2)
        if rows[0]["restore_score_100"] < rows[1]["restore_score_100"]:
            flipped.append(k)
    assert flipped  # the own means (16 vs 12 instances) would rank these k the other way round
    markdown = (report[0] / "leaderboard.md").read_text()
    assert "different instances" in markdown and "| score on common instances [95% CI] | common n |" in markdown


def test_a_reference_clarifier_that_sees_hidden_types_is_shown_apart_and_never_ranked(runs, searcher, tmp_path):
    from cts_dataset.report.leaderboard import build, render_markdown

    oracle = tmp_path / "oracle-types"
    assert make_run(oracle, searcher, "oracle-types")["declared_leakage"]
    board = build([runs[0], oracle])
    rows = board.rows.to_dict(orient="records")
    assert {r["clarifier"] for r in rows if r["reference"]} == {"reference:oracle-types"}
    assert all(pd.isna(r["rank"]) for r in rows if r["reference"])
    assert all(r["rank"] == 1 for r in rows if not r["reference"])  # alone in the ranking at every k
    ranked, apart = render_markdown(board).split("Reference clarifiers (not ranked")
    assert "reference:oracle-types" not in ranked.split("| rank |")[1]
    assert apart.count("| - | ") == 3 and "reference:oracle-types" in apart


# -- plots --------------------------------------------------------------------------------------------
def test_the_plots_show_what_they_claim_and_open_as_pngs(runs, report):
    from PIL import Image

    from cts_dataset.report.leaderboard import build
    from cts_dataset.report.plots import PLOTS, figures

    made = figures(build(list(runs)))
    assert set(made) == set(PLOTS)
    expected = {
        "score_vs_budget": ("clarification budget k", "restore_score_100"),
        "unknown_by_question_type": ("question type", "unknown answers (%"),
        "all_unknown_vs_budget": ("clarification budget k", "every answer unknown (%)"),
        "elicitation_by_constraint_type": ("removed constraint type", "dialogues (%"),
        "restoration_distribution": ("clarifier", "restoration rate at k=3"),
    }
    for name, figure in made.items():
        ax = figure.axes[0]
        assert expected[name][0] in ax.get_xlabel() and expected[name][1] in ax.get_ylabel(), name
        legend = [t.get_text() for t in figure.legends[0].get_texts()]
        if name != "restoration_distribution":
            assert "year-then-place" in legend and "reference:template:region" in legend, name
        with Image.open(report[0] / "plots" / f"{name}.png") as image:
            assert image.size == (800, 450) and image.format == "PNG"
    score = made["score_vs_budget"]
    legend = [t.get_text() for t in score.legends[0].get_texts()]
    assert any(t.startswith("baseline") for t in legend) and any(t.startswith("oracle") for t in legend)
    assert [t.get_text() for t in made["unknown_by_question_type"].axes[0].get_xticklabels()] == ["time", "region"]


# -- the report page ----------------------------------------------------------------------------------
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run"]
CHROMIUM = Path("/usr/bin/chromium")


def test_the_report_page_is_one_file_that_needs_no_network(report):
    import re

    page = (report[0] / "report.html").read_text()
    assert "<link" not in page and "@import" not in page
    assert re.findall(r'\bsrc="([^"]*)"', page) and all(s.startswith("data:image/png;base64,")
                                                        for s in re.findall(r'\bsrc="([^"]*)"', page))
    assert not re.search(r'(src|href)="(https?:)?//', page) and "<script src" not in page


def test_the_report_page_loads_in_chromium_and_filters_to_an_instance(runs, report, tmp_path):
    if not CHROMIUM.exists():
        message = f"{CHROMIUM} missing: apt-get install chromium chromium-driver (.ci/run does)"
        pytest.fail(message) if os.environ.get("CI") == "true" else pytest.skip(message)
    sync_api = pytest.importorskip("playwright.sync_api")
    from cts_dataset.report import load_run

    frame = load_run(runs[1], name="reference:template:region")
    target = frame[(frame["label"] == "clarify@2") & frame["answers"].map(lambda a: bool(a) and a[0] != "unknown")].iloc[0]
    with sync_api.sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        page = browser.new_page(viewport={"width": 1300, "height": 900})
        errors, fetched = [], []
        page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.on("request", lambda r: fetched.append(r.url))
        page.goto((report[0] / "report.html").as_uri())
        board = page.locator("#leaderboard-table").inner_text()
        for folder in runs:
            for k in (1, 2, 3):
                assert f"{summary_of(folder)['conditions'][f'clarify@{k}']['restore_score_100']['mean']:.2f}" in board
        assert "year-then-place" in board and "reference:template:region" in board

        page.select_option("#f-clarifier", "reference:template:region")
        page.select_option("#f-condition", "clarify@2")
        page.select_option("#f-qtype", "region")
        listed = page.locator("#matches tbody tr td:first-child").all_inner_texts()
        assert listed == frame.loc[frame["label"] == "clarify@2", "instance"].tolist()
        page.fill("#f-text", target["instance"])
        assert page.locator("#matches tbody tr").count() == 1
        page.locator("#matches tbody tr").first.click()
        detail = page.locator("#detail")
        assert detail.get_attribute("data-key") == f"reference:template:region|{target['instance']}|clarify@2|0"
        dialogue = page.locator("#dialogue").inner_text()
        assert all(q in dialogue for q in target["questions"]) and all(a in dialogue for a in target["answers"])
        assert page.locator("#rewrite").inner_text().endswith(target["rewrite"])
        assert page.locator("#answer").inner_text()[:200] == target["answer"][:200]
        assert page.locator("#nuggets .nugget-label").all_inner_texts() == list(target["labels"])
        assert page.locator("#nuggets td:first-child").all_inner_texts() == list(target["nuggets"])
        page.locator("#browser").screenshot(path=str(tmp_path / "browser.png"))

        page.fill("#f-text", "")
        page.select_option("#f-qtype", "time")  # template:region never asks about time
        assert page.locator("#matches tbody tr").count() == 0
        assert "No row matches" in page.locator("#detail").inner_text()
        page.select_option("#f-clarifier", "year-then-place")
        assert page.locator("#matches tbody tr").count() == LIMITS["year-then-place"]
        browser.close()
    assert errors == []
    assert [u for u in fetched if not u.startswith(("file:", "data:"))] == []
    assert (tmp_path / "browser.png").stat().st_size > 0


def test_import_cts_dataset_stays_light():
    code = "import sys, cts_dataset; print(sorted(m for m in ('pandas', 'matplotlib') if m in sys.modules))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"


def test_a_run_without_a_call_trace_has_unknown_cost_not_zero(runs, tmp_path):
    from cts_dataset.report import load_run
    from cts_dataset.report.leaderboard import build

    copy = tmp_path / "untraced"
    shutil.copytree(runs[1], copy)
    (copy / "calls.jsonl").unlink()
    frame = load_run(copy)
    assert frame["calls"].isna().all() and frame["prompt_tokens"].isna().all()
    assert all(r is None for r in build([copy]).rows["tokens_per_instance"])


def test_a_failed_request_leaves_its_row_failed_and_unscored(runs, tmp_path):
    from cts_dataset.report import load_run

    copy = tmp_path / "failed"
    shutil.copytree(runs[1], copy)
    judged = next(r for r in stage(copy, "judge") if r["instance"] == "demo-0003" and r["budget"] == 1)
    with (copy / "judge.jsonl").open("a") as log:  # a later line of the key wins
        log.write(json.dumps({**judged, "error": "HTTP 500: judge down", "restore_score_100": None}) + "\n")
    frame = load_run(copy)
    row = frame[(frame["instance"] == "demo-0003") & (frame["label"] == "clarify@1")].iloc[0]
    assert row["status"] == "failed" and row["error"] == "judge: HTTP 500: judge down"
    assert pd.isna(row["restore_score_100"]) and (frame["status"] == "judged").sum() == len(frame) - 1
