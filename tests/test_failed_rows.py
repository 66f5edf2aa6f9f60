"""Rows the C core fails itself (PCT_ROW_FAILED: a host with a byte no host
may hold, or with no IDNA form) take the error policy without a call of the
single-value function: under on_error "null"/"keep" no exception is made
unless a rejects list keeps it, and the one made for rejects is the one the
single-value function raises (class, message, reason, position), on lists
and Arrow, on one thread and two."""
import pickle

import pytest

import pctcodec

pa = pytest.importorskip("pyarrow")

BAD = ["http://exa<mple.com/a", "http://ex\u00e4 mple.com/", "http://xn--a.example/",
       "http://\u4f8b<.jp/", "  http://user@bad^host:80/x", "//a|b.example", "http://\u00e45.xn--a.example/a"]
GOOD = ["http://www.example.co.uk/a", None, "http://\u4f8b.jp/", "http://[::1]/"]
ROWS = [r for pair in zip(BAD, GOOD * 2) for r in pair] + BAD[len(GOOD) * 2:]

FUNCTIONS = {"registered_domain_many": pctcodec.registered_domain,
             "public_suffix_many": pctcodec.public_suffix,
             "domain_parts_many": pctcodec.domain_parts}


def _single(func, value):
    """(class, args, reason, position) of func's error for value, or None."""
    if value is None:
        return None
    try:
        func(value)
    except ValueError as exc:
        return type(exc), exc.args, exc.reason, exc.position
    return None


@pytest.mark.parametrize("name", sorted(FUNCTIONS))
@pytest.mark.parametrize("kind", ["list", "arrow"])
@pytest.mark.parametrize("threads", [1, 2])
@pytest.mark.parametrize("on_error", ["null", "keep"])
def test_rejects_are_the_single_value_errors(name, kind, threads, on_error):
    column = ROWS if kind == "list" else pa.array(ROWS)
    rejects = []
    with_rejects = getattr(pctcodec, name)(column, threads=threads, on_error=on_error,
                                           rejects=rejects)
    without = getattr(pctcodec, name)(column, threads=threads, on_error=on_error)
    if kind == "arrow":
        with_rejects, without = with_rejects.to_pylist(), without.to_pylist()
    assert with_rejects == without
    want = {i: _single(FUNCTIONS[name], v) for i, v in enumerate(ROWS)}
    want = {i: w for i, w in want.items() if w is not None}
    got = {r[0]: (type(r[2]), r[2].args, r[2].reason, r[2].position) for r in rejects}
    assert got == want
    assert [r[1] for r in rejects] == [ROWS[i] for i in sorted(want)]
    assert len(want) >= 5  # (an ASCII xn-- label passes unchecked, as in the single-value function)


@pytest.mark.parametrize("kind", ["list", "arrow"])
def test_raise_names_the_first_failed_row(kind):
    column = ROWS if kind == "list" else pa.array(ROWS)
    with pytest.raises(pctcodec.HostError) as info:
        pctcodec.registered_domain_many(column, threads=1)
    assert info.value.index == 0
    want = _single(pctcodec.registered_domain, ROWS[0])[1]
    if not hasattr(info.value, "add_note"):
        # Before 3.11 the index goes into the message; from 3.11 into a note.
        want = (want[0] + " (value at index 0)",) + want[1:]
    else:
        assert info.value.__notes__ == ["raised by the value at index 0"]
    assert info.value.args == want
    assert info.value.position == 7


# Lone surrogates: the text functions fail on any of them, and their list
# rows fail in C (no encoder raising, no call of the single-value function);
# the exception kept for rejects is made then, and equals the single call's.
SURROGATE_ROWS = ["http://example.com/1\ud800b", "a", "\udfff", None, "x\ud800\udc00y",
                  "http://\u00e4.example/\U0001f600\udbff", "\u4f8b\ud83d\u00e9", "%zz\ud800",
                  "  http://a/\udc80 ", "http://example.com/ok"]
TEXT_FUNCTIONS = {"quote_many": pctcodec.quote, "quote_plus_many": pctcodec.quote_plus,
                  "requote_many": pctcodec.requote, "normalize_many": pctcodec.normalize,
                  "canonicalize_many": pctcodec.canonicalize,
                  "clean_query_many": pctcodec.clean_query}


