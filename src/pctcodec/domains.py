"""Registered domains by the Public Suffix List: which site a URL is on.

``registered_domain(url)`` is the public suffix of the URL's host and one
label more (``news.bbc.co.uk`` -> ``bbc.co.uk``), or ``None`` when the host
has none (it is itself a public suffix, an IP address, empty...).
``public_suffix(url)`` is the suffix (``co.uk``) and ``domain_parts(url)``
all three parts, ``DomainParts(subdomain, registered_domain,
public_suffix)``. Their ``_many`` forms run over a column (a list, the three
Arrow string types, chunked arrays, pandas and polars Series), with
``threads``, ``on_error`` and ``rejects`` as in ``pctcodec.batch``.

Input: a URL (``https://user@Host.example.com:8443/path``), a
network-path reference (``//host/path``) or a bare host with or without
userinfo and port (``host.example.com:80``); leading and trailing C0
controls and spaces are ignored. The host is after the last ``@`` of the
authority, up to the first ``:``; ``[...]`` is an IP literal. Any case; a
trailing dot is dropped; an internationalized host may be in Unicode, in
``xn--`` labels or percent-encoded.

Output: lowercase ASCII (``xn--`` labels), no trailing dot, whatever form
the input had, so that equal domains are equal strings; ``unicode=True``
gives the Unicode form of the ``xn--`` labels instead. A host that is an
IPv4 address (its last label a number, as the URL Standard reads hosts), an
IP literal, empty, or with an empty label (``a..b``, ``.a``) has no parts:
``None`` (null).

The list: ``private=False`` (the default) uses only the ICANN section of
the list (``github.io`` has the registered domain ``github.io``);
``private=True`` adds the PRIVATE section, where ``github.io`` is a public
suffix and ``user.github.io`` a registered domain (browsers' "site"). A TLD
the list does not have is a public suffix by the list's default rule
``*``. ``suffix_list=`` chooses the list: ``None`` for the snapshot shipped
with pctcodec (never fetched over the network), a ``SuffixList``, or the
path of a list file; ``suffix_list()`` says which list is in use. Each list
is compiled once into a C hash table shared by every call and thread.

Errors: a host with a character no host may hold (a space, ``<``, ``^``
...) or whose IDNA mapping fails raises ``HostError`` (a ``ValueError``);
a value that is not a ``str`` raises ``TypeError``. The ``_many`` forms
name the row (see ``pctcodec.batch``).

See docs/domains.md.
"""
import _thread
import os
import re
import sys
from collections import namedtuple

from . import _pctcodec
from ._errors import HostError, SuffixListError, _index_of
from .batch import _Op, _add_rejects, _check_on_error, _column_kind, _dispatch

__all__ = [
    "registered_domain",
    "registered_domain_many",
    "public_suffix",
    "public_suffix_many",
    "domain_parts",
    "domain_parts_many",
    "DomainParts",
    "SuffixList",
    "suffix_list",
    "HostError",
    "SuffixListError",
]

# pct_domain.h's flags.
_REGISTERED, _SUFFIX, _SUBDOMAIN = 0, 1, 2
_PRIVATE, _UNICODE, _IS_HOST = 4, 8, 16

DomainParts = namedtuple("DomainParts", "subdomain registered_domain public_suffix")
DomainParts.__doc__ = """The parts of a URL's host by the Public Suffix List: ``subdomain`` (the
labels before the registered domain, ``""`` when there are none),
``registered_domain`` and ``public_suffix``; each None when absent."""

RuleCounts = namedtuple("RuleCounts", "rules wildcards exceptions")
RuleCounts.__doc__ = """The rules of one section of a list: all of them, of which ``*.``
wildcards and ``!`` exceptions."""


# ---------------------------------------------------------------- the list

