"""Multi-megabyte inputs give urllib's results (leaks: tests/test_leaks.py)."""
import random

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
