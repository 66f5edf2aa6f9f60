"""Every public function has a numpy-style docstring (Parameters, Returns,
Raises, Examples; a function without parameters: Returns and Examples) whose
parameters are those of its stub and of its runtime signature, by name and in
order, and whose examples give what they show (they are run as doctests: the
documentation's API reference shows them).

The public functions are the callables of ``pctcodec.__all__`` and of the
``__all__`` of every public module of the package (functions added on any
branch are checked as soon as they are exported). A function's stub is its
definition in the ``.pyi`` file of the module that defines it, or in the
``.py`` file when the module has no stub; overloads count once.
"""
import ast
import doctest
import importlib
import inspect
import pkgutil
import re
from pathlib import Path

import pytest

import pctcodec

PACKAGE_DIR = Path(pctcodec.__file__).resolve().parent
SECTIONS = ("Parameters", "Returns", "Raises", "Examples")
SECTION = re.compile(r"^(?P<title>[A-Z][A-Za-z ]+)\n-+$", re.MULTILINE)
PARAM = re.compile(r"^(?P<names>\*{0,2}[A-Za-z_]\w*(?:, \*{0,2}[A-Za-z_]\w*)*)(?: : .*)?$")


def _public_modules():
    """pctcodec and its public modules but the command line's; a module that
    needs an optional package that is not installed is left out."""
    yield pctcodec
    for info in pkgutil.walk_packages(pctcodec.__path__, "pctcodec.", onerror=lambda name: None):
        if any(part.startswith("_") for part in info.name.split(".")[1:]) or \
                info.name.startswith("pctcodec.cli"):
            continue
        try:
            module = importlib.import_module(info.name)
        except ModuleNotFoundError as exc:
            if (exc.name or "pctcodec").split(".")[0] == "pctcodec":
                raise
            continue
        yield module


def public_functions():
    """(name, function) of every public function, once."""
    seen = {}
    for module in _public_modules():
        for name in getattr(module, "__all__", []):
            obj = getattr(module, name)
            if inspect.isfunction(obj) or inspect.isbuiltin(obj):
                seen.setdefault(id(obj), (name, obj))
                EXPORTERS.setdefault(id(obj), []).append(module.__name__)
    return sorted(seen.values(), key=lambda item: item[0])


EXPORTERS = {}  # id(function) -> the public modules whose __all__ names it


def _stub_file(module):
    base = PACKAGE_DIR.joinpath(*module.split(".")[1:])
    if base.is_dir():
        base = base / "__init__"
    return base.with_suffix(".pyi") if base.with_suffix(".pyi").exists() else base.with_suffix(".py")


def stub_parameters(obj):
    """The parameter names of obj's stub (all its overloads, first seen
    first): in the stub of the module that defines it, else of a public
    module that exports it (a C function's stub may sit beside its wrapper's
    module: split in parts.pyi)."""
    for module in [obj.__module__, *EXPORTERS.get(id(obj), [])]:
        path = _stub_file(module)
        names = []
        found = False
        for node in ast.parse(path.read_text(encoding="utf-8")).body:
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.name == obj.__name__:
                found = True
                a = node.args
                every = [*a.posonlyargs, *a.args, *([a.vararg] if a.vararg else []), *a.kwonlyargs,
                         *([a.kwarg] if a.kwarg else [])]
                names += [arg.arg for arg in every if arg.arg not in names]
        if found:
            return names
    raise AssertionError("%s has no stub" % obj.__name__)


def sections(doc):
    """{title: body} of a numpy-style docstring."""
    found = list(SECTION.finditer(doc))
    out = {}
    for i, m in enumerate(found):
        end = found[i + 1].start() if i + 1 < len(found) else len(doc)
        out[m.group("title")] = doc[m.end():end].strip("\n")
    return out


def documented_parameters(body):
    """The names a numpy Parameters section documents (``a, b : type`` counts both)."""
    names = []
    for line in body.splitlines():
        if line and not line[0].isspace():
            m = PARAM.match(line)
            assert m, "not a parameter line: %r" % line
            names += [n.lstrip("*") for n in m.group("names").split(", ")]
    return names


FUNCTIONS = public_functions()


def test_every_public_module_function_is_found():
    names = {name for name, _ in FUNCTIONS}
    assert {"quote", "normalize_many", "split", "install", "uri_to_iri", "query_param_many"} <= names


@pytest.mark.parametrize("name, obj", FUNCTIONS, ids=[name for name, _ in FUNCTIONS])
def test_docstring(name, obj):
    doc = inspect.getdoc(obj)
    assert doc, name
    found = sections(doc)
    params = stub_parameters(obj)
    want = [s for s in SECTIONS if params or s not in ("Parameters", "Raises")]
    assert [s for s in found if s in SECTIONS] == want, "%s: sections %s" % (name, list(found))
    assert documented_parameters(found.get("Parameters", "")) == params, name
    assert list(inspect.signature(obj).parameters) == params, name
    assert ">>> " in found["Examples"], name


@pytest.mark.parametrize("name, obj", FUNCTIONS, ids=[name for name, _ in FUNCTIONS])
def test_docstring_examples_run(name, obj):
    globs = {n: getattr(pctcodec, n) for n in pctcodec.__all__}
    test = doctest.DocTestParser().get_doctest(inspect.getdoc(obj), globs, name, None, 0)
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    try:
        runner.run(test)
    finally:
        pctcodec.uninstall()
    assert runner.failures == 0 and runner.tries > 0, name


def test_context_manager_example_runs():
    # installed is a class: its example is run here.
    test = doctest.DocTestParser().get_doctest(inspect.getdoc(pctcodec.installed),
                                               {n: getattr(pctcodec, n) for n in pctcodec.__all__},
                                               "installed", None, 0)
    runner = doctest.DocTestRunner()
    runner.run(test)
    assert runner.failures == 0 and runner.tries == 3


def test_a_wrong_docstring_fails():
    doc = "Summary.\n\nParameters\n----------\nvalues : list\n    x\nthread : int\n    y\n"
    assert documented_parameters(sections(doc)["Parameters"]) == ["values", "thread"]
    with pytest.raises(AssertionError):
        documented_parameters("  indented first\nnot a : name : line : (\n")
