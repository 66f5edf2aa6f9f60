"""The one pass of the usual host (src/core/pct_idna.c, fast_to_ascii)
against UTS #46 step by step (_domain_to_ascii_full) on hosts with an
"xn--" label after a plain one.

The one pass decodes such a label and refuses the host at once when the
long way would fail on the label (its code points disallowed, mapped or
ignored, a leading mark, not NFC, a joiner out of place, the Bidi rule);
else the long way takes the host. Either way the form (or None) is the
long way's, and a batch row refused by the one pass fails with the same
error as one refused the long way.
"""
import itertools

from hypothesis import given, strategies as st

import pctcodec
from pctcodec import _pctcodec

# Code points of each kind the long way tells apart in a decoded label.
VALID = ["\u00e9", "\u00fc", "\u00df", "\u03c2", "\u4e2d", "\uac00", "\u0430", "\U00010428", "b", "7", "-"]
RTL = ["\u05d0", "\u0627", "\u0661", "\u06f1"]
DISALLOWED = ["\u0080", "\uffff", "\u0378", "\ue000", "\u202e", "\u06dd"]
MAPPED = ["\u00c4", "\u00c9", "\u2167", "\uff21", "\u0130", "\u00ad", "\u3002", "\ufe00"]
COMBINING = ["\u0301", "\u0323", "\u0308", "\u094d", "\u200c", "\u200d", "\u0dca", "\u0dcf"]
BASES = ["a", "\u0915", "\u0dd9", "\u0644"]
LETTERS = VALID + RTL + DISALLOWED + MAPPED + COMBINING + BASES

# A plain label before the "xn--" one (the one pass reaches it), LTR, RTL,
# or RTL and breaking the Bidi rule once another label is RTL; and labels
# after it.
BEFORE = ["\u00e4", "\u00e41", "1\u00e4", "\u05d0", "\u05d01", "a\u05d0", "\u0661\u06f1", "\u4e2d"]
AFTER = ["", ".com", ".\u05d0", ".\u00e9", ".\u00c9", ".a\u05d0", ".xn--a"]


def punycode(text):
    return text.encode("punycode").decode("ascii")


def same(host):
    fast, full = _pctcodec._domain_to_ascii(host), _pctcodec._domain_to_ascii_full(host)
    assert fast == full, (host, fast, full)
    return fast


def test_the_benchs_failed_row_and_its_neighbours():
    # "xn--a" decodes to U+0080 (disallowed)
    assert same("\u00e41.xn--a.example") is None
    assert same("\u00e41.XN--A.example") is None
    assert same("\u00e4.xn--bcher-kva.example") == "xn--4ca.xn--bcher-kva.example"
    assert same("\u00e4.XN--BCHER-KVA.example") == "xn--4ca.xn--bcher-kva.example"
    assert same("\u00e4.xn--%s.example" % punycode("\u00c4")) is None         # mapped
    assert same("\u00e4.xn--%s.example" % punycode("e\u0301")) is None        # not NFC
    assert same("\u00e4.xn--%s.example" % punycode("\u0301a")) is None        # a leading mark
    assert same("\u00e4.xn--%s.example" % punycode("a\u200d")) is None        # ZWJ, no virama
    assert same("\u00e4.xn--%s.in" % punycode("\u0915\u094d\u200d")) is not None
    assert same("\u00e4.xn--%s.example" % punycode("1\u00e9")) is not None
    assert same("\u05d0.xn--%s.example" % punycode("1\u00e9")) is None        # Bidi rule
    assert same("\u00e41.xn--%s.example" % punycode("\u05d0")) is not None
    assert same("\u05d01.xn--%s.example" % punycode("\u00e9")) is not None
    assert same("1\u00e4.xn--%s.example" % punycode("\u00e9")) is not None
    assert same("1\u00e4.xn--%s.example" % punycode("\u05d0")) is None        # Bidi rule (the label before)


def test_every_label_of_one_and_two_code_points():
    outcomes = set()
    for pair in itertools.chain(((c,) for c in LETTERS), itertools.product(LETTERS, repeat=2)):
        label = "".join(pair)
        if label.isascii():
            continue
        code = punycode(label)
        for before, after in ((BEFORE[len(code) % len(BEFORE)], AFTER[len(label) % len(AFTER)]),
                              ("\u00e4", ""), ("\u05d0", ".com")):
            for xn in ("xn--" + code, "XN--" + code.upper()):
                outcomes.add(same("%s.%s%s" % (before, xn, after)) is None)
    assert outcomes == {True, False}


@given(st.lists(st.sampled_from(LETTERS), min_size=1, max_size=8), st.sampled_from(BEFORE),
       st.sampled_from(AFTER), st.integers(0, 40), st.sampled_from("abkz059-"))
def test_punycode_labels_of_every_kind(letters, before, after, at, digit):
    code = punycode("".join(letters))
    same("%s.xn--%s%s" % (before, code, after))
    # a digit changed: other code points, or punycode that does not decode
    code = code[:at % len(code)] + digit + code[at % len(code) + 1:]
    same("%s.xn--%s%s" % (before, code, after))


def test_a_row_refused_by_the_one_pass_fails_as_one_refused_the_long_way():
    # "\u00c4" is mapped: its host takes the long way from the start; the
    # "\u00e4" host is refused at its "xn--" label by the one pass
    labels = ["a", "9ca32w", punycode("\u00c4"), punycode("e\u0301"), punycode("a\u200d")]
    for label in labels:
        rows = ["http://%s1.xn--%s.example/a" % (first, label) for first in ("\u00e4", "\u00c4")]
        for func in (pctcodec.registered_domain_many, pctcodec.public_suffix_many):
            rejects = []
            assert func(rows, on_error="null", rejects=rejects) == [None, None]
            assert [r.index for r in rejects] == [0, 1]
            (fast, full) = (str(r.error).replace(r.value[7:].split("/")[0], "HOST") for r in rejects)
            assert type(rejects[0].error) is type(rejects[1].error)
            assert fast == full