def _single_any(func, value):
    """func's exception for value as comparable data, or None when it gives a value."""
    try:
        func(value)
    except Exception as exc:  # every attribute a caller may read
        extra = ((exc.encoding, exc.object, exc.start, exc.end, exc.reason)
                 if isinstance(exc, UnicodeEncodeError) else (exc.reason, exc.position))
        return type(exc), exc.args, str(exc), extra
    return None


@pytest.mark.parametrize("name", sorted(TEXT_FUNCTIONS))
@pytest.mark.parametrize("on_error", ["null", "keep"])
def test_surrogate_rows_fail_in_c_with_the_single_value_error(name, on_error):
    func = TEXT_FUNCTIONS[name]
    rejects = []
    got = getattr(pctcodec, name)(SURROGATE_ROWS, on_error=on_error, rejects=rejects)
    assert got == getattr(pctcodec, name)(SURROGATE_ROWS, on_error=on_error)
    want = {i: _single_any(func, v) for i, v in enumerate(SURROGATE_ROWS) if v is not None}
    want = {i: w for i, w in want.items() if w is not None}
    assert sorted(want) == [0, 2, 4, 5, 6, 7, 8]
    assert {r.index: _single_any(lambda v, e=r.error: (_ for _ in ()).throw(e), r.value)
            for r in rejects} == want
    assert [r.value for r in rejects] == [SURROGATE_ROWS[i] for i in sorted(want)]
    for i, row in enumerate(got):
        if i in want:
            assert row == (SURROGATE_ROWS[i] if on_error == "keep" else None)
        elif SURROGATE_ROWS[i] is not None:
            assert row == func(SURROGATE_ROWS[i])


@pytest.mark.parametrize("name", sorted(TEXT_FUNCTIONS))
def test_surrogate_row_raises_the_single_value_error(name):
    with pytest.raises(Exception) as info:
        getattr(pctcodec, name)(["ok", SURROGATE_ROWS[4]])
    assert info.value.index == 1
    assert type(info.value) is _single_any(TEXT_FUNCTIONS[name], SURROGATE_ROWS[4])[0]


def test_surrogate_rows_other_codecs_go_through_the_function():
    """quote with a handler that passes surrogates: no failed row."""
    rows = ["x\ud800y", "a b"]
    want = [pctcodec.quote(v, errors="surrogatepass") for v in rows]
    assert pctcodec.quote_many(rows, errors="surrogatepass", on_error="null", rejects=[]) == want


# Hosts with no IDNA form: where the URL Standard's parser reads the host as
# the finder does, the row fails with no parse; where it reads it otherwise
# (a tab or newline it drops, an escape it decodes), its verdict decides, and
# a URL it reads gets the single-value function's answer.
IDNA_ROWS = ["http://ex\t\u00e4.com/", "http://%C3%A4x.xn--a.example/", "http://%C3%A4x.com/",
             "http://\u00e41.xn--a.example/a", "HTTP://\u00c4.XN--A.example:80/",
             "http://u@\u00e4.xn--a.example/", "http://\u00e4.xn--a.example:99999/",
             "http://ex\n\u00e4.xn--a.com/", "http://\u00e4\u200d.com/", "ftp://\u00e4.xn--a.example/",
             "file://\u00e4.xn--a.example/", "ws://a\u00ad\u00e4.xn--a.com", "\u00e4.xn--a.example",
             "http://\u00e4.xn--a.example/", "http://ex\r\u00e4.com/"]


# Hosts with a byte no domain may hold: refused without a parse where the
# parser reads the host as the finder does; else the parser decides (bytes
# it takes in a domain, such as '_' and '*').
FORBIDDEN_ROWS = ["http://a^b.com/", "http://a|b.com/", "http://a b.com/", "http://a%3Cb.com/",
                  "http://a\tb<c.com/", "http://a_b.com/", "http://a*b.com/", "http://a\x7fb.com/",
                  "http://[a<b]/", "http://a.com:8<0/", "https://u:p@a\"b.com/", "ws://a<b.com",
                  "http://a\x01b.com/", "  http://a<b.com  ", "ftp://a>b.com/x", "a<b.com",
                  "http://a!b.com/", "http://a'b<c.com/", "foo://a\\b<c.example/", "http://a\"b'c<.com/",
                  # a '[' after the bad byte: the parser reads the ':' after it as the host's
                  "ftp://u:p@'[*:80/p", "http://a|[:'b/p", "ws://u@ [:8/p", "HTTP://\u00e9@a[\":\u00ad'"]


