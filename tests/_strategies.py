"""Hypothesis strategies for adversarial percent-encoding inputs."""
import collections

from hypothesis import strategies as st

# --- building blocks --------------------------------------------------------

SURROGATES = ["\ud800", "\udbff", "\udc00", "\udc80", "\udcff", "\udfff"]

# Tokens that poke at escape parsing, the '+'/' ' rules and the safe sets.
TOKENS = [
    "%", "%4", "%zz", "%41", "%4a", "%4A", "%e4%b8%ad", "%E4%B8%AD", "%E4%B8",
    "%C3", "%c3%a9", "%FF", "%ff", "%80", "%00", "%7F", "%2B", "%2b", "%25",
    "%2F", "%2f", "%20", "%%", "%%41", "%g1", "%1g", "% 1", "%+1", "%-1",
    "%\u00e9", "%4\u00e9", "+", "++", " ", "/", "~", "-", ".", "_", "?", "#",
    "&", "=", ":", ";", "@", "!", "*", "'", "(", ")", ",", "$", "[", "]",
    "a", "Z", "0", "9", "\x00", "\x01", "\x1f", "\x7f", "\t", "\n", "\r",
    "\u0080", "\u00e9", "\u00ff", "\u0100", "\u4e2d", "\ufeff", "\ufffd",
    "\uffff", "\U0001f600", "\U0010ffff",
] + SURROGATES

any_char = st.one_of(
    st.characters(),                                  # Hypothesis' default mix
    st.characters(max_codepoint=0x7F),                # ASCII incl. controls
    st.sampled_from(SURROGATES),                      # lone surrogates
    st.integers(0xD800, 0xDFFF).map(chr),
    st.integers(0x10000, 0x10FFFF).map(chr),          # astral
)

URL_ALPHABET = (
    "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
    "-._~:/?#[]@!$&'()*+,;=% "
)

url_like = st.lists(
    st.one_of(
        st.sampled_from(["http://", "https://", "/", "?", "&", "=", "#", "www.", ".com", "a=b"]),
        st.text(URL_ALPHABET, max_size=8),
    ),
    max_size=10,
).map("".join)

token_text = st.lists(
    st.one_of(st.sampled_from(TOKENS), st.text(any_char, max_size=3)), max_size=16
).map("".join)

# Every text strategy; lone surrogates included.
texts = st.one_of(
    token_text,
    url_like,
    st.text(any_char, max_size=20),
    st.text(),
    st.sampled_from(TOKENS),
)

# Text without lone surrogates (encodable as UTF-8).
def _no_surrogates(s):
    return not any("\ud800" <= c <= "\udfff" for c in s)


clean_texts = st.one_of(
    st.lists(
        st.one_of(st.sampled_from([t for t in TOKENS if t not in SURROGATES]), st.text(max_size=3)),
        max_size=16,
    ).map("".join),
    url_like,
    st.text(),
)

RAW_BYTE_TOKENS = [b"\x80", b"\xff", b"\xc3", b"\xe4\xb8", b"\xed\xa0\x80", b"\xf0\x9f\x98", b"\x00", b" ", b"+"]

byte_strings = st.one_of(
    st.binary(max_size=24),
    token_text.map(lambda s: s.encode("utf-8", "surrogatepass")),
    st.lists(
        st.one_of(
            st.sampled_from(RAW_BYTE_TOKENS),
            st.sampled_from(TOKENS).map(lambda s: s.encode("utf-8", "surrogatepass")),
            st.binary(max_size=3),
        ),
        max_size=12,
    ).map(b"".join),
)

# --- wrapper types ----------------------------------------------------------


class StrSub(str):
    pass


class BytesSub(bytes):
    pass


class BytearraySub(bytearray):
    pass


class WithStr:
    """Not a string, but str() gives one (for urlencode)."""

    def __init__(self, s):
        self.s = s

    def __str__(self):
        return self.s

    def __repr__(self):
        return "WithStr(%r)" % (self.s,)


def _str_wrappers(s):
    return st.sampled_from([s, s, s, StrSub(s), collections.UserString(s)])


def _bytes_wrappers(b):
    return st.sampled_from([b, b, BytesSub(b), bytearray(b), BytearraySub(b), memoryview(b)])


misc_objects = st.one_of(
    st.none(),
    st.integers(-3, 300),
    st.booleans(),
    st.floats(allow_nan=False),
    st.lists(st.integers(0, 255), max_size=3),
    st.lists(texts, max_size=2),
    st.tuples(texts),
    st.just(object()),
    st.just({"a": "b"}),
)

# str-ish / bytes-ish / other first arguments for the string functions.
str_inputs = texts.flatmap(_str_wrappers)
bytes_inputs = byte_strings.flatmap(_bytes_wrappers)
any_input = st.one_of(str_inputs, str_inputs, bytes_inputs, misc_objects)

# --- optional parameters ----------------------------------------------------

ENCODINGS = [
    None, "utf-8", "UTF8", "utf_8", "latin-1", "ascii", "utf-16", "utf-32",
    "cp1252", "shift_jis", "euc-kr", "cp037", "idna", "bogus-codec", 123,
]
ERRORS = [
    None, "strict", "replace", "ignore", "surrogateescape", "surrogatepass",
    "backslashreplace", "xmlcharrefreplace", "namereplace", "bogus", 5,
]
encodings = st.sampled_from(ENCODINGS)
errors = st.sampled_from(ERRORS)

safe_ascii = st.text(st.characters(max_codepoint=0x7F), max_size=6)
safes = st.one_of(
    safe_ascii,
    st.sampled_from(["", "/", "/:", "%", "+", " ", "~", "/?&=", "%/+ ", "\x00\x7f"]),
    st.text(any_char, max_size=5),                      # non-ASCII, surrogates
    safe_ascii.map(StrSub),
    safe_ascii.map(lambda s: s.encode()),
    safe_ascii.map(lambda s: bytearray(s.encode())),
    st.binary(max_size=5),                              # non-ASCII bytes
    st.lists(st.integers(0, 255), max_size=5),          # iterables of ints
    st.lists(st.integers(-2, 400), max_size=3),         # ints out of range
    st.lists(st.integers(0, 127), max_size=4).map(tuple),
    st.sampled_from([
        None, 0, 47, 1.5, True, object(), [47.0], ["/"], [None], [True],
        collections.UserString("/"), memoryview(b"/"), range(40, 50),
        frozenset(b"/:"), {47: None}, b"", bytearray(),
    ]),
)


@st.composite
def calls(draw, first, params, first_name):
    """Draw (args, kwargs) for a call: the first argument, then each optional
    parameter omitted or given, positionally (only while no earlier one was
    skipped or given by keyword) or by keyword."""
    value = draw(first)
    args, kwargs = [], {}
    if draw(st.integers(0, 9)) == 0:
        kwargs[first_name] = value
        positional = False
    else:
        args.append(value)
        positional = True
    for name, strat in params:
        if not draw(st.booleans()):
            positional = False
            continue
        v = draw(strat)
        if positional and draw(st.booleans()):
            args.append(v)
        else:
            positional = False
            kwargs[name] = v
    return tuple(args), kwargs
