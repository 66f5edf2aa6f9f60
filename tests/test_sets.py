"""Tests of pctcodec.sets: RFC 3986 and WHATWG safe sets for quote()."""
import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

import _testdata
import pctcodec
from pctcodec import sets


ALWAYS_SAFE = set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_.-~")

# --- independent transcription of the definitions --------------------------
# RFC 3986 section 2.2, 2.3 and the section 3 grammar, as sets of characters
# a component may hold unescaped.
RFC_UNRESERVED = set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")
RFC_GEN = set(":/?#[]@")
RFC_SUB = set("!$&'()*+,;=")
RFC_PCHAR = RFC_UNRESERVED | RFC_SUB | {":", "@"}
RFC_ALLOWED = {
    "PATH_SEGMENT": RFC_PCHAR,
    "PATH": RFC_PCHAR | {"/"},
    "QUERY": RFC_PCHAR | {"/", "?"},
    "FRAGMENT": RFC_PCHAR | {"/", "?"},
    "USERINFO": RFC_UNRESERVED | RFC_SUB | {":"},
    "SUB_DELIMS": RFC_UNRESERVED | RFC_SUB,
    "GEN_DELIMS": RFC_UNRESERVED | RFC_GEN,
    "RESERVED": RFC_UNRESERVED | RFC_GEN | RFC_SUB,
    "UNRESERVED": RFC_UNRESERVED,
}

# URL Standard, "Percent-encoded bytes": the code points each set ENCODES,
# restricted to ASCII (every set holds all code points above U+007E).
def _cps(*items):
    out = set()
    for item in items:
        if isinstance(item, tuple):
            out.update(range(item[0], item[1] + 1))
        else:
            out.add(item)
    return out


C0_CONTROL = _cps((0x00, 0x1F), 0x7F)
FRAGMENT_SET = C0_CONTROL | _cps(0x20, 0x22, 0x3C, 0x3E, 0x60)
QUERY_SET = C0_CONTROL | _cps(0x20, 0x22, 0x23, 0x3C, 0x3E)
SPECIAL_QUERY_SET = QUERY_SET | _cps(0x27)
PATH_SET = QUERY_SET | _cps(0x3F, 0x5E, 0x60, 0x7B, 0x7D)
USERINFO_SET = PATH_SET | _cps(0x2F, 0x3A, 0x3B, 0x3D, 0x40, (0x5B, 0x5D), 0x7C)
COMPONENT_SET = USERINFO_SET | _cps((0x24, 0x26), 0x2B, 0x2C)
FORM_SET = COMPONENT_SET | _cps(0x21, (0x27, 0x29), 0x7E)

WHATWG_ENCODE = {
    "WHATWG_FRAGMENT": FRAGMENT_SET,
    "WHATWG_QUERY": QUERY_SET,
    "WHATWG_SPECIAL_QUERY": SPECIAL_QUERY_SET,
    "WHATWG_PATH": PATH_SET,
    "WHATWG_USERINFO": USERINFO_SET,
    "WHATWG_COMPONENT": COMPONENT_SET,
    "WHATWG_FORM": FORM_SET,
}
# quote() cannot escape '~'; the form set is the only one that contains it.
CANNOT_ESCAPE = {"WHATWG_FORM": {0x7E}}

ALL_NAMES = sorted(RFC_ALLOWED) + sorted(WHATWG_ENCODE)


def test_all_exports_are_strings():
    assert sorted(sets.__all__) == sorted(ALL_NAMES)
    for name in sets.__all__:
        value = getattr(sets, name)
        assert type(value) is str
        assert value.isascii() and value.isprintable()
        assert len(set(value)) == len(value), name


def test_rfc_relations():
    assert set(sets.RESERVED) == set(sets.GEN_DELIMS) | set(sets.SUB_DELIMS)
    assert not set(sets.GEN_DELIMS) & set(sets.SUB_DELIMS)
    assert set(sets.UNRESERVED) == ALWAYS_SAFE
    assert sets.QUERY == sets.FRAGMENT


def test_whatwg_sets_nest():
    # Each set in the standard extends the previous one, so each safe string
    # is a subset of the previous one.
    chain = ["WHATWG_QUERY", "WHATWG_SPECIAL_QUERY"]
    chain2 = ["WHATWG_QUERY", "WHATWG_PATH", "WHATWG_USERINFO", "WHATWG_COMPONENT", "WHATWG_FORM"]
    for seq in (chain, chain2):
        for a, b in zip(seq, seq[1:]):
            assert set(getattr(sets, b)) <= set(getattr(sets, a)), (a, b)


@pytest.mark.parametrize("name", sorted(RFC_ALLOWED))
def test_rfc_set_every_ascii_char(name):
    safe = getattr(sets, name)
    allowed = RFC_ALLOWED[name]
    for cp in range(128):
        ch = chr(cp)
        out = pctcodec.quote(ch, safe=safe)
        if ch in allowed:
            assert out == ch, (name, ch)
        else:
            assert out == "%%%02X" % cp, (name, ch)
    # '%' in data is data.
    assert pctcodec.quote("%41", safe=safe) == "%2541"


@pytest.mark.parametrize("name", sorted(WHATWG_ENCODE))
def test_whatwg_set_every_ascii_char(name):
    safe = getattr(sets, name)
    encode = WHATWG_ENCODE[name]
    unreachable = CANNOT_ESCAPE.get(name, set())
    for cp in range(128):
        ch = chr(cp)
        out = pctcodec.quote(ch, safe=safe)
        if cp in encode and cp not in unreachable:
            assert out == "%%%02X" % cp, (name, ch)
        else:
            assert out == ch, (name, ch)


