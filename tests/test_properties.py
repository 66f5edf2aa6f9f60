"""Properties of pctcodec's own functions (no comparison with urllib here)."""
import string as _string

from hypothesis import given
from hypothesis import strategies as st

import pctcodec
from _strategies import clean_texts, texts

UNRESERVED = set(_string.ascii_letters + _string.digits + "-._~")
HEX_UPPER = set("0123456789ABCDEF")

# Safe sets without '%' (and, for the *_plus round trips, without '+').
safe_no_pct = st.text(st.characters(max_codepoint=0x10FFFF), max_size=6).map(lambda s: s.replace("%", ""))
safe_no_pct_plus = safe_no_pct.map(lambda s: s.replace("+", ""))


def _is_surrogate_free(s):
    return not any("\ud800" <= c <= "\udfff" for c in s)


def check_alphabet(out, safe, plus=False):
    """out must consist of unreserved chars, ASCII chars of safe, '+' (for
    quote_plus, in place of spaces) and %XX escapes with uppercase hex; when
    '%' is not safe, no escape may encode a byte that is kept as it is."""
    assert type(out) is str
    kept = UNRESERVED | {c for c in safe if ord(c) < 128}
    shown = set(kept)
    if plus:
        kept.add(" ")
        shown.discard(" ")
        shown.add("+")
    i = 0
    while i < len(out):
        c = out[i]
        if c == "%" and i + 2 < len(out) and out[i + 1] in HEX_UPPER and out[i + 2] in HEX_UPPER:
            byte = int(out[i + 1:i + 3], 16)
            if "%" not in safe:
                assert chr(byte) not in kept, (out, safe)
            i += 3
            continue
        assert c in shown, (c, out, safe)
        i += 1


@given(clean_texts, safe_no_pct)
def test_quote_round_trip(s, safe):
    assert pctcodec.unquote(pctcodec.quote(s, safe=safe)) == s
    assert pctcodec.unquote(pctcodec.quote(s, safe)) == s


@given(clean_texts, safe_no_pct_plus)
def test_quote_plus_round_trip(s, safe):
    assert pctcodec.unquote_plus(pctcodec.quote_plus(s, safe=safe)) == s


@given(st.binary(max_size=64), st.binary(max_size=6).map(lambda b: b.replace(b"%", b"")))
def test_bytes_round_trip(b, safe):
    assert pctcodec.unquote_to_bytes(pctcodec.quote_from_bytes(b)) == b
    assert pctcodec.unquote_to_bytes(pctcodec.quote_from_bytes(b, safe)) == b
    assert pctcodec.unquote_to_bytes(pctcodec.quote(b, safe)) == b


@given(clean_texts, st.sampled_from(["utf-8", "latin-1", "utf-16", "cp1252"]))
def test_quote_is_quote_from_bytes_of_encoding(s, encoding):
    try:
        encoded = s.encode(encoding)
    except UnicodeEncodeError:
        return
    if not s:  # quote('') is '' whatever the encoding (no BOM)
        assert pctcodec.quote(s, encoding=encoding) == ""
        return
    assert pctcodec.quote(s, encoding=encoding) == pctcodec.quote_from_bytes(encoded)
    assert pctcodec.unquote(pctcodec.quote(s, encoding=encoding), encoding=encoding) == s


@given(clean_texts)
def test_unquote_to_bytes_of_quote_is_utf8(s):
    assert pctcodec.unquote_to_bytes(pctcodec.quote(s)) == s.encode("utf-8")


@given(texts, st.text(max_size=6))
def test_quote_output_alphabet(s, safe):
    try:
        out = pctcodec.quote(s, safe, errors="surrogatepass")
    except UnicodeEncodeError:  # pragma: no cover - surrogatepass encodes all
        raise
    check_alphabet(out, safe)
    assert out.isascii()


@given(texts, st.text(max_size=6))
def test_quote_plus_output_alphabet(s, safe):
    out = pctcodec.quote_plus(s, safe, errors="surrogatepass")
    check_alphabet(out, safe, plus=True)
    assert " " not in out


@given(st.binary(max_size=64), st.one_of(st.text(max_size=6), st.binary(max_size=6)))
def test_quote_from_bytes_output_alphabet(b, safe):
    out = pctcodec.quote_from_bytes(b, safe)
    safe_chars = safe if isinstance(safe, str) else safe.decode("latin-1")
    check_alphabet(out, safe_chars)


@given(texts.map(lambda s: s.replace("%", "")))
def test_unquote_without_percent_is_identity(s):
    assert pctcodec.unquote(s) == s
    assert pctcodec.unquote(pctcodec.unquote(s)) == s
    assert pctcodec.unquote_plus(s) == s.replace("+", " ")
    if _is_surrogate_free(s):
        assert pctcodec.unquote_to_bytes(s) == s.encode("utf-8")


@given(texts)
def test_unquote_is_idempotent_once_no_percent_left(s):
    once = pctcodec.unquote(s)
    if "%" not in once:
        assert pctcodec.unquote(once) == once


safe_chars = st.text(st.characters(max_codepoint=0x7F), max_size=6)


@given(safe_chars, st.data())
def test_quote_of_safe_string_is_unchanged(safe, data):
    alphabet = sorted(UNRESERVED | set(safe))
    s = data.draw(st.text(st.sampled_from(alphabet), max_size=40))
    assert pctcodec.quote(s, safe) == s
    assert type(pctcodec.quote(s, safe)) is str
    assert pctcodec.quote_from_bytes(s.encode("ascii"), safe) == s
    if " " not in s:
        assert pctcodec.quote_plus(s, safe) == s


@given(st.text(st.sampled_from(sorted(UNRESERVED)), max_size=40))
def test_unreserved_is_never_quoted(s):
    for safe in ("", "/", b"", []):
        assert pctcodec.quote(s, safe) == s
        assert pctcodec.quote_plus(s, safe) == s


@given(st.binary(max_size=40))
def test_every_escape_decodes(b):
    out = pctcodec.quote_from_bytes(b, "")
    assert len(out) == sum(1 if chr(x) in UNRESERVED else 3 for x in b)
