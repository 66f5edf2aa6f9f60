"""Tests of pctcodec.ecmascript against ECMA-262 examples and a spec model."""
import re

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from pctcodec import quote
from pctcodec._errors import PercentEncodingError
from pctcodec.ecmascript import (
    decode_uri,
    decode_uri_component,
    encode_uri,
    encode_uri_component,
    js_escape,
    js_unescape,
)

FUNCTIONS = [
    encode_uri,
    encode_uri_component,
    decode_uri,
    decode_uri_component,
    js_escape,
    js_unescape,
]

# --- a brute-force model, one UTF-16 code unit at a time ---------------------
# Follows ECMA-262 19.2.6.5 Encode / 19.2.6.6 Decode (and UTF-8 by hand,
# Table 64) and Annex B.2.1 escape / unescape, on lists of code units.
# Errors are ("error", unit index of the offending character / leading '%').

ALNUM = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"
URI_RESERVED = ";/?:@&=+$,"
URI_MARK = "-_.!~*'()"
URI_UNESCAPED = ALNUM + URI_MARK
ENCODE_URI_EXTRA = URI_RESERVED + URI_UNESCAPED + "#"
DECODE_URI_RESERVED = URI_RESERVED + "#"
HEX = "0123456789ABCDEFabcdef"
ESCAPE_UNESCAPED = ALNUM + "@*_+-./"


class ModelError(Exception):
    def __init__(self, position):
        self.position = position


def units(s):
    b = s.encode("utf-16-le", "surrogatepass")
    return [b[i] | (b[i + 1] << 8) for i in range(0, len(b), 2)]


def from_units(us):
    return b"".join(u.to_bytes(2, "little") for u in us).decode("utf-16-le", "surrogatepass")


def unit_index(s, i):
    return len(units(s[:i]))


def utf8(cp):
    if cp < 0x80:
        return [cp]
    if cp < 0x800:
        return [0xC0 | cp >> 6, 0x80 | cp & 0x3F]
    if cp < 0x10000:
        return [0xE0 | cp >> 12, 0x80 | cp >> 6 & 0x3F, 0x80 | cp & 0x3F]
    return [0xF0 | cp >> 18, 0x80 | cp >> 12 & 0x3F, 0x80 | cp >> 6 & 0x3F, 0x80 | cp & 0x3F]


def model_encode(us, unescaped):
    out = []
    k = 0
    while k < len(us):
        c = us[k]
        if c < 0x80 and chr(c) in unescaped:
            out.append(chr(c))
            k += 1
            continue
        if 0xDC00 <= c <= 0xDFFF:
            raise ModelError(k)
        if 0xD800 <= c <= 0xDBFF:
            if k + 1 >= len(us) or not 0xDC00 <= us[k + 1] <= 0xDFFF:
                raise ModelError(k)
            cp = 0x10000 + ((c - 0xD800) << 10) + (us[k + 1] - 0xDC00)
            k += 2
        else:
            cp = c
            k += 1
        out.extend("%%%02X" % b for b in utf8(cp))
    return "".join(out)


def utf8_decode(octets):
    # Returns the code point, or None when the octets are not the valid UTF-8
    # encoding of one code point.
    n = len(octets)
    lead = octets[0]
    if any(b & 0xC0 != 0x80 for b in octets[1:]):
        return None
    cp = lead & (0x7F >> n)
    for b in octets[1:]:
        cp = cp << 6 | b & 0x3F
    if cp < (0, 0, 0x80, 0x800, 0x10000)[n] or cp > 0x10FFFF or 0xD800 <= cp <= 0xDFFF:
        return None
    return cp


