"""The browser's reading of a URL: the WHATWG URL Standard's parser, in C.

``parse_url`` reads a URL (against an optional base) as browsers, Node.js
and the ``URL`` class of JavaScript do, and gives its record: ``href`` (the
serialization a browser loads) and the getters ``origin``, ``protocol``,
``username``, ``password``, ``host``, ``hostname``, ``port``, ``pathname``,
``search`` and ``hash``. ``parse_url_many`` does it over a column (a struct
column: an Arrow struct array, a DataFrame for a pandas or polars Series);
``url_href_many`` gives only ``href``, written straight from the parser's
buffer, as fast as ``normalize_many``.

The RFC 3986 functions (``split``, ``normalize``, ``resolve`` and the
urllib drop-ins) read URLs as the RFC does; where the two readings differ,
see the documentation's "Two readings of a URL" (docs/urls.md).
"""
import re
from collections import namedtuple

from . import _pctcodec
from ._errors import URLParseError
from .batch import _Op, _column_kind, _decoded, _module_type, _run

__all__ = ["URL", "URLParseError", "parse_url", "parse_url_many", "url_href", "url_href_many"]

FIELDS = ("href", "origin", "protocol", "username", "password", "host", "hostname", "port",
          "pathname", "search", "hash")

URL = namedtuple("URL", FIELDS)
URL.__doc__ = """A URL as the URL Standard's parser reads it (immutable): ``href``, its
serialization, and the getters of the Standard's ``URL`` API, all str:
``origin`` (``"null"`` when opaque), ``protocol`` (the scheme and ``:``),
``username``, ``password``, ``host`` (hostname and port), ``hostname``
(an IPv6 address in brackets), ``port`` (``""`` when none or the scheme's
default), ``pathname``, ``search`` (``""`` or ``?`` and the query) and
``hash`` (``""`` or ``#`` and the fragment)."""

# The getter codes of the C engine (pct_url_part in src/core/pct_url.h).
_PART = {"href": 0, "protocol": 1, "username": 2, "password": 3, "host": 4, "hostname": 5,
         "port": 6, "pathname": 7, "search": 8, "hash": 9, "origin": 10, "record": 11}

_url_parse = _pctcodec._url_parse
_new = tuple.__new__
_SURROGATE = re.compile("[\ud800-\udfff]")


def _base_text(name, base):
    if base is None or type(base) is str:
        return base
    if isinstance(base, URL):
        return base.href
    if isinstance(base, str):
        return str.__str__(base)  # its text, not what a subclass's __str__ says
    raise TypeError("%s() needs the base as a str or a URL record, not %.200s"
                    % (name, type(base).__name__))


def _parse(value, base):
    """The tuple of getters, or URLParseError."""
    try:
        return _url_parse(value, base)
    except ValueError as exc:
        if isinstance(exc, UnicodeEncodeError):
            # A lone surrogate: read as U+FFFD, as a browser reads a JavaScript string.
            return _parse(_SURROGATE.sub("\ufffd", value),
                          None if base is None else _SURROGATE.sub("\ufffd", base))
        reason, position, is_base = exc.args
        raise URLParseError(("invalid base URL: " if is_base else "") + reason, position) from None


