"""The table mode of the command line: one column of a CSV, TSV or Parquet
file through a batch function (``pctcodec COMMAND --column NAME FILE``).

CSV and TSV are read as bytes by the streaming tokenizer of ``_csv`` and
written back with only the chosen field changed: every other byte (the other
fields, their quoting, the delimiters, the LF, CRLF or CR line endings, blank
lines, a UTF-8 byte order mark) is copied as it was. A field of the column
that was quoted stays quoted, with its inner quotes doubled; an unquoted one
is quoted if its new value needs it (a delimiter, a quote or a line break in
it). The values are decoded as UTF-8; a byte that is not valid UTF-8 is
handled as in the line mode (see ``_streams``).

Parquet is read with pyarrow row group by row group and written with the
same schema (column types and order, metadata), compression and row groups;
nulls stay null.

Rows go through the batch function in chunks of ``--chunk-size`` rows, so
memory does not grow with the file. A value that fails stops the run
(``--on-error stop``), or its field becomes empty / null (``null``) or stays
as it was (``keep``), and the row goes to ``--rejects``. A CSV row is named
by its file line (the line it starts on, 1-based, the header and blank lines
counted) in messages, in the ``check`` report and in the rejects file, which
also gives ROW, the 1-based number of the data row (the header and blank
lines not counted); a Parquet row by ROW. A CSV record whose field count is
not the header's, or whose quoted field is never closed, is a failed row
written back as it was (see docs/csv.md).

A command may add columns instead of changing one (``split --column url``):
it is an ``AddColumns``, whose new columns are inserted right after the
column, everything else (that column too) written as it was. See
``AddColumns`` for the hook.
"""
import array
import functools
import io
import itertools
import os
import sys

from .. import PercentEncodingError, ResolveError, batch, check
from .. import _pctcodec
from ._csv import MALFORMED, PLAIN, QUOTED, RAGGED, Reader
from ._progress import Progress
from ._streams import Output, binary_stdin, check_reason
from .._typecheck import cast, overload

TYPE_CHECKING = False  # typing is not imported at run time: annotations in quotes
if TYPE_CHECKING:
    from argparse import Namespace
    from types import ModuleType
    from typing import Any, BinaryIO, Callable, Iterator, Sequence

    import pyarrow
    import pyarrow.parquet

    from ._commands import Command
    from ._streams import BinaryReader, BinaryWriter, Failures
    from ..batch import Reject

    # a value that failed before the batch function: (index, value, error)
    Failed = tuple[int, object, BaseException]

TABLE_FORMATS = ("csv", "tsv", "parquet")
CHUNK_ROWS = 32768


class TableError(Exception):
    """The file or the command line does not fit: exit status 2."""


class AddColumns:
    """A command that adds columns after the column it reads: the hook of the
    table mode for such commands (``split``; any other passes one to ``run``
    in place of a ``_commands.Command``).

    ``name``: the command's name. ``suffixes``: the new columns, named after
    the column and "_" (``url`` -> ``url_host``); a name the table already
    has is an error (exit status 2). ``many(values, threads=, on_error=,
    rejects=)``: for a chunk of the column, a list of texts (None for a
    missing value) or a pyarrow string array, gives one new column per
    suffix, of the same kind: lists of str or None, or pyarrow arrays of the
    column's type. A value that fails goes to ``rejects`` as in the batch
    functions and gets None (empty in CSV, null in Parquet) in every new
    column, under --on-error null and keep alike: the column it came from is
    written as it was either way. ``arrow``: whether a CSV chunk goes
    through Arrow (for a function whose list output is a Python object per
    row, as split's named tuples), not through lists of str.
    """

    def __init__(self, name: str, suffixes: "Sequence[str]",
                 many: "Callable[..., list[Any]]", arrow: bool = True) -> None:
        self.name = name
        self.suffixes = tuple(suffixes)
        self.many = many
        self.arrow = arrow

    def names(self, column: str) -> "list[str]":
        """The new columns' names for the column `column`."""
        return [f"{column}_{suffix}" for suffix in self.suffixes]