def model_decode(us, reserved):
    def is_hex(i):
        return i < len(us) and us[i] < 0x80 and chr(us[i]) in HEX

    def byte_at(i):
        return int(chr(us[i]) + chr(us[i + 1]), 16)

    out = []
    k = 0
    n_units = len(us)
    while k < n_units:
        c = us[k]
        if c != 0x25:
            out.append(c)
            k += 1
            continue
        start = k
        if k + 2 >= n_units:
            raise ModelError(start)
        if not (is_hex(k + 1) and is_hex(k + 2)):
            raise ModelError(start)
        b = byte_at(k + 1)
        k += 2
        if b < 0x80:
            if chr(b) in reserved:
                out.extend(us[start : k + 1])
            else:
                out.append(b)
        else:
            n = 0
            while b << n & 0x80:
                n += 1
            if n == 1 or n > 4:
                raise ModelError(start)
            octets = [b]
            if k + 3 * (n - 1) >= n_units:
                raise ModelError(start)
            for _ in range(1, n):
                k += 1
                if us[k] != 0x25:
                    raise ModelError(start)
                if not (is_hex(k + 1) and is_hex(k + 2)):
                    raise ModelError(start)
                octets.append(byte_at(k + 1))
                k += 2
            cp = utf8_decode(octets)
            if cp is None:
                raise ModelError(start)
            out.extend(units(chr(cp)))
        k += 1
    return out


def model_escape(us):
    out = []
    for c in us:
        if c < 0x80 and chr(c) in ESCAPE_UNESCAPED:
            out.append(chr(c))
        elif c < 256:
            out.append("%%%02X" % c)
        else:
            out.append("%%u%04X" % c)
    return "".join(out)


def model_unescape(us):
    def hex_run(i, n):
        return i + n <= len(us) and all(u < 0x80 and chr(u) in HEX for u in us[i : i + n])

    out = []
    k = 0
    while k < len(us):
        c = us[k]
        if c == 0x25:
            if k + 6 <= len(us) and us[k + 1] == 0x75 and hex_run(k + 2, 4):
                c = int("".join(map(chr, us[k + 2 : k + 6])), 16)
                k += 5
            elif k + 3 <= len(us) and hex_run(k + 1, 2):
                c = int("".join(map(chr, us[k + 1 : k + 3])), 16)
                k += 2
        out.append(c)
        k += 1
    return out


# --- strategies -----------------------------------------------------------------
# Kept to few draws per example: the CI profile runs 1000 examples per test.

SURROGATES = ["\ud800", "\udbff", "\udc00", "\udfff", "\ud83d", "\ude00"]
ODD_CHARS = SURROGATES + [
    "\x80", "\xe9", "\xff", "\u0100", "\u4e2d", "\ufeff", "\uffff", "\U0001f600", "\U0010ffff",
]
clean_text = st.text(max_size=24)  # no surrogates by default
wild_text = st.one_of(
    st.text(st.characters(), max_size=24),
    st.text(st.sampled_from([chr(i) for i in range(0x80)] + ODD_CHARS), max_size=24),
)

# Pieces of percent-encoded text, good and bad; a string over a private
# alphabet is drawn and each of its characters expanded to one piece.
PIECES = sorted(
    set(
        [
            "%", "%%", "%4", "%G1", "%1g", "% 1", "%u", "%u12", "%U0041", "%uD83D%uDE00",
            "%uD83D", "%uDE00", "%ud83d", "%u20ac", "%u0041",
            "%2F", "%2f", "%23", "%3B", "%3b", "%40", "%2B", "%24", "%2C", "%3D", "%3F",
            "%3A", "%26", "%25", "%41", "%7e", "%00", "%7F",
            "%C0%80", "%C1%BF", "%E0%80%80", "%ED%A0%80", "%ED%BF%BF", "%ED%9F%BF",
            "%F0%80%80%80", "%F4%90%80%80", "%F4%8F%BF%BF", "%F8%88%80%80%80",
            "%E4%B8%AD", "%e4%b8%ad", "%E4%b8", "%F0%9F%98%80", "%f0%9f%98", "%C3%A9",
            "%c3", "%C3%41", "%80", "%BF", "%FE", "%FF",
            "a", "Z", "u", "0", "/", ";", "#", "+", " ", "\u4e2d", "\U0001f600",
        ]
        + SURROGATES
        + ["%%%02X" % b for b in range(0x80, 0x100, 5)]
        # boundary code points of the UTF-8 sequence lengths
        + ["%C2%80", "%DF%BF", "%E0%A0%80", "%EF%BF%BF", "%F0%90%80%80"]
    )
)
_BASE = 0x3000
_piece_text = st.text(
    st.characters(min_codepoint=_BASE, max_codepoint=_BASE + len(PIECES) - 1), max_size=12
).map(lambda s: "".join(PIECES[ord(c) - _BASE] for c in s))
_byte_escapes = st.binary(max_size=12).map(lambda b: "".join("%%%02X" % x for x in b))
encoded_text = st.one_of(_piece_text, _byte_escapes, wild_text)
_SURROGATE_PAIR = re.compile("[\ud800-\udbff][\udc00-\udfff]")