@pytest.mark.parametrize("name", sorted(FUNCTIONS))
@pytest.mark.parametrize("kind", ["list", "arrow"])
@pytest.mark.parametrize("rows", ["idna", "forbidden"])
def test_hosts_with_no_idna_form_fail_as_the_single_call(name, kind, rows):
    func = FUNCTIONS[name]
    rows = {"idna": IDNA_ROWS, "forbidden": FORBIDDEN_ROWS}[rows]
    want_values, want_rejects = [], {}
    for i, row in enumerate(rows):
        try:
            want_values.append(func(row))
        except ValueError as exc:
            want_values.append(None)
            want_rejects[i] = (type(exc), exc.args, exc.reason, exc.position)
    assert 0 < len(want_rejects) < len(rows) - 2  # both outcomes met
    column = rows if kind == "list" else pa.array(rows)
    rejects = []
    got = getattr(pctcodec, name)(column, threads=1, on_error="null", rejects=rejects)
    got = got if kind == "list" else got.to_pylist()
    if name == "domain_parts_many":  # a DomainParts on a list, a struct on Arrow
        got = [None if g is None else tuple(g.values()) if isinstance(g, dict) else tuple(g)
               for g in got]
        want_values = [None if w is None else tuple(w) for w in want_values]
    assert got == want_values
    assert {r.index: (type(r.error), r.error.args, r.error.reason, r.error.position)
            for r in rejects} == want_rejects


@pytest.mark.parametrize("holder", ["arrow", "large", "sliced", "chunked", "dictionary", "category"])
@pytest.mark.parametrize("on_error", ["null", "keep"])
def test_domain_parts_failed_rows_in_every_holder(holder, on_error):
    """domain_parts_many's first pass keeps the failed rows' indexes alone
    (no exception made without rejects), and the later passes read them as
    null rows (an array's own buffers, a new validity): each holder's failed
    rows and parts are the list's."""
    rows = ROWS + [ROWS[0], ROWS[1]]  # repeated values: one dictionary entry, one category
    want = pctcodec.domain_parts_many(rows, on_error=on_error)
    failed = [i for i, (v, w) in enumerate(zip(rows, want)) if v is not None and w is None]
    assert len(failed) >= 5
    if holder == "category":
        pd = pytest.importorskip("pandas")
        got = pctcodec.domain_parts_many(pd.Series(rows, dtype="category"), on_error=on_error)
        got = [None if r.isna().all() else tuple(r) for _, r in got.iterrows()]
        # (a row of three missing parts reads as a missing row in a DataFrame)
        failed = [i for i, (v, w) in enumerate(zip(rows, want))
                  if v is not None and (w is None or w == (None, None, None))]
        want = [w for w in want if w != (None, None, None)]
    else:
        column = {"arrow": lambda: pa.array(rows), "large": lambda: pa.array(rows, pa.large_string()),
                  "sliced": lambda: pa.array(["x"] + rows)[1:],
                  "chunked": lambda: pa.chunked_array([rows[:5], rows[5:]]),
                  "dictionary": lambda: pa.array(rows).dictionary_encode()}[holder]()
        got = pctcodec.domain_parts_many(column, on_error=on_error)
        got = [None if g is None else tuple(g.values()) for g in got.to_pylist()]
    assert [i for i, g in enumerate(got) if rows[i] is not None and g is None] == failed
    assert [g for g in got if g is not None] == [tuple(w) for w in want if w is not None]


