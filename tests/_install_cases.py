"""Inputs that pctcodec hands to urllib's own algorithm, and the two ways
people put pctcodec in place of urllib.parse (tests/test_install.py; also run
by child interpreters, so nothing here needs pytest).

Each case must give exactly urllib's outcome through the patched
``urllib.parse`` and through ``pctcodec``: before the hand-over went to a
private copy of urllib.parse, these recursed until the stack ran out.
"""
import urllib.parse

import pctcodec

NAMES = ("quote", "quote_plus", "quote_from_bytes", "unquote", "unquote_plus",
         "unquote_to_bytes", "urlencode")
ORIGINAL = {name: getattr(urllib.parse, name) for name in NAMES}


class OwnEncode(str):
    """A str whose encode, which urllib calls, says something else."""

    def encode(self, *args, **kwargs):
        return b"other"


class OwnRstrip(bytes):
    """Bytes whose rstrip, which quote_from_bytes calls, says something else."""

    def rstrip(self, *args):
        return b"other"


class ClassSaysBytes(str):
    """A str that claims through __class__ to be bytes (isinstance believes it)."""

    @property
    def __class__(self):
        return bytes


class NoAttributes(str):
    """A str whose every attribute lookup raises (isinstance asks __class__)."""

    def __getattribute__(self, name):
        raise RuntimeError("no attribute " + name)


CASES = [
    ("unquote", (None,), {}),
    ("quote", (1,), {}),
    ("quote", ("a b",), {"safe": ["/"]}),
    ("quote_plus", ("a b",), {"safe": None}),
    ("quote_from_bytes", ("a b",), {}),
    ("quote_from_bytes", (memoryview(b"a b/c"),), {}),
    ("unquote_plus", (b"a+b",), {}),
    ("unquote_to_bytes", (None,), {}),
    ("unquote_to_bytes", (memoryview(b"a%20b"),), {}),
    ("quote", (OwnEncode("a b"),), {}),
    ("quote_plus", (OwnEncode("a b"),), {}),
    ("unquote", (OwnEncode("a%20b"),), {"encoding": "latin-1"}),
    ("quote_from_bytes", (OwnRstrip(b"a b"),), {}),
    ("quote", (OwnRstrip(b"a b"),), {}),
    ("quote_plus", (ClassSaysBytes("a b"),), {}),
    ("quote", (ClassSaysBytes("a b"),), {}),
    ("quote", (NoAttributes("a b"),), {}),
    ("urlencode", ({NoAttributes("k"): "v"},), {}),
    ("urlencode", ({ClassSaysBytes("k"): "v"},), {}),
    ("urlencode", ({"k": ClassSaysBytes("v w")},), {"doseq": True}),
    ("urlencode", ({"k": [NoAttributes("v")]},), {"doseq": True}),
    ("urlencode", ([(OwnEncode("k"), OwnEncode("v"))],), {}),
    ("urlencode", ({"k": "a b"},), {"safe": ["/"]}),
]


def describe(case):
    name, args, kwargs = case
    return "%s(%s)" % (name, ", ".join([type(a).__name__ for a in args] + ["%s=%r" % kv for kv in kwargs.items()]))


def outcome(func, args, kwargs):
    """('ok', type, value) or ('raise', exception class)."""
    try:
        value = func(*args, **kwargs)
    except Exception as e:  # the class is what is compared
        return ("raise", type(e))
    return ("ok", type(value), value)


def expected():
    """Each case's outcome on urllib.parse's own functions."""
    return [outcome(ORIGINAL[name], args, kwargs) for name, args, kwargs in CASES]


def put_in_place(mode):
    """pctcodec in place of urllib.parse: with install(), or by plain
    assignment of the seven names, as people do with accelerators."""
    if mode == "install":
        pctcodec.install()
    else:
        for name in NAMES:
            setattr(urllib.parse, name, getattr(pctcodec, name))


def put_back(mode):
    if mode == "install":
        pctcodec.uninstall()
    else:
        for name in NAMES:
            setattr(urllib.parse, name, ORIGINAL[name])


def mismatches(want):
    """The cases whose outcome, through urllib.parse as it is now and through
    pctcodec, differs from `want`: a list of descriptions."""
    bad = []
    for case, w in zip(CASES, want):
        name, args, kwargs = case
        for side, func in (("urllib.parse", getattr(urllib.parse, name)), ("pctcodec", getattr(pctcodec, name))):
            got = outcome(func, args, kwargs)
            if got != w:
                bad.append("%s.%s: %r, urllib: %r" % (side, describe(case), got, w))
    return bad