# --- known vectors ----------------------------------------------------------

def test_encode_vectors():
    assert encode_uri("https://mozilla.org/?x=\u0448\u0435\u043b\u043b\u044b") == (
        "https://mozilla.org/?x=%D1%88%D0%B5%D0%BB%D0%BB%D1%8B"
    )
    assert encode_uri_component("?x=test") == "%3Fx%3Dtest"
    assert encode_uri_component("?x=\u0448\u0435\u043b\u043b\u044b") == (
        "%3Fx%3D%D1%88%D0%B5%D0%BB%D0%BB%D1%8B"
    )
    assert encode_uri(";,/?:@&=+$#") == ";,/?:@&=+$#"
    assert encode_uri_component(";,/?:@&=+$#") == "%3B%2C%2F%3F%3A%40%26%3D%2B%24%23"
    assert encode_uri("-_.!~*'()") == "-_.!~*'()"
    assert encode_uri_component("-_.!~*'()") == "-_.!~*'()"
    assert encode_uri("ABC abc 123") == "ABC%20abc%20123"
    assert encode_uri("100%") == "100%25"
    assert encode_uri('[]{}|\\^`"<>') == "%5B%5D%7B%7D%7C%5C%5E%60%22%3C%3E"
    assert encode_uri("\x00\x7f\x80\xff") == "%00%7F%C2%80%C3%BF"
    assert encode_uri("\U0001f600") == "%F0%9F%98%80"
    assert encode_uri("\U0010ffff") == "%F4%8F%BF%BF"
    assert encode_uri("") == "" and encode_uri_component("") == ""


def test_encode_surrogates():
    # A pair of surrogate code points is the character it stands for.
    assert encode_uri("\ud83d\ude00") == "%F0%9F%98%80"
    assert encode_uri_component("a\ud800\udc00b") == "a%F0%90%80%80b"
    for s, pos in [
        ("\ud800", 0),
        ("\udfff", 0),
        ("ab\ud800", 2),
        ("ab\udc00\ud800", 2),
        ("\ud83d\ude00\ude00", 2),
        ("\U0001f600\ud800x", 1),
        ("x" * 100000 + "\udc00", 100000),
    ]:
        for f in (encode_uri, encode_uri_component):
            with pytest.raises(PercentEncodingError) as ei:
                f(s)
            assert ei.value.position == pos, (f, s[:8])
            assert isinstance(ei.value, ValueError)


def test_decode_vectors():
    assert decode_uri("%E4%B8%AD%2F") == "\u4e2d%2F"
    assert decode_uri_component("%E4%B8%AD%2F") == "\u4e2d/"
    assert decode_uri(
        "https://developer.mozilla.org/ru/docs/JavaScript_%D1%88%D0%B5%D0%BB%D0%BB%D1%8B"
    ) == "https://developer.mozilla.org/ru/docs/JavaScript_\u0448\u0435\u043b\u043b\u044b"
    assert decode_uri_component("JavaScript_%D1%88%D0%B5%D0%BB%D0%BB%D1%8B") == (
        "JavaScript_\u0448\u0435\u043b\u043b\u044b"
    )
    assert decode_uri("%3b%2F%3F%3A%40%26%3D%2B%24%2C%23") == "%3b%2F%3F%3A%40%26%3D%2B%24%2C%23"
    assert decode_uri_component("%3b%2F%3F%3A%40%26%3D%2B%24%2C%23") == ";/?:@&=+$,#"
    assert decode_uri("%25%20%41%5b") == "% A["
    assert decode_uri("%e4%b8%ad") == "\u4e2d"
    assert decode_uri_component("%F0%9F%98%80") == "\U0001f600"
    assert decode_uri_component("%F4%8F%BF%BF") == "\U0010ffff"
    assert decode_uri_component("%EF%BB%BF") == "\ufeff"
    assert decode_uri_component("+") == "+"
    assert decode_uri_component("\u4e2d\ud800%41\udc00") == "\u4e2d\ud800A\udc00"
    assert decode_uri_component("%2B") == "+"


