"""The wheel must carry every subpackage and add no generic top-level import names."""

import tomllib

from tests.conftest import REPO


def test_every_subpackage_is_listed_for_the_wheel():
    config = tomllib.loads((REPO / "pyproject.toml").read_text())["tool"]["setuptools"]
    listed = set(config["packages"])
    on_disk = {
        ".".join(path.parent.relative_to(REPO).parts)
        for path in (REPO / "cts_dataset").rglob("__init__.py")
    }
    assert on_disk <= listed, f"add to [tool.setuptools] packages: {sorted(on_disk - listed)}"
    assert all(name == "cts_dataset" or name.startswith("cts_dataset.") for name in listed)
    mapped = config["package-dir"]
    assert {mapped["cts_dataset.loaders"], mapped["cts_dataset.metric"], mapped["cts_dataset.local_models"]} == {
        "loaders", "metric", "local_models"}
