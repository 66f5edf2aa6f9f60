"""Static typing: mypy --strict on the package and on a script that uses the
whole public API as the README shows it (tests/typing/readme_api.py), with
the types each call must give. Skipped when mypy is not installed (it is in
the test extra)."""
import os
import runpy
import sys

import pytest

import pctcodec

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
USAGE = os.path.join(ROOT, "tests", "typing", "readme_api.py")


def test_all_is_every_public_name():
    # __all__ is a literal list (so that type checkers read it) and complete.
    from pctcodec import batch, ecmascript, parts, resolution, rfc3986

    assert len(set(pctcodec.__all__)) == len(pctcodec.__all__)
    for module in (batch, ecmascript, parts, resolution, rfc3986):
        assert set(module.__all__) <= set(pctcodec.__all__), module.__name__
    assert all(hasattr(pctcodec, name) for name in pctcodec.__all__)


@pytest.mark.skipif(bool(os.environ.get("PCTCODEC_SANITIZED")),
                    reason="a static check: nothing for the sanitizers to see (.ci/sanitize.sh)")
def test_mypy_strict():
    api = pytest.importorskip("mypy.api")
    stdout, stderr, status = api.run([
        "--strict",
        "--config-file", os.path.join(ROOT, "pyproject.toml"),
        "--python-version", "%d.%d" % sys.version_info[:2],
        "--cache-dir", os.path.join(ROOT, ".mypy_cache"),
        os.path.join(ROOT, "src", "pctcodec"),
        USAGE,
    ])
    assert status == 0, stdout + stderr


def test_usage_script_runs():
    for name in ("pyarrow", "pandas", "polars", "typing_extensions"):
        pytest.importorskip(name)
    runpy.run_path(USAGE)


def test_mypy_skips_no_module_of_the_package():
    # test_mypy_strict checks every module: no override may turn errors off
    # for one of them (the command line's modules were once left out).
    try:
        import tomllib
    except ImportError:  # Python < 3.11
        tomllib = pytest.importorskip("tomli")
    with open(os.path.join(ROOT, "pyproject.toml"), "rb") as f:
        config = tomllib.load(f)["tool"]["mypy"]
    assert config["strict"] is True
    for override in config.get("overrides", []):
        modules = override["module"]
        modules = [modules] if isinstance(modules, str) else modules
        ours = [m for m in modules if m == "pctcodec" or m.startswith("pctcodec.")]
        assert not ours or not override.get("ignore_errors"), ours
