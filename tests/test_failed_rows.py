"""Rows the C core fails itself (PCT_ROW_FAILED: a host with a byte no host
may hold, or with no IDNA form) take the error policy without a call of the
single-value function: under on_error "null"/"keep" no exception is made
unless a rejects list keeps it, and the one made for rejects is the one the
single-value function raises (class, message, reason, position), on lists
and Arrow, on one thread and two."""
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