class SuffixList:
    """A Public Suffix List compiled for lookups (read-only, shared by threads).

    Made by ``suffix_list()`` (the shipped snapshot, or a file) or
    ``SuffixList.from_text(text)``. ``source`` says where it came from,
    ``version`` and ``commit`` are the list's own ``// VERSION:`` and
    ``// COMMIT:`` lines (None when it has none), ``icann`` and ``private``
    the ``RuleCounts`` of its two sections.
    """

    __slots__ = ("_capsule", "source", "version", "commit", "icann", "private")

    def __init__(self, text, source="<text>"):
        if isinstance(text, str):
            data = text.encode("utf-8", "surrogatepass")
        elif isinstance(text, (bytes, bytearray, memoryview)):
            data = bytes(text)
        else:
            raise TypeError("a suffix list is str or bytes, not %.200s" % type(text).__name__)
        try:
            capsule, counts = _pctcodec._psl_compile(data)
        except ValueError as exc:
            line = exc.args[1] if len(exc.args) > 1 else 0
            raise SuffixListError("not a rule of the Public Suffix List format", line,
                                  source) from None
        self._capsule = capsule
        self.source = source
        head = data[:4096].decode("utf-8", "replace").splitlines()
        self.version = _header(head, "// VERSION:")
        self.commit = _header(head, "// COMMIT:")
        self.icann = RuleCounts(*counts[:3])
        self.private = RuleCounts(*counts[3:])

    @classmethod
    def from_text(cls, text, source="<text>"):
        """The list whose text (str, or UTF-8 bytes) is given."""
        return cls(text, source)

    @classmethod
    def from_file(cls, path):
        """The list in the file at `path` (UTF-8)."""
        with open(path, "rb") as f:
            return cls(f.read(), os.fspath(path))

    def __repr__(self):
        return "<SuffixList %s, version %s: ICANN %d rules, PRIVATE %d rules>" % (
            self.source, self.version, self.icann.rules, self.private.rules)


def _header(lines, key):
    """The value of the list's header line `key` (``// VERSION: ...``)."""
    for line in lines:
        if line.startswith(key) and line[len(key):].split():
            return line[len(key):].split()[0]
    return None


# (_thread, not threading, nor re below: `import pctcodec` stays light)
_lock = _thread.allocate_lock()
_default = []  # the shipped snapshot, once compiled
_files = {}    # (path, size, mtime) -> SuffixList


def _snapshot():
    if not _default:
        with _lock:
            if not _default:
                from . import _suffix_snapshot as snap

                path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "data",
                                    "public_suffix_list.dat")
                lst = SuffixList.from_file(path)
                lst.source = "pctcodec snapshot of %s, taken %s" % (snap.SOURCE, snap.TAKEN)
                _default.append(lst)
    return _default[0]


def suffix_list(source=None):
    """The list that ``suffix_list=source`` means: the shipped snapshot for
    None, the compiled list of a file path (compiled once while the file is
    unchanged), a SuffixList itself.

    Parameters
    ----------
    source : None, str, os.PathLike or SuffixList

    Returns
    -------
    SuffixList
        Its ``source``, ``version``, ``commit``, ``icann`` and ``private``
        rule counts tell which list it is.

    Raises
    ------
    OSError
        The file cannot be read.
    SuffixListError
        The file holds a line that is not a rule (a ValueError; its
        ``position`` is the line's number).
    TypeError
        `source` is none of these.

    Examples
    --------
    >>> suffix_list().icann.rules > 5000
    True
    """
    if source is None:
        return _default[0] if _default else _snapshot()
    if isinstance(source, SuffixList):
        return source
    if not isinstance(source, (str, os.PathLike)):
        raise TypeError("suffix_list must be None, a SuffixList or a path, not %.200s"
                        % type(source).__name__)
    path = os.path.abspath(os.fspath(source))
    st = os.stat(path)
    # st_ctime_ns: any write or utime() moves it, which no one can set back
    # (a rewrite of the same size with its mtime restored is a new list)
    key = (path, st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns, st.st_ctime_ns)
    lst = _files.get(key)
    if lst is None:
        lst = SuffixList.from_file(path)
        with _lock:
            for old in [k for k in _files if k[0] == path and k != key]:
                del _files[old]  # the file's earlier contents
            lst = _files.setdefault(key, lst)
    return lst


# ---------------------------------------------------------------- one value

def _ascii_host(raw):
    """The ASCII form of the host whose UTF-8 bytes are raw, as the URL
    Standard's host parser makes it: escapes decoded, then "domain to
    ASCII" with its forbidden code points refused; None when it has none.
    The one place IDNA is reached from here."""
    text = _pctcodec.unquote_to_bytes(raw).decode("utf-8", "replace")
    return _pctcodec._domain_to_ascii(text)


