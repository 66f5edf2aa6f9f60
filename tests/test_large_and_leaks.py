"""Multi-megabyte inputs, and no memory or reference leaks over many calls."""
import gc
import random
import sys

import pytest

import pctcodec
from _diff import same

CHUNKS = [
    "abc", "path/to/file", " ", "+", "%", "%41", "%zz", "~", "-_.", "?a=b&c=d",
    "\u00e9", "\u00fc\u00df", "\u4e2d\u6587", "\U0001f600", "\x00", "\x7f", "\t\n",
]


def _big_text(n_chars, seed):
    rnd = random.Random(seed)
    parts, size = [], 0
    while size < n_chars:
        c = rnd.choice(CHUNKS)
        parts.append(c)
        size += len(c)
    return "".join(parts)


@pytest.fixture(scope="module")
def big():
    return _big_text(3 * 1024 * 1024, 1234)


def test_large_quote(big):
    same("quote", big)
    same("quote_plus", big, "/")


def test_large_quote_from_bytes(big):
    b = big.encode("utf-8")
    assert len(b) > 3 * 1024 * 1024
    same("quote_from_bytes", b)
    same("quote_from_bytes", bytearray(b), b"%+ ")


def test_large_unquote(big):
    part = big[: 1024 * 1024]
    escaped = pctcodec.quote(part)
    assert len(escaped) > 2 * 1024 * 1024
    same("unquote", escaped)
    same("unquote_to_bytes", escaped)
    same("unquote_plus", pctcodec.quote_plus(part, "/"))
    # Raw (unescaped) text with stray escapes, invalid sequences and non-ASCII.
    same("unquote", big)
    same("unquote", part, "latin-1", "strict")
    same("unquote_plus", part)
    same("unquote_to_bytes", big.encode("utf-8"))


def test_large_safe_only_and_unescaped():
    s = "a" * (3 * 1024 * 1024)
    same("quote", s)
    same("unquote", s)
    same("unquote_to_bytes", s)
    same("quote", "%" * (1024 * 1024))
    same("unquote", "%" * (1024 * 1024))
    same("unquote", "%E4%B8" * 200000)


def test_large_urlencode(big):
    q = [(big[i:i + 100], big[i + 100:i + 300]) for i in range(0, 300000, 300)]
    same("urlencode", q)
    same("urlencode", {"k": [big[:100000], big[100000:200000].encode("utf-8", "surrogatepass")]}, True)


# --- leaks --------------------------------------------------------------------

ITERATIONS = 20000
BLOCK_SLACK = 300


class _StrSub(str):
    pass


def _fresh(s):
    """A non-interned, non-immortal copy of s (so its refcount is meaningful)."""
    return "".join(list(s)) if isinstance(s, str) else bytes(bytearray(s))


