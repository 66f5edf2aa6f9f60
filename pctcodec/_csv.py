"""A streaming CSV/TSV tokenizer on bytes, in one pass: linear in the input
whatever it holds (an unclosed quote included), reading it in blocks.

Records are cut into raw fields exactly as they are in the file, so that the
table mode can write every field but one back byte for byte. A field that
starts with a double quote is quoted: it goes on (over delimiters and line
breaks) until the quotes in it pair up, and a quote written twice is one quote
of the value. A quote inside an unquoted field is text. A record ends at LF or
CRLF outside a quoted field, or at the end of the input.

The cutting is done in C (src/core/pct_csv.c, through
``_pctcodec._csv_cut``): each call gives a run of records, each cut into the
bytes before the chosen field, the field and the bytes after it (terminator
included), so the Python side does no work per byte and little per record. A
record that does not end in the data read so far is cut again once more data
is in; the block read then is at least as long as what is pending, so that
every byte is scanned a bounded number of times.
"""
import re

from . import _pctcodec

BLOCK = 1 << 20
# _csv_cut's statuses (src/core/pct_csv.h)
MORE, UNCLOSED, MISSING, END = 2, 3, 4, 5
BOM = b"\xef\xbb\xbf"


class UnclosedQuote(ValueError):
    """A quoted field is still open at the end of the input."""

    def __init__(self, line):
        self.line = line
        super().__init__(f"line {line}: the quoted field that starts here is not closed "
                         "at the end of the file")


class MissingField(ValueError):
    """A record has no field for the chosen column."""

    def __init__(self, row, count):
        self.row = row
        super().__init__(f"row {row} has {count} fields")


class Dialect:
    """The field syntax of a file with a given delimiter (bytes)."""

    QUOTED = re.compile(rb'"[^"]*(?:""[^"]*)*"')

    def __init__(self, delimiter):
        self.delimiter = delimiter
        self.needs_quotes = re.compile(re.escape(delimiter) + rb'|["\r\n]')

    def value(self, raw):
        """The text bytes of a raw field, and whether it was quoted; ValueError
        for text after the closing quote of a quoted field."""
        if raw[:1] == b'"':
            if not self.QUOTED.fullmatch(raw):
                raise ValueError("text after the closing quote of a quoted field")
            return raw[1:-1].replace(b'""', b'"'), True
        return raw, False


class Reader:
    """The records of a binary stream. ``record()`` gives the next one as
    (fields, terminator, size in bytes), fields None for a blank line, or
    None at the end; ``chunks(index, rows)`` gives the following ones in
    chunks, cut around field `index`. ``bom`` is the UTF-8 byte order mark
    the input started with (b"" when none), which is not part of the first
    field."""

    def __init__(self, infile, dialect, block=BLOCK):
        self.infile = infile
        self.dialect = dialect
        self.block = block
        self.buf = self._read(max(block, len(BOM)))
        self.bom = b""
        if self.buf[:3] == BOM:
            self.bom = BOM
            self.buf = self.buf[3:]
        self.pos = 0
        self.final = False  # known at the first read that gives nothing
        self.rows = 0    # data rows (not blank) given so far
        self._line = 1   # the physical line at _line_pos
        self._line_pos = 0

    def _read(self, size):
        read = getattr(self.infile, "read", None)
        if read is not None:
            return read(size)
        return b"".join(self.infile)  # an iterable of lines: all of it

    def _more(self):
        """Reads more: at least as much as is pending, so that a record
        scanned again is scanned at most a bounded number of times."""
        self._line += self.buf.count(b"\n", self._line_pos, self.pos)
        more = self._read(max(self.block, len(self.buf) - self.pos))
        self.buf = self.buf[self.pos:] + more
        self.pos = self._line_pos = 0
        self.final = not more

    def _cut(self, index, rows):
        """_csv_cut from the current position, reading more while it asks."""
        while True:
            got = _pctcodec._csv_cut(self.buf, self.pos, self.final, self.dialect.delimiter,
                                     index, rows)
            if got[3] != MORE or self.final:
                return got
            if got[0]:  # records were cut before the one that needs more
                return got
            self._more()

    def _unclosed(self, quote):
        return UnclosedQuote(self._line + self.buf.count(b"\n", self._line_pos, quote))

    def record(self):
        """The next record with all its fields (fields None: a blank line),
        or None at the end: for the header, cut field by field."""
        fields = []
        while True:
            records, _, _, status, info = self._cut(len(fields), 1)
            if status == UNCLOSED:
                raise self._unclosed(info)
            if records:
                before, field, after, size = records[0]
                if field is None:  # a blank line
                    self.pos += size
                    return None, before, size
                fields.append(field)
                last = after, size  # after the last field: the terminator
                continue
            if status == END:
                return None
            end, size = last  # MISSING: no field past the last one
            self.pos += size
            return fields, end, size

    def chunks(self, index, rows):
        """Lists of up to `rows` data rows (and the blank lines among them):
        (before, field, after, size) per record, where before + field + after
        are the record's bytes with its terminator; for a blank line field is
        None and before the line."""
        while True:
            out = []
            count = 0
            while count < rows:
                records, pos, done, status, info = self._cut(index, rows - count)
                out.extend(records)
                count += done
                self.pos = pos
                if status == UNCLOSED:
                    raise self._unclosed(info)
                if status == MISSING:
                    raise MissingField(self.rows + count + 1, info)
                if status == END:
                    break
            self.rows += count
            if not out:
                return
            yield out
