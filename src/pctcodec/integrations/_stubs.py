"""The type stubs of the integrations, written from the batch functions.

The pandas accessor, the polars namespaces and the Spark functions are made
at import time from ``_functions.FUNCTIONS``; type checkers read their
signatures from ``pandas.pyi``, ``polars.pyi`` and ``spark.pyi``, which
this module writes from the same table::

    python -m pctcodec.integrations._stubs

(tests/test_integrations_coverage.py fails when a stub is not what this
writes: a new batch function or option needs that command, no entry by hand).
"""
import inspect
import os
import re
from typing import Any, Dict, List

from ._functions import FUNCTIONS, REQUIRED, Function, Option

HEADER = ('# Written by `python -m pctcodec.integrations._stubs` from the batch functions:\n'
          '# do not edit (tests/test_integrations_coverage.py checks it is current).\n')

# How each engine spells a second column (resolve's base), its results and the column itself.
_ENGINES: Dict[str, Dict[str, Any]] = {
    "pandas": {"imports": ["import pandas as pd"], "column": "Union[str, pd.Series[Any]]",
               "out": {"string": "pd.Series[str]", "int": "pd.Series[int]", "list": "pd.Series[Any]",
                       "struct": "pd.DataFrame"}},
    "polars_expr": {"column": "Union[str, pl.Expr, pl.Series]", "out": "pl.Expr"},
    "polars_series": {"column": "Union[str, pl.Series]", "out": "pl.Series"},
    "spark": {"imports": ["from pyspark.sql import Column"], "column": "Union[str, Column]", "out": "Column"},
}


def _output(function: Function) -> str:
    """"string", "int", "list" or "struct": the kind of the function's output."""
    import pyarrow as pa

    from .duckdb import _SAMPLES

    typ = function.batch(**{function.column: pa.array([], type=pa.string()),
                            **{o.name: _SAMPLES[o.kind][0] if o.kind != "column" else "http://a/"
                               for o in function.options if o.default is REQUIRED}}).type
    if pa.types.is_struct(typ):
        return "struct"
    if pa.types.is_list(typ) or pa.types.is_large_list(typ):
        return "list"
    return "int" if pa.types.is_integer(typ) else "string"


# An option's docstring type, for one whose own docstring gives none (the
# same name means the same option across the batch functions).
_DOCS = {o.name: o.doc for f in FUNCTIONS for o in f.options if o.doc}


def annotation(option: Option, column: str) -> str:
    """The type of an option in a stub."""
    doc = option.doc or _DOCS.get(option.name, "")
    choices = re.findall(r'"([^"]+)"', doc[:doc.index("}")]) if doc.startswith("{") and "}" in doc else []
    optional = option.default is None
    if choices:
        text = "Literal[%s]" % ", ".join('"%s"' % c for c in choices)
    elif option.kind == "bool":
        text = "bool"
    elif option.kind == "str":
        named = {t.strip() for t in re.split(r",| or ", doc.split(", default")[0]) if t.strip()} - {"optional"}
        if named - {"str", "bytes", "None"}:  # also a path, a SuffixList ...: the batch stub types it
            return "Any"
        text = "Union[str, bytes]" if "bytes" in named else "str"
    elif option.kind == "strings":
        text = "Union[str, Iterable[str]]"
        optional = option.default is not REQUIRED  # None: as the batch functions take it
    elif option.kind == "int":
        text = "int"
        optional = True
    elif option.kind == "rejects":
        return "Optional[_Rejects]"
    elif option.kind == "column":
        return column
    else:
        return "Any"
    return "Optional[%s]" % text if optional else text


def _params(function: Function, column: str, skip_column: bool, main: str = "") -> List[str]:
    out: List[str] = []
    star = False
    options = {o.name: o for o in function.options}
    for p in function.signature.parameters.values():
        if p.name == function.column:
            if not skip_column:
                out.append("%s: %s" % (p.name, main))
            continue
        if p.kind is inspect.Parameter.KEYWORD_ONLY and not star:
            out.append("*")
            star = True
        text = "%s: %s" % (p.name, annotation(options[p.name], column))
        out.append(text if p.default is REQUIRED else text + " = ...")
    return out


def _method(function: Function, engine: str) -> str:
    spec = _ENGINES[engine]
    out = spec["out"] if isinstance(spec["out"], str) else spec["out"][_output(function)]
    return "    def %s(%s) -> %s: ...\n" % (function.name, ", ".join(["self"] + _params(function, spec["column"], True)),
                                           out)


_TYPING = "from typing import Any, Iterable, Literal, Optional, Union, overload\n"
_REJECTS = "from ..batch import _Rejects\n"


def pandas_stub() -> str:
    lines = [HEADER, _TYPING, "import pandas as pd\n\n", _REJECTS, "\n__all__ = [\"SeriesAccessor\", \"pct\"]\n\n",
             "class SeriesAccessor:\n", "    def __init__(self, series: pd.Series[Any]) -> None: ...\n"]
    lines += [_method(f, "pandas") for f in FUNCTIONS]
    lines.append("\ndef pct(series: pd.Series[Any]) -> SeriesAccessor: ...\n")
    return "".join(lines)


def polars_stub() -> str:
    lines = [HEADER, _TYPING, "import polars as pl\n\n", _REJECTS,
             "\n__all__ = [\"ExprNamespace\", \"SeriesNamespace\", \"pct\"]\n\n",
             "class ExprNamespace:\n", "    def __init__(self, expr: pl.Expr) -> None: ...\n"]
    lines += [_method(f, "polars_expr") for f in FUNCTIONS]
    lines += ["\nclass SeriesNamespace:\n", "    def __init__(self, series: pl.Series) -> None: ...\n"]
    lines += [_method(f, "polars_series") for f in FUNCTIONS]
    lines += ["\n@overload\ndef pct(column: pl.Expr) -> ExprNamespace: ...\n",
              "@overload\ndef pct(column: pl.Series) -> SeriesNamespace: ...\n"]
    return "".join(lines)


def spark_stub() -> str:
    spec = _ENGINES["spark"]
    names = ", ".join('"%s"' % n for n in ["ARROW_UDF"] + [f.name for f in FUNCTIONS])
    lines = [HEADER, _TYPING, "from pyspark.sql import Column\n\n", _REJECTS, "\n__all__ = [%s]\n\n" % names,
             "ARROW_UDF: bool\n\n"]
    for f in FUNCTIONS:
        params = _params(f, spec["column"], False, main="Union[str, Column]")
        lines.append("def %s(%s) -> Column: ...\n" % (f.name, ", ".join(params)))
    return "".join(lines)


STUBS = {"pandas.pyi": pandas_stub, "polars.pyi": polars_stub, "spark.pyi": spark_stub}


def main() -> None:
    here = os.path.dirname(os.path.abspath(__file__))
    for name, make in STUBS.items():
        with open(os.path.join(here, name), "w", encoding="utf-8", newline="\n") as f:
            f.write(make())


if __name__ == "__main__":
    main()