def _leak_cases():
    f = _fresh
    ok = [
        ("quote", (f("a b/c\u00e9\U0001f600%"),), {}),
        ("quote", (f("abc"), f("/:")), {}),
        ("quote", (f(""),), {}),
        ("quote", (f("x\u4e2d"), [47, 58], "latin-1", "xmlcharrefreplace"), {}),
        ("quote", (f(b"a b\xff"), bytearray(b"/")), {}),
        ("quote", (_StrSub(f("a b")),), {"safe": f(b"")}),
        ("quote_plus", (f("a b+c/d\u00e9"),), {}),
        ("quote_plus", (f(b"a b"), f("+")), {}),
        ("quote_from_bytes", (f(b"a b\x00\xff"),), {}),
        ("quote_from_bytes", (bytearray(b"abc/"), f("/")), {}),
        ("unquote", (f("a%41%e4%b8%ad%zz%\u00e9+"),), {}),
        ("unquote", (f("abc"),), {}),
        ("unquote", (f("%FF%41"), f("latin-1"), f("strict")), {}),
        ("unquote", (f(b"a%41%FF"),), {}),
        ("unquote", (_StrSub(f("a%41")),), {}),
        ("unquote_plus", (f("a+b%2B%20"),), {}),
        ("unquote_to_bytes", (f("a%41%zz\u00e9"),), {}),
        ("unquote_to_bytes", (bytearray(b"a%41"),), {}),
        ("unquote_to_bytes", (f(b"abc"),), {}),
        ("urlencode", ({f("a b"): [f("c"), f(b"d\xff"), 5]}, True), {}),
        ("urlencode", ([(f("k"), f("v \u00e9"))],), {"safe": f("/")}),
    ]
    bad = [
        ("quote", (f("\ud800"),), {}),                                # UnicodeEncodeError
        ("quote", (f("abc"),), {"encoding": f("bogus-codec")}),       # LookupError
        ("quote", (f("abc"),), {"encoding": 123}),                    # TypeError
        ("quote", (f("abc"), [-1]), {}),                              # ValueError
        ("quote", (f("abc"), [f("/")]), {}),                          # TypeError in safe
        ("quote", (f(b"abc"),), {"encoding": f("utf-8")}),            # TypeError
        ("quote", (None,), {}),
        ("quote", (f("a"),), {"bogus": 1}),
        ("quote_plus", (f("a b"), None), {}),
        ("quote_from_bytes", (f("abc"),), {}),
        ("quote_from_bytes", (memoryview(b"abc"),), {}),
        ("unquote", (f("%FF"), f("utf-8"), f("strict")), {}),         # UnicodeDecodeError
        ("unquote", (f("%41"), f("bogus-codec")), {}),
        ("unquote", (f("%41"), f("utf-8"), f("xmlcharrefreplace")), {}),
        ("unquote", (bytearray(b"%41"),), {}),
        ("unquote", (5,), {}),
        ("unquote_plus", (f(b"a+b"),), {}),
        ("unquote_to_bytes", (5,), {}),
        ("unquote_to_bytes", (f("\ud800%41"),), {}),
        ("unquote_to_bytes", (memoryview(b"a%41"),), {}),
        ("urlencode", (f("abc"),), {}),
        ("urlencode", ([[f("a"), f("b")]],), {}),
        ("urlencode", ({f("a"): f("\ud800")},), {}),
    ]
    return ok + bad


def _refcounts(objs):
    return [sys.getrefcount(o) for o in objs]


@pytest.mark.parametrize("name", ["quote", "quote_plus", "quote_from_bytes", "unquote", "unquote_plus", "unquote_to_bytes", "urlencode"])
def test_no_leak(name):
    cases = [c for c in _leak_cases() if c[0] == name]
    assert cases
    func = getattr(pctcodec, name)
    calls = [(a, k) for _, a, k in cases]
    watched = [o for a, k in calls for o in list(a) + list(k.values())]
    watched = [o for o in watched if isinstance(o, (str, bytes, bytearray, list, dict, memoryview))]

    def run(n):
        # Whole rounds, so every run ends on the same case (a remembered
        # `safe` then holds the same reference before and after).
        for _ in range(max(1, n // len(calls))):
            for args, kwargs in calls:
                try:
                    func(*args, **kwargs)
                except Exception:
                    pass

    run(2000)  # warm up caches, free lists, lazily built tables
    gc.collect()
    refs_before = _refcounts(watched)
    blocks_before = sys.getallocatedblocks()
    run(ITERATIONS)
    gc.collect()
    blocks_after = sys.getallocatedblocks()
    refs_after = _refcounts(watched)
    grown = blocks_after - blocks_before
    assert grown < BLOCK_SLACK, "%s: %d memory blocks more after %d calls" % (name, grown, ITERATIONS)
    leaked = [
        (repr(o)[:60], b, a) for o, b, a in zip(watched, refs_before, refs_after) if a != b
    ]
    assert not leaked, "%s: reference counts of arguments changed: %r" % (name, leaked)
