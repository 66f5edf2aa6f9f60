"""encode/decode: the core on raw buffers, checked against urllib.parse."""
import array
import mmap
import re
import urllib.parse

import pytest
from hypothesis import given
from hypothesis import strategies as st

import pctcodec

BYTES_LIKE = [bytes, bytearray, memoryview, lambda b: array.array("B", b)]
data = st.binary(max_size=300) | st.lists(
    st.sampled_from([b"%", b"%4", b"%zz", b"%41", b"%e4%B8", b"+", b" ", b"/", b"~", b"a", b"\xff"]),
    max_size=30,
).map(b"".join)
safe = st.sampled_from(["", "/", ":/?#[]@", "%", " ", b"/", b"+ ", bytearray(b"~/")])


@given(data, safe, st.booleans())
def test_encode_matches_urllib_quoting(b, safe, plus):
    quoted = urllib.parse.quote_plus(b, safe) if plus else urllib.parse.quote_from_bytes(b, safe)
    assert pctcodec.encode(b, safe, plus) == quoted.encode("ascii")


@pytest.mark.parametrize("safe, what", [
    ("\u00e9/", "character U+00E9 at index 0"),
    ("/\u4e2d", "character U+4E2D at index 1"),
    ("/:\U0001f600", "character U+1F600 at index 2"),
    (b"/\xe9", "byte 0xE9 at index 1"),
    (bytearray(b"\xff"), "byte 0xFF at index 0"),
])
def test_encode_refuses_a_non_ascii_safe(safe, what):
    # encode's result is ASCII: a non-ASCII byte in `safe` cannot be kept, and
    # is an error rather than ignored. quote_from_bytes (a drop-in) ignores it
    # as urllib does, on every CPython 3.9-3.13.
    with pytest.raises(ValueError, match=re.escape("'safe' holds the non-ASCII %s:" % what)):
        pctcodec.encode(b"a\xe9/", safe=safe)
    with pytest.raises(ValueError):
        pctcodec.encode(b"", safe=safe, plus=True)
    assert pctcodec.quote_from_bytes(b"a\xe9/", safe=safe) == urllib.parse.quote_from_bytes(b"a\xe9/", safe=safe)


@given(data, st.booleans())
def test_decode_matches_urllib_unquoting(b, plus):
    want = urllib.parse.unquote_to_bytes(b.replace(b"+", b" ") if plus else b)
    assert pctcodec.decode(b, plus) == want
    assert type(pctcodec.decode(b, plus)) is bytes


@given(st.binary(max_size=300), st.booleans())
def test_round_trip(b, plus):
    assert pctcodec.decode(pctcodec.encode(b, plus=plus), plus=plus) == b


@pytest.mark.parametrize("kind", BYTES_LIKE)
def test_any_bytes_like(kind):
    raw = b"a b/%41\xff"
    assert pctcodec.encode(kind(raw)) == b"a%20b%2F%2541%FF"
    assert pctcodec.encode(kind(raw), safe="/%", plus=True) == b"a+b/%41%FF"
    assert pctcodec.decode(kind(raw)) == b"a b/A\xff"


def test_mmap_and_noncontiguous():
    with mmap.mmap(-1, 6) as m:
        m[:] = b"x%20y+"
        assert pctcodec.decode(m, plus=True) == b"x y "
    strided = memoryview(b"a%b2")[::2]
    with pytest.raises(BufferError):
        pctcodec.encode(strided)


@pytest.mark.parametrize("bad", ["text", 5, None, [1, 2]])
def test_rejects_non_buffers(bad):
    with pytest.raises(TypeError):
        pctcodec.encode(bad)
    with pytest.raises(TypeError):
        pctcodec.decode(bad)


@pytest.mark.parametrize("safe", [None, [32], 32, memoryview(b" ")])
def test_safe_must_be_str_or_bytes(safe):
    with pytest.raises(TypeError, match="safe"):
        pctcodec.encode(b"x", safe=safe)


def test_argument_errors():
    with pytest.raises(TypeError):
        pctcodec.encode(b"x", nope=1)
    with pytest.raises(TypeError):
        pctcodec.encode(b"x", b"", False, 1)
    with pytest.raises(TypeError):
        pctcodec.decode()
    assert pctcodec.encode(data=b"a b", safe=bytearray(b" ")) == b"a b"
    assert pctcodec.encode(b"a b", safe=" ", plus=True) == b"a+b"