def _added_names(names: "list[str]", column: str, command: AddColumns) -> "list[str]":
    """The names of the columns `command` adds after `column`; TableError
    when one is taken."""
    added = command.names(column)
    taken = [name for name in added if name in names]
    if taken:
        raise TableError(f"the table already has a column named {taken[0]!r}, which "
                         f"{command.name} would add")
    return added


class Column:
    """A command applied to the values of a column, chunk by chunk; failures
    go to a _streams.Failures."""

    def __init__(self, command: "Command | AddColumns", threads: "int | None",
                 failures: "Failures") -> None:
        self.command = command
        self.threads = threads
        self.failures = failures
        self.invalid = 0

    @overload
    def transform(self, values: "list[str | None]", first_row: int, on_error: str,
                  failed: "Sequence[Failed]" = (), lines: "Sequence[int] | None" = None,
                  bases: "object" = None) -> "list[str | None]": ...
    @overload
    def transform(self, values: "pyarrow.Array", first_row: int, on_error: str,
                  failed: "Sequence[Failed]" = (), lines: "Sequence[int] | None" = None,
                  bases: "object" = None) -> "pyarrow.Array": ...

    def transform(self, values: "list[str | None] | pyarrow.Array", first_row: int, on_error: str,
                  failed: "Sequence[Failed]" = (), lines: "Sequence[int] | None" = None,
                  bases: "object" = None) -> "list[str | None] | pyarrow.Array":
        """The results for a list of texts (None for a value that fails) or an
        Arrow array (under on_error "null" or "keep"). `failed`: (index,
        value, error) of the values that failed before (None in values);
        `lines`: the file line of each value (CSV); `bases`: resolve's base
        column for these rows (--base-column)."""
        rejects: "list[Reject]" = []
        if bases is not None:
            assert not isinstance(self.command, AddColumns)  # resolve
            out = self.command.many(values, threads=self.threads, on_error=on_error,
                                    rejects=rejects, bases=bases)
        else:
            out = self.command.many(values, threads=self.threads, on_error=on_error,
                                    rejects=rejects)
        if rejects or failed:
            found = [(r.index, values[r.index] if isinstance(values, list) else r.value,
                      r.error if bases is None else _base_error(bases, r.index, r.error))
                     for r in rejects]
            for index, value, error in sorted([*failed, *found], key=lambda f: f[0]):
                self.failures.add(first_row + index, value, error,
                                  None if lines is None else lines[index])
        return out

    def report(self, values: "list[str | None] | pyarrow.Array", first_row: int,
               lines: "Sequence[int] | None" = None) -> bytes:
        """``LINE:POSITION: message`` lines for the values that are not valid
        URIs, LINE being the file line of each value (`lines`, CSV) or else
        its row."""
        found = []
        if isinstance(values, list) and not isinstance(self.command, AddColumns):  # check only
            values = self.command.prepare_all(values)
        positions = batch.check_many(values, threads=self.threads)
        if not isinstance(positions, list):  # Arrow in, Arrow out
            positions = positions.to_pylist()
        for index, position in enumerate(positions):
            if position is None:
                continue
            value = values[index]
            if value is None:  # check_many gives no position for a null
                continue
            if not isinstance(value, str):  # an Arrow scalar
                value = value.as_py()
            self.invalid += 1
            try:
                check(value)
            except PercentEncodingError as exc:
                where = first_row + index if lines is None else lines[index]
                found.append(f"{where}:{exc.position}: {check_reason(value, exc)}\n")
        return "".join(found).encode("utf-8", "backslashreplace")


