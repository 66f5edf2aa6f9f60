"""The DuckDB SQL functions (pctcodec.integrations.duckdb) on a real
in-process DuckDB: every batch function, nulls, failing rows under each
on_error, options positional, named and changing from row to row, against
the batch function on Arrow."""
import re

import pytest

duckdb = pytest.importorskip("duckdb")
pa = pytest.importorskip("pyarrow")
pctcodec_duckdb = pytest.importorskip("pctcodec.integrations.duckdb")

from hypothesis import given, settings, strategies as st  # noqa: E402

from pctcodec.integrations._functions import FUNCTIONS  # noqa: E402

import pctcodec  # noqa: E402

from _integration_cases import BASES, CALLS, FAILING, SAMPLE, expected, resolve_with_bases  # noqa: E402
from _profiles import examples  # noqa: E402


def literal(value):
    """A Python option as a SQL literal."""
    if value is None:
        return "NULL"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (list, tuple)):
        return "[%s]::VARCHAR[]" % ", ".join(map(literal, value))
    return "'%s'" % value.replace("'", "''")


def connect(**kwargs):
    con = pctcodec_duckdb.register(duckdb.connect(), **kwargs)
    con.execute("CREATE TABLE t AS SELECT * FROM (SELECT unnest($1) AS url, generate_subscripts($1, 1) AS i) "
                "ORDER BY i", [SAMPLE])
    return con


def column(con, name, args=(), kwargs=None):
    """A SQL call on t: options by position (args) and by name (kwargs)."""
    given = ["url"] + [literal(a) for a in args] + ['"%s" := %s' % (k, literal(v)) for k, v in (kwargs or {}).items()]
    sql = "SELECT pct_%s(%s) FROM t ORDER BY i" % (name, ", ".join(given))
    return [row[0] for row in con.execute(sql).fetchall()]


@pytest.fixture(scope="module")
def con_null():
    return connect(on_error="null")


def call(con, name, kwargs):
    """The SQL call of a Python one: required options by position, the
    others by name, an option that changes the output type by the SQL
    function that has it (query_params' all=True: pct_query_params_all)."""
    kwargs = dict(kwargs)
    function = next(f for f in FUNCTIONS if f.name == name)
    sql = pctcodec_duckdb.sql_functions(function)
    for variant in sql[1:]:
        (option,) = variant.fixed
        if kwargs.pop(option, False):
            name = variant.name[len("pct_"):]
    args = [kwargs.pop(o.name) for o in function.options if o.default is pctcodec_duckdb.REQUIRED]
    return column(con, name, args, kwargs)


@pytest.mark.parametrize("name, kwargs", CALLS)
def test_every_function(con_null, name, kwargs):
    assert call(con_null, name, kwargs) == expected(name, kwargs)


def test_records():
    con = connect()
    got = con.execute("SELECT pct_domain_parts('http://www.example.co.uk/').registered_domain, "
                      "pct_query_params('http://h/?a=1&b=2', ['a', 'b'])['b'], "
                      "pct_query_params_all('http://h/?a=1&a=2', ['a'])['a'], "
                      "pct_split('http://h:8/p').port, pct_parse_query('http://h/?a=1')[1].value").fetchall()
    assert got == [("example.co.uk", "2", ["1", "2"], "8", "1")]


@pytest.mark.parametrize("name, kwargs", FAILING)
def test_keep_and_raise(name, kwargs):
    assert call(connect(on_error="keep"), name, kwargs) == expected(name, kwargs, on_error="keep")
    assert call(connect(), name, dict(kwargs, on_error="keep")) == expected(name, kwargs, on_error="keep")
    # DuckDB hands over rows in chunks with no row number: the message names the value
    with pytest.raises(duckdb.Error, match=re.escape("the value %r" % SAMPLE[2])):
        call(connect(), name, kwargs)


def test_rejects():
    rejects = []
    con = connect(on_error="null", rejects=rejects)
    column(con, "unquote", kwargs={"errors": "strict"})
    assert [(r.index, r.value) for r in rejects] == [(None, SAMPLE[2])]
    # on constants too: DuckDB does not call the function once more to fold them
    rejects.clear()
    con.execute("SELECT pct_unquote('%ff', 'utf-8', 'strict')").fetchall()
    assert [r.value for r in rejects] == ["%ff"]


