"""The installed pctcodec must be the C extension, not a Python fallback."""
import importlib
import importlib.machinery
import types
import urllib.parse

import pctcodec

C_FUNCTIONS = ["quote", "quote_plus", "quote_from_bytes", "unquote", "unquote_plus", "unquote_to_bytes"]


def _ext():
    try:
        return importlib.import_module("pctcodec._pctcodec")
    except ImportError as e:  # pragma: no cover - the failure is the message
        raise AssertionError("the C extension pctcodec._pctcodec did not load: %r" % (e,))


def test_extension_is_a_shared_library():
    ext = _ext()
    suffixes = tuple(importlib.machinery.EXTENSION_SUFFIXES)
    assert ext.__file__.endswith(suffixes), ext.__file__
    assert isinstance(ext.__spec__.loader, importlib.machinery.ExtensionFileLoader), ext.__spec__


def test_public_functions_are_the_c_builtins():
    ext = _ext()
    for name in C_FUNCTIONS:
        f = getattr(pctcodec, name)
        assert f is getattr(ext, name), name
        assert isinstance(f, types.BuiltinFunctionType), (name, type(f))
        assert f is not getattr(urllib.parse, name), name


def test_urlencode_quotes_with_the_c_quote_plus():
    ext = _ext()
    assert pctcodec.urlencode is not urllib.parse.urlencode
    assert pctcodec.urlencode.__defaults__[-1] is ext.quote_plus


def test_public_names():
    expected = {"quote", "quote_plus", "quote_from_bytes", "unquote", "unquote_plus", "unquote_to_bytes", "urlencode"}
    assert expected <= set(pctcodec.__all__)
    for name in expected:
        assert callable(getattr(pctcodec, name))