def _base_error(bases: "object", index: int, error: BaseException) -> BaseException:
    """resolve's error for a row whose base (--base-column) cannot be used
    (ResolveError): one that shows that base, the value being the link."""
    if not isinstance(error, ResolveError):
        return error
    base = bases[index]  # type: ignore[index]
    if not isinstance(base, str) and base is not None:  # an Arrow scalar
        base = base.as_py()
    return ResolveError(f"the base {base!r}: {error.reason}", error.position)


# ---------------------------------------------------------------- CSV


def _shown(name: str) -> str:
    """A column name for a message, quoted; a byte that is not UTF-8 (read
    as a lone surrogate) shown as \\xNN."""
    try:
        raw = name.encode("utf-8", "surrogateescape")
    except UnicodeEncodeError:  # a surrogate no byte was read as
        return repr(name)
    return repr(name) if raw == name.encode("utf-8", "surrogatepass") \
        else "'%s'" % raw.decode("utf-8", "backslashreplace")


def _column_index(names: "list[str]", column: str) -> int:
    found = [i for i, name in enumerate(names) if name == column]
    if not found:
        hint = ""
        if names and names[0].startswith(("\udcff\udcfe", "\udcfe\udcff")):  # FF FE, FE FF
            hint = ("; the file starts with a UTF-16 byte order mark, and CSV is read as "
                    "UTF-8: convert it first (iconv -f UTF-16 -t UTF-8)")
        raise TableError(f"no column {column!r}; the columns are: "
                         f"{', '.join(map(_shown, names))}{hint}")
    if len(found) > 1:
        raise TableError(f"more than one column is named {column!r}")
    return found[0]


def _csv(column: Column, infile: "BinaryReader", out: Output, name: str, delimiter: bytes,
         chunk_rows: int, progress: Progress, base_name: "str | None" = None) -> None:
    checking = column.command.name == "check"
    adding = isinstance(column.command, AddColumns)
    keep = column.failures.on_error == "keep"
    reader = Reader(infile, delimiter)
    try:
        header = reader.header()
    except ValueError as exc:
        raise TableError(f"the header: {exc}") from None
    if header is None:
        raise TableError(f"no header: the file is empty, so there is no column {name!r}")
    raw, names = header
    index = _column_index(names, name)
    if isinstance(column.command, AddColumns):
        raw = _added_header(raw, index, _added_names(names, name, column.command), delimiter)
    if not checking:
        out.write(reader.bom + raw)
    progress.update(len(reader.bom) + reader.done)
    done = reader.done
    for gaps, fields, flags, line_words, counts, bases in _chunks(reader, names, index, chunk_rows,
                                                                  base_name):
        first = reader.rows - len(fields) + 1
        lines = memoryview(line_words).cast("q")
        values, failed = _failed_rows(fields, flags, counts, len(names))
        column.failures.rows += len(values)
        if checking:
            for index_, value, error in failed:
                column.failures.add(first + index_, value, error, lines[index_])
            out.write(column.report(values, first, lines))
        elif adding and not failed and (added := _added_columns(column, values, first, lines,
                                                                 delimiter)) is not None:
            gaps, written, flags = _interleaved(gaps, values, flags, added, delimiter)
            out.write(_pctcodec._csv_join(gaps, written, flags, delimiter))
        else:
            results = column.transform(values, first, "null", failed, lines, bases)
            if adding:
                gaps, written, flags = _added_fields(gaps, values, flags, failed,
                                                     cast("list[list[str | None]]", results),
                                                     delimiter)
            else:
                written = _failed_fields(results, values, flags, failed, keep)
            out.write(_pctcodec._csv_join(gaps, written, flags, delimiter))
        progress.update(reader.done - done)
        done = reader.done


