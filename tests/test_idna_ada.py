"""Hosts mapped in C against ada-url (the URL parser of Node.js), the peer
the package used before, over real and generated hosts.

The peer is ada-url's domain to ASCII as the package called it: then the
forbidden domain code points, and the Bidi rule by this interpreter's data
(ada-url's own check uses older Bidi_Class data). Every difference must be
explained, and only these explanations exist:

- ``unicode-version``: the host holds a code point this interpreter's Unicode
  data does not know (the C tables are Unicode 17.0.0, ada-url's and the
  interpreter's older), so the two disagree on its status or bidi class;
- ``ada-nfc``: ada-url's result is not in NFC (it composes combining marks
  without putting them in canonical order first), and is the C mapping's
  once normalized; or a punycode label of the host decodes to text that is
  not in NFC, which UTS #46 4.1 rejects and ada-url lets through;
- ``ada-contextj``: the host holds a joiner (U+200C, U+200D) that ada-url
  lets through where RFC 5892 Appendix A does not (a ZWJ after a ZWNJ that
  follows a virama);
- ``ada-punycode-form``: an ``xn--`` label whose punycode is not the one its
  decoded label encodes to (``xn---cza``: a delimiter with no basic code
  point before it), which ada-url keeps as written and UTS #46 ToASCII
  encodes again (``xn--cza``);
- ``ada-unicode-data``: a code point of the host on which, alone or after a
  letter, ada-url disagrees with the reference model and the C mapping
  does not (ada-url's mapping or Bidi_Class data are of an older Unicode
  version: U+061D, U+FBC2, ... added in Unicode 14).

In the four ``ada-*`` cases the reference model (tests/_uts46_reference.py,
written from the standards) gives the C mapping's answer.

The default run maps a few thousand hosts; ``pytest -m slow`` maps 1 M (run
as a script, ``python tests/test_idna_ada.py N`` prints the counts).
"""
import random
import sys
import unicodedata

import pytest

import _testdata
import _uts46_reference as uts46
from pctcodec import _pctcodec

ada_url = pytest.importorskip("ada_url")

_FORBIDDEN = set(chr(c) for c in range(0x21)) | set("#%/:<>?@[\\]^|\x7f")
_RTL = frozenset(("R", "AL", "AN"))


def _bidi_breaks(labels):
    """RFC 5893 section 2 over a bidi domain name, by this interpreter's data;
    None when a label holds a code point the interpreter does not know."""
    classes = [[unicodedata.bidirectional(c) for c in label] for label in labels if label]
    if any("" in label for label in classes):
        return None
    if not any(k in _RTL for label in classes for k in label):
        return False
    for label in classes:
        end = len(label)
        while end and label[end - 1] == "NSM":
            end -= 1
        last = label[end - 1] if end else ""
        if label[0] in ("R", "AL"):
            allowed = {"R", "AL", "AN", "EN", "ES", "CS", "ET", "ON", "BN", "NSM"}
            if not allowed.issuperset(label) or last not in ("R", "AL", "EN", "AN") or {"EN", "AN"} <= set(label):
                return True
        elif label[0] == "L":
            if not {"L", "EN", "ES", "CS", "ET", "ON", "BN", "NSM"}.issuperset(label) or last not in ("L", "EN"):
                return True
        else:
            return True
    return False


def ada_to_ascii(host):
    """The ASCII form by ada-url, or None."""
    if "\x00" in host:
        return None  # ada-url reads a C string
    mapped = ada_url.idna.encode(host)
    if not mapped:
        return None
    out = mapped.decode("ascii")
    if _FORBIDDEN.intersection(out):
        return None
    if "xn--" in out and _bidi_breaks(ada_url.idna.decode(out).split(".")):
        return None
    return out


def _texts(host, *outputs):
    """The host and the Unicode form of every punycode label in it or in
    the outputs: the code points a mapping looks at."""
    out = [host]
    for text in (host,) + outputs:
        for label in (text or "").replace("\u3002", ".").split("."):
            if label[:4].lower() == "xn--" and label.isascii():
                try:
                    out.append(label[4:].encode("ascii").decode("punycode"))
                except (UnicodeError, ValueError, IndexError):
                    pass
    return out


