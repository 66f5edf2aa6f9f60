"""Inputs whose str/bytes methods are overridden, and duck-typed objects.

urllib.parse is Python code: it calls ``string.encode``, ``string.replace``,
``'%' in string``, ``len(string)``, ``safe.encode``, ``safe + ' '``,
``string.split`` ... through the object's type, so overriding those methods
in a subclass changes urllib's answer, and so do instance attributes that
shadow a method (``obj.encode = ...``) and, on 3.12+, ``__bytes__``. pctcodec
hands such arguments to urllib.parse itself; these cases pin that down.
"""
import pytest

from _diff import same


class EncStr(str):
    def encode(self, *a, **k):
        return b"ENC ODED"


class LenStr(str):
    def __len__(self):
        return 0


class ContStr(str):
    def __contains__(self, x):
        return False


class ReplStr(str):
    def replace(self, *a):
        return "R%41"


class GetItemStr(str):
    def __getitem__(self, i):
        return "G"


class SplitBytes(bytes):
    def split(self, *a):
        return [b"X"]


class IterBytes(bytes):
    def __iter__(self):
        return iter([47])


class AddStr(str):
    def __add__(self, other):
        return "Z"


class EncSafe(str):
    def encode(self, *a, **k):
        return b"a"


class Duck:
    """Truthy, with a split() that finds no '%'."""

    def __bool__(self):
        return True

    def split(self, sep):
        return [b"ab"]

    def __repr__(self):
        return "Duck()"


class Duck2:
    """Truthy, with a split() that finds one escape."""

    def __bool__(self):
        return True

    def split(self, sep):
        return [b"a", b"41"]

    def __repr__(self):
        return "Duck2()"


def with_attrs(cls, value, **attrs):
    """An instance whose own attributes shadow the class's methods (urllib's
    ``string.encode(...)`` finds them; a type-level check does not)."""
    obj = cls(value)
    for k, v in attrs.items():
        setattr(obj, k, v)
    return obj


class S(str):
    pass


class B(bytes):
    pass


class BytesDunderBytes(bytes):
    def __bytes__(self):
        return b"FROM__bytes__"


class BytearrayDunderBytes(bytearray):
    def __bytes__(self):
        return b"FROM__bytes__"


