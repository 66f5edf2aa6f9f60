"""Differential tests: pctcodec must agree with the running urllib.parse.

Each case goes through ``_diff.same`` which checks value, exact type, or
exception class against urllib.parse.
"""
import collections
import sys
import types

import pytest
from hypothesis import given
from hypothesis import strategies as st

from _diff import Side, same
from _strategies import (
    TOKENS,
    BytearraySub,
    BytesSub,
    StrSub,
    WithStr,
    any_input,
    byte_strings,
    bytes_inputs,
    calls,
    clean_texts,
    encodings,
    errors,
    misc_objects,
    safes,
    str_inputs,
    texts,
    url_like,
)

QUOTE_PARAMS = [("safe", safes), ("encoding", encodings), ("errors", errors)]
UNQUOTE_PARAMS = [("encoding", encodings), ("errors", errors)]

# Parameters that usually succeed, so the success paths get most examples.
good_encodings = st.sampled_from([None, "utf-8", "UTF8", "utf_8", "latin-1", "utf-16", "cp1252"])
good_errors = st.sampled_from([None, "strict", "replace", "ignore", "surrogateescape", "surrogatepass", "backslashreplace"])
ascii_safe = st.one_of(st.text(st.characters(max_codepoint=0x7F), max_size=6), st.just("/"), st.just(""))


def call(name, args_kwargs):
    args, kwargs = args_kwargs
    same(name, *args, **kwargs)


# --- quote / quote_plus ------------------------------------------------------

@given(calls(any_input, QUOTE_PARAMS, "string"))
def test_quote_anything(ak):
    call("quote", ak)


@given(calls(any_input, QUOTE_PARAMS, "string"))
def test_quote_plus_anything(ak):
    call("quote_plus", ak)


@given(st.one_of(texts, url_like), ascii_safe, good_encodings, good_errors)
def test_quote_text(s, safe, encoding, errs):
    same("quote", s)
    same("quote", s, safe)
    same("quote", s, safe, encoding, errs)
    same("quote", s, safe=safe, encoding=encoding, errors=errs)


@given(st.one_of(texts, url_like), ascii_safe, good_encodings, good_errors)
def test_quote_plus_text(s, safe, encoding, errs):
    same("quote_plus", s)
    same("quote_plus", s, safe)
    same("quote_plus", s, safe, encoding, errs)
    same("quote_plus", s, safe=safe, encoding=encoding, errors=errs)


@given(bytes_inputs, safes)
def test_quote_bytes_like(b, safe):
    same("quote", b)
    same("quote", b, safe)
    same("quote_plus", b)
    same("quote_plus", b, safe)
    same("quote", b, safe, encoding="utf-8")
    same("quote_plus", b, safe, None, "strict")


@given(str_inputs, safes)
def test_quote_str_any_safe(s, safe):
    same("quote", s, safe)
    same("quote_plus", s, safe)


# --- quote_from_bytes ---------------------------------------------------------

@given(calls(st.one_of(bytes_inputs, bytes_inputs, misc_objects, str_inputs), [("safe", safes)], "bs"))
def test_quote_from_bytes_anything(ak):
    call("quote_from_bytes", ak)


@given(byte_strings, st.one_of(ascii_safe, st.binary(max_size=4)))
def test_quote_from_bytes_bytes(b, safe):
    same("quote_from_bytes", b)
    same("quote_from_bytes", b, safe)
    same("quote_from_bytes", bytearray(b), safe)


# --- unquote / unquote_plus ---------------------------------------------------

@given(calls(any_input, UNQUOTE_PARAMS, "string"))
def test_unquote_anything(ak):
    call("unquote", ak)


@given(calls(any_input, UNQUOTE_PARAMS, "string"))
def test_unquote_plus_anything(ak):
    call("unquote_plus", ak)


@given(texts, encodings, errors)
def test_unquote_text(s, encoding, errs):
    same("unquote", s)
    same("unquote", s, encoding)
    same("unquote", s, encoding, errs)
    same("unquote", s, errors=errs)
    same("unquote_plus", s)
    same("unquote_plus", s, encoding, errs)
    same("unquote_plus", s, encoding=encoding, errors=errs)


@given(byte_strings, encodings, errors)
def test_unquote_bytes(b, encoding, errs):
    same("unquote", b)
    same("unquote", b, encoding, errs)
    same("unquote_plus", b)


# --- unquote_to_bytes -----------------------------------------------------

@given(st.one_of(any_input, byte_strings, texts))
def test_unquote_to_bytes_anything(x):
    same("unquote_to_bytes", x)
    same("unquote_to_bytes", string=x)