def _to_unicode(domain):
    return _pctcodec._host_to_unicode(domain)


def _flags(part, private, unicode):
    return part | (_PRIVATE if private else 0) | (_UNICODE if unicode else 0)


_C0_OR_SPACE = "".join(map(chr, range(0x21)))  # ignored at either end
_TAB_OR_NEWLINE = re.compile("[\t\n\r]")


def _part_without_tabs(value, capsule, flags):
    """_part of value read as the URL Standard reads any URL: with the tabs
    and newlines inside it dropped; an error's position is value's."""
    kept = [i for i, c in enumerate(value) if c not in "\t\n\r"]
    try:
        return _part("".join(value[i] for i in kept), capsule, flags)
    except HostError as exc:
        at = kept[exc.position] if exc.position < len(kept) else len(value)
        raise HostError(exc.reason, at) from None


def _part(value, capsule, flags):
    """The part of value that flags names: the C core's answer, else the
    row done here (a non-ASCII or escaped host, an error, Unicode output)."""
    r = _pctcodec._domain(value, capsule, flags)
    if r is not NotImplemented:
        return r
    data = value.encode("utf-8", "surrogatepass")
    host = _pctcodec._domain_url_host(data)  # a special scheme's URL: the browser's host
    if host is not None:
        return _url_part(data, host, capsule, flags)
    if _TAB_OR_NEWLINE.search(value.strip(_C0_OR_SPACE)):
        return _part_without_tabs(value, capsule, flags)
    span = _pctcodec._domain_host(data)  # the core's host finder
    if span is None:
        return None
    raw = data[span[0]:span[1]]
    ascii = raw.decode("ascii") if raw.isascii() and b"%" not in raw else _ascii_host(raw)
    if ascii is not None:
        r = _pctcodec._domain(ascii, capsule, (flags & ~_UNICODE) | _IS_HOST)
    if ascii is None or r is NotImplemented:
        host = raw.decode("utf-8", "surrogatepass")
        start = len(data[:span[0]].decode("utf-8", "surrogatepass"))
        raise HostError("the host %r is no domain name" % host, start)
    if r and flags & _UNICODE:
        r = _to_unicode(r)
    return r


# The parser's refusals of a URL for its port, not its host: worded as the
# URL's (the batch engine's PORT_REASON)
_URL_REASONS = ("the port is not a number", "the port is past 65535")


def _url_part(data, host, capsule, flags):
    """The part of the host the URL Standard's parser read in the URL whose
    UTF-8 bytes are data; a URL the parser rejects raises HostError."""
    if isinstance(host, tuple):  # position: where the host starts, as for other HostErrors
        at = _index_of(data, host[0])
        span = _pctcodec._domain_host(data)
        if span is None or host[1] in _URL_REASONS:
            raise HostError("the URL Standard's parser refuses the URL: %s" % host[1], at)
        start = _index_of(data, span[0])
        raise HostError("the host %r is no domain name (the URL Standard's parser: %s at %d)"
                        % (data[span[0]:span[1]].decode("utf-8", "surrogatepass"), host[1], at), start)
    if not host:
        return None  # an IP address
    r = _pctcodec._domain(host, capsule, (flags & ~_UNICODE) | _IS_HOST)
    if r and flags & _UNICODE:
        r = _to_unicode(r)
    return r


def _check(value, name):
    if not isinstance(value, str):
        raise TypeError("%s() argument must be str, not %.200s" % (name, type(value).__name__))


def registered_domain(value, *, private=False, unicode=False, suffix_list=None):
    """The registered domain of a URL's host: its public suffix and one label
    more, by the Public Suffix List.

    Parameters
    ----------
    value : str
        A URL, ``//host...`` reference, or bare host (with userinfo or port).
    private : bool
        Use the list's PRIVATE section as well as ICANN's (default: ICANN only).
    unicode : bool
        Give ``xn--`` labels in Unicode (default: lowercase ASCII).
    suffix_list : None, path or SuffixList
        The list (default: the snapshot shipped with pctcodec).

    Returns
    -------
    str or None
        None when the host has no registered domain (it is a public suffix,
        an IP address, empty, or has an empty label).

    Raises
    ------
    HostError
        The host holds a character no host may hold, or IDNA rejects it.
    TypeError
        value is not a str.

    Examples
    --------
    >>> registered_domain("https://news.BBC.co.uk./x")
    'bbc.co.uk'
    >>> registered_domain("user.github.io", private=True)
    'user.github.io'
    """
    _check(value, "registered_domain")
    return _part(value, _list(suffix_list), _flags(_REGISTERED, private, unicode))


