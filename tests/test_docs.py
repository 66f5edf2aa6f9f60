"""The examples in README.md and docs/*.md give the results they show.

In each ```python block, a line ``expression  # result`` is checked: the
expression is evaluated and its repr must equal the literal in the comment
(text after the literal is an explanation), or, for ``# SomeError: message``,
it must raise that exception with that message. Other lines run as they are.

A block whose first line is ``# needs: module, ...`` is skipped when one of
those modules cannot be imported (the optional pyarrow, pandas, pyspark).
"""
import ast
import importlib.util
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
BLOCK = re.compile(r"```python\n(.*?)```", re.DOTALL)
RESULT = re.compile(r"^(?P<expr>\S.*?)\s+#\s(?P<comment>.*)$")
ERROR = re.compile(r"^(?P<cls>[A-Za-z]+Error): (?P<message>.*)$")
NEEDS = re.compile(r"^# needs: (?P<modules>.*)$")


def leading_literal(text):
    """The longest prefix of text that is a Python literal, evaluated."""
    for end in range(len(text), 0, -1):
        try:
            return ast.literal_eval(text[:end].strip())
        except (ValueError, SyntaxError):
            continue
    raise LookupError(text)


def examples():
    for path in DOCS:
        for block in BLOCK.findall(path.read_text(encoding="utf-8")):
            yield pytest.param(block, id="%s:%d" % (path.name, len(examples_seen)))
            examples_seen.append(block)


examples_seen = []


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


def is_expression(line):
    try:
        compile(line, "<doc>", "eval")
        return True
    except SyntaxError:
        return False


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
    pending = None  # an expression whose result may be on the next line
    for line in block.splitlines():
        stripped = line.strip()
        if stripped.startswith("# ") and pending is not None:
            checked += check_result(pending, stripped[2:], namespace)
            pending = None
            continue
        pending = None
        match = RESULT.match(line)
        if match and is_expression(match.group("expr")):
            if check_result(match.group("expr"), match.group("comment"), namespace):
                checked += 1
            else:
                exec(compile(match.group("expr"), "<doc>", "exec"), namespace)
        elif stripped and not stripped.startswith("#") and not line.startswith(" "):
            if is_expression(stripped):
                pending = stripped
            else:
                try:
                    exec(compile(line, "<doc>", "exec"), namespace)
                except SyntaxError:
                    pass  # part of a statement that spans lines
    assert checked or "import" in block
