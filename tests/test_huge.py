"""Inputs of hundreds of MB: the right result, or MemoryError.

Each input is one short unit repeated; every function under test treats the
units independently, so the result is the unit's expected result repeated.
That is checked without building it: the length, the number of times the
expected unit occurs, and the units at sampled offsets.

PCTCODEC_HUGE_MB sets the input size (default 300; 0 skips these tests).
The tests also skip when the machine has too little memory available for
input, output and scratch buffers at once (about 8 times the input).
"""
import os
import random
import urllib.parse

import pytest

import pctcodec

MB = int(os.environ.get("PCTCODEC_HUGE_MB", "300"))
SAMPLES = 64


def _available_bytes():
    try:
        with open("/proc/meminfo") as f:
            for line in f:
                if line.startswith("MemAvailable:"):
                    return int(line.split()[1]) * 1024
    except OSError:
        pass
    return None


_avail = _available_bytes()
pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(MB <= 0, reason="PCTCODEC_HUGE_MB=0"),
    pytest.mark.skipif(_avail is None or _avail < 8 * MB * 2**20,
                       reason="needs about %d MB of available memory" % (8 * MB)),
]


def _repeat(unit):
    return unit * (MB * 2**20 // len(unit))


def _check_repeated(result, head, unit, count):
    """result == head + unit * count, checked without building the right side."""
    assert len(result) == len(head) + len(unit) * count
    assert result.startswith(head)
    assert result.count(unit, len(head)) == count
    rnd = random.Random(len(result))
    for i in [0, count - 1] + [rnd.randrange(count) for _ in range(SAMPLES)]:
        start = len(head) + i * len(unit)
        assert result[start:start + len(unit)] == unit, "unit %d of %d" % (i, count)


def _or_memory_error(func, *args, **kwargs):
    try:
        return func(*args, **kwargs)
    except MemoryError:
        pytest.skip("MemoryError on %s of %d MB (an allowed outcome)" % (func.__name__, MB))


@pytest.mark.parametrize("unit,safe", [("ab c/\u00e9~%", "/"), ("x\u4e2d?=&", ""), ("path/to/file-1.txt", "/")])
def test_huge_quote(unit, safe):
    text = _repeat(unit)
    out = _or_memory_error(pctcodec.quote, text, safe)
    _check_repeated(out, "", urllib.parse.quote(unit, safe), len(text) // len(unit))


def test_huge_quote_plus_bytes():
    data = _repeat(b"a b+\xff/")
    out = _or_memory_error(pctcodec.quote_plus, data)
    _check_repeated(out, "", urllib.parse.quote_plus(b"a b+\xff/"), len(data) // 6)


def test_huge_unquote():
    unit = "%41b%C3%A9+%zz/"
    text = _repeat(unit)
    out = _or_memory_error(pctcodec.unquote, text)
    _check_repeated(out, "", urllib.parse.unquote(unit), len(text) // len(unit))
    out = _or_memory_error(pctcodec.unquote_to_bytes, text)
    _check_repeated(out, b"", urllib.parse.unquote_to_bytes(unit), len(text) // len(unit))


def test_huge_encode_decode():
    unit = b"a b\xff%/"
    data = _repeat(unit)
    out = _or_memory_error(pctcodec.encode, data)
    expected_unit = urllib.parse.quote_from_bytes(unit, safe="").encode("ascii")
    _check_repeated(out, b"", expected_unit, len(data) // len(unit))
    del data
    back = _or_memory_error(pctcodec.decode, out)
    _check_repeated(back, b"", unit, len(out) // len(expected_unit))


def test_huge_requote():
    text = _repeat("a b%zz%41/\u00e9")
    out = _or_memory_error(pctcodec.requote, text)
    _check_repeated(out, "", "a%20b%25zz%41/%C3%A9", len(text) // 11)


def test_huge_normalize():
    head = "HTTP://Example.COM:80/"
    unit = "a/./b/../c%7e%2f/"
    path = _repeat(unit)
    out = _or_memory_error(pctcodec.normalize, head + path)
    # scheme and host in lowercase, the default port dropped, "./" and "b/../"
    # removed, %7e decoded to "~", %2f kept in uppercase
    _check_repeated(out, "http://example.com/", "a/c~%2F/", len(path) // len(unit))
