"""Hosts the way browsers read them: the web-platform-tests "domain to ASCII"
vectors through normalize and iri_to_uri, the reference model against the
same vectors, and normalize as a total function over text."""
import unicodedata
import urllib.parse

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

import _testdata
import _uri_reference as ref
import _uts46_reference as uts46
import pctcodec
from pctcodec import _pctcodec

# The WPT vectors are read from the test data beside the repository
# (tests/_testdata.py); without them the tests that use them skip.
needs_wpt = _testdata.needs("wpt", "IdnaTestV2.json")


def _vectors():
    out = []
    for name in ("IdnaTestV2.json", "toascii.json"):
        out += [t for t in _testdata.load_json("wpt", name) or [] if isinstance(t, dict)]
    return out


def _is_surrogate(c):
    return 0xD800 <= ord(c) <= 0xDFFF


VECTORS = _vectors()
# A str with a lone surrogate has no UTF-8 form: PercentEncodingError, tested apart.
HOSTS = [t for t in VECTORS if not any(map(_is_surrogate, t["input"]))]
WITH_OUTPUT = [t for t in HOSTS if t["output"] is not None]
WITHOUT_OUTPUT = [t for t in HOSTS if t["output"] is None]


def _params(vectors):
    return [pytest.param(t, id=ascii(t["input"])[:60]) for t in vectors]


@needs_wpt
def test_vectors_present():
    assert len(WITH_OUTPUT) >= 1600 and len(WITHOUT_OUTPUT) >= 1100
    assert sum(not t["input"].isascii() for t in WITH_OUTPUT) >= 600


def _as_uri_host(output):
    # normalize writes the host's characters a reg-name may not hold ('{',
    # '"', ...; UseSTD3ASCIIRules is off) as escapes; letters are lowercase.
    return urllib.parse.quote(output, safe="!$&'()*+,;=-._~")


@needs_wpt
@pytest.mark.parametrize("case", _params(WITH_OUTPUT))
def test_wpt_host_with_output(case):
    host, expected = case["input"], "http://" + _as_uri_host(case["output"]) + "/"
    assert pctcodec.normalize("http://" + host + "/") == expected
    assert pctcodec.normalize("http://" + host + "/", strict_idna=True) == expected
    assert pctcodec.normalize(expected) == expected
    if not host.isascii():
        # ASCII hosts are written as they are by iri_to_uri: only case differs
        assert pctcodec.iri_to_uri("http://" + host + "/") == expected
        # %XX of its UTF-8 is the same host (escapes of reserved ASCII would not be)
        escaped = "".join(c if c.isascii() else urllib.parse.quote(c) for c in host)
        assert pctcodec.normalize("http://" + escaped + "/") == expected


def _splits_elsewhere(host):
    # ASCII delimiters end the host early: the rest is a path, port, ...
    return any(c in host for c in ":/?#@[")


@needs_wpt
@pytest.mark.parametrize("case", _params(WITHOUT_OUTPUT))
def test_wpt_host_without_output(case):
    host = case["input"]
    uri = "http://" + host + "/"
    out = pctcodec.normalize(uri)
    pctcodec.check(out)
    assert pctcodec.normalize(out) == out
    if _splits_elsewhere(host) or host.isascii():
        return  # ASCII hosts are never mapped: not validated, only lowercased
    # No ASCII form: the host as percent-encoded UTF-8, nothing lost.
    assert out == "http://" + ref.normalize_component(host, lower_letters=True) + "/"
    with pytest.raises(pctcodec.PercentEncodingError) as info:
        pctcodec.normalize(uri, strict_idna=True)
    assert info.value.position == len("http://")
    with pytest.raises(pctcodec.PercentEncodingError):
        pctcodec.iri_to_uri(uri, strict_idna=True)


@needs_wpt
@pytest.mark.parametrize("case", HOSTS, ids=lambda t: ascii(t["input"])[:60])
def test_reference_model_passes_the_vectors(case):
    # The model the differential tests compare with reads hosts as the vectors do.
    assert uts46.domain_to_ascii(case["input"]) == case["output"]


@needs_wpt
@pytest.mark.parametrize("case", [t for t in VECTORS if any(map(_is_surrogate, t["input"]))],
                         ids=lambda t: ascii(t["input"]))