def public_suffix(value, *, private=False, unicode=False, suffix_list=None):
    """The public suffix of a URL's host by the Public Suffix List.

    Parameters
    ----------
    value : str
        As for ``registered_domain``.
    private : bool, optional
        As for ``registered_domain``.
    unicode : bool, optional
        As for ``registered_domain``.
    suffix_list : str, os.PathLike, SuffixList or None, optional
        As for ``registered_domain``.

    Returns
    -------
    str or None
        The suffix (an unlisted TLD is one by the default rule ``*``); None
        for an IP address, an empty host or one with an empty label.

    Raises
    ------
    HostError, TypeError
        As for ``registered_domain``.

    Examples
    --------
    >>> public_suffix("http://a.b.c.kobe.jp/")
    'c.kobe.jp'
    """
    _check(value, "public_suffix")
    return _part(value, _list(suffix_list), _flags(_SUFFIX, private, unicode))


def domain_parts(value, *, private=False, unicode=False, suffix_list=None):
    """The subdomain, registered domain and public suffix of a URL's host.

    Parameters
    ----------
    value : str
        As for ``registered_domain``.
    private : bool, optional
        As for ``registered_domain``.
    unicode : bool, optional
        As for ``registered_domain``.
    suffix_list : str, os.PathLike, SuffixList or None, optional
        As for ``registered_domain``.

    Returns
    -------
    DomainParts
        ``subdomain`` is ``""`` when the host is its registered domain, and
        None (as ``registered_domain`` is) when it has none.

    Raises
    ------
    HostError, TypeError
        As for ``registered_domain``.

    Examples
    --------
    >>> domain_parts("https://www.example.co.uk/")
    DomainParts(subdomain='www', registered_domain='example.co.uk', public_suffix='co.uk')
    """
    _check(value, "domain_parts")
    capsule = _list(suffix_list)
    return DomainParts(*(_part(value, capsule, _flags(part, private, unicode))
                         for part in (_SUBDOMAIN, _REGISTERED, _SUFFIX)))


def _list(source):
    if source is None and _default:
        return _default[0]._capsule
    return suffix_list(source)._capsule


# ---------------------------------------------------------------- columns

def _op(name, part, private, unicode, suffix_list, threads, on_error):
    capsule = _list(suffix_list)
    flags = _flags(part, private, unicode)

    def one(value):
        _check(value, name[:-5])
        return _part(value, capsule, flags)

    return _Op(name, one, threads, safe=capsule, opts=flags, on_error=on_error)


def _run(op, values, rejects, failures=False):
    """The op over values; its failed rows to rejects (when a list), kept
    in op.raw too with `failures`."""
    _check_on_error(op.name, op.on_error, rejects)
    if rejects is None and not failures:
        op.unrecorded()
    elif rejects is None and op.raw is not None:
        op.failed_rows()  # which rows failed, no exception made
    result = _dispatch(op, values)
    if rejects is not None and op.raw:
        _add_rejects(rejects, op.raw)
    return result


