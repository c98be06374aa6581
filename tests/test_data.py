import subprocess
import sys

from cts_dataset.corpus import corpus_index
from cts_dataset.data import dataset_revision, load


def test_shipped_instances_cite_real_documents_and_blur_honestly():
    instances = load()
    assert len(instances) >= 10
    index = corpus_index()
    for instance in instances:
        assert instance.fused_query != instance.blurred_query
        for constraint in instance.removed_constraints:
            assert constraint.value in instance.fused_query, (instance.id, constraint)
            assert constraint.value not in instance.blurred_query, (instance.id, constraint)
        for nugget in instance.nuggets:
            assert nugget.sources and all(s in index for s in nugget.sources), (instance.id, nugget)


def test_load_works_from_any_directory(tmp_path, fresh_hf_env):
    code = "import cts_dataset; xs = cts_dataset.load(); print(len(xs), xs[0].nuggets[0].weight)"
    result = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, env=fresh_hf_env, capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    count, weight = result.stdout.split()
    assert int(count) == len(load()) and float(weight) > 0


def test_revision_is_a_content_hash(tmp_path):
    from cts_dataset.pipeline.components import dataset_revision as file_revision
    from cts_dataset.pipeline.config import load_config

    assert len(dataset_revision()) == 16
    first, second = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    first.write_text(load()[0].model_dump_json() + "\n")
    second.write_text(load()[1].model_dump_json() + "\n")
    revisions = [file_revision(load_config(dataset=str(path))) for path in (first, second)]
    assert revisions[0] != revisions[1]
    assert revisions[0] == file_revision(load_config(dataset=str(first)))