def parse_url(value, base=None):
    """Parse a URL as browsers do (the WHATWG URL Standard's basic URL parser).

    Leading and trailing C0 controls and spaces are stripped and tabs and
    newlines removed; in the special schemes (http, https, ws, wss, ftp,
    file) a ``\\`` is a ``/`` and any number of slashes may start the
    authority; hosts go through IDNA (UTS #46) and IPv4 numbers in any form
    (``0x7f.1``) are read; paths, queries and fragments are percent-encoded
    by the Standard's sets and dot segments removed. A relative reference
    is resolved against ``base``.

    Parameters
    ----------
    value : str
        The URL (or, with ``base``, a reference relative to it). A lone
        surrogate is read as U+FFFD.
    base : str or URL or None, optional
        The base URL to resolve ``value`` against.

    Returns
    -------
    URL
        The record: ``href``, ``origin``, ``protocol``, ``username``,
        ``password``, ``host``, ``hostname``, ``port``, ``pathname``,
        ``search``, ``hash``.

    Raises
    ------
    URLParseError
        The parser rejects the value (or the base): no scheme and no base,
        a host that is missing or invalid, a bad port. ``position`` is
        where in the value (or base) the problem was found.
    TypeError
        A value that is not a str, or a base that is neither a str nor a URL.

    Examples
    --------
    >>> u = parse_url("HTTP://User@EXAMPLE.com:80/a/../b c?q#f")
    >>> u.href
    'http://User@example.com/b%20c?q#f'
    >>> u.hostname, u.port, u.pathname, u.search
    ('example.com', '', '/b%20c', '?q')
    >>> parse_url("http:\\\\\\\\example.com\\\\@evil.com/").hostname
    'example.com'
    >>> parse_url("../x", base="http://a/b/c").href
    'http://a/x'
    """
    if type(value) is not str:
        if not isinstance(value, str):
            raise TypeError("parse_url() needs a str, not %.200s" % type(value).__name__)
        value = str.__str__(value)  # its text, not what a subclass's __str__ says
    return _new(URL, _parse(value, _base_text("parse_url", base)))


def url_href(value, base=None):
    """parse_url(value, base).href: the URL a browser loads.

    Parameters
    ----------
    value : str
        The URL (or a reference relative to ``base``).
    base : str or URL or None, optional
        The base URL.

    Returns
    -------
    str
        The URL Standard's serialization of the URL.

    Raises
    ------
    URLParseError
        The parser rejects the value or the base.
    TypeError
        A value that is not a str.

    Examples
    --------
    >>> url_href("https:///example.com\\\\a\\\\..\\\\b")
    'https://example.com/b'
    """
    if type(value) is not str:
        if not isinstance(value, str):
            raise TypeError("url_href() needs a str, not %.200s" % type(value).__name__)
        value = str.__str__(value)  # its text, not what a subclass's __str__ says
    return _parse(value, _base_text("url_href", base))[0]


def _pass(name, values, base, field, threads, on_error, rejects):
    """One pass of the batch engine for the function `name`: the getter
    `field` of every row."""
    part = _PART[field]
    index = FIELDS.index(field) if field in FIELDS else None
    if base is None or type(base) is str or isinstance(base, (str, URL)):
        fixed = _base_text(name, base)
        capsule = None
        if fixed is not None:
            fixed = _SURROGATE.sub("\ufffd", fixed)  # as _parse reads it
            try:
                capsule = _pctcodec._url_base(fixed)
            except ValueError:
                _parse("", fixed)  # raises the base's URLParseError
                raise

        def func(value):
            got = _parse(value, fixed)
            return "\0".join(got) if index is None else got[index]

        op = _Op(name, func, threads, safe=capsule, opts=part, on_error=on_error)
        return _run(op, values, rejects), op

    from .resolution import _base_column, _references

    def func2(b, value):
        got = _parse(value, b)
        return "\0".join(got) if index is None else got[index]

    values = _references(values)
    try:
        n = len(values)
    except TypeError:
        n = None
    op = _Op(name, func2, threads, opts=part, on_error=on_error)
    if n is not None:
        op.bases = _base_column(_hrefs(base), n, name)
    return _run(op, values, rejects), op


def _hrefs(base):
    """A column of URL records as the column of their hrefs: a list's URLs
    (parse_url_many's records), a struct array's href field (its Arrow
    result); any other column as it is."""
    if type(base) is list and any(isinstance(b, URL) for b in base):
        return [b.href if isinstance(b, URL) else b for b in base]
    pa_struct = _module_type("pyarrow", "StructArray")
    if pa_struct is not None and isinstance(base, pa_struct) and base.type.get_field_index("href") >= 0:
        return base.field("href") if base.null_count == 0 else _struct_hrefs(base)
    return base