def registered_domain_many(values, *, private=False, unicode=False, suffix_list=None,
                           threads=None, on_error="raise", rejects=None):
    """registered_domain() over every value of a column (None where a row
    has no registered domain).

    Parameters
    ----------
    values : iterable of str or None, Arrow array, pandas or polars Series
        The column.
    private : bool, optional
        As for ``registered_domain``.
    unicode : bool, optional
        As for ``registered_domain``.
    suffix_list : str, os.PathLike, SuffixList or None, optional
        As for ``registered_domain``.
    threads : int or None, optional
        Threads for Arrow input, as for ``pctcodec.normalize_many``.
    on_error : {"raise", "null", "keep"}, optional
        What a failing row gives: its error raised, None, or its value.
    rejects : list or None, optional
        Gets a ``Reject`` per failed row.

    Returns
    -------
    list of str or None
        For a list or any other iterable (None where there is none).
    pyarrow.Array or pyarrow.ChunkedArray
        For Arrow input: the same kind and string type, nulls kept.
    pandas.Series or polars.Series
        For a Series: the same index and name.

    Raises
    ------
    HostError
        A row whose host no host may be (naming its index), under
        ``on_error="raise"``.
    TypeError
        A value that is not str or None, or ``values`` that is not a column.

    Examples
    --------
    >>> registered_domain_many(["http://a.example.com/", "127.0.0.1", None])
    ['example.com', None, None]
    """
    op = _op("registered_domain_many", _REGISTERED, private, unicode, suffix_list, threads,
             on_error)
    return _run(op, values, rejects)


def public_suffix_many(values, *, private=False, unicode=False, suffix_list=None, threads=None,
                       on_error="raise", rejects=None):
    """public_suffix() over every value of a column.

    Parameters
    ----------
    values : iterable of str or None, Arrow array, pandas or polars Series
        The column.
    private : bool, optional
        As for ``registered_domain``.
    unicode : bool, optional
        As for ``registered_domain``.
    suffix_list : str, os.PathLike, SuffixList or None, optional
        As for ``registered_domain``.
    threads : int or None, optional
        Threads for Arrow input, as for ``pctcodec.normalize_many``.
    on_error : {"raise", "null", "keep"}, optional
        What a failing row gives: its error raised, None, or its value.
    rejects : list or None, optional
        Gets a ``Reject`` per failed row.

    Returns
    -------
    list of str or None
        For a list or any other iterable (None where there is none).
    pyarrow.Array or pyarrow.ChunkedArray
        For Arrow input: the same kind and string type, nulls kept.
    pandas.Series or polars.Series
        For a Series: the same index and name.

    Raises
    ------
    HostError
        A row whose host no host may be (naming its index), under
        ``on_error="raise"``.
    TypeError
        A value that is not str or None, or ``values`` that is not a column.

    Examples
    --------
    >>> public_suffix_many(["http://a.example.co.uk/", "x.unlisted"])
    ['co.uk', 'unlisted']
    """
    op = _op("public_suffix_many", _SUFFIX, private, unicode, suffix_list, threads, on_error)
    return _run(op, values, rejects)


def domain_parts_many(values, *, private=False, unicode=False, suffix_list=None, threads=None,
                      on_error="raise", rejects=None):
    """domain_parts() over a column: what comes back has several parts, as
    split_many's result has:

    - a list (or other iterable) -> a list of ``DomainParts`` (None for a
      None value, and for a failed row under on_error "null" or "keep");
    - a pyarrow Array or ChunkedArray -> a ``StructArray`` (chunked in,
      chunked out) of fields ``subdomain``, ``registered_domain`` and
      ``public_suffix`` of the input's string type; a null row, and a
      failed row under on_error "null" or "keep", is a null struct;
    - a pandas Series -> a DataFrame with those three columns and the same
      index; a polars Series -> a polars DataFrame.

    Each part is one pass of the batch engine over the column. Under
    on_error "keep" a failed row has no parts (as with "null"): its value
    is not any of them.

    Parameters
    ----------
    values : iterable of str or None, Arrow array, pandas or polars Series
        The column.
    private : bool, optional
        As for ``registered_domain``.
    unicode : bool, optional
        As for ``registered_domain``.
    suffix_list : str, os.PathLike, SuffixList or None, optional
        As for ``registered_domain``.
    threads : int or None, optional
        Threads for Arrow input, as for ``pctcodec.normalize_many``.
    on_error : {"raise", "null", "keep"}, optional
        What a failing row gives: its error raised, None, or its value.
    rejects : list or None, optional
        Gets a ``Reject`` per failed row.

    Returns
    -------
    list of DomainParts or None, pyarrow.StructArray, pandas or polars DataFrame
        As listed above.

    Raises
    ------
    HostError
        A row whose host no host may be (naming its index), under
        ``on_error="raise"``.
    TypeError
        A value that is not str or None, or ``values`` that is not a column.

    Examples
    --------
    >>> domain_parts_many(["www.example.com"])
    [DomainParts(subdomain='www', registered_domain='example.com', public_suffix='com')]
    """
    kind = _column_kind(values, "domain_parts_many")
    if kind in ("list", "iterable"):
        kind = "list"
        values = values if type(values) in (list, tuple) else list(values)
    failed = set()
    columns = []
    rest = values  # the column of the passes after the first
    for k, part in enumerate((_SUBDOMAIN, _REGISTERED, _SUFFIX)):
        mode = "null" if on_error == "keep" else on_error
        op = _op("domain_parts_many", part, private, unicode, suffix_list, threads, mode)
        # the rows that fail fail alike in every pass: rejects from the first
        columns.append(_run(op, rest, rejects if k == 0 else None, failures=k == 0))
        if k == 0 and op.raw:
            # indexes alone (_Op.failed_rows), or (index, value, error) for rejects
            failed = set(op.raw) if op.rows_only else {t[0] for t in op.raw}
            rest = _nulled(values, failed)
    return _assemble(kind, values, columns, failed)


