"""``install()``: pctcodec's seven functions in place of urllib.parse's, for a whole process.

Every library that looks its quoting functions up on ``urllib.parse`` when it
calls them (``urllib.parse.quote(...)``), or that binds them with
``from urllib.parse import quote`` after ``install()`` ran, then runs
pctcodec. The standard library binds some at its own import
(``urllib.request`` holds ``quote``, ``unquote`` and ``unquote_to_bytes``;
``pathlib`` ``quote_from_bytes`` up to 3.12): those copies are replaced too.
A name another module bound before ``install()`` ran keeps urllib's function.

``uninstall()`` puts back exactly (by identity) what each replaced name held,
wherever it still holds pctcodec's function. Both are idempotent and
thread-safe.
"""
# Only modules every interpreter has loaded at start-up: `import pctcodec`
# stays light. urllib.parse and sysconfig are imported by the calls.
import _thread
import os
import sys

TYPE_CHECKING = False  # typing is not imported at run time: annotations in quotes
if TYPE_CHECKING:
    from types import ModuleType
    from typing import Any, Iterator, List, Optional, Tuple

    _Swap = List[Tuple[Any, Any]]
    _Done = List[Tuple[ModuleType, str, Any, Any]]

from . import _pctcodec
from ._urlencode import urlencode

__all__ = ["install", "uninstall", "installed"]

# urllib.parse's name -> pctcodec's function
OURS = {name: getattr(_pctcodec, name)
        for name in ("quote", "quote_plus", "quote_from_bytes", "unquote", "unquote_plus", "unquote_to_bytes")}
OURS["urlencode"] = urlencode

_lock = _thread.RLock()
# (module, attribute, what it held, pctcodec's function put there) for each
# name install() replaced; None when not installed.
_replaced: "Optional[_Done]" = None


def _stdlib_modules() -> "Iterator[ModuleType]":
    """The loaded modules of the standard library other than urllib.parse
    (those that may hold a copy bound at their import)."""
    import sysconfig
    import urllib.parse

    stdlib = os.path.normcase(os.path.realpath(sysconfig.get_paths()["stdlib"])) + os.sep
    for module in list(sys.modules.values()):
        path = getattr(module, "__file__", None)
        if module is urllib.parse or not isinstance(path, str):
            continue
        path = os.path.normcase(os.path.realpath(path))
        parts = path[len(stdlib):].split(os.sep)
        if path.startswith(stdlib) and "site-packages" not in parts and "dist-packages" not in parts:
            yield module


def _swap_copies(swap: "_Swap") -> "_Done":
    """Rebinds each name of a loaded standard library module whose value
    is a key of `swap` (by identity) to that key's value; returns what it
    did as (module, attribute, old, new)."""
    done = []
    by_id = {id(old): (old, new) for old, new in swap}
    for module in _stdlib_modules():
        for attr, value in list(vars(module).items()):
            pair = by_id.get(id(value))
            if pair is not None and pair[0] is value:
                setattr(module, attr, pair[1])
                done.append((module, attr, value, pair[1]))
    return done


def install() -> None:
    """Put pctcodec's functions in place of urllib.parse's, for the whole process.

    ``quote``, ``quote_plus``, ``quote_from_bytes``, ``unquote``,
    ``unquote_plus``, ``unquote_to_bytes`` and ``urlencode`` replace their
    namesakes in ``urllib.parse`` and in the copies the standard library
    bound at its import (``urllib.request``'s, ``pathlib``'s up to 3.12). A
    name another module bound with ``from urllib.parse import quote`` before
    the call keeps urllib's function: call it first thing at startup.
    Idempotent and thread-safe.

    Returns
    -------
    None

    Examples
    --------
    >>> import urllib.parse
    >>> install()
    >>> urllib.parse.quote is quote
    True
    >>> uninstall()
    """
    global _replaced
    import urllib.parse

    with _lock:
        if _replaced is not None:
            return
        replaced = []
        for name, ours in OURS.items():
            held = getattr(urllib.parse, name)
            setattr(urllib.parse, name, ours)
            replaced.append((urllib.parse, name, held, ours))
        replaced += _swap_copies([(held, ours) for _, _, held, ours in replaced if held is not ours])
        _replaced = replaced


def uninstall() -> None:
    """Put back what :func:`install` replaced.

    Each name gets back the very object it held, where pctcodec's function
    is still in place (a name someone rebound since is left alone); the
    standard library's copies bound while pctcodec was installed get
    urllib.parse's functions. Does nothing when not installed.

    Returns
    -------
    None

    Examples
    --------
    >>> import urllib.parse
    >>> install(); uninstall()
    >>> urllib.parse.quote is quote
    False
    """
    global _replaced
    import urllib.parse

    with _lock:
        if _replaced is None:
            return
        for module, attr, held, ours in reversed(_replaced):
            if getattr(module, attr, None) is ours:
                setattr(module, attr, held)
        _swap_copies([(ours, held) for module, _, held, ours in _replaced
                      if module is urllib.parse and held is not ours])
        _replaced = None


class installed:
    """A context manager: the block runs with pctcodec installed.

    On entry it calls :func:`install`; on exit it puts urllib.parse back
    (:func:`uninstall`) unless pctcodec was installed before the block.
    Blocks nest.

    Examples
    --------
    >>> import urllib.parse
    >>> with installed():
    ...     urllib.parse.quote is quote
    True
    >>> urllib.parse.quote is quote
    False
    """

    def __init__(self) -> None:
        self._was = False

    def __enter__(self) -> None:
        with _lock:
            self._was = _replaced is not None
            install()

    def __exit__(self, *exc_info: object) -> None:
        if not self._was:
            uninstall()