def _chunks(reader: Reader, names: "list[str]", index: int, rows: int, base_name: "str | None"
            ) -> "Iterator[tuple[list[bytes], list[str | bytes], bytes, bytes, list[int], list[str | None] | None]]":
    """reader's chunks around field `index`, each with the values of the
    column `base_name` (resolve's --base-column; None without it): a
    malformed field of it is read as its raw text."""
    if base_name is None:
        for gaps, fields, flags, lines, counts in reader.chunks(index, len(names), rows):
            yield gaps, fields, flags, lines, counts, None
        return
    also = _column_index(names, base_name)
    for (gaps, fields, flags, lines, counts), others, _ in reader.chunks_with(index, also, len(names),
                                                                            rows):
        bases = [v.decode("utf-8", "surrogateescape") if isinstance(v, bytes) else v for v in others]
        yield gaps, fields, flags, lines, counts, cast("list[str | None]", bases)


def _failed_rows(values: "list[str | bytes]", flags: bytes, counts: "list[int]",
                 width: int) -> "tuple[list[str | None], list[tuple[int, str, BaseException]]]":
    """The values (the list itself, changed in place), and (index, raw
    text, error) of the rows that fail as they are read: a field with text
    after its closing quote, a record without the header's `width` fields,
    a quoted field never closed (whose values, raw bytes, become None)."""
    failed: "list[tuple[int, str, BaseException]]" = []
    if any(flags):
        bad = iter(counts)  # a count for each RAGGED or UNCLOSED_ROW row, in order
        for index, flag in enumerate(flags):
            if flag < MALFORMED:
                continue
            if flag == MALFORMED:
                error = ValueError("text after the closing quote of a quoted field")
            elif flag == RAGGED:
                error = ValueError(f"{next(bad)} fields where the header has {width}")
            else:
                error = ValueError(f"the quoted field {next(bad)} is not closed by the end of "
                                   "the file (the row is read to the end of its line)")
            raw = cast(bytes, values[index]).decode("utf-8", "surrogateescape")
            failed.append((index, raw, error))
            cast("list[str | bytes | None]", values)[index] = None
    return cast("list[str | None]", values), failed


def _field_bytes(text: str, flag: int) -> bytes:
    """The raw bytes of a field read as `text` with `flag` (MALFORMED: text
    is its raw bytes already)."""
    data = text.encode("utf-8", "surrogateescape")
    if flag == QUOTED:  # well-formed: its raw bytes again
        data = b'"' + data.replace(b'"', b'""') + b'"'
    return data


def _added_header(raw: bytes, index: int, added: "list[str]", delimiter: bytes) -> bytes:
    """The header record `raw` with the names `added` after field `index`."""
    gaps, values, flags, _, _ = next(Reader(io.BytesIO(raw), delimiter).chunks(index, 0, 1))
    fields: "list[str | bytes]" = [_field_bytes(cast(str, values[0]), flags[0]), *added]
    return _pctcodec._csv_join([gaps[0], *[delimiter] * len(added), gaps[1]], fields,
                               bytes(len(fields)), delimiter)


def _added_fields(gaps: "list[bytes]", values: "list[str | None]", flags: bytes,
                  failed: "list[tuple[int, str, BaseException]]",
                  columns: "list[list[str | None]]",
                  delimiter: bytes) -> "tuple[list[bytes], list[str | bytes], bytes]":
    """_csv_join's (gaps, fields, flags) for a chunk whose rows get the
    fields of `columns` after their field of the column, which is written as
    it was (None in a new column: an empty field)."""
    raws = {index: raw for index, raw, _ in failed}
    new_gaps = [gaps[0]]
    fields: "list[str | bytes]" = []
    between = [delimiter] * len(columns)
    for i, value in enumerate(values):
        text = raws.get(i, value)
        assert text is not None  # a value is None for a failed row only, which raws holds
        fields.append(_field_bytes(text, flags[i]))
        if flags[i] < RAGGED:  # a RAGGED or UNCLOSED_ROW record is written as it was
            fields += [b"" if col[i] is None else cast(str, col[i]) for col in columns]
            new_gaps += between
        new_gaps.append(gaps[i + 1])
    return new_gaps, fields, bytes(len(fields))