def test_a_second_column():
    con = connect()
    con.execute("CREATE TABLE b AS SELECT * FROM (SELECT unnest($1) AS url, unnest($2) AS base, "
                "generate_subscripts($1, 1) AS i) ORDER BY i", [SAMPLE, BASES])
    got = con.execute("SELECT pct_resolve(url, base, on_error := 'null') FROM b ORDER BY i").fetchall()
    assert [r[0] for r in got] == resolve_with_bases()


def test_a_null_base_is_no_base():
    # NULL is an option's default: for a base, no base. An omitted base
    # before a given option came as a column of NULL bases: every row NULL.
    con = connect()
    hrefs = con.execute("SELECT pct_url_href('http://a.com/x'), pct_url_href('http://a.com/x', "
                        "on_error := 'raise'), pct_url_href('http://a.com/x', NULL, 'raise'), "
                        "pct_parse_url('http://a.com/x', fields := ['hostname']).hostname").fetchall()
    assert hrefs == [("http://a.com/x", "http://a.com/x", "http://a.com/x", "a.com")]
    rows = [("x", "http://b/"), ("http://c/y", None), ("z", "http://d/q"), (None, "http://e/")]
    con.execute("CREATE TABLE n AS SELECT * FROM (SELECT unnest($1) AS u, unnest($2) AS b, "
                "generate_subscripts($1, 1) AS i) ORDER BY i", [[r[0] for r in rows], [r[1] for r in rows]])
    want = ["http://b/x", "http://c/y", "http://d/z", None]
    for call in ("pct_url_href(u, b)", "pct_url_href(u, b, on_error := 'null')",
                 "pct_url_href(u, b, 'raise')"):
        assert [r[0] for r in con.execute("SELECT %s FROM n ORDER BY i" % call).fetchall()] == want, call


def test_options_by_position_and_by_name(con_null):
    from pctcodec.integrations._functions import FUNCTIONS

    for function in FUNCTIONS:
        sql = pctcodec_duckdb.sql_functions(function)[0]
        required = [o for o in sql.options if o.default is pctcodec_duckdb.REQUIRED]
        args = [{"str": "x", "strings": ["x"], "column": "http://b/", "object": "x"}[o.kind] for o in required]
        want = expected(function.name, dict(zip([o.name for o in required], args)))
        # the Python defaults (on_error: the connection's, "null")
        defaults = [None if o.name == "on_error" else o.default for o in sql.options]
        for count in range(len(required), len(sql.options) + 1):
            given = args + defaults[len(required):count]
            assert column(con_null, function.name, given) == want, (function.name, count)
        named = {o.name: d for o, d in zip(sql.options, defaults) if o.default is not pctcodec_duckdb.REQUIRED}
        assert column(con_null, function.name, args, named) == want


def test_null_option_is_the_default(con_null):
    assert column(con_null, "quote", (None, None, None)) == expected("quote", {})
    assert column(con_null, "query_param", (None,)) == [None] * len(SAMPLE)


def test_options_from_row_to_row():
    con = connect(on_error="null")
    rows = [("a b/c", "/"), ("a b/c", ""), (None, ""), ("d e", None), ("a b/c", "")] * 3
    con.execute("CREATE TABLE o AS SELECT * FROM (SELECT unnest($1) AS u, unnest($2) AS s, "
                "generate_subscripts($1, 1) AS i) ORDER BY i", [[r[0] for r in rows], [r[1] for r in rows]])
    got = [r[0] for r in con.execute("SELECT pct_quote(u, s) FROM o ORDER BY i").fetchall()]
    assert got == [pctcodec.quote_many([u], "/" if s is None else s)[0] for u, s in rows]
    flags = con.execute("SELECT pct_normalize('http://a/?b=1&a=2#f', i % 2 = 0) FROM range(4) r(i)").fetchall()
    assert [f[0] for f in flags] == ["http://a/?a=2&b=1#f", "http://a/?b=1&a=2#f"] * 2


def test_an_omitted_option_is_no_column():
    # the macro calls the Arrow function of the options given (DuckDB folds its CASE)
    con = connect()
    plan = con.execute("EXPLAIN SELECT pct_quote(url, '') FROM t").fetchall()[0][1]
    assert "_pct_quote_1(url, '')" in plan


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