def _unknown_code_point(texts):
    return any(unicodedata.category(c) == "Cn" for text in texts for c in text)


def _nfc_of_theirs(ours, theirs):
    """ada-url's result, normalized, is the C mapping's."""
    if ours is None or theirs is None:
        return False
    text = ada_url.idna.decode(theirs)
    return unicodedata.normalize("NFC", text) != text and (
        unicodedata.normalize("NFC", text) == _pctcodec._domain_to_unicode(ours))


def _same_labels(ours, theirs):
    """The results differ only in punycode labels that decode alike."""
    if ours is None or theirs is None or ours.count(".") != theirs.count("."):
        return False
    return all(a == b or (b.startswith("xn--") and _texts(a)[1:] == _texts(b)[1:] != [])
               for a, b in zip(ours.split("."), theirs.split(".")))


def _ada_data_differs(texts):
    """A code point on which, alone or after a letter of either direction,
    ada-url and the reference model disagree and the C mapping does not."""
    for c in {c for text in texts for c in text if ord(c) >= 0x80}:
        for probe in (c, "a" + c, "\u05d0" + c):
            ref = uts46.domain_to_ascii(probe)
            if ada_to_ascii(probe) != ref and _pctcodec._domain_to_ascii(probe) == ref:
                return True
    return False


def explain(host, ours, theirs):
    """Why the C mapping and ada-url differ on host, or None."""
    texts = _texts(host, ours, theirs)
    if _unknown_code_point(texts):
        return "unicode-version"
    if uts46.domain_to_ascii(host) != ours:
        return None
    if _nfc_of_theirs(ours, theirs) or (
            ours is None and any(unicodedata.normalize("NFC", t) != t for t in _texts(host)[1:])):
        return "ada-nfc"
    if ours is None and ("\u200c" in host or "\u200d" in host):
        return "ada-contextj"
    if _same_labels(ours, theirs):
        return "ada-punycode-form"
    if _ada_data_differs(texts):
        return "ada-unicode-data"
    return None


# ---------------------------------------------------------------- the hosts

_RANGES = [(0xA0, 0x24F), (0x300, 0x36F), (0x370, 0x3FF), (0x400, 0x4FF), (0x590, 0x5FF), (0x600, 0x6FF),
           (0x700, 0x74F), (0x900, 0x97F), (0xE00, 0xE7F), (0x1100, 0x11FF), (0x1E00, 0x1EFF), (0x2000, 0x206F),
           (0x3000, 0x303F), (0x3040, 0x30FF), (0x4E00, 0x4E80), (0xAC00, 0xAC80), (0xFB00, 0xFDFF),
           (0xFF00, 0xFFEF), (0x1D400, 0x1D7FF), (0x1F300, 0x1F6FF), (0x20000, 0x20100), (0x0, 0x10FFFF)]
_ASCII = "abcxyzXYZ0189-._"
_SPECIAL = ["\u200c", "\u200d", "\u00ad", "\u094d", "\u0644", "\u0661", "\u06f1", "\u05d0", "\u3002", "\uff0e",
            "\u00df", "\u03c2", "\u0301", "\u0323", "\ufe0f", "xn--", "XN--", "\u1e9e"]


def _real_hosts():
    """Hosts of real data: the WPT inputs and the Public Suffix List's rules
    with a non-ASCII character, each also as the last labels of a name."""
    out = []
    for name in ("IdnaTestV2.json", "toascii.json"):
        out += [t["input"] for t in _testdata.load_json("wpt", name) or [] if isinstance(t, dict)]
    path = _testdata.path("psl", "public_suffix_list.dat")
    if path:
        with open(path, encoding="utf-8") as f:
            for line in f:
                rule = line.strip().lstrip("*.!")
                if rule and not rule.startswith("//") and not rule.isascii():
                    out += [rule, "www." + rule, "b\u00fccher." + rule, "\u4f8b\u3048." + rule]
    return [h for h in out if not h.isascii() and not any(0xD800 <= ord(c) <= 0xDFFF for c in h)]