def _added_columns(column: Column, values: "list[str | None]", first: int,
                   lines: "Sequence[int]", delimiter: bytes) -> "list[list[str | bytes]] | None":
    """The new columns of a chunk without failed rows, as fields: on Arrow
    (_added_arrow) for a command that asks for it, else from the batch
    function's lists of str, a None as "". (None: row by row: _added_fields.)"""
    if cast(AddColumns, column.command).arrow:
        added = _added_arrow(column, values, first, lines, delimiter)
        if added is not None:
            return added
    found = cast("list[list[str | None]]", column.transform(values, first, "null", (), lines))
    return [[v if v is not None else "" for v in new] if None in new else new  # type: ignore[misc]
            for new in found]


def _added_arrow(column: Column, values: "list[str | None]", first: int,
                 lines: "Sequence[int]", delimiter: bytes) -> "list[list[str | bytes]] | None":
    """The new columns of a chunk (an AddColumns), computed on Arrow with
    no Python code per row: the chunk made an Arrow array from its joined
    text and the lengths of its values; the batch function's outputs (a
    null as "") joined row by row with a byte UTF-8 never holds (0xFF)
    after each field, and that text split back into fields: bytes, written
    as they are, or str (quoted where needed) for a column holding a
    character CSV quotes. None when pyarrow is missing or a value is not
    valid UTF-8 (then the batch function takes the list: _added_fields).
    pyarrow.array, pyarrow.scalar and to_numpy are avoided: each imports
    pandas (a second)."""
    try:
        import pyarrow as pa
        import pyarrow.compute as pc
    except ImportError:
        return None
    text = "".join(cast("list[str]", values))
    try:
        data = text.encode("utf-8")
    except UnicodeEncodeError:  # a byte that was not UTF-8 (see _streams)
        return None
    n = len(values)
    texts = cast("list[str]", values)  # (no None: the chunk has no failed row)
    lengths = map(len, texts) if len(data) == len(text) else map(len, map(str.encode, texts))
    offsets = array.array("q", itertools.accumulate(lengths, initial=0))
    chunk = pa.Array.from_buffers(pa.large_string(), n,
                                  [None, pa.py_buffer(offsets), pa.py_buffer(data)])
    found = cast("list[pyarrow.Array]", column.transform(chunk, first, "null", (), lines))
    end, nothing = _separators(pa, n)
    binary = pa.large_binary()
    parts = []
    for new in found:
        parts += [new.cast(binary), end]
    joined = pc.binary_join_element_wise(
        *parts, nothing, options=pc.JoinOptions(null_handling="replace", null_replacement=""))
    _, _, buffer = joined.buffers()
    pieces = (b"" if buffer is None else buffer.to_pybytes()).split(b"\xff")
    width = len(found)
    added: "list[list[str | bytes]]" = []
    for k, new in enumerate(found):
        fields: "list[str | bytes]" = list(pieces[k:width * n:width])
        _, _, buffer = new.buffers()
        own = b"" if buffer is None else buffer.to_pybytes()
        if any(c in own for c in (b'"', b"\r", b"\n", delimiter)):
            # str, which _csv_join quotes where needed (bytes it writes as they are)
            fields = list(map(bytes.decode, cast("list[bytes]", fields)))
        added.append(fields)
    return added


@functools.lru_cache(maxsize=2)  # (the chunks of a file are of one size but the last)
def _separators(pa: "ModuleType", n: int) -> "tuple[pyarrow.Array, pyarrow.Array]":
    """n times b"\\xff", and n times b"", as Arrow large_binary arrays."""
    binary = pa.large_binary()
    end = pa.Array.from_buffers(binary, n, [None, pa.py_buffer(array.array("q", range(n + 1))),
                                            pa.py_buffer(b"\xff" * n)])
    nothing = pa.Array.from_buffers(binary, n, [None, pa.py_buffer(bytes(8 * (n + 1))),
                                                pa.py_buffer(b"")])
    return end, nothing