def _failed_mask(pa, n, failed, base=0):
    """A bool array of n rows, true at the rows of `failed` (indexes from
    base) among them; None when there is none."""
    end = base + n
    flags = bytearray(n)  # a byte per row, 1: failed
    bad = 0
    for i in failed:
        if base <= i < end:
            flags[i - base] = 1
            bad += 1
    if not bad:
        return None
    return pa.Array.from_buffers(pa.uint8(), n, [None, pa.py_buffer(flags)]).cast(pa.bool_())


def _nulled(values, failed):
    """A pyarrow string or large_string array (offset 0) with its failed
    rows null: its own offsets and data with a new validity bitmap, so that
    the passes after the first do not fail those rows again. Any other
    column as it is."""
    pa = sys.modules.get("pyarrow")
    if pa is None or not isinstance(values, pa.Array) or values.offset \
            or not (pa.types.is_string(values.type) or pa.types.is_large_string(values.type)):
        return values
    import pyarrow.compute as pc

    mask = _failed_mask(pa, len(values), failed)
    if mask is None:
        return values
    keep = pc.and_not(values.is_valid(), mask)  # (offset 0, no nulls: its bits are the validity)
    return pa.Array.from_buffers(values.type, len(values),
                                 [keep.buffers()[1]] + values.buffers()[1:])


_NAMES = list(DomainParts._fields)


def _assemble(kind, values, columns, failed):
    if kind == "list":
        return [None if v is None or i in failed else DomainParts(*row)
                for i, (v, row) in enumerate(zip(values, zip(*columns)))]
    if kind == "pandas":
        import pandas as pd

        return pd.DataFrame(dict(zip(_NAMES, columns)), index=values.index)
    if kind == "polars":
        import polars as pl

        return pl.DataFrame([c.alias(n) for n, c in zip(_NAMES, columns)])
    import pyarrow as pa

    if not isinstance(values, (pa.Array, pa.ChunkedArray)):
        columns = [c if isinstance(c, (pa.Array, pa.ChunkedArray)) else pa.array(c)
                   for c in columns]
        values = pa.chunked_array(values) if isinstance(columns[0], pa.ChunkedArray) \
            else pa.array(values)
    if isinstance(values, pa.ChunkedArray):
        chunks, base = [], 0
        for j in range(values.num_chunks):
            chunk = values.chunk(j)
            chunks.append(_struct(pa, chunk, [c.chunk(j) for c in columns], failed, base))
            base += len(chunk)
        typ = pa.struct([pa.field(n, columns[0].type) for n in _NAMES])
        return pa.chunked_array(chunks, type=typ)
    return _struct(pa, values, columns, failed, 0)


def _struct(pa, values, arrays, failed, base):
    """A struct per row; a null row, and a failed one (as in a list: None),
    is a null struct."""
    mask = _failed_mask(pa, len(values), failed, base)
    if mask is not None:
        if values.null_count:
            import pyarrow.compute as pc

            mask = pc.or_(mask, values.is_null())
    else:
        mask = values.is_null() if values.null_count else None
    return pa.StructArray.from_arrays(arrays, names=_NAMES, mask=mask)
