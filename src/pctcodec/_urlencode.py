"""``urlencode`` with urllib's signature; its loop and quoting run in C."""
from ._pctcodec import _urlencode, quote_plus


def urlencode(query, doseq=False, safe="", encoding=None, errors=None, quote_via=quote_plus):
    """Encode a mapping or a sequence of pairs as an application/x-www-form-urlencoded string.

    The drop-in for ``urllib.parse.urlencode``: the same result, or the same
    exception, for every input.

    Parameters
    ----------
    query : mapping or sequence of pairs
        The keys and values (str, bytes, or anything ``str()`` takes).
    doseq : bool, optional
        A value that is a sequence (and not str or bytes) gives one
        ``key=item`` pair per item.
    safe : str or bytes, optional
        Passed to ``quote_via``.
    encoding, errors : str or None, optional
        Passed to ``quote_via`` for str components.
    quote_via : callable, optional
        The quoting function (:func:`quote_plus`).

    Returns
    -------
    str
        ``key=value`` pairs joined by ``&``.

    Raises
    ------
    TypeError
        ``query`` is neither a mapping nor a sequence of pairs, as urllib
        raises it.

    Examples
    --------
    >>> urlencode({"q": "café du monde", "page": 2})
    'q=caf%C3%A9+du+monde&page=2'
    """
    return _urlencode(query, doseq, safe, encoding, errors, quote_via)
