"""The DuckDB SQL functions (pctcodec.integrations.duckdb) on a real
in-process DuckDB: every function of the table, nulls, failing rows under
each on_error, options that change from row to row."""
import pytest

duckdb = pytest.importorskip("duckdb")
pa = pytest.importorskip("pyarrow")
pctcodec_duckdb = pytest.importorskip("pctcodec.integrations.duckdb")

from hypothesis import given, settings, strategies as st  # noqa: E402

from pctcodec.integrations._functions import FUNCTIONS  # noqa: E402

from _integration_cases import BY_NAME, CALLS, FAILING, SAMPLE, expected  # noqa: E402
from _profiles import examples  # noqa: E402


def literal(value):
    """A Python option as a SQL literal."""
    if value is None:
        return "NULL"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (list, tuple)):  # (tuple: clean_query's default, TRACKING_PARAMS)
        return "[%s]" % ", ".join(map(literal, value))
    return "'%s'" % value.replace("'", "''")


def connect(**kwargs):
    con = pctcodec_duckdb.register(duckdb.connect(), **kwargs)
    con.execute("CREATE TABLE t AS SELECT * FROM (SELECT unnest($1) AS url, generate_subscripts($1, 1) AS i) "
                "ORDER BY i", [SAMPLE])
    return con


def column(con, name, args):
    sql = "SELECT pct_%s(%s) FROM t ORDER BY i" % (name, ", ".join(["url"] + [literal(a) for a in args]))
    return [row[0] for row in con.execute(sql).fetchall()]


@pytest.fixture(scope="module")
def con_null():
    return connect(on_error="null")


@pytest.mark.parametrize("name, args", CALLS)
def test_every_function(con_null, name, args):
    assert column(con_null, name, args) == expected(name, args)


@pytest.mark.parametrize("name, args", FAILING)
def test_keep_and_raise(name, args):
    assert column(connect(on_error="keep"), name, args) == expected(name, args, on_error="keep")
    with pytest.raises(duckdb.Error, match="at index 2"):
        column(connect(), name, args)


def test_trailing_options_may_be_left_out(con_null):
    for function in FUNCTIONS:
        names = [o.name for o in function.options]
        required = [o for o in function.options if o.default is pctcodec_duckdb.REQUIRED]
        args = ["x"] * len(required)
        for given_count in range(len(required), len(names) + 1):
            given = args + [o.default for o in function.options[len(required):given_count]]
            assert column(con_null, function.name, given) == expected(function.name, tuple(args))


def test_null_option_is_the_default(con_null):
    assert column(con_null, "quote", (None, None, None)) == expected("quote", ())
    assert column(con_null, "query_param", (None,)) == [None] * len(SAMPLE)


def test_options_from_row_to_row():
    con = connect(on_error="null")
    rows = [("a b/c", "/"), ("a b/c", ""), (None, ""), ("d e", None), ("a b/c", "")] * 3
    con.execute("CREATE TABLE o AS SELECT * FROM (SELECT unnest($1) AS u, unnest($2) AS s, "
                "generate_subscripts($1, 1) AS i) ORDER BY i", [[r[0] for r in rows], [r[1] for r in rows]])
    got = [r[0] for r in con.execute("SELECT pct_quote(u, s) FROM o ORDER BY i").fetchall()]
    assert got == [None if u is None else BY_NAME["quote"].single(u, "/" if s is None else s) for u, s in rows]
    flags = con.execute("SELECT pct_normalize('http://a/?b=1&a=2#f', i % 2 = 0) FROM range(4) r(i)").fetchall()
    assert [f[0] for f in flags] == ["http://a/?a=2&b=1#f", "http://a/?b=1&a=2#f"] * 2


def test_many_chunks_one_thread_and_four():
    con = connect()
    for threads in (1, 4):
        con.execute("SET threads=%d" % threads)
        n, differ = con.execute(
            "SELECT count(*), count(*) FILTER (WHERE pct_quote(s, '') IS DISTINCT FROM url_encode(s)) "
            "FROM (SELECT 'a b/' || i::VARCHAR || '~é' AS s FROM range(10000) r(i))").fetchall()[0]
        assert (n, differ) == (10000, 0)


def test_prefix_and_register_twice():
    con = duckdb.connect()
    pctcodec_duckdb.register(con, prefix="url_")
    pctcodec_duckdb.register(con, prefix="url_", on_error="null")
    assert con.execute("SELECT url_unquote('%ff', 'utf-8', 'strict')").fetchall() == [(None,)]
    with pytest.raises(duckdb.Error):
        con.execute("SELECT pct_quote('a')")
    with pytest.raises(ValueError, match="on_error"):
        pctcodec_duckdb.register(con, on_error="skip")


TEXTS = st.text(st.sampled_from("ab/ é%"), max_size=3)


@settings(max_examples=examples(200), deadline=None)
@given(st.lists(st.one_of(TEXTS, st.none()), min_size=1, max_size=12), st.integers(0, 4), st.integers(0, 4))
def test_constant_reads_the_buffers(values, start, stop):
    # The check that an option's column holds one value, on sliced arrays
    # of both offset widths, against the plain answer.
    for typ in (pa.string(), pa.large_string()):
        check_constant(pa.array(values, type=typ)[start:len(values) - stop])


@settings(max_examples=examples(200), deadline=None)
@given(st.lists(st.lists(TEXTS, max_size=3), min_size=1, max_size=8), st.integers(0, 3), st.integers(0, 3),
       st.integers(1, 3))
def test_constant_reads_lists_of_patterns(values, start, stop, copies):
    # Mostly copies of one list (the case a literal gives), sliced.
    rows = values[:1] * copies + values
    for typ in (pa.list_(pa.string()), pa.large_list(pa.large_string())):
        check_constant(pa.array(rows, type=typ)[start:len(rows) - stop])
        check_constant(pa.array(values[:1] * copies, type=typ)[start:])


def check_constant(arr):
    same, value = pctcodec_duckdb._constant(arr)
    distinct = {tuple(v) if isinstance(v, list) else v for v in arr.to_pylist()}
    assert same == (len(distinct) <= 1), arr
    if same and distinct:
        want = distinct.pop()
        assert (tuple(value) if isinstance(value, list) else value) == want


def _join_many(values, base, sep="", threads=None, on_error="raise"):
    """A batch function of two columns, as a table entry with an option of
    kind "column" has (the base of a reference)."""
    if isinstance(values, list):
        return []
    import pyarrow.compute as pc

    return pc.binary_join_element_wise(base, sep, values, "")


def test_an_option_of_kind_column(monkeypatch):
    from pctcodec.integrations._functions import REQUIRED, Function, Option

    join = Function("join", _join_many, None, (Option("base", "column", REQUIRED), Option("sep", "str", "")),
                    "string")
    monkeypatch.setattr(pctcodec_duckdb, "FUNCTIONS", (join,))
    con = pctcodec_duckdb.register(duckdb.connect())
    con.execute("CREATE TABLE r AS SELECT * FROM (VALUES (1, 'a', 'x', '/'), (2, NULL, 'y', '/'), "
                "(3, 'c', 'z', '-'), (4, 'd', NULL, '-')) t(i, ref, base, sep)")
    assert con.execute("SELECT pct_join(ref, base) FROM r ORDER BY i").fetchall() == \
           [("xa",), (None,), ("zc",), (None,)]
    assert con.execute("SELECT pct_join(ref, base, sep) FROM r ORDER BY i").fetchall() == \
           [("x/a",), (None,), ("z-c",), (None,)]