# --- urlencode ----------------------------------------------------------------

scalars = st.one_of(
    texts,
    byte_strings,
    st.integers(-5, 10**6),
    st.floats(allow_nan=False),
    st.none(),
    st.booleans(),
    texts.map(WithStr),
    texts.map(StrSub),
    byte_strings.map(BytesSub),
    byte_strings.map(bytearray),
)
values = st.one_of(
    scalars,
    st.lists(scalars, max_size=3),
    st.lists(scalars, max_size=3).map(tuple),
    st.dictionaries(st.text(max_size=3), scalars, max_size=2),
    st.sets(st.integers(0, 9), max_size=3),
)
pairs = st.lists(st.tuples(scalars, values), max_size=5)
queries = st.one_of(
    pairs,
    pairs.map(tuple),
    pairs.map(lambda ps: {k: v for k, v in ps if _hashable(k)}),
    pairs.map(lambda ps: collections.OrderedDict((k, v) for k, v in ps if _hashable(k))),
    # Not valid queries: strings, numbers, non-tuple items, wrong arity.
    texts,
    byte_strings,
    st.integers(),
    st.none(),
    st.lists(st.lists(scalars, min_size=2, max_size=2), min_size=1, max_size=3),
    st.lists(st.tuples(scalars, scalars, scalars), min_size=1, max_size=2),
    st.lists(st.tuples(scalars), min_size=1, max_size=2),
    pairs.map(lambda ps: [("k", "v")] + [k for k, _ in ps]),  # first a tuple, then anything
)


def _hashable(x):
    try:
        hash(x)
    except TypeError:
        return False
    return True


def _echo_via(s, safe="", encoding=None, errors=None):
    return "[%r|%r|%r|%r]" % (s, safe, encoding, errors)


def _echo_via_star(*args):
    return repr(args)


def _type_via(s, *args):
    """Shows the exact types quote_via receives (str subclass kept or not)."""
    return "<%s%s>" % (type(s).__name__, "".join("|" + type(a).__name__ for a in args))


quote_vias = st.sampled_from(
    [Side("quote_plus"), Side("quote"), _echo_via, _echo_via_star, _type_via,
     lambda s, *a: "x", str, len]
)

URLENCODE_PARAMS = [
    ("doseq", st.sampled_from([False, True, 0, 1, None, "yes"])),
    ("safe", st.one_of(ascii_safe, safes)),
    ("encoding", encodings),
    ("errors", errors),
    ("quote_via", quote_vias),
]


@given(calls(queries, URLENCODE_PARAMS, "query"))
def test_urlencode_anything(ak):
    call("urlencode", ak)


@given(pairs, st.booleans(), ascii_safe, good_encodings, good_errors)
def test_urlencode_pairs(ps, doseq, safe, encoding, errs):
    same("urlencode", ps)
    same("urlencode", ps, doseq)
    same("urlencode", ps, doseq, safe, encoding, errs)
    same("urlencode", ps, doseq=doseq, safe=safe, quote_via=Side("quote"))
    d = {k: v for k, v in ps if _hashable(k)}
    same("urlencode", d, doseq)


class TupleSub(tuple):
    pass


class ListWithItems(list):
    def items(self):
        return [("from", "items")]


class ItemsNotCallable:
    items = 5


class ItemsRaises:
    def items(self):
        raise ValueError("boom")


class ItemsNotIterable:
    def items(self):
        return 5


class LenRaises:
    def __len__(self):
        raise ValueError("boom")


class GetItemRaises:
    def __len__(self):
        return 1

    def __getitem__(self, i):
        raise IndexError(i)


class GetItemTuple:
    """len() and [0] look like a sequence of pairs, iteration yields pairs."""

    def __len__(self):
        return 2

    def __getitem__(self, i):
        if i < 2:
            return ("k%d" % i, "v %d" % i)
        raise IndexError(i)


class BoolRaises:
    def __bool__(self):
        raise ValueError("no truth")


class LenValueError:
    def __len__(self):
        raise ValueError("no len")

    def __str__(self):
        return "LVE"


class StrRaises:
    def __str__(self):
        raise RuntimeError("no str")

    def __hash__(self):
        return 1


class StrAdd(str):
    def __add__(self, other):
        return "added"


# --- hand-picked cases ---------------------------------------------------------

PY = sys.version_info
S, U, B, BA, BS = StrSub, collections.UserString, bytes, bytearray, BytesSub

