"""Differential helper: run the same call on urllib.parse and on pctcodec.

``same(name, *args, **kwargs)`` calls ``getattr(urllib.parse, name)`` and
``getattr(pctcodec, name)`` with the same arguments and asserts they agree:

* both return: ``type(ours) is type(ref) and ours == ref``;
* both raise: the same exception class (where urllib raises AttributeError
  for a wrong type, pctcodec may raise TypeError instead);
* only one raises: fail, showing the call.

Every comparison is counted in ``COUNT``; conftest.py prints the total.
"""
import sys
import urllib.parse

import pctcodec

__all__ = ["same", "COUNT", "FUNCTIONS", "describe_call", "Side"]

FUNCTIONS = (
    "quote",
    "quote_plus",
    "quote_from_bytes",
    "unquote",
    "unquote_plus",
    "unquote_to_bytes",
    "urlencode",
)

# A one-element list so other modules can read the live value.
COUNT = [0]

_MAX_REPR = 300


def _short(obj):
    try:
        r = repr(obj)
    except Exception as e:  # pragma: no cover - objects with a broken repr
        r = "<unrepresentable %s: %r>" % (type(obj).__name__, e)
    if len(r) > _MAX_REPR:
        r = r[:_MAX_REPR] + "...(%d chars)" % len(r)
    return "%s:%s" % (type(obj).__name__, r)


def describe_call(name, args, kwargs):
    parts = [_short(a) for a in args]
    parts += ["%s=%s" % (k, _short(v)) for k, v in kwargs.items()]
    return "%s(%s) on CPython %s" % (name, ", ".join(parts), sys.version.split()[0])


class Side:
    """An argument that stands for ``<module>.<name>`` of each side: urllib's
    function for the urllib call, pctcodec's for ours (e.g. urlencode's
    ``quote_via=Side("quote")``)."""

    def __init__(self, name):
        self.name = name

    def __repr__(self):
        return "<each side's %s>" % self.name


def _resolve(module, args, kwargs):
    args = tuple(getattr(module, a.name) if isinstance(a, Side) else a for a in args)
    kwargs = {k: getattr(module, v.name) if isinstance(v, Side) else v for k, v in kwargs.items()}
    return args, kwargs


def _run(func, args, kwargs):
    try:
        return True, func(*args, **kwargs)
    except Exception as e:  # noqa: BLE001 - anything may be the expected answer
        return False, e


def same(name, *args, **kwargs):
    """Assert pctcodec.<name>(*args, **kwargs) behaves like urllib.parse.<name>.

    Returns urllib's result (or the exception it raised) for further checks.
    """
    COUNT[0] += 1
    ref_ok, ref = _run(getattr(urllib.parse, name), *_resolve(urllib.parse, args, kwargs))
    our_ok, ours = _run(getattr(pctcodec, name), *_resolve(pctcodec, args, kwargs))
    call = describe_call(name, args, kwargs)
    if ref_ok and our_ok:
        if type(ours) is not type(ref):
            raise AssertionError(
                "type differs for %s:\n  urllib.parse -> %s\n  pctcodec     -> %s"
                % (call, _short(ref), _short(ours))
            )
        if not (ours == ref):
            raise AssertionError(
                "value differs for %s:\n  urllib.parse -> %s\n  pctcodec     -> %s"
                % (call, _short(ref), _short(ours))
            )
        return ref
    if not ref_ok and not our_ok:
        if type(ours) is type(ref):
            return ref
        if type(ref) is AttributeError and type(ours) is TypeError:
            return ref  # the one allowed relaxation
        raise AssertionError(
            "exception class differs for %s:\n  urllib.parse raised %s: %s\n"
            "  pctcodec     raised %s: %s"
            % (call, type(ref).__name__, ref, type(ours).__name__, ours)
        )
    if ref_ok:
        raise AssertionError(
            "pctcodec raised but urllib.parse returned, for %s:\n"
            "  urllib.parse -> %s\n  pctcodec     raised %s: %s"
            % (call, _short(ref), type(ours).__name__, ours)
        )
    raise AssertionError(
        "urllib.parse raised but pctcodec returned, for %s:\n"
        "  urllib.parse raised %s: %s\n  pctcodec     -> %s"
        % (call, type(ref).__name__, ref, _short(ours))
    )