def _label(rng, real_labels):
    r = rng.random()
    if r < 0.3 and real_labels:
        label = rng.choice(real_labels)
    elif r < 0.4:
        # punycode of a label, valid or damaged
        text = "".join(chr(rng.randint(*rng.choice(_RANGES[:-1]))) for _ in range(rng.randint(1, 5)))
        try:
            label = "xn--" + text.encode("punycode").decode("ascii")
        except UnicodeError:
            label = "xn--a"
        if rng.random() < 0.3:
            label = label[:-1] + rng.choice("a9-z")
    else:
        label = ""
        for _ in range(rng.randint(1, 7)):
            k = rng.random()
            if k < 0.5:
                label += chr(rng.randint(*rng.choice(_RANGES)))
            elif k < 0.8:
                label += rng.choice(_ASCII)
            else:
                label += rng.choice(_SPECIAL)
    if rng.random() < 0.1:
        label = label.upper()
    return label


def generated_hosts(n, seed=0):
    """n hosts (no surrogates, each with a non-ASCII character): real hosts,
    then mixtures of real labels, punycode and characters of many scripts."""
    rng = random.Random(seed)
    real = _real_hosts()
    real_labels = sorted({label for h in real for label in h.replace("\u3002", ".").split(".") if label})
    out = real[:n]
    while len(out) < n:
        host = ".".join(_label(rng, real_labels) for _ in range(rng.randint(1, 4)))
        if not host.isascii() and not any(0xD800 <= ord(c) <= 0xDFFF for c in host):
            out.append(host)
    return out


def compare(hosts):
    """(hosts compared, {explanation: count}, unexplained differences)."""
    counts, unexplained = {}, []
    for host in hosts:
        ours, theirs = _pctcodec._domain_to_ascii(host), ada_to_ascii(host)
        if ours != theirs:
            why = explain(host, ours, theirs)
            if why is None:
                unexplained.append((host, ours, theirs))
            else:
                counts[why] = counts.get(why, 0) + 1
    return len(hosts), counts, unexplained


def test_every_difference_is_explained():
    n, counts, unexplained = compare(generated_hosts(4000))
    assert unexplained == []
    assert sum(counts.values()) < n // 20


@pytest.mark.slow
def test_every_difference_is_explained_on_a_million_hosts():
    n, counts, unexplained = compare(generated_hosts(1_000_000, seed=1))
    assert unexplained == [], unexplained[:20]


def test_explanations_can_fail():
    # a difference with neither cause is not explained
    assert explain("b\u00fccher.de", "xn--bcher-kva.de", "xn--bcher-kva.de.") is None
    host = "acx\u01ce\u0325.de"
    ours, theirs = _pctcodec._domain_to_ascii(host), ada_url.idna.encode(host).decode("ascii")
    assert explain(host, "x", theirs) is None  # the model must agree with the C mapping
    assert explain(host, ours, None) is None  # nothing of ada-url's to explain
    assert explain(host, ours, theirs) == "ada-nfc"
    assert explain("a\u094d\u200c\u200d", None, "xn--a-1xd385oea") == "ada-contextj"
    assert explain("a\u094d\u200c", None, "xn--a-1xd385oea") is None  # the model accepts it
    host = "\u00e9.XN---cZa"
    assert explain(host, _pctcodec._domain_to_ascii(host), ada_to_ascii(host)) == "ada-punycode-form"
    assert explain(host, _pctcodec._domain_to_ascii(host), "xn--9ca.xn---czb") is None


if __name__ == "__main__":
    total, found, rest = compare(generated_hosts(int(sys.argv[1]) if len(sys.argv) > 1 else 100_000, seed=1))
    print("hosts: %d, differences explained: %s, unexplained: %d" % (total, found, len(rest)))
    for case in rest[:20]:
        print(ascii(case))