def _struct_hrefs(base):
    """The href field of a struct array whose null rows are null (a field
    of a null struct row may hold anything)."""
    import pyarrow.compute as pc

    return pc.if_else(base.is_valid(), base.field("href"), None)


def url_href_many(values, base=None, *, threads=None, on_error="raise", rejects=None):
    """parse_url(value, base).href over every value of a column: the URL
    Standard's serialization, written straight from the parser's buffer.

    Parameters
    ----------
    values : iterable of str or None, Arrow array, pandas or polars Series
        The column.
    base : str or URL or column or None, optional
        One base URL for every row, or a column of them as long as
        ``values`` (matched by position; a missing base gives a missing
        result): str, or URL records (``parse_url_many``'s list or struct
        array).
    threads : int or None, optional
        Threads for Arrow input (1 to 1024); None: one per usable core, each
        with at least 16384 rows.
    on_error : {"raise", "null", "keep"}, optional
        What a row the parser rejects gives: the error (raised, naming the
        row's index), None, or its input unchanged.
    rejects : list or None, optional
        Gets a ``Reject(index, value, error)`` per failed row, in row order.

    Returns
    -------
    list of str or None, pyarrow.Array, pandas.Series or polars.Series
        The kind of ``values``, as ``normalize_many`` gives it.

    Raises
    ------
    URLParseError
        A row the parser rejects (naming its index), under
        ``on_error="raise"``; a single ``base`` it rejects, before any row.
    TypeError
        A value that is not str or None, or ``values`` that is not a column.

    Examples
    --------
    >>> url_href_many(["HTTP://Example.COM:80/./a", "http:\\\\\\\\x.org\\\\y", None])
    ['http://example.com/a', 'http://x.org/y', None]
    >>> url_href_many(["b", "../c"], base="http://h/a/")
    ['http://h/a/b', 'http://h/c']
    """
    return _pass("url_href_many", values, base, "href", threads, on_error, rejects)[0]


def parse_url_many(values, base=None, *, fields=None, threads=None, on_error="raise",
                   rejects=None):
    """parse_url() over a column: its record as several columns.

    - a list (or other iterable) -> a list of ``URL`` records (None for a
      None value, and for a row that failed under on_error "null" or
      "keep");
    - a pyarrow Array or ChunkedArray -> a ``StructArray`` (chunked in,
      chunked out) of the fields, each of the input's string type; a null
      row or a failed one is a null struct;
    - a pandas Series -> a DataFrame with a column per field and the same
      index; a polars Series -> a polars DataFrame.

    One pass of the batch engine gives every field of a row (joined, then
    cut into columns); ``url_href_many`` gives ``href`` alone, faster.

    Parameters
    ----------
    values : iterable of str or None, Arrow array, pandas or polars Series
        The column.
    base : str or URL or column or None, optional
        As for ``url_href_many``.
    fields : str or sequence of str or None, optional
        The fields of the result, in order (a str: that one field; None:
        all of ``URL``'s). A list input always gives whole ``URL`` records.
    threads : int or None, optional
        Threads for Arrow input (1 to 1024); None: one per usable core, each
        with at least 16384 rows.
    on_error : {"raise", "null", "keep"}, optional
        What a row the parser rejects gives: the error (raised, naming the
        row's index), or a null record (under "keep" too: a record has no
        place for the input).
    rejects : list or None, optional
        Gets a ``Reject(index, value, error)`` per failed row, in row order.

    Returns
    -------
    list of URL or None, pyarrow.StructArray, pandas or polars DataFrame
        As listed above.

    Raises
    ------
    URLParseError
        A row the parser rejects (naming its index), under
        ``on_error="raise"``.
    TypeError
        A value that is not str or None, or ``values`` that is not a column.
    ValueError
        A field that ``URL`` does not have, one named twice, or no field.

    Examples
    --------
    >>> parse_url_many(["https://a.example:8080/p?q", None])[0].port
    '8080'
    >>> import pyarrow as pa
    >>> parse_url_many(pa.array(["http://0x7f.1/x"]), fields=["hostname", "pathname"]).to_pylist()
    [{'hostname': '127.0.0.1', 'pathname': '/x'}]
    """
    kind = _column_kind(values, "parse_url_many")
    names = FIELDS if fields is None else (fields,) if isinstance(fields, str) else tuple(fields)
    if not names:
        raise ValueError("parse_url_many(): fields names no field (None gives them all)")
    for i, f in enumerate(names):
        if f not in FIELDS:
            raise ValueError("parse_url_many(): no field %r (the fields: %s)"
                             % (f, ", ".join(FIELDS)))
        if f in names[:i]:
            raise ValueError("parse_url_many(): fields names %r twice" % (f,))
    if kind in ("list", "iterable"):
        kind = "list"
        values = values if type(values) in (list, tuple) else list(values)
        names = FIELDS
    mode = "null" if on_error == "keep" else on_error
    # one pass: each row's getters joined by NUL bytes (which no getter
    # holds), cut into the fields here
    joined, op = _pass("parse_url_many", values, base, "record", threads, mode, rejects)
    return _assemble(kind, values, names, joined)


