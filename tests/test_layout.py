"""The layout: the checkout never stands in for the installed package, and
imports run one way.

The package's sources are under src/, so the repository's root holds no
importable ``pctcodec``: from the root, ``python -c "import pctcodec"``,
``python -m pctcodec``, ``pytest`` and ``python -m pytest`` all import what
``pip install .`` installed (test_checkout_root_uses_the_installed_package,
slow: it builds the package in a fresh venv).

The library (src/pctcodec) never imports the command line (pctcodec.cli) or
the integrations (pctcodec.integrations): they are built on the library, not
the other way round.
"""
import ast
import os
import shutil
import subprocess
import sys
import venv
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "src" / "pctcodec"
# Subpackages built on the library; __main__ is the command line's entry point.
UPPER = ("cli", "integrations")


def _library_modules():
    for path in sorted(PACKAGE.rglob("*.py")):
        parts = path.relative_to(PACKAGE).parts
        if parts[0] in UPPER or parts == ("__main__.py",):
            continue
        yield path


def _package_of(path):
    return "pctcodec" + "".join("." + p for p in path.relative_to(PACKAGE).parent.parts)


def _imported(source, package):
    """The absolute names of the modules that `source` (a module of
    `package`) imports, anywhere in it (function bodies included)."""
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield alias.name
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                up = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join(up + ([node.module] if node.module else []))
            yield base
            for alias in node.names:  # from . import cli
                yield base + "." + alias.name


def test_library_never_imports_the_command_line_or_integrations():
    modules = list(_library_modules())
    assert PACKAGE / "batch.py" in modules and PACKAGE / "__init__.py" in modules
    offending = []
    for path in modules:
        for name in _imported(path.read_text(encoding="utf-8"), _package_of(path)):
            if any(name == "pctcodec." + up or name.startswith("pctcodec.%s." % up) for up in UPPER):
                offending.append("%s imports %s" % (path.relative_to(ROOT), name))
    assert offending == []


def test_import_walk_sees_every_form():
    # The check above can fail: relative, aliased and nested imports are seen.
    source = "from .cli import main\nfrom . import integrations\ndef f():\n    import pctcodec.cli._csv\n"
    names = set(_imported(source, "pctcodec"))
    assert {"pctcodec.cli", "pctcodec.integrations", "pctcodec.cli._csv"} <= names


def test_root_has_no_importable_package():
    assert not (ROOT / "pctcodec").exists()
    assert (PACKAGE / "__init__.py").exists() and (PACKAGE / "cli" / "__init__.py").exists()


def _copy_checkout(dest):
    """The repository's files without build products, caches or venvs."""
    skip = shutil.ignore_patterns(".git", "build", "dist", "*.egg-info", "*.so", "__pycache__",
                                  ".hypothesis", ".pytest_cache", ".mypy_cache", ".venv*", "site")
    shutil.copytree(ROOT, dest, ignore=skip)


PROBE = '''
import os, sys
import pctcodec

def test_installed():
    here = os.path.realpath(pctcodec.__file__)
    assert here.startswith(os.path.realpath(sys.prefix)), here
    assert pctcodec.quote("a b") == "a%20b"
'''


@pytest.mark.slow
def test_checkout_root_uses_the_installed_package(tmp_path):
    checkout = tmp_path / "checkout"
    _copy_checkout(checkout)
    env_dir = tmp_path / "venv"
    venv.create(env_dir, with_pip=True)
    python = str(env_dir / ("Scripts" if os.name == "nt" else "bin") / "python")
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}

    def run(*args):
        r = subprocess.run([python, *args], cwd=checkout, env=env, capture_output=True, text=True)
        assert r.returncode == 0, "%s\n%s\n%s" % (args, r.stdout, r.stderr)
        return r.stdout

    run("-m", "pip", "install", "-q", ".", "pytest")
    prefix = os.path.realpath(run("-c", "import sys; print(sys.prefix)").strip())
    where = run("-c", "import os, pctcodec; print(os.path.realpath(pctcodec.__file__))").strip()
    assert where.startswith(prefix), where
    assert "usage" in run("-m", "pctcodec", "--help").lower()
    # A tiny test file at the root's tests/, run by pytest and python -m pytest
    # from the root (without the suite's conftest, which needs hypothesis).
    (checkout / "tests" / "test_zz_installed_probe.py").write_text(PROBE)
    pytest_bin = str(Path(python).with_name("pytest"))
    for command in ([pytest_bin], [python, "-m", "pytest"]):
        r = subprocess.run([*command, "-q", "--noconftest", "-p", "no:cacheprovider",
                            "tests/test_zz_installed_probe.py"],
                           cwd=checkout, env=env, capture_output=True, text=True)
        assert r.returncode == 0 and "1 passed" in r.stdout, "%s\n%s\n%s" % (command, r.stdout, r.stderr)