def _interleaved(gaps: "list[bytes]", values: "list[str | None]", flags: bytes,
                 columns: "list[list[str | bytes]]", delimiter: bytes
                 ) -> "tuple[list[bytes], list[str | bytes], bytes]":
    """_csv_join's (gaps, fields, flags) for a chunk without failed rows
    whose rows get the fields of `columns` after their field of the column:
    built by slices, not row by row. A field is written back as read (a
    quoted one quoted again: the same bytes), but for a plain one holding a
    quote, which _csv_join would quote: that one is written as its bytes."""
    n, width = len(values), len(columns) + 1
    fields: "list[str | bytes | None]" = [None] * (n * width)
    fields[0::width] = values
    for k, new in enumerate(columns, 1):
        fields[k::width] = new
    if '"' in "".join(cast("list[str]", values)):
        for i, value in enumerate(values):
            if flags[i] == PLAIN and '"' in cast(str, value):
                fields[i * width] = cast(str, value).encode("utf-8", "surrogateescape")
    new_gaps = [delimiter] * (n * width + 1)
    new_gaps[0::width] = gaps
    new_flags = bytearray(n * width)
    new_flags[0::width] = flags
    return new_gaps, cast("list[str | bytes]", fields), bytes(new_flags)


def _failed_fields(results: "list[str | None]", values: "list[str | None]", flags: bytes,
                   failed: "list[tuple[int, str, BaseException]]", keep: bool) -> "list[str | bytes]":
    """The fields to write (the results list itself, changed in place):
    for those that failed (None in results) the bytes as they were (keep),
    or empty; a RAGGED or UNCLOSED_ROW record is written as it was either
    way (it has no field of the column to empty)."""
    fields = cast("list[str | bytes | None]", results)
    if None not in results:
        return cast("list[str | bytes]", fields)
    raws = {index: raw for index, raw, _ in failed}
    for index, result in enumerate(results):
        if result is not None:
            continue
        quoted = flags[index] != PLAIN
        if not keep and flags[index] < RAGGED:
            fields[index] = b'""' if quoted else b""
            continue
        text = raws.get(index, values[index])
        assert text is not None  # a value is None for a failed row only, which raws holds
        fields[index] = _field_bytes(text, flags[index])
    return cast("list[str | bytes]", fields)


# ---------------------------------------------------------------- Parquet


def _pyarrow() -> "tuple[ModuleType, ModuleType]":
    try:
        import pyarrow
        import pyarrow.parquet
    except ImportError:
        raise TableError("Parquet files need pyarrow: pip install pyarrow") from None
    return pyarrow, pyarrow.parquet


def _is_string(pa: "ModuleType", type_: "pyarrow.DataType") -> bool:
    is_view = getattr(pa.types, "is_string_view", None)  # pyarrow >= 16
    return bool(pa.types.is_string(type_) or pa.types.is_large_string(type_)
                or (is_view is not None and is_view(type_)))


def _plain_type(pa: "ModuleType", type_: "pyarrow.DataType") -> "pyarrow.DataType | None":
    """The string type a column's values are transformed as, or None when it
    holds no text: a dictionary-encoded column (how pandas writes a
    categorical) by its values' type, a column of type null (all null) as
    string."""
    if pa.types.is_dictionary(type_):
        type_ = type_.value_type
    elif pa.types.is_null(type_):
        return pa.string()
    return type_ if _is_string(pa, type_) else None


def _plain_values(pa: "ModuleType", values: "pyarrow.Array") -> "pyarrow.Array":
    """The values as a plain string array (see _plain_type); row numbers stay."""
    if pa.types.is_dictionary(values.type):
        return values.dictionary_decode()
    if pa.types.is_null(values.type):
        return pa.nulls(len(values), pa.string())
    return values