def _assemble(kind, values, names, joined):
    """The joined records of one pass as the input's kind of table."""
    if kind == "list":
        return [None if j is None else _new(URL, j.split("\0")) for j in joined]
    if kind == "pandas":
        import pandas as pd

        rows = [j.split("\0") if isinstance(j, str) else [None] * len(FIELDS)
                for j in joined.tolist()]
        frame = pd.DataFrame(rows, index=values.index, columns=list(FIELDS), dtype=object)
        return frame[list(names)]
    if kind == "polars":
        import polars as pl

        if joined.dtype != pl.String:
            joined = joined.cast(pl.String)
        parts = joined.str.split_exact("\0", len(FIELDS) - 1)
        frame = pl.DataFrame(parts.struct.rename_fields(list(FIELDS))).unnest(parts.name)
        return frame.select(list(names))
    import pyarrow as pa

    if not isinstance(joined, (pa.Array, pa.ChunkedArray)):
        joined = pa.array(joined) if hasattr(joined, "__arrow_c_array__") else pa.chunked_array(joined)
    if isinstance(joined, pa.ChunkedArray):
        # chunk by chunk: a column of several chunks may pass 2 GiB whole
        if joined.num_chunks:
            return pa.chunked_array([_records(pa, c, names) for c in joined.chunks])
        value_type = (joined.type.value_type if pa.types.is_dictionary(joined.type)
                      else joined.type)
        return pa.chunked_array([], type=_records(pa, pa.array([], type=value_type), names).type)
    return _records(pa, joined, names)


def _records(pa, joined, names):
    """The struct array of one array of joined records."""
    import pyarrow.compute as pc

    if pa.types.is_dictionary(joined.type):  # a dictionary column's records, one per row
        joined = _decoded(pa, joined)
    if pa.types.is_null(joined.type):  # a column of nulls only: string fields, all null
        joined = joined.cast(pa.string())
    typ = joined.type
    if typ == pa.string_view():  # pyarrow's kernels below take no views
        joined = joined.cast(pa.large_string())
    mask = joined.is_null() if joined.null_count else None
    if mask is not None:
        joined = pc.fill_null(joined, "\0" * (len(FIELDS) - 1))
    cells = pc.list_flatten(pc.split_pattern(joined, "\0"))  # len(FIELDS) a row
    rows = pa.FixedSizeListArray.from_arrays(cells, len(FIELDS))
    children = [pc.list_element(rows, FIELDS.index(f)).cast(typ) for f in names]
    return pa.StructArray.from_arrays(children, names=list(names), mask=mask)

