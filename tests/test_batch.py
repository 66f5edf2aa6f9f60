"""Batch functions over lists, tuples and iterators: element by element they
give what the single-value functions give; errors name the index."""
import codecs
import sys
import urllib.parse

import pytest
from hypothesis import given
from hypothesis import strategies as st

import pctcodec
from _batch_cases import CASE_IDS, CASES, SAMPLE, check_position, engines, expected, outcome
from _strategies import texts


@pytest.fixture(autouse=True, scope="module", params=["c", "python"])
def engine(request):
    """Every test runs on the C engine and on the pure-Python reference."""
    yield from engines(request.param)


WITH_NONE = SAMPLE[:5] + [None] + SAMPLE[5:] + [None]


@pytest.mark.parametrize("many, single, opts", CASES, ids=CASE_IDS)
def test_list_equals_single(many, single, opts):
    out = many(WITH_NONE, **opts)
    assert type(out) is list
    assert out == expected(single, WITH_NONE, opts)


@pytest.mark.parametrize("many, single, opts", CASES, ids=CASE_IDS)
@pytest.mark.parametrize("make", [tuple, iter, lambda v: (x for x in v), lambda v: dict.fromkeys(v)],
                         ids=["tuple", "iter", "generator", "dict"])
def test_other_iterables_give_lists(many, single, opts, make):
    values = list(dict.fromkeys(WITH_NONE)) if make is not tuple else WITH_NONE
    out = many(make(values), **opts)
    assert type(out) is list
    assert out == expected(single, values, opts)


@pytest.mark.parametrize("many, single, opts", CASES, ids=CASE_IDS)
def test_empty(many, single, opts):
    assert many([], **opts) == []
    assert many(iter(()), **opts) == []


def test_str_subclass_values():
    class S(str):
        pass

    assert pctcodec.quote_many([S("a b"), "c d"]) == ["a%20b", "c%20d"]
    assert pctcodec.check_many([S("a b")]) == [1]


@pytest.mark.parametrize("threads", [None, 1, 2, 4])
def test_threads_same_result(threads):
    values = WITH_NONE * 20
    for many, single, opts in CASES:
        assert many(values, threads=threads, **opts) == expected(single, values, opts)


@given(st.lists(st.one_of(st.none(), texts), max_size=12))
def test_hypothesis_matches_single(values):
    for many, single, opts in CASES:
        results = [None if v is None else outcome(single, v, **opts) for v in values]
        failing = [i for i, r in enumerate(results) if r is not None and r[0] == "raise"]
        if failing:
            first = failing[0]
            with pytest.raises(results[first][1]) as info:
                many(values, **opts)
            assert info.value.index == first
        else:
            assert many(values, **opts) == [None if r is None else r[1] for r in results]


def test_check_many_positions():
    assert pctcodec.check_many(["ok", "a b", "%zz", "é", None, "x%4"]) == [None, 1, 0, 0, None, 1]
    assert [check_position(v) for v in ["a b", "é"]] == [1, 0]


# ---------------------------------------------------------------- errors

@pytest.mark.parametrize("many, single, opts", CASES, ids=CASE_IDS)
@pytest.mark.parametrize("bad", [3, b"bytes", 1.5, ["x"], object()])
def test_wrong_type_names_index(many, single, opts, bad):
    values = ["a", None, "b", bad, "c"]
    with pytest.raises(TypeError, match=r"\bindex 3\b"):
        many(values, **opts)
    with pytest.raises(TypeError, match=r"\bindex 3\b"):
        many(iter(values), **opts)
    with pytest.raises(TypeError, match=type(bad).__name__):
        many(tuple(values), **opts)


@pytest.mark.parametrize("many", [c[0] for c in CASES])
@pytest.mark.parametrize("bad", ["a string", b"bytes", 5, None])
def test_not_a_column(many, bad):
    with pytest.raises(TypeError):
        many(bad)


def test_threads_argument():
    with pytest.raises(ValueError):
        pctcodec.quote_many(["a"], threads=0)
    with pytest.raises(TypeError):
        pctcodec.quote_many(["a"], threads="2")
    with pytest.raises(TypeError):
        pctcodec.quote_many(["a"], 2)  # safe, not threads: an int is no safe set


def _assert_indexed(exc, index):
    assert exc.index == index
    text = str(exc) + "".join(getattr(exc, "__notes__", []))
    assert "index %d" % index in text


def test_encode_error_names_index():
    values = ["a", None, "b\udc80c", "\udc80"]
    with pytest.raises(UnicodeEncodeError) as info:
        pctcodec.quote_many(values)
    # the same error the single-value call raises, plus the index
    with pytest.raises(UnicodeEncodeError) as single:
        pctcodec.quote(values[2])
    assert (info.value.encoding, info.value.object, info.value.start, info.value.end) == (
        single.value.encoding, single.value.object, single.value.start, single.value.end)
    _assert_indexed(info.value, 2)
    if sys.version_info >= (3, 11):
        assert any("index 2" in note for note in info.value.__notes__)


