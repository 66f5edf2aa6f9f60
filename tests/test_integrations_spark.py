"""The Spark Column functions (pctcodec.integrations.spark) on a real local
Spark (pyspark from PyPI, a Java runtime): every function once on rows with
a null and a failing row, against the batch function on Arrow. Slow: one
local session for the module (a JVM start), run by `pytest -m slow` (CI's
wheel lane installs pyspark there, through the spark extra)."""
import importlib.util
import os
import shutil

import pytest

pytestmark = pytest.mark.slow


def needs(found, reason):
    """Skip without ``found``, or fail where CI installed Spark for these tests."""
    if not found:
        if os.environ.get("PCTCODEC_REQUIRE_SPARK"):
            pytest.fail(reason + " (PCTCODEC_REQUIRE_SPARK is set)")
        pytest.skip(reason)


@pytest.fixture(scope="module")
def spark():
    for module in ("pyspark", "pyarrow", "pandas"):
        needs(importlib.util.find_spec(module) is not None, "%s is not installed" % module)
    needs(shutil.which("java") or os.environ.get("JAVA_HOME"), "no Java runtime for Spark")
    from pyspark.sql import SparkSession

    session = (SparkSession.builder.master("local[1]").appName("pctcodec-tests")
               .config("spark.ui.enabled", "false")
               .config("spark.sql.shuffle.partitions", "1")
               .config("spark.network.timeout", "600s")
               .config("spark.executor.heartbeatInterval", "60s")
               .getOrCreate())
    session.sparkContext.setLogLevel("ERROR")
    yield session
    session.stop()


@pytest.fixture(scope="module")
def frame(spark):
    from _integration_cases import SAMPLE

    from _integration_cases import BASES

    return spark.createDataFrame([(i, u, b) for i, (u, b) in enumerate(zip(SAMPLE, BASES))],
                                 "i long, url string, base string")


def plain(value):
    """A Spark value as Python's: a Row (a struct) as a dict, recursively."""
    if hasattr(value, "asDict"):
        return {k: plain(v) for k, v in value.asDict().items()}
    if isinstance(value, list):
        return [plain(v) for v in value]
    return value


def on(function_name, column, /, **kwargs):
    """The Spark call of a batch function on ``column``."""
    from pctcodec.integrations import spark as pct_spark
    from pctcodec.integrations._functions import FUNCTIONS

    function = next(f for f in FUNCTIONS if f.name == function_name)
    return getattr(pct_spark, function_name)(**{function.column: column}, **kwargs)


@pytest.mark.parametrize("arrow", [True, False], ids=["arrow_udf", "pandas_udf"])
def test_every_function_with_nulls_and_a_failing_row(frame, arrow, monkeypatch):
    from pctcodec.integrations import spark as pct_spark

    from _integration_cases import CALLS, expected

    if arrow and not pct_spark.ARROW_UDF:
        pytest.skip("this Spark has no arrow_udf (4.1+)")
    monkeypatch.setattr(pct_spark, "ARROW_UDF", arrow)  # the pandas UDF of Spark < 4.1 too

    # One job for all the functions: one select of every column.
    columns = [on(name, "url", **kwargs, on_error="null").alias("c%d" % k)
               for k, (name, kwargs) in enumerate(CALLS)]
    rows = frame.orderBy("i").select(*columns).collect()
    for k, (name, kwargs) in enumerate(CALLS):
        got = [plain(row["c%d" % k]) for row in rows]
        want = expected(name, kwargs)
        if not arrow:  # a pandas UDF's DataFrame has no null row: a record of nulls
            fields = next((list(w) for w in want if isinstance(w, dict)), None)
            want = [dict.fromkeys(fields) if w is None and fields else w for w in want]
        assert got == want, name


def test_a_second_column(frame):
    from pyspark.sql import functions as F

    from _integration_cases import resolve_with_bases

    rows = frame.orderBy("i").select(on("resolve", "url", base=F.col("base"), on_error="null")).collect()
    assert [r[0] for r in rows] == resolve_with_bases()


def test_base_none_is_no_second_column(frame):
    import pctcodec
    from _integration_cases import SAMPLE

    rows = frame.orderBy("i").select(on("url_href", "url", base=None, on_error="null")).collect()
    assert [r[0] for r in rows] == pctcodec.url_href_many(SAMPLE, on_error="null")


def test_keep_and_raise(frame):
    from pyspark.errors import PythonException
    from pctcodec.integrations import spark as pct_spark

    from _integration_cases import expected

    rows = frame.orderBy("i").select(pct_spark.unquote("url", "utf-8", "strict", on_error="keep")).collect()
    assert [r[0] for r in rows] == expected("unquote", {"errors": "strict"}, on_error="keep")
    with pytest.raises(PythonException, match="UnicodeDecodeError"):
        frame.select(pct_spark.unquote("url", "utf-8", "strict")).collect()


def test_the_kind_of_udf(spark):
    import pyspark

    from pctcodec.integrations import spark as pct_spark

    major, minor = (int(p) for p in pyspark.__version__.split(".")[:2])
    assert pct_spark.ARROW_UDF == ((major, minor) >= (4, 1))


def test_options_checked_where_the_call_is_written(spark):
    from pctcodec.integrations import spark as pct_spark

    with pytest.raises(ValueError, match="on_error"):
        pct_spark.quote("url", on_error="skip")
    with pytest.raises(TypeError, match="name"):
        pct_spark.query_param("url")
    with pytest.raises(TypeError, match="rejects"):
        pct_spark.quote("url", rejects=[])


def test_docs_example(spark):
    # The Spark example of docs/integrations.md, as tests/test_docs.py runs
    # it (that test is not among the slow ones, where pyspark is installed).
    import test_docs

    text = (test_docs.ROOT / "docs" / "integrations.md").read_text(encoding="utf-8")
    blocks = [body for info, body in test_docs.fenced_blocks(text)
              if info == "python" and body.startswith("# needs: pyspark")]
    assert blocks
    for block in blocks:
        test_docs.test_example_block(block)
