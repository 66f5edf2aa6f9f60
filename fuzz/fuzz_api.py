"""Atheris target on the Python API of pctcodec.

The urllib-compatible functions are run through tests/_diff.same against
urllib.parse (same value and type, or the same exception class) over fuzzed
str/bytes, safe sets, encodings and error handlers, and wrong argument
types. The rest of the API gets smoke calls with properties: requote and
normalize give valid URIs and are idempotent, never raise on text without a
lone surrogate (non-ASCII and escaped hosts go through the host mapping of
src/pctcodec/_idna.py) and raise PercentEncodingError on one, check fails exactly when
is_valid is false, encode/decode and the ECMAScript pairs round-trip.
Any other exception (TypeError, SystemError, ...) or a sanitizer report
from the extension is a finding.
"""
import os
import sys

import atheris

with atheris.instrument_imports():
    import urllib.parse  # noqa: F401  (instrumented: its branches guide the fuzzer)

    import pctcodec
    from pctcodec import ecmascript

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests"))
from _diff import Side, same  # noqa: E402

# Pieces that make escapes, '+', hosts and non-ASCII frequent.
PIECES = [
    "%", "%2", "%zz", "%41", "%7e", "%E4%B8", "%e4%b8%ad", "%C3%A9", "%FF", "%25",
    "%2B", "%uD800", "%u4E2D", "+", " ", "/", "/../", "/./", "?", "#", "&", "=",
    "://", "http://", "[::1]", "xn--", "@", ":80", "a", "Z", "9", "~", "\x00",
    "\x7f", "\u00e9", "\u00ff", "\u4e2d", "\U0001f600", "\ud800", "\udcff", "\ufeff",
    # hosts: escaped UTF-8, punycode, no-break space, joiner, bidi, emoji, mapped
    "http://\u4f8b", "%E4%BE%8B", "xn--fsq", "\u00a0", "\u200d", "\u0661", "\u2764\ufe0f", "\u00df",
    "\uff21", "\u3002", ":8%30", "[FE80::1%25Eth0]",
]
ENCODINGS = [None, "utf-8", "latin-1", "ascii", "utf-16", "cp1252", "idna", "no-such"]
ERRORS = [None, "strict", "replace", "ignore", "surrogateescape", "surrogatepass",
          "xmlcharrefreplace", "backslashreplace", "no-such"]
EXPECTED = (ValueError, pctcodec.PercentEncodingError)  # UnicodeError is a ValueError


def text(fdp):
    if fdp.ConsumeBool():
        return fdp.ConsumeUnicode(fdp.ConsumeIntInRange(0, 40))
    return "".join(fdp.PickValueInList(PIECES) if fdp.ConsumeBool() else
                   fdp.ConsumeUnicode(2) for _ in range(fdp.ConsumeIntInRange(0, 12)))


def value(fdp):
    """A str, bytes-like object, or (rarely) a wrong type."""
    kind = fdp.ConsumeIntInRange(0, 9)
    if kind <= 4:
        return text(fdp)
    if kind <= 6:
        return fdp.ConsumeBytes(fdp.ConsumeIntInRange(0, 40))
    if kind == 7:
        return text(fdp).encode("utf-8", "surrogatepass")
    if kind == 8:
        return bytearray(fdp.ConsumeBytes(8))
    return fdp.PickValueInList([None, 0, 1.5, [], memoryview(b"%41")])


def safe(fdp):
    pick = fdp.ConsumeIntInRange(0, 4)
    if pick == 0:
        return "/"
    if pick == 1:
        return fdp.ConsumeUnicode(fdp.ConsumeIntInRange(0, 4))
    if pick == 2:
        return fdp.ConsumeBytes(fdp.ConsumeIntInRange(0, 4))
    if pick == 3:
        return "".join(fdp.PickValueInList(PIECES) for _ in range(2))
    return ""


def codec_kwargs(fdp):
    kwargs = {}
    if fdp.ConsumeBool():
        kwargs["encoding"] = fdp.PickValueInList(ENCODINGS)
    if fdp.ConsumeBool():
        kwargs["errors"] = fdp.PickValueInList(ERRORS)
    return kwargs


def key(fdp):
    """A str or bytes: hashable, for the keys of a dict query."""
    return text(fdp) if fdp.ConsumeBool() else fdp.ConsumeBytes(4)


