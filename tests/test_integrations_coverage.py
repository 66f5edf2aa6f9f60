"""Every public batch function, with every one of its parameters, in every
integration: the pandas accessor, the polars namespaces, the DuckDB SQL
functions and the Spark Column functions (the Spark ones read without a
JVM: their signatures). The list of batch functions is taken here from
pctcodec itself, not from the integrations' table, so that a function the
table misses fails. Also: a new batch function joins with no entry written,
each integration's ImportError names its extra, and docs/integrations.md
names every function."""
import importlib
import inspect
import pathlib
import re
import sys

import pytest

import pctcodec

ROOT = pathlib.Path(__file__).resolve().parent.parent


def public_batch_functions():
    """The ``*_many`` functions of pctcodec's public modules (each must be
    in pctcodec.__all__)."""
    names = set()
    for module in ("batch", "query", "domains", "parts", "resolution", "params", "canonical"):
        mod = importlib.import_module("pctcodec." + module)
        names.update(n for n in getattr(mod, "__all__", dir(mod))
                     if n.endswith("_many") and not n.startswith("_") and callable(getattr(mod, n)))
    names.update(n for n in pctcodec.__all__ if n.endswith("_many"))
    assert names <= set(pctcodec.__all__), names - set(pctcodec.__all__)
    return sorted(names)


BATCH = public_batch_functions()


def parameters(name):
    """(the column, every other parameter) of a batch function."""
    from pctcodec.integrations._functions import FUNCTIONS

    sig = inspect.signature(getattr(pctcodec, name))
    (function,) = [f for f in FUNCTIONS if f.batch is getattr(pctcodec, name)]
    assert function.column in sig.parameters
    return function.column, [p for p in sig.parameters.values() if p.name != function.column]


def test_at_least_the_seventeen():
    assert len(BATCH) >= 17 and {"resolve_many", "query_params_many", "split_many", "parse_query_many",
                                 "domain_parts_many", "canonicalize_many"} <= set(BATCH)


@pytest.mark.parametrize("name", BATCH)
def test_pandas(name):
    pytest.importorskip("pandas")
    from pctcodec.integrations import pandas as integration

    column, params = parameters(name)
    method = getattr(integration.SeriesAccessor, name[:-5])
    assert list(inspect.signature(method).parameters.values())[1:] == params


@pytest.mark.parametrize("name", BATCH)
def test_polars(name):
    pytest.importorskip("polars")
    from pctcodec.integrations import polars as integration

    column, params = parameters(name)
    for cls in (integration.ExprNamespace, integration.SeriesNamespace):
        method = getattr(cls, name[:-5])
        assert list(inspect.signature(method).parameters.values())[1:] == params


@pytest.mark.parametrize("name", BATCH)
def test_spark(name):
    pytest.importorskip("pyspark")
    from pctcodec.integrations import spark as integration

    function = getattr(integration, name[:-5])
    assert inspect.signature(function) == inspect.signature(getattr(pctcodec, name))
    assert name[:-5] in integration.__all__


@pytest.fixture(scope="module")
def sql_parameters():
    """Each SQL macro's parameter names, from DuckDB's catalog."""
    duckdb = pytest.importorskip("duckdb")
    from pctcodec.integrations import duckdb as integration

    con = integration.register(duckdb.connect())
    rows = con.execute("SELECT function_name, parameters FROM duckdb_functions() "
                       "WHERE function_type = 'macro' AND starts_with(function_name, 'pct_')").fetchall()
    return {name: [p.strip('"') for p in params] for name, params in rows}


@pytest.mark.parametrize("name", BATCH)
def test_duckdb(name, sql_parameters):
    from pctcodec.integrations import duckdb as integration

    column, params = parameters(name)
    sql = "pct_" + name[:-5]
    assert sql_parameters[sql][0] == "url"
    for param in params:
        if param.name in integration.REGISTER_OPTIONS:
            assert param.name in inspect.signature(integration.register).parameters
        elif param.name in sql_parameters[sql]:
            pass
        else:  # an option that changes the output type: a SQL function of its own
            assert "%s_%s" % (sql, param.name) in sql_parameters, (sql, param.name)
    # the SQL arguments are the function's parameters, in its order
    names = [p.name for p in params]
    assert sql_parameters[sql][1:] == [n for n in names if n in sql_parameters[sql]]


def test_a_new_batch_function_needs_no_entry(monkeypatch):
    from pctcodec.integrations import _functions

    def shout_many(values, *, loud=False, threads=None, on_error="raise", rejects=None):
        """Upper case.

        Parameters
        ----------
        values : column
            The column.
        loud : bool
            Louder.
        """
        return values

    monkeypatch.setattr(pctcodec, "shout_many", shout_many, raising=False)
    monkeypatch.setattr(pctcodec, "__all__", pctcodec.__all__ + ["shout_many"])
    (function,) = [_functions.derive(f) for f in _functions.batch_functions() if f is shout_many]
    assert function.name == "shout" and function.column == "values"
    assert [(o.name, o.kind) for o in function.options] == \
        [("loud", "bool"), ("threads", "int"), ("on_error", "str"), ("rejects", "rejects")]


@pytest.mark.parametrize("engine, module", [("pandas", "pandas"), ("polars", "polars"), ("duckdb", "duckdb"),
                                            ("spark", "pyspark")])
def test_import_without_the_engine(engine, module, monkeypatch):
    for name in list(sys.modules):
        if name == module or name.startswith(module + "."):
            monkeypatch.delitem(sys.modules, name)
    monkeypatch.setitem(sys.modules, module, None)  # import fails as for a missing package
    monkeypatch.delitem(sys.modules, "pctcodec.integrations." + engine, raising=False)
    with pytest.raises(ImportError, match=re.escape("pip install 'pctcodec[%s]'" % engine)):
        importlib.import_module("pctcodec.integrations." + engine)


def test_the_docs_name_every_function():
    text = (ROOT / "docs" / "integrations.md").read_text(encoding="utf-8")
    missing = [name for name in BATCH if "`%s`" % name not in text or "pct_%s" % name[:-5] not in text]
    assert missing == []


@pytest.mark.parametrize("stub", ["pandas.pyi", "polars.pyi", "spark.pyi"])
def test_the_stubs_are_current(stub):
    # Type checkers read the methods' signatures from these files, written
    # from the batch functions by `python -m pctcodec.integrations._stubs`.
    pytest.importorskip("pyarrow")
    from pctcodec.integrations import _stubs

    path = ROOT / "src" / "pctcodec" / "integrations" / stub
    assert path.read_text(encoding="utf-8") == _stubs.STUBS[stub](), \
        "%s is stale: run python -m pctcodec.integrations._stubs" % stub