CASES = [
    # quote
    ("quote", ("",), {}),
    ("quote", (S(""),), {}),
    ("quote", (S("abc"),), {}),
    ("quote", (U(""),), {}),
    ("quote", (U("a b"),), {}),
    ("quote", ("abc",), {}),
    ("quote", ("a b/c~d",), {}),
    ("quote", ("a b/c",), {"safe": ""}),
    ("quote", ("/%+ ",), {"safe": "%+ "}),
    ("quote", ("\u4e2d\u6587",), {}),
    ("quote", ("\U0001f600",), {}),
    ("quote", ("\x00\x1f\x7f",), {}),
    ("quote", ("\ud800",), {}),
    ("quote", ("\udc80",), {"errors": "surrogateescape"}),
    ("quote", ("\ud800",), {"errors": "surrogatepass"}),
    ("quote", ("\ud800x",), {"errors": "replace"}),
    ("quote", ("\u00e9",), {"encoding": "latin-1"}),
    ("quote", ("\u4e2d",), {"encoding": "latin-1"}),
    ("quote", ("\u4e2d",), {"encoding": "latin-1", "errors": "xmlcharrefreplace"}),
    ("quote", ("\u4e2d",), {"encoding": "ascii", "errors": "namereplace"}),
    ("quote", ("\u4e2d",), {"encoding": "ascii", "errors": "backslashreplace"}),
    ("quote", ("abc",), {"encoding": "utf-16"}),
    ("quote", ("abc",), {"encoding": "utf-32"}),
    ("quote", ("abc",), {"encoding": "cp037"}),
    ("quote", ("m\u00fcnchen.de",), {"encoding": "idna"}),
    ("quote", ("abc",), {"encoding": "bogus-codec"}),
    ("quote", ("",), {"encoding": "bogus-codec"}),
    ("quote", ("abc",), {"encoding": 123}),
    ("quote", ("abc",), {"errors": 5}),
    ("quote", ("abc",), {"errors": "bogus"}),
    ("quote", ("\u4e2d",), {"errors": "bogus", "encoding": "ascii"}),
    ("quote", ("abc",), {"encoding": "rot13"}),
    ("quote", ("abc",), {"encoding": "hex"}),
    ("quote", (b"abc",), {"encoding": "utf-8"}),
    ("quote", (b"abc",), {"errors": "strict"}),
    ("quote", (b"",), {"encoding": "utf-8"}),
    ("quote", (b"a b\xff",), {}),
    ("quote", (BA(b"a b\xff"),), {}),
    ("quote", (BS(b"a b"),), {}),
    ("quote", (memoryview(b"a b"),), {}),
    ("quote", (5,), {}),
    ("quote", (None,), {}),
    ("quote", (["a"],), {}),
    ("quote", (("a",),), {}),
    ("quote", ("a/b",), {"safe": None}),
    ("quote", ("",), {"safe": None}),
    ("quote", ("a/b",), {"safe": b"/"}),
    ("quote", ("a/b",), {"safe": BA(b"/")}),
    ("quote", ("a/b",), {"safe": [47]}),
    ("quote", ("a/b",), {"safe": (47, 300)}),
    ("quote", ("a/b",), {"safe": [-1]}),
    ("quote", ("a/b",), {"safe": [256]}),
    ("quote", ("a/b",), {"safe": [1.5]}),
    ("quote", ("a/b",), {"safe": ["/"]}),
    ("quote", ("a/b",), {"safe": [True]}),
    ("quote", ("a/b",), {"safe": 47}),
    ("quote", ("a/b",), {"safe": U("/")}),
    ("quote", ("a/b",), {"safe": S("/")}),
    ("quote", ("a/b\u00e9",), {"safe": "/\u00e9"}),
    ("quote", ("a/b",), {"safe": "\ud800/"}),
    ("quote", ("a/b\xff",), {"safe": b"/\xff"}),
    ("quote", ("a/b",), {"safe": memoryview(b"/")}),
    ("quote", ("a/b",), {"safe": range(256)}),
    ("quote", ("a/b",), {"safe": {47: 1}}),
    ("quote", ("%41",), {}),
    ("quote", ("abc",), {"string": "x"}),
    ("quote", (), {"string": "a b"}),
    ("quote", (), {}),
    ("quote", ("a", "/", None, None, None), {}),
    ("quote", ("a",), {"bogus": 1}),
    ("quote", ("a",), {"safe": "/", "encoding": None, "errors": None}),
    # quote_plus
    ("quote_plus", ("a b+c/d",), {}),
    ("quote_plus", ("a b",), {"safe": "+"}),
    ("quote_plus", ("a b",), {"safe": " "}),
    ("quote_plus", ("a b",), {"safe": b"/"}),
    ("quote_plus", ("a b",), {"safe": [47]}),
    ("quote_plus", ("ab",), {"safe": [47]}),
    ("quote_plus", ("a b",), {"safe": None}),
    ("quote_plus", ("ab",), {"safe": None}),
    ("quote_plus", ("",), {"safe": None}),
    ("quote_plus", (b"a b",), {}),
    ("quote_plus", (b"a b",), {"safe": "/"}),
    ("quote_plus", (b"a b",), {"safe": S("/")}),
    ("quote_plus", (b"a b",), {"safe": U("/")}),
    ("quote_plus", (b"a b",), {"safe": BA(b"/")}),
    ("quote_plus", (BA(b"a b"),), {}),
    ("quote_plus", (BA(b"ab"),), {}),
    ("quote_plus", (BS(b"a b"),), {}),
    ("quote_plus", (memoryview(b"a b"),), {}),
    ("quote_plus", (S(""),), {}),
    ("quote_plus", (S("a b"),), {}),
    ("quote_plus", (U("a b"),), {}),
    ("quote_plus", (U("ab"),), {}),
    ("quote_plus", (U(""),), {}),
    ("quote_plus", ("a b",), {"encoding": "utf-16"}),
    ("quote_plus", (b"a b",), {"encoding": "utf-8"}),
    ("quote_plus", (None,), {}),
    ("quote_plus", (5,), {}),
    ("quote_plus", ("\ud800 ",), {}),
    # quote_from_bytes
    ("quote_from_bytes", (b"",), {}),
    ("quote_from_bytes", (b"",), {"safe": None}),
    ("quote_from_bytes", (b"abc",), {"safe": None}),
    ("quote_from_bytes", (BA(b""),), {}),
    ("quote_from_bytes", (BS(b"abc"),), {}),
    ("quote_from_bytes", (b"a/b c",), {}),
    ("quote_from_bytes", (b"a/b c",), {"safe": ""}),
    ("quote_from_bytes", (b"\x00\x7f\x80\xff",), {}),
    ("quote_from_bytes", (b"\x80\xff",), {"safe": b"\x80\xff"}),
    ("quote_from_bytes", (b"\x80\xff",), {"safe": [128, 255]}),
    ("quote_from_bytes", (b"abc",), {"safe": "\u00e9\ud800"}),
    ("quote_from_bytes", ("abc",), {}),
    ("quote_from_bytes", ("",), {}),
    ("quote_from_bytes", (memoryview(b"a"),), {}),
    ("quote_from_bytes", (None,), {}),
    ("quote_from_bytes", (5,), {}),
    ("quote_from_bytes", (), {"bs": b"a b"}),
    ("quote_from_bytes", (b"a",), {"string": b"a"}),
    ("quote_from_bytes", (b"a", "/", None), {}),
    # unquote
    ("unquote", ("",), {}),
    ("unquote", ("abc",), {}),
    ("unquote", (S("abc"),), {}),
    ("unquote", (S(""),), {}),
    ("unquote", (S("a%41"),), {}),
    ("unquote", (U("abc"),), {}),
    ("unquote", (U(""),), {}),
    ("unquote", (U("a%41"),), {}),
    ("unquote", ("%",), {}),
    ("unquote", ("%4",), {}),
    ("unquote", ("%zz",), {}),
    ("unquote", ("%41%4a%4A",), {}),
    ("unquote", ("%e4%b8%ad",), {}),
    ("unquote", ("%E4%B8",), {}),
    ("unquote", ("%E4%B8x",), {}),
    ("unquote", ("%C3",), {}),
    ("unquote", ("%FF",), {}),
    ("unquote", ("%C3\u00e9%A9",), {}),
    ("unquote", ("%C3%A9\u00e9",), {}),
    ("unquote", ("\ud800%41",), {}),
    ("unquote", ("%ED%A0%80",), {}),
    ("unquote", ("%ED%A0%80",), {"errors": "surrogatepass"}),
    ("unquote", ("%FF",), {"errors": "surrogateescape"}),
    ("unquote", ("%FF",), {"errors": "strict"}),
    ("unquote", ("%FF",), {"errors": "ignore"}),
    ("unquote", ("%FF",), {"errors": "backslashreplace"}),
    ("unquote", ("%FF",), {"errors": "xmlcharrefreplace"}),
    ("unquote", ("%FF",), {"errors": "bogus"}),
    ("unquote", ("%41",), {"errors": "bogus"}),
    ("unquote", ("%FF",), {"errors": 5}),
    ("unquote", ("abc",), {"errors": 5}),
    ("unquote", ("%41",), {"encoding": None, "errors": None}),
    ("unquote", ("%41",), {"encoding": "latin-1"}),
    ("unquote", ("%e4",), {"encoding": "latin-1"}),
    ("unquote", ("abc%41",), {"encoding": "cp037"}),
    ("unquote", ("abc%41",), {"encoding": "utf-16"}),
    ("unquote", ("ab%41\u00e9cd%42",), {"encoding": "utf-16"}),
    ("unquote", ("%41",), {"encoding": "idna"}),
    ("unquote", ("%41",), {"encoding": "idna", "errors": "strict"}),
    ("unquote", ("%41",), {"encoding": "bogus-codec"}),
    ("unquote", ("abc",), {"encoding": "bogus-codec"}),
    ("unquote", ("%41",), {"encoding": 123}),
    ("unquote", ("%41",), {"encoding": "rot13"}),
    ("unquote", ("%82%a0",), {"encoding": "shift_jis"}),
    ("unquote", ("%b0%a1",), {"encoding": "euc-kr"}),
    ("unquote", (b"",), {}),
    ("unquote", (b"abc",), {}),
    ("unquote", (b"a%41%FF",), {}),
    ("unquote", (b"a%41",), {"encoding": None}),
    ("unquote", (b"a%41",), {"errors": None}),
    ("unquote", (b"\xff",), {"errors": "strict"}),
    ("unquote", (BS(b"a%41"),), {}),
    ("unquote", (BA(b"a%41"),), {}),
    ("unquote", (BA(b""),), {}),
    ("unquote", (memoryview(b"a%41"),), {}),
    ("unquote", (None,), {}),
    ("unquote", (5,), {}),
    ("unquote", (["%41"],), {}),
    ("unquote", (["a"],), {}),
    ("unquote", (("%",),), {}),
    ("unquote", (), {"string": "%41"}),
    ("unquote", ("%41", "utf-8", "strict", None), {}),
    # unquote_plus
    ("unquote_plus", ("a+b%2B",), {}),
    ("unquote_plus", ("a+b",), {}),
    ("unquote_plus", ("ab",), {}),
    ("unquote_plus", ("",), {}),
    ("unquote_plus", (S("ab"),), {}),
    ("unquote_plus", (S("a+b"),), {}),
    ("unquote_plus", (S(""),), {}),
    ("unquote_plus", (U("a+b"),), {}),
    ("unquote_plus", (U("ab"),), {}),
    ("unquote_plus", (b"a+b",), {}),
    ("unquote_plus", (b"",), {}),
    ("unquote_plus", (BA(b"a+b"),), {}),
    ("unquote_plus", (None,), {}),
    ("unquote_plus", (5,), {}),
    ("unquote_plus", (["a+b"],), {}),
    ("unquote_plus", ("%2B+",), {"encoding": "utf-16"}),
    ("unquote_plus", ("+",), {"encoding": "bogus-codec"}),
    ("unquote_plus", ("+%",), {"encoding": "bogus-codec"}),
    # unquote_to_bytes
    ("unquote_to_bytes", ("",), {}),
    ("unquote_to_bytes", ("abc",), {}),
    ("unquote_to_bytes", ("a%41%zz%4%",), {}),
    ("unquote_to_bytes", ("\u00e9%41",), {}),
    ("unquote_to_bytes", ("\ud800",), {}),
    ("unquote_to_bytes", ("\ud800%41",), {}),
    ("unquote_to_bytes", (b"",), {}),
    ("unquote_to_bytes", (b"abc",), {}),
    ("unquote_to_bytes", (b"a%41\xff",), {}),
    ("unquote_to_bytes", (BA(b"abc"),), {}),
    ("unquote_to_bytes", (BA(b"a%41"),), {}),
    ("unquote_to_bytes", (BA(b""),), {}),
    ("unquote_to_bytes", (BS(b"abc"),), {}),
    ("unquote_to_bytes", (BS(b"a%41"),), {}),
    ("unquote_to_bytes", (BS(b""),), {}),
    ("unquote_to_bytes", (BytearraySub(b"abc"),), {}),
    ("unquote_to_bytes", (S("abc"),), {}),
    ("unquote_to_bytes", (S(""),), {}),
    ("unquote_to_bytes", (U("abc"),), {}),
    ("unquote_to_bytes", (U(""),), {}),
    ("unquote_to_bytes", (memoryview(b"a%41"),), {}),
    ("unquote_to_bytes", (memoryview(b""),), {}),
    ("unquote_to_bytes", (5,), {}),
    ("unquote_to_bytes", (0,), {}),
    ("unquote_to_bytes", (None,), {}),
    ("unquote_to_bytes", ([],), {}),
    ("unquote_to_bytes", (["a"],), {}),
    ("unquote_to_bytes", ((),), {}),
    ("unquote_to_bytes", (), {}),
    ("unquote_to_bytes", ("a", "b"), {}),
    ("unquote_to_bytes", (), {"string": "%41"}),
    # urlencode
    ("urlencode", ({},), {}),
    ("urlencode", ([],), {}),
    ("urlencode", ((),), {}),
    ("urlencode", ("",), {}),
    ("urlencode", (b"",), {}),
    ("urlencode", ("ab",), {}),
    ("urlencode", (5,), {}),
    ("urlencode", (None,), {}),
    ("urlencode", ([["a", "b"]],), {}),
    ("urlencode", ([("a", "b", "c")],), {}),
    ("urlencode", ([("a", "b"), "cd"],), {}),
    ("urlencode", ([("a", "b"), 5],), {}),
    ("urlencode", ({"a b": "c&d", "e": "f=g+h"},), {}),
    ("urlencode", ({b"k\xff": b"v\xff"},), {}),
    ("urlencode", ({1: 2.5, None: True},), {}),
    ("urlencode", ({"a": WithStr("x y")},), {}),
    ("urlencode", ({"a": [1, "b c", b"d\xff"]},), {}),
    ("urlencode", ({"a": [1, "b c", b"d\xff"]},), {"doseq": True}),
    ("urlencode", ({"a": (1, 2)},), {"doseq": True}),
    ("urlencode", ({"a": "xyz"},), {"doseq": True}),
    ("urlencode", ({"a": b"xyz"},), {"doseq": True}),
    ("urlencode", ({"a": 7},), {"doseq": True}),
    ("urlencode", ({"a": None},), {"doseq": True}),
    ("urlencode", ({"a": []},), {"doseq": True}),
    ("urlencode", ({"a": BA(b"xy")},), {"doseq": True}),
    # the direct path (exact str, bytes, int; with doseq exact lists and tuples of them)
    ("urlencode", ({"a": [], "b": 1, "c": (), "d": ["x y", b"\xff", -3]},), {"doseq": True}),
    ("urlencode", ([("a", ()), ("b", [])],), {"doseq": True}),
    ("urlencode", ([("k k", [0, 2**63, -(2**63), 10**40])],), {"doseq": True}),
    ("urlencode", ({"\u00e9 \u4e2d": "\U0001f389 +", b"": "", "": b""},), {}),
    ("urlencode", ({"a": ["b", "\ud800"]},), {"doseq": True}),
    ("urlencode", ({"\U0001f389": "\udfff"},), {}),
    ("urlencode", ({"a": ["x", WithStr("y")]},), {"doseq": True}),
    ("urlencode", ({"a": [True, 1.5]},), {"doseq": True}),
    ("urlencode", ({"a": "b c"},), {"doseq": 1}),
    ("urlencode", ({"a b": "c d/e"},), {"safe": b" /"}),
    ("urlencode", ({"a b": "c d/e"},), {"safe": " /\u00e9"}),
    ("urlencode", ({"a b": "c"},), {"encoding": "utf-8", "errors": "strict"}),
    ("urlencode", ({"a": 10**5000},), {}),
    ("urlencode", ({"a": {"x": 1}},), {"doseq": True}),
    ("urlencode", ({"a": "\u00e9"},), {"encoding": "latin-1"}),
    ("urlencode", ({"a": "\u4e2d"},), {"encoding": "latin-1"}),
    ("urlencode", ({"a": "\u4e2d"},), {"encoding": "latin-1", "errors": "xmlcharrefreplace"}),
    ("urlencode", ({"a": "\ud800"},), {}),
    ("urlencode", ({"a": "\ud800"},), {"errors": "surrogatepass"}),
    ("urlencode", ({"a/b": "c/d"},), {"safe": "/"}),
    ("urlencode", ({"a/b": b"c/d"},), {"safe": "/"}),
    ("urlencode", ({"a b": "c d"},), {"quote_via": Side("quote")}),
    ("urlencode", ({"a b": b"c d"},), {"quote_via": Side("quote"), "encoding": "utf-8"}),
    ("urlencode", ({"a": "b"},), {"quote_via": _echo_via, "safe": "/", "encoding": "e", "errors": "r"}),
    ("urlencode", ({b"a": [b"b", "c"]},), {"quote_via": _echo_via, "doseq": True, "encoding": "e"}),
    ("urlencode", ({"a": "b"},), {"quote_via": lambda *a: 5}),
    ("urlencode", ({"a": "b"},), {"quote_via": None}),
    ("urlencode", ({"a": "b"}, True, "/", None, None, Side("quote")), {}),
    ("urlencode", ({"a": "b"}, True, "/", None, None, Side("quote"), 1), {}),
    ("urlencode", (), {"query": {"a": "b"}}),
    ("urlencode", ({"a": "b"},), {"safe": None}),
    ("urlencode", ({"a b": "c"},), {"safe": None}),
    ("urlencode", ({"a": "b"},), {"encoding": "bogus-codec"}),
    ("urlencode", (collections.UserDict({"a b": "c"}),), {}),
    ("urlencode", (types.MappingProxyType({"a b": ["c", "d"]}),), {"doseq": True}),
    ("urlencode", ({"a": 1}.items(),), {}),
    ("urlencode", ({}.items(),), {}),
    ("urlencode", (range(0),), {}),
    ("urlencode", (range(3),), {}),
    ("urlencode", (iter([("a", "b")]),), {}),
    ("urlencode", (ListWithItems([("a", "b")]),), {}),
    ("urlencode", (collections.OrderedDict([("b", 1), ("a", 2)]),), {}),
    ("urlencode", ([("a", "b")] * 3,), {"doseq": True}),
    ("urlencode", ({"a": ("x", ("y", "z"))},), {"doseq": True}),
    ("urlencode", ({"a": range(3)},), {"doseq": True}),
    ("urlencode", ({"a": memoryview(b"xy")},), {"doseq": True}),
    ("urlencode", ({"a": memoryview(b"xy")},), {}),
    ("urlencode", ({"a": 1.5, "b": -0.0, "c": 10**30, "d": 1j},), {}),
    ("urlencode", ({S("k"): S("v")},), {"quote_via": _type_via}),
    ("urlencode", ({S("k"): S("v")},), {"quote_via": _type_via, "doseq": True}),
    ("urlencode", ({S("k"): [S("v"), BS(b"w"), BA(b"x")]},), {"quote_via": _type_via, "doseq": True}),
    ("urlencode", ({BS(b"k"): BS(b"v")},), {"quote_via": _type_via, "safe": b"/"}),
    ("urlencode", ([TupleSub(("a", "b")), ("c", "d")],), {}),
    ("urlencode", ([("a", "b"), TupleSub(("c", "d", "e"))],), {}),
    ("urlencode", ([("a", "b"), ["c", "d"], "ef", b"gh"],), {}),
    ("urlencode", ([("a", "b"), ["c"]],), {}),
    ("urlencode", ([("a", "b"), 3],), {}),
    ("urlencode", (ItemsNotCallable(),), {}),
    ("urlencode", (ItemsRaises(),), {}),
    ("urlencode", (ItemsNotIterable(),), {}),
    ("urlencode", (LenRaises(),), {}),
    ("urlencode", (GetItemRaises(),), {}),
    ("urlencode", (GetItemTuple(),), {}),
    ("urlencode", ({"a": "b"},), {"doseq": BoolRaises()}),
    ("urlencode", ([],), {"doseq": BoolRaises()}),
    ("urlencode", ({"a": LenValueError()},), {"doseq": True}),
    ("urlencode", ({"a": LenValueError()},), {"doseq": False}),
    ("urlencode", ({"a": StrRaises()},), {}),
    ("urlencode", ({StrRaises(): "a"},), {}),
    ("urlencode", ({"a": ["x", StrRaises()]},), {"doseq": True}),
    ("urlencode", ({"a": iter(())},), {"doseq": True}),
    ("urlencode", ({"a": b"x y", "b": "x y"},), {"quote_via": Side("quote"), "safe": " "}),
    ("urlencode", ({"a b": "c d"},), {"quote_via": lambda s, *a: b"bytes"}),
    ("urlencode", ({"a b": "c d"},), {"quote_via": lambda s, *a: StrAdd("s")}),
    ("urlencode", ({"a b": "c d"}, False, "", None, None, Side("quote_plus")), {}),
    ("urlencode", ({"a b": "c d"},), {"quote_via": Side("quote_plus"), "safe": [32]}),
    ("urlencode", ({"a b": b"c d"},), {"quote_via": Side("quote_plus"), "safe": [32], "encoding": "x"}),
    ("urlencode", ({"a": "b"},), {"encoding": 123}),
]


