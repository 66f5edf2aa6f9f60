"""The examples in README.md, CHANGELOG.md and every page under docs/ give
the results they show.

Each fenced block whose language is Python (```python; ```py, ```pycon and
the like are refused, so that no block escapes) is run statement by
statement in one namespace. A statement that is an expression followed by
a comment, ``expression  # result``, is checked: its value must equal the
literal the comment starts with (text after the literal is an
explanation), or, for ``# SomeError: message``, it must raise that
exception with that message. The comment may also stand alone on the next
line. Every other statement runs as it is (loops, ``with`` blocks and
definitions included: a block must be valid Python).

A block whose first line is ``# needs: module, ...`` is skipped when one of
those modules cannot be imported (the optional pyarrow, pandas, pyspark).

The examples of the docstrings (the API reference) are run by
tests/test_docstrings.py.
"""
import ast
import importlib.util
import inspect
import re
from pathlib import Path

import pytest

import pctcodec

ROOT = Path(__file__).resolve().parent.parent
DOCS = [ROOT / "README.md", ROOT / "CHANGELOG.md", *sorted((ROOT / "docs").rglob("*.md"))]
FENCE = re.compile(r"^(?P<indent>[ \t]*)(?P<fence>```+|~~~+)[ \t]*(?P<info>[^\n`]*)$", re.MULTILINE)
ERROR = re.compile(r"^(?P<cls>[A-Za-z]+Error): (?P<message>.*)$")
NEEDS = re.compile(r"^# needs: (?P<modules>.*)$")


def fenced_blocks(text):
    """(info string, body) of every fenced block of a Markdown text."""
    pos = 0
    while True:
        start = FENCE.search(text, pos)
        if start is None:
            return
        closing = re.compile(r"^%s%s[ \t]*$" % (re.escape(start.group("indent")),
                                                re.escape(start.group("fence"))), re.MULTILINE)
        end = closing.search(text, start.end())
        assert end is not None, "an unclosed fence at %r" % start.group()
        body = text[start.end() + 1:end.start()]
        indent = start.group("indent")
        body = "".join(line[len(indent):] if line.startswith(indent) else line
                       for line in body.splitlines(True))
        yield start.group("info").strip(), body
        pos = end.end()


def examples():
    for path in DOCS:
        n = 0
        for info, body in fenced_blocks(path.read_text(encoding="utf-8")):
            if info.split(" ")[0].lower() == "python":
                yield pytest.param(body, id="%s:%d" % (path.relative_to(ROOT), n))
                n += 1


def leading_literal(text):
    """The longest prefix of text that is a Python literal, evaluated."""
    for end in range(len(text), 0, -1):
        try:
            return ast.literal_eval(text[:end].strip())
        except (ValueError, SyntaxError):
            continue
    raise LookupError(text)


def check_result(expr, comment, namespace):
    """Whether the comment states a result of expr, checked if so."""
    error = ERROR.match(comment)
    if error:
        with pytest.raises(Exception) as info:
            eval(expr, namespace)
        assert type(info.value).__name__ == error.group("cls"), expr
        assert str(info.value) == error.group("message"), expr
        return True
    try:
        want = leading_literal(comment)
    except LookupError:
        return False  # an explanation, not a result
    assert eval(expr, namespace) == want, expr
    return True


def statements(block):
    """(statement, its expression's source or None, the comment that may
    state its result or None) for each top-level statement of a block."""
    tree = ast.parse(block)
    lines = block.splitlines()
    for stmt in tree.body:
        if not isinstance(stmt, ast.Expr):
            yield stmt, None, None
            continue
        source = ast.get_source_segment(block, stmt)
        after = lines[stmt.end_lineno - 1][stmt.end_col_offset:].strip()
        comment = None
        if after.startswith("#"):
            comment = after[1:].strip()
        elif stmt.end_lineno < len(lines) and lines[stmt.end_lineno].strip().startswith("# "):
            comment = lines[stmt.end_lineno].strip()[2:]
        yield stmt, source, comment