CASES = [
    # Overridden methods on subclasses, and duck types.
    pytest.param("quote", (EncStr("abc"),), id="quote-str-subclass-encode"),
    pytest.param("quote", (EncStr("abc"),), {"encoding": "latin-1"}, id="quote-str-subclass-encode-latin1"),
    pytest.param("quote", (LenStr("a b"),), id="quote-len0"),
    pytest.param("quote_plus", (ContStr("a b"),), id="quote_plus-contains"),
    pytest.param("quote_plus", ("a b", AddStr("/")), id="quote_plus-safe-add"),
    pytest.param("quote", ("a/b", EncSafe("/")), id="quote-safe-encode"),
    pytest.param("quote", ("a/b", IterBytes(b"x")), id="quote-safe-iter"),
    pytest.param("quote_from_bytes", (IterBytes(b"a/b"),), id="qfb-bytes-iter"),
    pytest.param("unquote", (ContStr("a%41"),), id="unquote-contains"),
    pytest.param("unquote", (GetItemStr("\u00e9%41\u00e9"),), id="unquote-getitem"),
    pytest.param("unquote", (LenStr(""),), id="unquote-len0"),
    pytest.param("unquote_plus", (ReplStr("a+b"),), id="unquote_plus-replace"),
    pytest.param("unquote_to_bytes", (SplitBytes(b"a%41"),), id="utb-split"),
    pytest.param("unquote_to_bytes", (LenStr("a%41"),), id="utb-len0"),
    pytest.param("unquote_to_bytes", (Duck(),), id="utb-duck"),
    pytest.param("unquote_to_bytes", (Duck2(),), id="utb-duck2"),
    pytest.param("unquote_to_bytes", (BytesDunderBytes(b"a%41"),), id="utb-dunder-bytes-escaped"),
    pytest.param("quote", (BytesDunderBytes(b"a b"),), id="quote-dunder-bytes"),
    # urllib 3.12+ ends unquote_to_bytes with bytes(x), which calls __bytes__.
    pytest.param("unquote_to_bytes", (BytesDunderBytes(b"abc"),), id="utb-dunder-bytes"),
    pytest.param("unquote_to_bytes", (BytearrayDunderBytes(b"abc"),), id="utb-bytearray-dunder-bytes"),
    # Methods shadowed by instance attributes.
    pytest.param("quote", (with_attrs(S, "a b", encode=lambda *a: b"X Y"),), id="inst-quote-encode"),
    pytest.param("quote", ("a/b", with_attrs(S, "/", encode=lambda *a: b":")), id="inst-quote-safe-encode"),
    pytest.param("quote_plus", (with_attrs(S, "a b", encode=lambda *a: b"X Y"),), id="inst-quote_plus-encode"),
    pytest.param("quote_from_bytes", (with_attrs(B, b"a b", rstrip=lambda *a: b"", decode=lambda *a: "DEC"),), id="inst-qfb-rstrip-decode"),
    pytest.param("quote", (with_attrs(B, b"ab", rstrip=lambda *a: b"", decode=lambda *a: "DEC"),), id="inst-quote-bytes-decode"),
    pytest.param("unquote", (with_attrs(B, b"a%41", split=lambda *a: [b"Q"]),), id="inst-unquote-split"),
    pytest.param("unquote", (with_attrs(B, b"abc", decode=lambda *a: "DEC"),), id="inst-unquote-decode"),
    pytest.param("unquote_plus", (with_attrs(S, "a+b", replace=lambda *a: "R"),), id="inst-unquote_plus-replace"),
    pytest.param("unquote_to_bytes", (with_attrs(B, b"a%41", split=lambda *a: [b"Q"]),), id="inst-utb-split"),
    pytest.param("unquote_to_bytes", (with_attrs(S, "a%41", encode=lambda *a: b"E%42"),), id="inst-utb-encode"),
    pytest.param("urlencode", ({with_attrs(S, "k"): "v"},), id="inst-urlencode-key"),
]


@pytest.mark.parametrize("name,args,kwargs", [
    pytest.param(*(p.values + ({},) * (3 - len(p.values))), marks=p.marks, id=p.id) for p in CASES
])
def test_exotic(name, args, kwargs):
    same(name, *args, **kwargs)


class GetattributeStr(str):
    """Every attribute lookup goes through this, method calls included."""

    def __getattribute__(self, name):
        if name == "encode":
            return lambda *a: b"via __getattribute__"
        return str.__getattribute__(self, name)


class GetattributeBytes(bytes):
    def __getattribute__(self, name):
        if name == "split":
            return lambda *a: [b"G"]
        return bytes.__getattribute__(self, name)


@pytest.mark.parametrize("name,args", [
    ("quote", (GetattributeStr("a b"),)),
    ("quote_plus", (GetattributeStr("a b"),)),
    ("quote", ("a/b", GetattributeStr("/"))),
    ("unquote_to_bytes", (GetattributeStr("a%41"),)),
    ("unquote", (GetattributeBytes(b"a%41"),)),
    ("unquote_to_bytes", (GetattributeBytes(b"a%41"),)),
])
def test_overridden_getattribute(name, args):
    same(name, *args)


def test_urlencode_query_cleared_by_a_finalizer_during_the_call():
    # Any new object may start the garbage collector, whose finalizers may
    # change the query being encoded: an int past 64 bits is written with a
    # str() of it, so it must not be read through borrowed references.
    import gc

    import pctcodec

    for doseq in (False, True):
        query = [("k", 2**70), ("v", [2**80, "x"])] * 20 + [("a", "b")]

        class Clears:
            def __init__(self):
                self.cycle = self

            def __del__(self):
                query.clear()

        threshold = gc.get_threshold()
        gc.collect()
        Clears()
        gc.set_threshold(1)
        try:
            out = pctcodec.urlencode(query, doseq=doseq)
        finally:
            gc.set_threshold(*threshold)
        assert isinstance(out, str)
