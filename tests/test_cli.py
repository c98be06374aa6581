from tests.conftest import run_cli


def test_info_summarises_the_data():
    result = run_cli("info")
    assert result.returncode == 0, result.stderr
    assert "split demo:" in result.stdout and "corpus: 10033 documents" in result.stdout


def test_version_and_help():
    assert run_cli("--version").stdout.startswith("ctsbench, version")
    assert "validate" in run_cli("--help").stdout


def test_ci_runs_the_readme_test_command():
    from tests.conftest import REPO

    readme = (REPO / "README.md").read_text()
    blocks = [b.split("```", 1)[0].strip() for b in readme.split("```bash\n")[1:3]]
    assert "pytest" in blocks[1]
    assert blocks[1] in (REPO / ".ci" / "run").read_text()