@pytest.mark.parametrize("block", list(examples()))
def test_example_block(block):
    needs = NEEDS.match(block.split("\n", 1)[0])
    if needs:
        for module in needs.group("modules").split(","):
            if importlib.util.find_spec(module.strip()) is None:
                pytest.skip(f"{module.strip()} is not installed")
    namespace = {}
    exec("from pctcodec import *\nfrom pctcodec.sets import *\nfrom pctcodec.ecmascript import *",
         namespace)
    checked = 0
    try:
        for stmt, source, comment in statements(block):
            if comment is not None and check_result(source, comment, namespace):
                checked += 1
            else:
                exec(compile(ast.Module([stmt], type_ignores=[]), "<doc>", "exec"), namespace)
    finally:
        pctcodec.uninstall()
    assert checked or "import" in block


def test_every_python_block_is_run():
    # Fences of another spelling of Python would be skipped silently: none.
    for path in DOCS:
        for info, _ in fenced_blocks(path.read_text(encoding="utf-8")):
            language = info.split(" ")[0].lower()
            assert language == "python" or not language.startswith(("py", "ipython")), (path, info)
    assert len(list(examples())) >= 20


def test_the_runner_checks_and_runs_everything():
    block = ("x = []\nfor i in range(3):\n    x.append(i)\nx  # [0, 1, 2]\nlen(x)\n# 3\n"
             "quote('a b')  # 'a%20b': an explanation may follow\n")
    test_example_block(block)
    with pytest.raises(AssertionError):
        test_example_block("x = 1\nfor i in range(2):\n    x += 1\nx  # 2\n")
    with pytest.raises(SyntaxError):
        test_example_block("quote('a'  # 'a'\n")


SIGNATURE_HEADING = re.compile(r"^#+ .*$", re.MULTILINE)
CODE_SPAN = re.compile(r"`(?P<name>[a-z_]+)\((?P<params>[^`]*)\)(?: -> [^`]*)?`")


def test_signature_headings_match_the_functions():
    # A heading such as ### `normalize(uri: str, *, sort_query=False, ...) -> str`
    # names every parameter the function has.
    seen = 0
    for path in DOCS:
        for heading in SIGNATURE_HEADING.findall(path.read_text(encoding="utf-8")):
            for span in CODE_SPAN.finditer(heading):
                func = getattr(pctcodec, span.group("name"), None)
                if func is None or not callable(func):
                    continue
                tree = ast.parse("def f(%s): pass" % span.group("params"))
                a = tree.body[0].args
                written = [p.arg for p in (*a.posonlyargs, *a.args, *a.kwonlyargs)]
                assert written == list(inspect.signature(func).parameters), (path.name, heading)
                seen += 1
    assert seen >= 5


def test_readme_is_a_quick_start():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert len(readme.splitlines()) <= 150
    # The two commands of a new user, which CI runs as they are written.
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    for command, in_ci in [
        ("pip install . && pctcodec normalize --column url examples/urls.csv",
         "pctcodec normalize --column url examples/urls.csv"),
        ("pip install '.[test]' && pytest", "pip install '.[test]' && pytest"),
    ]:
        assert command in readme and in_ci in ci, command


def test_supported_versions_claims():
    # "CPython 3.9 to 3.14" wherever the docs say it: the classifiers' range.
    text = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    minors = sorted(int(m) for m in re.findall(r'"Programming Language :: Python :: 3\.(\d+)"', text))
    want = "CPython 3.%d to 3.%d" % (minors[0], minors[-1])
    claims = [(path.name, claim) for path in DOCS
              for claim in re.findall(r"CPython 3\.\d+ to 3\.\d+", path.read_text(encoding="utf-8"))]
    assert claims and all(claim == want for _, claim in claims), (want, claims)


def test_readme_command_lines_run(tmp_path, monkeypatch, capsysbinary):
    # The README's `pctcodec ...` lines, on the bundled examples, from a
    # folder of their own (status 1 is check's "some URLs are not valid").
    import shlex
    import shutil

    from pctcodec.cli import main

    shutil.copytree(ROOT / "examples", tmp_path / "examples")
    monkeypatch.chdir(tmp_path)
    lines = [line for info, body in fenced_blocks((ROOT / "README.md").read_text(encoding="utf-8"))
             if info == "sh" for line in body.splitlines() if line.startswith("pctcodec ")]
    assert len(lines) >= 3
    for line in lines:
        argv = shlex.split(line.split("  #")[0])[1:]
        status = main(argv)
        out, err = capsysbinary.readouterr()
        assert status in (0, 1) and b"error" not in err.lower(), (line, err)
        assert out or "-o" in argv, line
    assert (tmp_path / "clean.csv").exists()