@pytest.mark.parametrize(
    "s, pos",
    [
        ("%", 0),
        ("%4", 0),
        ("%G0", 0),
        ("ab%", 2),
        ("%41%", 3),
        ("%C0%80", 0),  # overlong
        ("%E0%80%80", 0),  # overlong
        ("%F0%80%80%80", 0),  # overlong
        ("%F4%90%80%80", 0),  # above U+10FFFF
        ("%ED%A0%80", 0),  # surrogate
        ("%ED%BF%BF", 0),  # surrogate
        ("%80", 0),  # continuation byte first
        ("%FF", 0),
        ("%F8%88%80%80%80", 0),
        ("x%C3", 1),  # incomplete
        ("x%C3x", 1),
        ("%C3%41", 0),  # not a continuation byte
        ("%E4%B8%ZZ", 0),  # bad escape inside a sequence
        ("%E4%B8%", 0),
        ("%E4%B8\u4e2d", 0),
        ("%41%C3%A9%C3", 9),
        ("%41%zz%C0", 3),
        ("%41%C0%zz", 3),
        pytest.param("y" * 100000 + "%C0%80", 100000, id="long"),
    ],
)
def test_decode_errors(s, pos):
    for f in (decode_uri, decode_uri_component):
        with pytest.raises(PercentEncodingError) as ei:
            f(s)
        assert ei.value.position == pos
        assert s[pos] == "%"
        assert str(ei.value).endswith("at position %d" % pos)


def test_escape_vectors():
    assert js_escape("\xe4\u20ac\U0001f600") == "%E4%u20AC%uD83D%uDE00"
    assert js_escape("abc123") == "abc123"
    assert js_escape("@*_+-./") == "@*_+-./"
    assert js_escape("\xe4\xf6\xfc") == "%E4%F6%FC"
    assert js_escape("\u0107") == "%u0107"
    assert js_escape(" ~!#$%&'()=:;,?[]") == "%20%7E%21%23%24%25%26%27%28%29%3D%3A%3B%2C%3F%5B%5D"
    assert js_escape("\x00\x7f\xff\u0100\uffff") == "%00%7F%FF%u0100%uFFFF"
    assert js_escape("\ud800") == "%uD800"
    assert js_escape("\ud83d\ude00") == "%uD83D%uDE00"
    assert js_escape("") == ""


def test_unescape_vectors():
    assert js_unescape("abc123") == "abc123"
    assert js_unescape("%E4%F6%FC") == "\xe4\xf6\xfc"
    assert js_unescape("%u0107") == "\u0107"
    assert js_unescape("%E4%u20AC%uD83D%uDE00") == "\xe4\u20ac\U0001f600"
    assert js_unescape("%e4%u20ac%ud83d%ude00") == "\xe4\u20ac\U0001f600"
    # Lone decoded surrogates stay lone; the pair must be adjacent and ordered.
    assert js_unescape("%uD83D") == "\ud83d"
    assert js_unescape("%uDE00%uD83D") == "\ude00\ud83d"
    assert js_unescape("%uD83Dx%uDE00") == "\ud83dx\ude00"
    assert js_unescape("%uD83D%uD83D%uDE00") == "\ud83d\U0001f600"
    # Malformed escapes are kept.
    for s in ["%", "%4", "%zz", "%u", "%u12", "%u12G4", "%U0041", "%%", "100%"]:
        assert js_unescape(s) == s
    assert js_unescape("%u12%41") == "%u12A"
    assert js_unescape("%%41") == "%A"
    # Literal characters, surrogates included, are untouched.
    assert js_unescape("\ud83d%41\ude00") == "\ud83dA\ude00"


