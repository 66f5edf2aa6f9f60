"""The table mode of the command line: one column of a CSV, TSV or Parquet
file through a batch function (``pctcodec COMMAND --column NAME FILE``).

CSV and TSV are read as bytes, record by record, and written back with only
the chosen field changed: every other byte (the other fields, their quoting,
the delimiters, the LF or CRLF line endings, blank lines) is copied as it was.
A field of the column that was quoted stays quoted, with its inner quotes
doubled; an unquoted one is quoted if its new value needs it (a delimiter, a
quote or a line break in it). The values are decoded as UTF-8; a byte that is
not valid UTF-8 is handled as in the line mode (see ``pctcodec.cli``).

Parquet is read with pyarrow batch by batch and written to ``-o OUT`` with the
same schema (column types and order, metadata) and compression; nulls stay
null.

Rows go through the batch function in chunks of ``--chunk-size`` rows, so
memory does not grow with the file. ROW, in messages and in the ``check``
report, is the 1-based number of the data row: the header is not counted, nor
are blank lines of a CSV file.
"""
import codecs
import os
import re
import sys
import tempfile

from . import PercentEncodingError, batch, check, normalize, quote, quote_plus, requote, unquote, unquote_plus
from ._progress import Progress
from .cli import TABLE_FORMATS, escape_undecoded, split_line

CHUNK_ROWS = 32768

# command: (batch function, single-value function, names of its options)
FUNCTIONS = {
    "quote": (batch.quote_many, quote, ("safe", "encoding", "errors")),
    "quote-plus": (batch.quote_plus_many, quote_plus, ("safe", "encoding", "errors")),
    "unquote": (batch.unquote_many, unquote, ("encoding", "errors")),
    "unquote-plus": (batch.unquote_plus_many, unquote_plus, ("encoding", "errors")),
    "requote": (batch.requote_many, requote, ()),
    "normalize": (batch.normalize_many, normalize, ("sort_query", "drop_fragment")),
}


class TableError(Exception):
    """The file or the command line does not fit: exit status 2."""


class ValueFailure(Exception):
    """A value the command fails on: exit status 1, with its row."""

    def __init__(self, row, error):
        super().__init__(f"{row}: {error}")


class Transform:
    """A command with its options, applied to a chunk of values."""

    def __init__(self, command, options, threads=None):
        self.command = command
        self.threads = threads
        self.invalid = 0
        if command == "check":
            return
        self.many, self.one, names = FUNCTIONS[command]
        self.options = {name: options[name] for name in names}
        if command.startswith("quote"):
            if self.options["safe"] is None:
                self.options["safe"] = "" if command == "quote-plus" else "/"
            if codecs.lookup(self.options["encoding"]).name == "utf-8":
                # As in the line mode: the bytes of the value are quoted as
                # they are, a byte that is not valid UTF-8 as its escape.
                self.options["errors"] = "surrogateescape"
        self.uri = command in ("requote", "normalize")

    def texts(self, values, first_row):
        """The results for a list of str (decoded with surrogateescape)."""
        if self.uri:
            values = [escape_undecoded(v) for v in values]
        return self._run(values, first_row, values)

    def arrow(self, array, first_row):
        """The result for an Arrow string array (same type, nulls kept)."""
        return self._run(array, first_row, None)

    def _run(self, values, first_row, as_list):
        try:
            return self.many(values, **self.options, threads=self.threads)
        except (ValueError, TypeError) as exc:  # UnicodeError is a ValueError
            if as_list is None:
                as_list = values.to_pylist()
            # The batch error names the index in the chunk; the single-value
            # function gives the message without it.
            index = getattr(exc, "index", None)
            suspects = [index] if isinstance(index, int) and 0 <= index < len(as_list) else []
            for index in suspects + list(range(len(as_list))):
                value = as_list[index]
                if value is None:
                    continue
                try:
                    self.one(value, **self.options)
                except (ValueError, TypeError) as single:
                    raise ValueFailure(first_row + index, single) from None
            raise ValueFailure(f"{first_row}-{first_row + len(as_list) - 1}", exc) from None

    def report(self, values, first_row):
        """``ROW:POSITION: message`` lines for the values that are not valid URIs."""
        lines = []
        positions = batch.check_many(values, threads=self.threads)
        if not isinstance(positions, list):  # Arrow in, Arrow out
            positions = positions.to_pylist()
        for index, position in enumerate(positions):
            if position is None:
                continue
            value = values[index]
            if not isinstance(value, str):  # an Arrow scalar
                value = value.as_py()
            self.invalid += 1
            try:
                check(value)
            except PercentEncodingError as exc:
                lines.append(f"{first_row + index}:{exc.position}: {exc.reason}\n")
        return "".join(lines).encode("utf-8", "backslashreplace")


# ---------------------------------------------------------------- CSV