@pytest.mark.parametrize(
    "name,args,kwargs", CASES, ids=["%d-%s" % (i, c[0]) for i, c in enumerate(CASES)]
)
def test_case_table(name, args, kwargs):
    same(name, *args, **kwargs)


@pytest.mark.parametrize("name", ["quote", "quote_plus", "unquote", "unquote_plus", "unquote_to_bytes"])
@pytest.mark.parametrize("tok", sorted(set(TOKENS)))
def test_every_token(name, tok):
    """Each adversarial token alone, at the start, end and middle of a string."""
    for s in (tok, tok + "x", "x" + tok, "a" + tok + tok + "b", tok * 3):
        same(name, s)
        b = s.encode("utf-8", "surrogatepass")
        same(name, b)
    if name.startswith("quote"):
        same(name, tok, "")
        same(name, tok, tok)


@pytest.mark.parametrize("byte", range(256))
def test_every_byte(byte):
    b = bytes([byte])
    same("quote_from_bytes", b)
    same("quote_from_bytes", b, "")
    same("quote_from_bytes", b"x" + b + b"y", b)
    same("quote", b)
    same("quote_plus", b)
    same("unquote", b)
    same("unquote_to_bytes", b)
    same("unquote_to_bytes", b"%" + b)
    same("unquote_to_bytes", b"%4" + b)
    same("unquote", "%%%02X" % byte)
    same("unquote", "%%%02x" % byte, "latin-1")
    same("unquote_to_bytes", "%%%02x" % byte)
    same("quote", chr(byte))
    same("quote", chr(byte), "", "latin-1")
    same("quote_plus", chr(byte), chr(byte))