def _typed_as(pa: "ModuleType", result: "pyarrow.Array", type_: "pyarrow.DataType") -> "pyarrow.Array":
    """A transformed column back in the column's own type."""
    if pa.types.is_dictionary(type_):
        return result.dictionary_encode().cast(type_)
    if pa.types.is_null(type_):
        return pa.nulls(len(result))  # null in, null out
    return result


def _compression(metadata: "pyarrow.parquet.FileMetaData") -> "str | dict[str, str]":
    """The compression of each column chunk of the first row group, for the writer."""
    if metadata.num_row_groups == 0:
        return "snappy"
    group = metadata.row_group(0)
    codecs_: "dict[str, str]" = {}
    for i in range(group.num_columns):
        chunk = group.column(i)
        name = chunk.compression.lower()
        codecs_[chunk.path_in_schema] = "none" if name == "uncompressed" else name
    return codecs_


def _open_parquet(path: str) -> "pyarrow.parquet.ParquetFile":
    pa, pq = _pyarrow()
    try:
        # Read as a buffered stream rather than a row group at once.
        return pq.ParquetFile(path, pre_buffer=False, buffer_size=1 << 20)
    except pa.ArrowException as exc:
        raise TableError(f"not a readable Parquet file: {exc}") from None


def _parquet(column: Column, source: "pyarrow.parquet.ParquetFile", out: "Output | BinaryWriter",
             name: str, chunk_rows: int, progress: Progress, base_name: "str | None" = None) -> None:
    pa, pq = _pyarrow()
    schema = source.schema_arrow
    index = _column_index(schema.names, name)
    base_index = None if base_name is None else _column_index(schema.names, base_name)
    if base_index is not None and _plain_type(pa, schema.field(base_index).type) is None:
        raise TableError(f"column {base_name!r} is of type {schema.field(base_index).type}, "
                         "not a string type")
    type_ = schema.field(index).type
    plain = _plain_type(pa, type_)
    if plain is None:
        raise TableError(f"column {name!r} is of type {type_}, not a string type")
    checking = column.command.name == "check"
    adding = isinstance(column.command, AddColumns)
    on_error = "keep" if column.failures.on_error == "keep" else "null"
    out_schema = schema
    added: "list[pyarrow.Field]" = []
    if isinstance(column.command, AddColumns):  # the new columns after the column, of its type
        added = [pa.field(n, plain) for n in _added_names(schema.names, name, column.command)]
        fields = list(schema)
        fields[index + 1:index + 1] = added
        out_schema = pa.schema(fields, metadata=schema.metadata)
    writer: "pyarrow.parquet.ParquetWriter | None" = None
    if not checking:
        metadata = source.metadata
        compression = _compression(metadata)
        if isinstance(compression, dict):  # the new columns compressed as the column
            codec = compression.get(schema.field(index).name, "snappy")
            compression.update((field.name, codec) for field in added)
        options: "dict[str, object]" = {"compression": compression}
        if metadata.format_version in ("1.0", "2.4", "2.6"):
            options["version"] = metadata.format_version
        writer = pq.ParquetWriter(out, out_schema, **options)
    row = 0
    try:
        # Row group by row group, each written as one: the file keeps its row groups.
        for group in range(source.num_row_groups):
            batches: "list[pyarrow.RecordBatch]" = []
            for chunk in source.iter_batches(batch_size=chunk_rows, row_groups=[group]):
                values = _plain_values(pa, chunk.column(index))
                if checking:
                    out.write(column.report(values, row + 1))
                    column.failures.rows += len(values)
                else:
                    arrays = list(chunk.columns)
                    bases = None if base_index is None else _plain_values(pa, chunk.column(base_index))
                    if bases is not None:
                        arrays[index] = _typed_as(pa, column.transform(values, row + 1, on_error,
                                                                       bases=bases), type_)
                    elif adding:
                        arrays[index + 1:index + 1] = column.transform(values, row + 1, on_error)
                    else:
                        arrays[index] = _typed_as(pa, column.transform(values, row + 1, on_error), type_)
                    column.failures.rows += len(values)
                    batches.append(pa.RecordBatch.from_arrays(arrays, schema=out_schema))
                row += chunk.num_rows
                progress.update(chunk.num_rows)
            if writer is not None:
                table = pa.Table.from_batches(batches, schema=out_schema)
                writer.write_table(table, row_group_size=max(1, table.num_rows))
    finally:
        if writer is not None:
            writer.close()


