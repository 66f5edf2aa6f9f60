"""``urlencode`` with urllib's signature; its loop and quoting run in C."""
from ._pctcodec import _urlencode, quote_plus


def urlencode(query, doseq=False, safe="", encoding=None, errors=None, quote_via=quote_plus):
    """Encode a mapping or a sequence of pairs as an application/x-www-form-urlencoded string.

    With ``doseq``, a value that is a sequence (and not str or bytes) gives one
    ``key=item`` pair per item. ``safe``, ``encoding`` and ``errors`` are passed
    to ``quote_via`` (``encoding`` and ``errors`` only for str components), as
    in ``urllib.parse.urlencode``.
    """
    return _urlencode(query, doseq, safe, encoding, errors, quote_via)