@pytest.mark.parametrize("kind", ["list", "arrow"])
@pytest.mark.parametrize("name", ["registered_domain_many", "requote_many", "quote_many"])
def test_rejects_made_in_c_are_rejects(kind, name):
    """The engine makes each Reject itself (tuple.__new__ of the class): the
    same object Reject._make gives, in row order."""
    rows = ROWS + SURROGATE_ROWS if kind == "list" else ROWS
    column = rows if kind == "list" else pa.array(rows)
    rejects = []
    getattr(pctcodec, name)(column, threads=1, on_error="null", rejects=rejects)
    if name == "registered_domain_many" or kind == "list":
        assert rejects
    for r in rejects:
        assert type(r) is pctcodec.Reject
        same = pctcodec.Reject._make(tuple(r))
        assert r == same and hash(r) == hash(same) and repr(r) == repr(same)
        assert (r.index, r.value, r.error) == tuple(r) and r.value == rows[r.index]
    assert [r.index for r in rejects] == sorted(r.index for r in rejects)


ESCAPED_IDN = ["a.%28\u00df", "\u65e5\u672c%2a", "%2a%C3%A9co.uk.", "_\u3002%280", "www.\u300280\U0001f600%2com",
               "http://a.%28\u00df/", "%28\u00df", "http://x.%2a\u00e9.com/"]


@pytest.mark.parametrize("name", sorted(FUNCTIONS))
@pytest.mark.parametrize("kind", ["list", "arrow"])
@pytest.mark.parametrize("on_error", ["raise", "null", "keep"])
def test_escaped_host_needing_idna_is_not_failed_in_c(name, kind, on_error):
    """A host with an escape and a non-ASCII letter has no IDNA form as it
    is written, but may have one once decoded ('a.%28\u00df' -> 'a.xn--(-qfa'):
    the row is the single call's under every policy, never a failed row
    that the single call does not fail."""
    func = FUNCTIONS[name]
    want = [func(v) for v in ESCAPED_IDN]  # none of them raises
    rejects = []
    column = ESCAPED_IDN if kind == "list" else pa.array(ESCAPED_IDN)
    got = getattr(pctcodec, name)(column, on_error=on_error,
                                  **({} if on_error == "raise" else {"rejects": rejects}))
    got = got.to_pylist() if kind == "arrow" else got
    if name == "domain_parts_many" and kind == "arrow":
        got = [None if g is None else pctcodec.DomainParts(**g) for g in got]
    assert got == want
    assert rejects == []


@pytest.mark.parametrize("name", ["parse_query_many", "query_params_many", "parse_query_long"])
def test_query_rejects_keep_the_single_call_error(name):
    """A lone surrogate's reject holds the error the single call raises, as
    every other function's rejects do: no note, no index added to it."""
    args = (["a"],) if name == "query_params_many" else ()
    single = pctcodec.parse_query if name != "query_params_many" else (lambda v: pctcodec.query_params(v, *args))
    with pytest.raises(pctcodec.PercentEncodingError) as want:
        single("http://h/?a=\ud800")
    rejects = []
    getattr(pctcodec, name)(["http://h/?a=1", "http://h/?a=\ud800"], *args, on_error="null", rejects=rejects)
    assert [r.index for r in rejects] == [1]
    err = rejects[0].error
    assert (type(err), err.args, err.reason, err.position) == (type(want.value), want.value.args,
                                                               want.value.reason, want.value.position)
    assert getattr(err, "__notes__", None) is None


# A host written into the message as its repr: plain ASCII by the fast
# path, and hosts whose repr escapes or changes quotes by repr() itself.
REPR_ROWS = ["http://exa<mple.com/", "http://a'b<c.com/", "foo://a\\b<c.example/",
             "http://a\"b'c<.com/", "http://a\x01b.com/", "http://\u00e4<b.com/",
             "http://\u00e4.xn--a.example/", "foo://\u4f8b'<.jp/", "http://a\x7fb.com/"]


@pytest.mark.parametrize("kind", ["list", "arrow"])
def test_reject_is_the_single_call_error_attribute_for_attribute(kind):
    rejects = []
    column = REPR_ROWS if kind == "list" else pa.array(REPR_ROWS)
    pctcodec.registered_domain_many(column, threads=1, on_error="null", rejects=rejects)
    assert [r.index for r in rejects] == list(range(len(REPR_ROWS)))
    for r in rejects:
        with pytest.raises(pctcodec.HostError) as want:
            pctcodec.registered_domain(REPR_ROWS[r.index])
        assert type(r.error) is type(want.value)
        assert (str(r.error), r.error.args, vars(r.error)) == (str(want.value), want.value.args,
                                                              vars(want.value))
        # the reason, which an error made in C reads off its message
        assert (r.error.reason, r.error.position) == (want.value.reason, want.value.position)
        copy = pickle.loads(pickle.dumps(r.error))
        assert (type(copy), copy.args, copy.reason, copy.position) == (
            type(want.value), want.value.args, want.value.reason, want.value.position)
        r.error.reason = "changed"  # an attribute as before
        assert r.error.reason == "changed" and str(r.error) == str(want.value)