def query(fdp):
    items = [(key(fdp), value(fdp) if fdp.ConsumeBool() else [text(fdp), fdp.ConsumeInt(2)])
             for _ in range(fdp.ConsumeIntInRange(0, 4))]
    return dict(items) if fdp.ConsumeBool() else items


def differential(fdp):
    name = fdp.PickValueInList(["quote", "quote_plus", "quote_from_bytes", "unquote",
                                "unquote_plus", "unquote_to_bytes", "urlencode"])
    if name == "urlencode":
        kwargs = codec_kwargs(fdp)
        if fdp.ConsumeBool():
            kwargs["safe"] = safe(fdp)
        if fdp.ConsumeBool():
            kwargs["doseq"] = fdp.ConsumeBool()
        if fdp.ConsumeBool():
            kwargs["quote_via"] = Side(fdp.PickValueInList(["quote", "quote_plus"]))
        same(name, query(fdp), **kwargs)
        return
    kwargs = codec_kwargs(fdp) if name != "unquote_to_bytes" and name != "quote_from_bytes" else {}
    if name.startswith("quote") and fdp.ConsumeBool():
        kwargs["safe"] = safe(fdp)
    same(name, value(fdp), **kwargs)


def expect(func, *args, **kwargs):
    """func's result, or None when it raised an exception of its contract."""
    try:
        return func(*args, **kwargs)
    except EXPECTED:
        return None


def total(func, s, *args, **kwargs):
    """func's result: it raises only PercentEncodingError, only for a lone surrogate."""
    try:
        return func(s, *args, **kwargs)
    except pctcodec.PercentEncodingError:
        if not any("\ud800" <= c <= "\udfff" for c in s):
            raise
        return None


def smoke(fdp):
    s = text(fdp)
    r = total(pctcodec.requote, s)
    if r is not None:
        assert pctcodec.is_valid(r) and pctcodec.requote(r) == r, (s, r)
    if expect(pctcodec.is_valid, s) is False:
        try:
            pctcodec.check(s)
        except pctcodec.PercentEncodingError:
            pass
        else:
            raise AssertionError("check passed an invalid %r" % s)
    flags = {"sort_query": fdp.ConsumeBool(), "drop_fragment": fdp.ConsumeBool()}
    n = total(pctcodec.normalize, s, **flags)
    if n is not None:
        assert pctcodec.is_valid(n), (s, n)
        assert pctcodec.normalize(n, **flags) == n, (s, n)
        assert pctcodec.equivalent(n, n), n
        assert total(pctcodec.equivalent, s, s), s
    u = total(pctcodec.iri_to_uri, s)
    if u is not None:
        assert pctcodec.is_valid(u), (s, u)
    expect(pctcodec.normalize, s, strict_idna=True)
    expect(pctcodec.iri_to_uri, s, strict_idna=True)
    expect(pctcodec.uri_to_iri, s)
    for decoder in (ecmascript.decode_uri, ecmascript.decode_uri_component, ecmascript.js_unescape):
        expect(decoder, s)
    # surrogates in s may pair up as UTF-16 does: no round trip then
    pairs = any("\ud800" <= c <= "\udfff" for c in s)
    for encoder, decoder in ((ecmascript.encode_uri_component, ecmascript.decode_uri_component),
                             (ecmascript.encode_uri, ecmascript.decode_uri),
                             (ecmascript.js_escape, ecmascript.js_unescape)):
        e = expect(encoder, s)
        if e is not None and not pairs:
            assert decoder(e) == s, (encoder.__name__, s, e)
    b = fdp.ConsumeBytes(fdp.ConsumeIntInRange(0, 40))
    sb = fdp.ConsumeBytes(3).replace(b"%", b"")
    if not sb.isascii():  # encode's result is ASCII: it refuses to keep a non-ASCII byte
        try:
            pctcodec.encode(b, sb)
        except ValueError:
            sb = bytes(c for c in sb if c < 0x80)
        else:
            raise AssertionError(("non-ASCII safe accepted", sb))
    plus = fdp.ConsumeBool() and b"+" not in sb  # a kept '+' would decode as ' '
    enc = pctcodec.encode(b, sb, plus)
    assert pctcodec.decode(enc, plus) == b, (b, sb, enc)
    pctcodec.decode(b, not plus)


def TestOneInput(data):
    fdp = atheris.FuzzedDataProvider(data)
    if fdp.ConsumeBool():
        differential(fdp)
    else:
        smoke(fdp)


def main():
    atheris.Setup(sys.argv, TestOneInput)
    atheris.Fuzz()


if __name__ == "__main__":
    main()