def test_encoding_option_error_names_index():
    with pytest.raises(UnicodeEncodeError) as info:
        pctcodec.quote_plus_many(["abc", "d é"], encoding="ascii", errors="strict")
    _assert_indexed(info.value, 1)


def test_decode_error_names_index():
    with pytest.raises(UnicodeDecodeError) as info:
        pctcodec.unquote_many(["%41", "%C3%A9", "%FF"], errors="strict")
    _assert_indexed(info.value, 2)


def test_hosts_without_ascii_form_do_not_abort_the_column():
    rows = ["http://a.com/", None, "http://\u2603-.com/", "http://a b.\u00e9/", "http://%E4%BE%8B.jp/",
            "http://\u4f8b%41.jp/", "http://bugs.kde.org\u00a0\u00a0Reporting", "http://a b.\u00e9/"]
    expected = [None if r is None else pctcodec.normalize(r) for r in rows]
    assert expected[3] == "http://a%20b.%C3%A9/" and expected[4] == "http://xn--fsq.jp/"
    assert pctcodec.normalize_many(rows) == expected


def test_lone_surrogate_names_index():
    with pytest.raises(pctcodec.PercentEncodingError) as info:
        pctcodec.normalize_many(["http://a.com/", "b\ud800"])
    assert info.value.position == 1
    _assert_indexed(info.value, 1)


def _boom(exc):
    raise KeyError("boom")


codecs.register_error("pctcodec-test-boom", _boom)


def test_other_error_same_class_from_original():
    with pytest.raises(KeyError) as info:
        pctcodec.quote_many(["x", "\xe9"], encoding="ascii", errors="pctcodec-test-boom")
    assert type(info.value) is KeyError
    _assert_indexed(info.value, 1)
    assert isinstance(info.value.__cause__, KeyError)
    assert "boom" in str(info.value)


def test_bad_encoding_is_an_argument_error():
    # raised before any row, naming no row: not "at index 0"
    for call in (lambda: pctcodec.quote_many(["a"], encoding="no-such-codec"),
                 lambda: pctcodec.unquote_many(["x", "%41"], encoding="no-such-codec"),
                 lambda: pctcodec.quote_many([], encoding="no-such-codec", on_error="null")):
        with pytest.raises(LookupError, match="no-such-codec") as info:
            call()
        assert not hasattr(info.value, "index")
        assert "index" not in str(info.value)
    with pytest.raises(TypeError, match="encoding must be str"):
        pctcodec.quote_many(["a"], encoding=b"utf-8")


@pytest.mark.parametrize("name", ["quote_many", "quote_plus_many"])
@pytest.mark.parametrize("on_error", ["raise", "null"])
def test_bad_safe_is_an_argument_error(name, on_error):
    """A `safe` urllib cannot take raises urllib's error before any row
    (under on_error="null" every row was None, with no error)."""
    func = getattr(pctcodec, name)
    for safe, match in ((5, "not iterable"), (["a"], "not supported")):
        with pytest.raises(TypeError, match=match) as info:
            func(["a b", "c"], safe=safe, on_error=on_error)
        assert not hasattr(info.value, "index")
    # what urllib takes: bytes of any iterable of ints under 128
    assert func(["a b/c"], safe=iter(b"/ "), on_error=on_error) == [
        getattr(urllib.parse, name[:-5])("a b/c", safe=b"/ ")]


def test_no_partial_result():
    values = ["a b", "c d", 7, "e f"]
    snapshot = list(values)
    with pytest.raises(TypeError, match=r"\bindex 2\b"):
        pctcodec.quote_many(x for x in values)
    with pytest.raises(UnicodeEncodeError):
        pctcodec.quote_many(["a b", "\udc80"])
    assert values == snapshot  # the input is never written to


def test_list_changed_by_the_function():
    """A subclass value calls back into Python, which may shrink the list:
    the result holds the values seen."""
    values = []

    class Shrinking(str):
        def encode(self, *args):
            del values[2:]
            return str.encode(self, *args)

    values += ["a b", Shrinking("c d"), "e f", "g h"]
    out = pctcodec.quote_many(values)
    assert out[:2] == ["a%20b", "c%20d"]
    assert len(out) in (2, 4)


def test_threads_takes_any_integer():
    """A numpy integer (any type with __index__) is a thread count; a float
    or a bool is not."""
    np = pytest.importorskip("numpy")
    assert pctcodec.quote_many(["a b"], threads=np.int64(2)) == ["a%20b"]
    for bad in (2.0, True, "2"):
        with pytest.raises(TypeError, match="threads must be an int"):
            pctcodec.quote_many(["a b"], threads=bad)