def _messy_hosts(count, seed=31):
    """URLs whose hosts mix what makes the parser refuse a host (forbidden
    bytes, labels with no IDNA form, escapes) with what changes where it
    reads it (userinfo, ports, tabs, leading spaces, other schemes)."""
    import random
    rnd = random.Random(seed)
    pieces = ["a", "B", "\u00e4", "\u4f8b", "xn--a", "xn--9ca", "<", "^", "|", " ", "%3C", "%C3%A4",
              "\u200d", "\u00ad", "-", "1", "ß", "\ufffd", "'", "\"", "*", "_", "!", "\x01", "[", "]"]
    for _ in range(count):
        labels = ["".join(rnd.choice(pieces) for _ in range(rnd.randint(1, 3)))
                  for _ in range(rnd.randint(1, 3))]
        host = ".".join(labels)
        yield (rnd.choice(["http://", "HTTPS://", "  http://", "ws://", "ftp://", "foo://", "http://u@"])
               + host + rnd.choice(["", ":80", ":x", ".com", ".example:8080", ":\u00e9", ":[x"])
               + rnd.choice(["/", "/a?b#c", "", "\t/x"]))


@pytest.mark.parametrize("kind", ["list", "arrow"])
def test_failed_row_reasons_equal_the_parse_on_messy_hosts(kind):
    """A failed row's reason is worded from the host alone where the
    parser reads it as written; every one equals the single call's."""
    rows = list(_messy_hosts(1500))
    want = {}
    for i, row in enumerate(rows):
        try:
            pctcodec.registered_domain(row)
        except ValueError as exc:
            want[i] = (type(exc), exc.args, exc.reason, exc.position)
    assert 200 < len(want) < len(rows) - 100  # both outcomes, often
    rejects = []
    pctcodec.registered_domain_many(rows if kind == "list" else pa.array(rows), threads=1,
                                    on_error="null", rejects=rejects)
    assert {r.index: (type(r.error), r.error.args, r.error.reason, r.error.position)
            for r in rejects} == want


# normalize(strict_idna=True) refuses a host with no IDNA form: the batch
# fails such a row in C, its error made there, at the host's start.
STRICT_ROWS = ["http://bad\u00a0h/", "HTTP://u\u00e9@bad\u00a0h:80/x", "  http://bad\u00a0h/ ",
               "http://\u00e9.xn--a.example/", "http://a\u200d.com/", "foo://\u00e9\u00a0/a",
               "//bad\u00a0h/", "http://ok.\u00e9.com/", "http://\tbad\u00a0h/", "http://bad%C2%A0h/",
               "http://ok.com/\u00e9", "http://\u00e9.com/", "http://ok.com/"]


@pytest.mark.parametrize("kind", ["list", "arrow"])
@pytest.mark.parametrize("threads", [1, 2])
def test_strict_idna_failed_rows_are_the_single_call_error(kind, threads):
    want_values, want = [], {}
    for i, row in enumerate(STRICT_ROWS):
        try:
            want_values.append(pctcodec.normalize(row, strict_idna=True))
        except ValueError as exc:
            want_values.append(None)
            want[i] = (type(exc), exc.args, exc.reason, exc.position)
    assert 3 < len(want) < len(STRICT_ROWS) - 3
    rejects = []
    got = pctcodec.normalize_many(STRICT_ROWS if kind == "list" else pa.array(STRICT_ROWS),
                                  strict_idna=True, on_error="null", rejects=rejects, threads=threads)
    assert (got if kind == "list" else got.to_pylist()) == want_values
    assert {r.index: (type(r.error), r.error.args, r.error.reason, r.error.position)
            for r in rejects} == want