@pytest.mark.parametrize("f", FUNCTIONS)
def test_type_errors(f):
    for bad in [b"abc", bytearray(b"%41"), None, 1, ["a"], memoryview(b"a")]:
        with pytest.raises(TypeError):
            f(bad)


@pytest.mark.parametrize("f", FUNCTIONS)
def test_str_subclass_gives_str(f):
    class S(str):
        pass

    for value in ["abc", "%41 b"]:
        out = f(S(value))
        assert type(out) is str


def test_fast_paths_return_input():
    s = "plain text \u4e2d \ud800"
    assert decode_uri(s) is s
    assert decode_uri_component(s) is s
    assert js_unescape(s) is s
    t = "abc@*_+-./"
    assert js_escape(t) is t


def test_component_matches_whatwg_component_set():
    # The URL Standard notes its component set reproduces encodeURIComponent.
    from pctcodec.sets import WHATWG_COMPONENT

    for cp in range(0x80):
        assert encode_uri_component(chr(cp)) == quote(chr(cp), safe=WHATWG_COMPONENT)


def test_every_ascii_char():
    # Each printable ASCII character against the spec's character classes.
    for cp in range(0x80):
        ch = chr(cp)
        hexed = "%%%02X" % cp
        assert encode_uri(ch) == (ch if ch in ENCODE_URI_EXTRA else hexed)
        assert encode_uri_component(ch) == (ch if ch in URI_UNESCAPED else hexed)
        assert js_escape(ch) == (ch if ch in ESCAPE_UNESCAPED else hexed)
        assert decode_uri_component(hexed) == ch
        assert decode_uri_component(hexed.lower()) == ch
        assert decode_uri(hexed) == (hexed if ch in DECODE_URI_RESERVED else ch)
        assert js_unescape(hexed.lower()) == ch
        assert js_unescape("%%u%04x" % cp) == ch


# --- properties --------------------------------------------------------------

@given(clean_text)
def test_roundtrip_uri(x):
    assert decode_uri_component(encode_uri_component(x)) == x
    assert decode_uri(encode_uri(x)) == x


@given(wild_text)
@example("\ud800\udc00")
@example("\udc00\ud800")
@example("\ud800\ud800\udc00")
def test_encoders_match_model(x):
    us = units(x)
    for f, unescaped in [(encode_uri, ENCODE_URI_EXTRA), (encode_uri_component, URI_UNESCAPED)]:
        try:
            expected = model_encode(us, unescaped)
        except ModelError as e:
            with pytest.raises(PercentEncodingError) as ei:
                f(x)
            assert unit_index(x, ei.value.position) == e.position
            assert 0xD800 <= ord(x[ei.value.position]) <= 0xDFFF
        else:
            assert f(x) == expected
    escaped = js_escape(x)
    assert escaped == model_escape(us)
    # js_escape sees UTF-16 code units, so a surrogate pair written as two
    # code points comes back as the one character it encodes.
    back = js_unescape(escaped)
    if _SURROGATE_PAIR.search(x) is None:
        assert back == x
    else:
        assert back == x.encode("utf-16-le", "surrogatepass").decode("utf-16-le", "surrogatepass")


@given(encoded_text)
@example("%41%C3%A9%C3")
@example("%E4%B8%ZZ")
def test_decoders_match_model(x):
    us = units(x)
    for f, reserved in [(decode_uri, DECODE_URI_RESERVED), (decode_uri_component, "")]:
        try:
            expected = model_decode(us, reserved)
        except ModelError as e:
            with pytest.raises(PercentEncodingError) as ei:
                f(x)
            assert x[ei.value.position] == "%"
            assert unit_index(x, ei.value.position) == e.position
            assert str(ei.value).endswith(" at position %d" % ei.value.position)
        else:
            out = f(x)
            # Compare as UTF-16 code units: that is what JavaScript sees.
            assert units(out) == expected
            if f is decode_uri:
                # No reserved character is ever produced by decoding.
                for r in DECODE_URI_RESERVED:
                    assert out.count(r) == x.count(r), r
    assert units(js_unescape(x)) == model_unescape(us)