# Lengths around internal buffer sizes and thresholds a C implementation may
# have (stack scratch buffers, GIL release for long inputs, chunking in urllib).
BOUNDARY_LENGTHS = [255, 256, 257, 511, 512, 513, 1023, 1024, 1025, 4095, 4096, 4097, 65535, 65536, 65537]


@pytest.mark.parametrize("n", BOUNDARY_LENGTHS)
def test_length_boundaries(n):
    ascii_esc = ("a%41%zz+ /~%"[i % 12] for i in range(n))
    s = "".join(ascii_esc)
    mixed = "".join("ab%C3\u00e9%A9+ \U0001f600"[i % 12] for i in range(n))
    for text in (s, mixed, "a" * n, "%" * n, "%41" * (n // 3) + "%4"[: n % 3], "\u00e9" * n):
        same("quote", text)
        same("quote_plus", text)
        same("unquote", text)
        same("unquote", text, "latin-1")
        same("unquote_plus", text)
        same("unquote_to_bytes", text)
        b = text.encode("utf-8")
        same("quote_from_bytes", b)
        same("unquote_to_bytes", b)
        same("unquote", b)


def test_safe_sets_are_not_stale():
    """A safe set remembered from one call must not leak into the next."""
    ba = bytearray(b"/")
    same("quote", "a/b:c", ba)
    ba[0] = ord(":")
    same("quote", "a/b:c", ba)
    lst = [47]
    same("quote", "a/b:c", lst)
    lst.append(58)
    same("quote", "a/b:c", lst)
    for safe in ("/", ":", "/", b"/", b":", "", b"", "/", None):
        same("quote", "a/b:c d", safe)
        same("quote_plus", "a/b:c d", safe)
        same("quote_from_bytes", b"a/b:c d", safe)
    s1 = "".join(["/", ":"])
    s2 = "".join(["/", ":"])
    same("quote", "a/b:c", s1)
    del s1
    same("quote", "a/b:c", s2)
    same("quote", "a/b:c", "".join(["?"]))


def test_custom_codec_error_handlers():
    import codecs

    def handler(exc):
        return ("<%d-%d>" % (exc.start, exc.end), exc.end)

    codecs.register_error("pctcodec_test_handler", handler)
    for s in ("\u4e2d x", "a\ud800b", "\u00e9 \U0001f600"):
        for enc in (None, "utf-8", "ascii", "latin-1"):
            same("quote", s, "", enc, "pctcodec_test_handler")
            same("quote_plus", s, "", enc, "pctcodec_test_handler")
    for s in ("%FF%41", "%E4%B8 \u00e9%C3", "+%ED%A0%80+", b"%FF%41"):
        for enc in (None, "utf-8", "ascii", "utf-16"):
            same("unquote", s, enc, "pctcodec_test_handler")
            same("unquote_plus", s, enc, "pctcodec_test_handler")
    same("urlencode", {"\u4e2d": b"\xff", "k": "\ud800"}, encoding="ascii", errors="pctcodec_test_handler")