class CsvDialect:
    """The field syntax of a CSV file with a given delimiter: fields may be
    enclosed in double quotes, a quote inside written twice."""

    QUOTED = re.compile(rb'"[^"]*(?:""[^"]*)*"')

    def __init__(self, delimiter):
        self.delimiter = delimiter
        self.needs_quotes = re.compile(re.escape(delimiter) + rb'|["\r\n]')

    def fields(self, content):
        """The raw fields of a record (without its terminator), or None if a
        quoted field is still open at the end (it goes on on the next line).
        A field that starts with a quote ends at the first delimiter after an
        even number of quotes; a quote inside an unquoted field is text."""
        parts = content.split(self.delimiter)
        if b'"' not in content:
            return parts
        fields = []
        i, n = 0, len(parts)
        while i < n:
            part = parts[i]
            i += 1
            if part.startswith(b'"'):
                while part.count(b'"') % 2:
                    if i == n:
                        return None
                    part += self.delimiter + parts[i]
                    i += 1
            fields.append(part)
        return fields

    def records(self, infile):
        """(fields, terminator, size in bytes) per record; fields is None for
        a blank line."""
        pending = []
        for line in infile:
            if pending:
                pending.append(line)
                line = b"".join(pending)
            content, end = split_line(line)
            if not content and not pending:
                yield None, line, len(line)
                continue
            fields = self.fields(content)
            if fields is None:
                if not pending:
                    pending.append(line)
                continue
            pending = []
            yield fields, end, len(line)
        if pending:
            raise TableError("a quoted field is not closed at the end of the file")

    def value(self, raw):
        """The text of a raw field, and whether it was quoted."""
        if raw.startswith(b'"'):
            if not self.QUOTED.fullmatch(raw):
                raise ValueError("text after the closing quote of a quoted field")
            raw = raw[1:-1].replace(b'""', b'"')
            return raw.decode("utf-8", "surrogateescape"), True
        return raw.decode("utf-8", "surrogateescape"), False

    def raw(self, text, quoted):
        """A value written as a field: quoted if it was, or if it must be."""
        data = text.encode("utf-8", "surrogateescape")
        if quoted or self.needs_quotes.search(data):
            return b'"' + data.replace(b'"', b'""') + b'"'
        return data


def _column_index(names, column):
    found = [i for i, name in enumerate(names) if name == column]
    if not found:
        raise TableError(f"no column {column!r}; the columns are: {', '.join(map(repr, names))}")
    if len(found) > 1:
        raise TableError(f"more than one column is named {column!r}")
    return found[0]


def _csv(transform, infile, out, column, delimiter, chunk_rows, progress):
    dialect = CsvDialect(delimiter)
    records = dialect.records(infile)
    header = next(records, None)
    while header is not None and header[0] is None:  # blank lines before the header
        out.write(header[1])
        header = next(records, None)
    if header is None:
        raise TableError(f"no header: the file is empty, so there is no column {column!r}")
    fields, end, size = header
    names = [dialect.value(raw)[0] for raw in fields]
    names[0] = names[0].lstrip("\ufeff")
    index = _column_index(names, column)
    checking = transform.command == "check"
    if not checking:
        out.write(delimiter.join(fields) + end)
    progress.update(size)

    row = 0
    while True:
        chunk, values, quoted, done = [], [], [], 0
        for fields, end, size in records:
            done += size
            chunk.append((fields, end))
            if fields is None:
                continue
            row += 1
            if len(fields) <= index:
                raise TableError(f"row {row} has {len(fields)} fields: no field for column {column!r}")
            try:
                text, was_quoted = dialect.value(fields[index])
            except ValueError as exc:
                raise ValueFailure(row, exc) from None
            values.append(text)
            quoted.append(was_quoted)
            if len(values) >= chunk_rows:
                break
        if not chunk:
            return
        first = row - len(values) + 1
        if checking:
            out.write(transform.report(values, first))
        else:
            results = iter(transform.texts(values, first))
            flags = iter(quoted)
            pieces = []
            for fields, end in chunk:
                if fields is not None:
                    fields[index] = dialect.raw(next(results), next(flags))
                    pieces.append(delimiter.join(fields))
                pieces.append(end)
            out.write(b"".join(pieces))
        progress.update(done)


# ---------------------------------------------------------------- Parquet


def _pyarrow():
    try:
        import pyarrow
        import pyarrow.parquet
    except ImportError:
        raise TableError("Parquet files need pyarrow: pip install pyarrow") from None
    return pyarrow, pyarrow.parquet


def _is_string(pa, type_):
    is_view = getattr(pa.types, "is_string_view", lambda t: False)
    return pa.types.is_string(type_) or pa.types.is_large_string(type_) or is_view(type_)


