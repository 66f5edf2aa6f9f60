"""A streaming CSV/TSV tokenizer on bytes, in one pass: linear in the input
whatever it holds (an unclosed quote included), reading it in blocks. The
syntax, and what the reader does with each shape of input, are in
docs/csv.md.

The input is split into the fields of one column, as text, and the bytes
between them exactly as they are (the other fields, delimiters, line endings,
blank lines), so that the table mode can write everything but that column
back byte for byte. A field that starts with a double quote is quoted: it
goes on (over delimiters and line breaks) to the next quote that is not
doubled (a quote written twice is one quote of the value); text after that
quote makes the field malformed, to the next delimiter or line end. A quote
inside an unquoted field is text. A record ends at LF, CRLF or CR outside a
quoted field, or at the end of the input. A record whose field count is not
the header's, or whose quoted field never closes (it is then cut at the end
of the line where its quote opens), is given whole as a failed row.

The work per byte and per row is done in C: src/core/pct_csv.c cuts the
records, ``_pctcodec._csv_cut`` gives a chunk of them at once, and
``_pctcodec._csv_join`` puts new fields back (src/_pctcodec_csv.c). A record
that does not end in the data read so far is cut again once more data is in;
the block read then is at least as long as what is pending, so that every
byte is scanned a bounded number of times. The header is read field by field
in one pass too (``_pctcodec._csv_header``).
"""
from .. import _pctcodec
from .._typecheck import cast

TYPE_CHECKING = False  # typing is not imported at run time: annotations in quotes
if TYPE_CHECKING:
    from typing import Iterator

    from ._streams import BinaryReader

    # a chunk of data rows: the bytes between the fields, the fields (text,
    # or the raw bytes of a MALFORMED field or of a RAGGED or UNCLOSED_ROW
    # record), their flags, the line of each row (int64), the field count of
    # each RAGGED or UNCLOSED_ROW row
    Chunk = tuple[list[bytes], list["str | bytes"], bytes, bytes, list[int]]

BLOCK = 1 << 20
# _csv_cut's and _csv_header's statuses (src/core/pct_csv.h)
MORE, UNCLOSED, END = 2, 3, 5
# their field flags: RAGGED and UNCLOSED rows come as their raw record
PLAIN, QUOTED, MALFORMED, RAGGED, UNCLOSED_ROW = 0, 1, 2, 3, 4
BOM = b"\xef\xbb\xbf"


class UnclosedQuote(ValueError):
    """A quoted field of the header is still open at the end of the input."""

    def __init__(self, line: int) -> None:
        self.line = line
        super().__init__(f"line {line}: a quoted field of this record is not closed "
                         "at the end of the file")


class Reader:
    """A CSV input as a binary stream, with its delimiter (bytes):
    ``header()`` gives the first record, then ``chunks(index, expect, rows)``
    the data rows around field `index`. ``bom`` is the UTF-8 byte order mark
    the input started with (b"" when none), which is not part of the first
    field. ``line`` is the file line (1-based; LF, CRLF and CR each end one)
    at the position reached."""

    def __init__(self, infile: "BinaryReader", delimiter: bytes, block: int = BLOCK) -> None:
        self.infile = infile
        self.delimiter = delimiter
        self.block = block
        self.buf = self._read(max(block, len(BOM)))
        self.bom = b""
        if self.buf[:3] == BOM:
            self.bom = BOM
            self.buf = self.buf[3:]
        self.pos = 0
        self.final = False  # known at the first read that gives nothing
        self.rows = 0    # data rows (not blank) given so far
        self.done = 0    # bytes given so far (the BOM not counted)
        self.line = 1

    def _read(self, size: int) -> bytes:
        return self.infile.read(size)

    def _more(self) -> None:
        """Reads more: at least as much as is pending, so that a record
        scanned again is scanned at most a bounded number of times."""
        more = self._read(max(self.block, len(self.buf) - self.pos))
        self.buf = self.buf[self.pos:] + more
        self.pos = 0
        self.final = not more

    def _advance(self, pos: int) -> None:
        self.done += pos - self.pos
        self.pos = pos

    def header(self) -> "tuple[bytes, list[str]] | None":
        """The first record (blank lines before it skipped): its raw bytes,
        blank lines and terminator included, and its fields as text; None
        for an empty input. ValueError for a field with text after its
        closing quote, or a quote never closed."""
        while True:
            status, names, flags, _, end, line, after = _pctcodec._csv_header(
                self.buf, self.pos, self.final, self.delimiter, self.line)
            if status != MORE or self.final:
                break
            self._more()
        if status == END:  # blank lines only: all read
            self._advance(len(self.buf))
            self.line = after
            return None
        if status == UNCLOSED:
            raise UnclosedQuote(line)
        if MALFORMED in flags:  # a MALFORMED field comes as bytes
            raise ValueError(f"line {line}: text after the closing quote of a quoted field")
        raw = self.buf[self.pos:end]
        self._advance(end)
        self.line = after
        return raw, cast("list[str]", names)

    def chunks(self, index: int, expect: int, rows: int) -> "Iterator[Chunk]":
        """Chunks of up to `rows` data rows, as _csv_cut gives them: (gaps,
        values, flags, lines, counts), the bytes between the fields of column
        `index` as they are, those fields as text, their flags, the line of
        each row (native int64) and the field count of each RAGGED or
        UNCLOSED_ROW row (see _csv_cut). A record without `expect` fields (0:
        any) is a RAGGED row."""
        for gaps, values, flags, lines, counts, _, _ in self._chunks(index, expect, rows, None):
            yield gaps, values, flags, lines, counts

    def chunks_with(self, index: int, also: int, expect: int,
                    rows: int) -> "Iterator[tuple[Chunk, list[str | bytes], bytes]]":
        """chunks(), each with the fields of column `also` of its rows and
        their flags (resolve's base column beside the links)."""
        for gaps, values, flags, lines, counts, others, other_flags in self._chunks(index, expect,
                                                                                   rows, also):
            yield (gaps, values, flags, lines, counts), others, other_flags

    def _chunks(self, index: int, expect: int, rows: int, also: "int | None"
                ) -> "Iterator[tuple[list[bytes], list[str | bytes], bytes, bytes, list[int], list[str | bytes], bytes]]":
        while True:
            gaps: "list[bytes]" = [b""]
            values: "list[str | bytes]" = []
            flags = lines = b""
            counts: "list[int]" = []
            others: "list[str | bytes]" = []
            other_flags = b""
            count = 0
            while count < rows:
                g, v, f, ls, c, pos, done, status, line = _pctcodec._csv_cut(
                    self.buf, self.pos, self.final, self.delimiter, index, expect, rows - count,
                    self.line)
                if also is not None and done:  # the same records again, around field `also`
                    _, v2, f2, *_ = _pctcodec._csv_cut(self.buf, self.pos, self.final,
                                                       self.delimiter, also, expect, done, self.line)
                    others += v2
                    other_flags += f2
                gaps[-1] += g[0]
                gaps += g[1:]
                values += v
                flags += f
                lines += ls
                counts += c
                count += done
                self._advance(pos)
                self.line = line
                if status == END:
                    break
                if status == MORE:
                    if self.final:  # pct_csv_cut says MORE only while data may follow
                        raise AssertionError("more data asked for at the end")
                    self._more()
            self.rows += count
            if not count and gaps == [b""]:
                return
            yield gaps, values, flags, lines, counts, others, other_flags