# ---------------------------------------------------------------- driver


def table_format(path: str, given: "str | None") -> str:
    """The format named by --format, or else by the file's extension (CSV for stdin)."""
    if given:
        return given
    if path == "-":
        return "csv"
    extension = os.path.splitext(path)[1].lower().lstrip(".")
    if extension not in TABLE_FORMATS:
        raise TableError(f"unknown extension {('.' + extension) if extension else '(none)'}; "
                         f"give --format {{{','.join(TABLE_FORMATS)}}}")
    return extension


def _check_output_format(fmt: str, output: "str | None") -> None:
    """-o OUT is written in the input's format: an extension that names the
    other kind (Parquet for a CSV, CSV or TSV for a Parquet file) is an error."""
    if output is None:
        return
    extension = os.path.splitext(output)[1].lower().lstrip(".")
    if extension in TABLE_FORMATS and (extension == "parquet") != (fmt == "parquet"):
        raise TableError(f"-o {output}: the output is written as {fmt.upper()} like the input, "
                         f"not as {extension.upper()}")


def run(args: "Namespace", command: "Command | AddColumns", failures: "Failures") -> int:
    """Run the table mode; return the exit status. Errors are raised:
    TableError (status 2), _streams.RowFailure (status 1), OSError and
    _streams.OutputError (status 2)."""
    fmt = table_format(args.file, args.format)
    delimiter = args.delimiter
    if delimiter is None:
        delimiter = "\t" if fmt == "tsv" else ","
    if len(delimiter) != 1 or delimiter in '"\r\n':
        raise TableError("--delimiter must be one character other than a quote or a line break")
    separator = delimiter.encode("utf-8")
    chunk_rows = CHUNK_ROWS if args.chunk_size is None else args.chunk_size
    if chunk_rows < 1:
        raise TableError("--chunk-size must be at least 1")
    checking = command.name == "check"
    if fmt == "parquet":
        if args.file == "-":
            raise TableError("Parquet is read from a file, not from standard input")
        if args.output is None and not checking:
            raise TableError("Parquet output is written to a file: give -o OUT")
    _check_output_format(fmt, args.output)
    column = Column(command, args.threads, failures)
    enabled = args.progress or sys.stderr.isatty()

    infile: "BinaryReader | None" = None
    opened: "BinaryIO | None" = None  # the input file, closed here
    if fmt == "parquet":
        source = _open_parquet(args.file)
        progress = Progress(enabled, source.metadata.num_rows, "rows", args.progress)
    elif args.file == "-":
        infile = binary_stdin()
        progress = Progress(enabled, None, "B", args.progress)
    else:
        infile = opened = open(args.file, "rb")
        total = os.fstat(opened.fileno()).st_size if enabled else None
        progress = Progress(enabled, total, "B", args.progress)
    output = None
    ok = False
    try:
        output = Output(args.output)
        if infile is None:
            _parquet(column, source, output.stream if args.output else output, args.column,
                     chunk_rows, progress, getattr(args, "base_column", None))
        else:
            _csv(column, infile, output, args.column, separator, chunk_rows, progress,
                 getattr(args, "base_column", None))
        ok = True
    finally:
        progress.close()
        if output is not None:
            output.finish(ok)
        if opened is not None:
            opened.close()
    return 1 if column.invalid or failures.count else 0