def _compression(metadata):
    """The compression of each column chunk of the first row group, for the writer."""
    if metadata.num_row_groups == 0:
        return "snappy"
    group = metadata.row_group(0)
    codecs_ = {}
    for i in range(group.num_columns):
        chunk = group.column(i)
        name = chunk.compression.lower()
        codecs_[chunk.path_in_schema] = "none" if name == "uncompressed" else name
    return codecs_


def _open_parquet(path):
    pa, pq = _pyarrow()
    try:
        # Read as a buffered stream rather than a row group at a time.
        return pq.ParquetFile(path, pre_buffer=False, buffer_size=1 << 20)
    except pa.ArrowException as exc:
        raise TableError(f"not a readable Parquet file: {exc}") from None


def _parquet(transform, source, out, column, chunk_rows, progress):
    pa, pq = _pyarrow()
    schema = source.schema_arrow
    index = _column_index(schema.names, column)
    type_ = schema.field(index).type
    if not _is_string(pa, type_):
        raise TableError(f"column {column!r} is of type {type_}, not a string type")
    checking = transform.command == "check"
    writer = None
    if not checking:
        metadata = source.metadata
        options = {"compression": _compression(metadata)}
        if metadata.format_version in ("1.0", "2.4", "2.6"):
            options["version"] = metadata.format_version
        writer = pq.ParquetWriter(out, schema, **options)
    row = 0
    try:
        for chunk in source.iter_batches(batch_size=chunk_rows):
            values = chunk.column(index)
            if checking:
                out.write(transform.report(values, row + 1))
            else:
                arrays = list(chunk.columns)
                arrays[index] = transform.arrow(values, row + 1)
                writer.write_batch(pa.RecordBatch.from_arrays(arrays, schema=schema))
            row += chunk.num_rows
            progress.update(chunk.num_rows)
    finally:
        if writer is not None:
            writer.close()


# ---------------------------------------------------------------- driver


def table_format(path, given):
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


class _Output:
    """Standard output, or a file that appears at its path only once complete."""

    def __init__(self, path, binary_stdout):
        self.path = path
        self.temp = None
        if path is None:
            self.stream = binary_stdout
            return
        folder = os.path.dirname(os.path.abspath(path))
        handle, self.temp = tempfile.mkstemp(dir=folder, prefix=".pctcodec-", suffix=".part")
        self.stream = os.fdopen(handle, "wb")

    def finish(self, ok):
        if self.temp is None:
            self.stream.flush()
            return
        self.stream.close()
        if ok:
            os.replace(self.temp, self.path)
        else:
            os.unlink(self.temp)


def run(args, options, binary_stdout):
    """Run the table mode; return the exit status. Errors are raised:
    TableError (status 2), ValueFailure (status 1), OSError."""
    fmt = table_format(args.file, args.format)
    delimiter = args.delimiter
    if delimiter is None:
        delimiter = "\t" if fmt == "tsv" else ","
    if len(delimiter) != 1 or delimiter in '"\r\n':
        raise TableError("--delimiter must be one character other than a quote or a line break")
    delimiter = delimiter.encode("utf-8")
    chunk_rows = CHUNK_ROWS if args.chunk_size is None else args.chunk_size
    if chunk_rows < 1:
        raise TableError("--chunk-size must be at least 1")
    checking = args.command == "check"
    if fmt == "parquet":
        if args.file == "-":
            raise TableError("Parquet is read from a file, not from standard input")
        if args.output is None and not checking:
            raise TableError("Parquet output is written to a file: give -o OUT")
    transform = Transform(args.command, options, args.threads)
    enabled = args.progress or sys.stderr.isatty()

    if fmt == "parquet":
        source = _open_parquet(args.file)
        total = source.metadata.num_rows
        infile = None
        progress = Progress(enabled, total, "rows", args.progress)
    else:
        infile = binary_stdin() if args.file == "-" else open(args.file, "rb")
        total = os.fstat(infile.fileno()).st_size if enabled and args.file != "-" else None
        progress = Progress(enabled, total, "B", args.progress)
    output = None
    ok = False
    try:
        output = _Output(args.output, binary_stdout)
        if infile is None:
            _parquet(transform, source, output.stream, args.column, chunk_rows, progress)
        else:
            _csv(transform, infile, output.stream, args.column, delimiter, chunk_rows, progress)
        ok = True
    finally:
        progress.close()
        if output is not None:
            output.finish(ok)
        if infile is not None and args.file != "-":
            infile.close()
    return 1 if transform.invalid else 0


def binary_stdin():
    stdin = sys.stdin
    return getattr(stdin, "buffer", None) or _TextLines(stdin)


class _TextLines:
    """A text stream standing in for stdin, read as UTF-8 bytes line by line."""

    def __init__(self, stream):
        self.stream = stream

    def __iter__(self):
        for line in self.stream:
            yield line.encode("utf-8", "surrogateescape")