def test_wpt_host_with_lone_surrogate(case):
    uri = "http://" + case["input"] + "/"
    with pytest.raises(pctcodec.PercentEncodingError) as info:
        pctcodec.normalize(uri)
    assert info.value.position == uri.index(next(filter(_is_surrogate, uri)))


# ---------------------------------------------------------------- total functions

_text = st.text(st.characters(blacklist_categories=("Cs",)), max_size=40)
_host_text = st.lists(st.one_of(st.characters(blacklist_categories=("Cs",)),
                                st.sampled_from(["%E4%BE%8B", "%C2%A0", "%41", "%2F", "%", ".", "xn--", "\u00a0",
                                                 "\u200d", "\u0661", "\ufe0f", "\U0001f600", "\u00df",
                                                 "\u0301", "[", ":8%30"])),
                      max_size=12).map("".join)


@given(st.one_of(_text, st.builds("http://{}/{}".format, _host_text, _text)))
@example("http://i\u2764\ufe0f.ws")
@example("http://bugs.kde.org\u00a0\u00a0Reporting\u00a0a\u00a0bug")
@example("http://\u00a3\u00a3\u00a3.com")
@example("http://\u0085/")
@example("http://a{\u4f8b.jp/")
@example('a://["A/')
@example('http://[v1.A"B]/')
@example("http://\U0001f600\".com/")
def test_never_raises_on_text(s):
    once = pctcodec.normalize(s)
    pctcodec.check(once)
    assert pctcodec.normalize(once) == once
    requoted = pctcodec.requote(s)
    pctcodec.check(requoted)
    pctcodec.check(pctcodec.iri_to_uri(s))
    assert pctcodec.equivalent(s, once)
    # requote changes the spelling, never what is named: also in the host
    # (whitespace it keeps as data, escaped: normalize then keeps it too)
    kept = pctcodec.normalize(s, strip_whitespace=False)
    assert pctcodec.normalize(requoted) == kept
    assert pctcodec.normalize(kept) == kept


@pytest.mark.parametrize("uri, want", [
    ("http://%E4%BE%8B.jp/", "http://xn--fsq.jp/"),
    ("http://u%41@%E4%BE%8B.jp/", "http://uA@xn--fsq.jp/"),     # an escape in the userinfo too
    ("http://u%41@ex.jp/", "http://uA@ex.jp/"),                 # only in the userinfo
    ("http://%E4%BE%8B.jp:8%30/", "http://xn--fsq.jp/"),        # and in the port
    ("http://ex.jp:8%30/p%41", "http://ex.jp/pA"),
    ("http://[fe80::1%25Eth0]/", "http://[fe80::1%25Eth0]/"),
    ("http://[FE80::1%Eth0]/", "http://[fe80::1%25Eth0]/"),   # a bare '%' starts the zone too
    ("http://[V1.A%22B]/", "http://[v1.a%22b]/"),              # another escape does not
])
def test_escaped_ascii_hosts_found_by_the_split(uri, want):
    # an ASCII str leaves C for a host only when the split saw a '%' in it
    assert pctcodec.normalize(uri) == want


# Arabic letters of Unicode 14 (U+0870, U+0886, U+08B5): a label starting
# with a digit and holding one breaks RFC 5893's first rule, so a browser has
# no ASCII form for it; a label starting with the letter is valid. The C
# mapping carries its own Unicode data: the same answers on every
# interpreter; the reference model reads this interpreter's.
@pytest.mark.parametrize("letter", ["\u0870", "\u0886", "\u08b5"])
def test_bidi_rule_with_unicode_14_letters(letter):
    assert pctcodec.iri_to_uri("//0" + letter) == "//0" + urllib.parse.quote(letter)
    assert pctcodec.normalize("http://a.0" + letter + "/") == "http://a.0" + urllib.parse.quote(letter) + "/"
    ascii_form = "xn--" + (letter + "0").encode("punycode").decode("ascii")
    assert pctcodec.normalize("http://" + letter + "0/") == "http://" + ascii_form + "/"
    if unicodedata.unidata_version >= "14":
        assert uts46.domain_to_ascii("0" + letter) is None
        assert uts46.domain_to_ascii(letter + "0") == ascii_form


# ---------------------------------------------------------------- punycode's cost

_CJK = st.text(st.characters(min_codepoint=0x4E00, max_codepoint=0x9FFF), min_size=1, max_size=80)


