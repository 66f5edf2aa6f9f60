"""A slow, literal model of the URL Standard's "domain to ASCII".

Written from UTS #46 (section 4, Processing, and 4.1, Validity Criteria) and
the URL Standard's host parser, never from pctcodec's code or ada-url's: the
options are Transitional_Processing false, CheckHyphens false,
UseSTD3ASCIIRules false, CheckBidi and CheckJoiners true, VerifyDnsLength
false. The Unicode data (the IDNA mapping table, bidi classes, joining
types) comes from the ``idna`` package's tables and ``unicodedata``; the
punycode is Python's own codec.
"""
import unicodedata

import idna
from idna import core

# The URL Standard's forbidden domain code points, as a host parser checks
# them after domain to ASCII.
FORBIDDEN = set(chr(c) for c in range(0x21)) | set("#%/:<>?@[\\]^|\x7f")

# RFC 5893 section 1.4: a "Bidi domain name" holds a label with an R, AL or
# AN character.
RTL_CLASSES = {"R", "AL", "AN"}


def _status_ok(label):
    """Every code point valid (UTS #46 4.1 step 6): mapping leaves the label
    as it is (deviations are valid in non-transitional processing)."""
    try:
        return core.uts46_remap(label, std3_rules=False, transitional=False) == label
    except idna.IDNAError:
        return False


def _valid(label):
    """UTS #46 4.1 Validity Criteria, CheckHyphens false, for a Unicode label."""
    if label == "":
        return True
    if unicodedata.normalize("NFC", label) != label:
        return False
    if label[:4] == "xn--":  # step 4 with CheckHyphens false
        return False
    if "." in label or unicodedata.category(label[0]).startswith("M"):
        return False
    if not _status_ok(label):
        return False
    # CheckJoiners: ZWNJ and ZWJ only where RFC 5892 Appendix A allows them.
    for i, c in enumerate(label):
        if c in "\u200c\u200d":
            try:
                if not core.valid_contextj(label, i):
                    return False
            except (ValueError, idna.IDNAError):
                return False
    return True


def _punycode_decode(label):
    """The Unicode label of an "xn--" label, or None (UTS #46 4 step 4)."""
    if not label.isascii():
        return None
    try:
        text = label[4:].encode("ascii").decode("punycode")
    except (UnicodeError, ValueError, IndexError):
        return None
    if text == "" or text.isascii():
        return None
    return text


def _bidi_ok(labels):
    """CheckBidi: in a bidi domain name every label satisfies RFC 5893 2."""
    if not any(unicodedata.bidirectional(c) in RTL_CLASSES for label in labels for c in label):
        return True
    for label in labels:
        if label == "":
            continue
        try:
            if not core.check_bidi(label, check_ltr=True):
                return False
        except idna.IDNAError:
            return False
    return True


def domain_to_ascii(domain):
    """The ASCII domain, or None where a browser's host parser fails."""
    if domain.isascii():
        # As the WPT vectors have it (IdnaTestV2: "xn--a.pt" -> "xn--a.pt"):
        # an ASCII domain is only lowercased, its labels are not validated.
        domain = domain.lower()
        return None if any(c in FORBIDDEN for c in domain) else domain
    try:
        mapped = core.uts46_remap(domain, std3_rules=False, transitional=False)
    except idna.IDNAError:
        return None  # a disallowed code point
    mapped = unicodedata.normalize("NFC", mapped)
    unicode_labels = []
    for label in mapped.split("."):
        if label[:4] == "xn--":
            label = _punycode_decode(label)
            if label is None:
                return None
        if not _valid(label):
            return None
        unicode_labels.append(label)
    if not _bidi_ok(unicode_labels):
        return None
    out = ".".join(
        label if label.isascii() else "xn--" + label.encode("punycode").decode("ascii")
        for label in unicode_labels
    )
    if out == "" or any(c in FORBIDDEN for c in out):
        return None
    return out