@pytest.mark.parametrize("name", sorted(WHATWG_ENCODE))
def test_whatwg_set_non_ascii(name):
    safe = getattr(sets, name)
    for ch in ["\x80", "\xa0", "\xff", "\u0100", "\u2020", "\ufeff", "\U0001f600", "\U0010ffff"]:
        assert pctcodec.quote(ch, safe=safe) == "".join("%%%02X" % b for b in ch.encode())


def test_whatwg_percent_membership():
    # Only the component and form sets encode '%'.
    for name in WHATWG_ENCODE:
        assert ("%" in getattr(sets, name)) == (name not in ("WHATWG_COMPONENT", "WHATWG_FORM"))


def test_form_encoding():
    assert pctcodec.quote_plus("a b+c&d=e~*", safe=sets.WHATWG_FORM) == "a+b%2Bc%26d%3De~*"
    assert pctcodec.quote_plus("1+1 \u2261 2%20\u203d", safe=sets.WHATWG_FORM) == (
        "1%2B1+%E2%89%A1+2%2520%E2%80%BD"
    )


def test_spec_examples():
    # URL Standard 1.3 summary table (UTF-8 rows).
    assert pctcodec.quote("\u2261", safe=sets.WHATWG_USERINFO) == "%E2%89%A1"
    assert pctcodec.quote("\u203d", safe=sets.WHATWG_USERINFO) == "%E2%80%BD"
    assert pctcodec.quote("Say what\u203d", safe=sets.WHATWG_USERINFO) == "Say%20what%E2%80%BD"
    assert pctcodec.quote("a^b", safe=sets.WHATWG_PATH) == "a%5Eb"
    assert pctcodec.quote("a^b", safe=sets.WHATWG_QUERY) == "a^b"


# --- web-platform-tests vectors ------------------------------------------------

def _load(name):
    return _testdata.load_json("wpt", name) or []


needs_wpt = _testdata.needs("wpt", "percent-encoding.json")


PERCENT_ENCODING = [t for t in _load("percent-encoding.json") if isinstance(t, dict)]
URLENCODED = _load("urlencoded-parser-data.json")


@needs_wpt
def test_wpt_data_present():
    assert len(PERCENT_ENCODING) >= 7
    assert len(URLENCODED) >= 30


@needs_wpt
@pytest.mark.parametrize("case", PERCENT_ENCODING, ids=lambda c: ascii(c["input"]))
def test_wpt_percent_encoding(case):
    # WPT puts the input in https://doesnotmatter.invalid/?INPUT#INPUT: the
    # fragment uses the fragment set, the query of an https URL the
    # special-query set; both must give the utf-8 output.
    expected = case["output"]["utf-8"]
    assert pctcodec.quote(case["input"], safe=sets.WHATWG_FRAGMENT) == expected
    assert pctcodec.quote(case["input"], safe=sets.WHATWG_SPECIAL_QUERY) == expected
    if "'" not in case["input"]:
        assert pctcodec.quote(case["input"], safe=sets.WHATWG_QUERY) == expected


def _parse_urlencoded(s):
    # URL Standard 5.1 application/x-www-form-urlencoded parsing.
    pairs = []
    for piece in s.split("&"):
        if not piece:
            continue
        name, _, value = piece.partition("=")
        pairs.append(
            [
                pctcodec.unquote_plus(name, errors="replace"),
                pctcodec.unquote_plus(value, errors="replace"),
            ]
        )
    return pairs


@needs_wpt
@pytest.mark.parametrize("case", URLENCODED, ids=lambda c: ascii(c["input"]))
def test_wpt_urlencoded_parser(case):
    assert _parse_urlencoded(case["input"]) == case["output"]


# --- properties -------------------------------------------------------------

_ESCAPE = re.compile("%[0-9A-F]{2}")
# Text strategies with few draws per example (the CI profile runs 1000).
_text = st.one_of(
    st.text(max_size=24),  # no surrogates by default
    st.text(
        st.sampled_from([chr(i) for i in range(0x80)] + ["\xe9", "\u4e2d", "\U0001f600"]),
        max_size=24,
    ),
)


@given(_text)
def test_quote_with_every_set(x):
    for name in ALL_NAMES:
        safe = getattr(sets, name)
        out = pctcodec.quote(x, safe=safe)
        # Everything outside the allowed alphabet belongs to a %XX escape.
        assert set(_ESCAPE.sub("", out)) <= ALWAYS_SAFE | set(safe), (name, out)
        if "%" not in safe:
            assert pctcodec.unquote(out) == x, name
        else:
            # Quoting what the URL parser already quoted changes nothing.
            assert pctcodec.quote(out, safe=safe) == out, name
    # Differential: a per-character encoder built from each WHATWG set.
    for name, encode in WHATWG_ENCODE.items():
        unreachable = CANNOT_ESCAPE.get(name, set())
        expected = []
        for ch in x:
            cp = ord(ch)
            if cp > 0x7E or (cp in encode and cp not in unreachable):
                expected.append("".join("%%%02X" % b for b in ch.encode()))
            else:
                expected.append(ch)
        assert pctcodec.quote(x, safe=getattr(sets, name)) == "".join(expected), name