@given(st.lists(st.one_of(_CJK, st.text("abcxyz019-", max_size=5)), min_size=1, max_size=8))
def test_punycode_of_labels_equals_rfc3492(parts):
    label = "".join(parts)
    if all(c < "\x80" for c in label) or label.startswith("-") or label.endswith("-"):
        return
    want = "xn--" + label.encode("punycode").decode("ascii")
    assert pctcodec.normalize("http://%s.com/" % label) == "http://%s.com/" % want


# Non-ASCII letters that are their own UTS #46 mapping and NFC, of scripts
# written left to right (no Bidi rule to meet), 2, 3 and 4 bytes in UTF-8.
_LETTERS = "\u00e9\u00fc\u00df\u03b1\u03ac\u0430\u044f\u4e2d\u56fd\u3048\uac00\ud55c\U00010428" \
    "\u4e00\u4e8c\u4e09\u56db\u4e94\u516d\u4e03\u516b\u4e5d\u5341\u767e\u5343\u4e07"


@st.composite
def _few_distinct(draw):
    """A label of 1, 2, a few or many distinct non-ASCII code points, each
    repeated, among ASCII letters and digits (punycode's special case is a
    label of up to 16 non-ASCII code points)."""
    kinds = draw(st.sampled_from([1, 2, 3, 16, 17, len(_LETTERS)]))
    pool = draw(st.permutations(_LETTERS))[:kinds]
    chars = draw(st.lists(st.one_of(st.sampled_from(pool), st.sampled_from("ab9-")), min_size=1, max_size=60))
    label = "".join(chars).strip("-") or pool[0]
    return label if not label.isascii() else label + pool[0]


@given(_few_distinct(), st.sampled_from(["de", "\u4e2d\u56fd", "xn--fiqs8s"]))
def test_punycode_of_few_distinct_code_points_equals_python_codec(label, tld):
    # Python's own codec is the model; the C encoder has a special case for
    # few non-ASCII code points, used by the one-pass host and the long way
    want = "xn--" + label.encode("punycode").decode("ascii")
    tld_form = tld if tld.isascii() else "xn--" + tld.encode("punycode").decode("ascii")
    host = "%s.%s" % (label, tld)
    assert _pctcodec._domain_to_ascii(host) == "%s.%s" % (want, tld_form)
    # a column: the row written once with the form in place of the host
    urls = ["http://%s/p?q#f" % host, "http://u@%s:8080/" % host]
    assert pctcodec.normalize_many(urls) == ["http://%s.%s/p?q#f" % (want, tld_form),
                                             "http://u@%s.%s:8080/" % (want, tld_form)]


@pytest.mark.parametrize("host", [
    "\u00e9.xn--a", "XN--A.\u00e9", "xn--.\u00e9", "xn--abc-.\u00e9", "xn--99999999999999999.\u00e9",
    "xn--a.\u00e9.\uff21", "xn--a.\u00e9%41",
])
def test_xn_label_that_does_not_decode_fails(host):
    # the one-pass host refuses it itself: the same answer as the model
    assert _pctcodec._domain_to_ascii(host.split("%")[0]) is None
    assert uts46.domain_to_ascii(host.split("%")[0]) is None
    url = "http://%s/" % host
    assert pctcodec.normalize_many([url]) == [pctcodec.normalize(url)]


def test_long_labels_cost_no_more_per_byte():
    # Punycode was O(label x distinct code points) and a host's pipeline ran
    # twice when its form passed 256 bytes: a 786 KB host of labels of
    # 1,024 distinct code points took 28 times as long as one of short labels.
    import time

    def best(host):
        t = float("inf")
        for _ in range(3):
            s = time.perf_counter()
            out = pctcodec.registered_domain("http://%s/" % host)
            t = min(t, time.perf_counter() - s)
        return t, out

    long_label = "".join(chr(0x4E00 + 7 * i) for i in range(1024))
    short_label = "".join(chr(0x4E00 + 7 * i) for i in range(16))
    long_host = ".".join([long_label] * 256)
    short_host = ".".join([short_label] * 16384)
    assert len(long_host.encode()) > 780_000 and len(short_host.encode()) > 780_000
    t_long, out = best(long_host)
    t_short, _ = best(short_host)
    assert out == "xn--" + long_label.encode("punycode").decode() * 1 + "." + \
        "xn--" + long_label.encode("punycode").decode()
    assert t_long < 6 * t_short + 0.05, (t_long, t_short)
