"""``urlencode`` with urllib's semantics; the quoting itself runs in C."""
from ._pctcodec import quote_plus

_NOT_A_QUERY = "not a valid non-string sequence or mapping object"


def _pairs(query):
    """The (key, value) pairs of a mapping or of a sequence of 2-tuples."""
    if hasattr(query, "items"):
        return query.items()
    # Strings are sequences too; they (and anything else without len() or
    # whose first item is not a tuple) are refused with urllib's message.
    try:
        if len(query) and not isinstance(query[0], tuple):
            raise TypeError
    except TypeError as err:
        raise TypeError(_NOT_A_QUERY) from err
    return query


def urlencode(query, doseq=False, safe="", encoding=None, errors=None, quote_via=quote_plus):
    """Encode a mapping or a sequence of pairs as an application/x-www-form-urlencoded string.

    With ``doseq``, a value that is a sequence (and not str or bytes) gives one
    ``key=item`` pair per item. ``safe``, ``encoding`` and ``errors`` are passed
    to ``quote_via`` (``encoding`` and ``errors`` only for str components).
    """

    def one(x):
        if isinstance(x, bytes):
            return quote_via(x, safe)
        return quote_via(str(x), safe, encoding, errors)

    out = []
    append = out.append
    if not doseq:
        for k, v in _pairs(query):
            append(one(k) + "=" + one(v))
        return "&".join(out)
    for k, v in _pairs(query):
        k = one(k)
        if isinstance(v, bytes):
            append(k + "=" + quote_via(v, safe))
            continue
        if isinstance(v, str):
            append(k + "=" + quote_via(v, safe, encoding, errors))
            continue
        try:
            len(v)
        except TypeError:
            append(k + "=" + quote_via(str(v), safe, encoding, errors))
            continue
        for item in v:
            append(k + "=" + one(item))
    return "&".join(out)
