"""A streaming CSV/TSV tokenizer on bytes, in one pass: linear in the input
whatever it holds (an unclosed quote included), reading it in blocks.

The input is split into the fields of one column, as text, and the bytes
between them exactly as they are (the other fields, delimiters, line endings,
blank lines), so that the table mode can write everything but that column
back byte for byte. A field that starts with a double quote is quoted: it
goes on (over delimiters and line breaks) until the quotes in it pair up, and
a quote written twice is one quote of the value. A quote inside an unquoted
field is text. A record ends at LF or CRLF outside a quoted field, or at the
end of the input.

The work per byte and per row is done in C: src/core/pct_csv.c cuts the
records, ``_pctcodec._csv_cut`` gives a chunk of them at once, and
``_pctcodec._csv_join`` puts new fields back (src/_pctcodec_csv.c). A record
that does not end in the data read so far is cut again once more data is in;
the block read then is at least as long as what is pending, so that every
byte is scanned a bounded number of times.
"""
from .. import _pctcodec

TYPE_CHECKING = False  # typing is not imported at run time: annotations in quotes
if TYPE_CHECKING:
    from typing import Iterator

    from ._streams import BinaryReader

    # _csv_cut's result: the bytes between the fields of the column, those
    # fields (text, or the raw bytes of a MALFORMED one), their flags, the
    # position reached, the records done, the status and its detail.
    _Cut = tuple[list[bytes], list["str | bytes"], bytes, int, int, int, int]
    # a chunk of data rows: the bytes between the fields, the fields, their flags
    Chunk = tuple[list[bytes], list["str | bytes"], bytes]

BLOCK = 1 << 20
# _csv_cut's statuses (src/core/pct_csv.h)
MORE, UNCLOSED, MISSING, END = 2, 3, 4, 5
# its field flags
PLAIN, QUOTED, MALFORMED = 0, 1, 2
BOM = b"\xef\xbb\xbf"


class UnclosedQuote(ValueError):
    """A quoted field is still open at the end of the input."""

    def __init__(self, line: int) -> None:
        self.line = line
        super().__init__(f"line {line}: the quoted field that starts here is not closed "
                         "at the end of the file")


class MissingField(ValueError):
    """A record has no field for the chosen column."""

    def __init__(self, row: int, count: int) -> None:
        self.row = row
        super().__init__(f"row {row} has {count} fields")


class Reader:
    """A CSV input as a binary stream, with its delimiter (bytes):
    ``header()`` gives the first record, then ``chunks(index, rows)`` the
    data rows around field `index`. ``bom`` is the UTF-8 byte order mark
    the input started with (b"" when none), which is not part of the first
    field."""

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
        self._line = 1   # the physical line at _line_pos
        self._line_pos = 0

    def _read(self, size: int) -> bytes:
        return self.infile.read(size)

    def _more(self) -> None:
        """Reads more: at least as much as is pending, so that a record
        scanned again is scanned at most a bounded number of times."""
        self._line += self.buf.count(b"\n", self._line_pos, self.pos)
        more = self._read(max(self.block, len(self.buf) - self.pos))
        self.buf = self.buf[self.pos:] + more
        self.pos = self._line_pos = 0
        self.final = not more

    def _cut(self, index: int, rows: int) -> "_Cut":
        """_csv_cut from the current position, reading more while it asks."""
        while True:
            got = _pctcodec._csv_cut(self.buf, self.pos, self.final, self.delimiter,
                                     index, rows)
            # what was cut before a record that needs more data comes back first
            if got[5] != MORE or self.final or got[3] != self.pos:
                return got
            self._more()

    def _unclosed(self, quote: int) -> UnclosedQuote:
        return UnclosedQuote(self._line + self.buf.count(b"\n", self._line_pos, quote))

    def _advance(self, pos: int) -> None:
        self.done += pos - self.pos
        self.pos = pos

    def header(self) -> "tuple[bytes, list[str]] | None":
        """The first record (blank lines before it skipped): its raw bytes,
        blank lines and terminator included, and its fields as text; None
        for an empty input. ValueError for a field with text after its
        closing quote."""
        blank = b""
        while True:  # to the start of the first record
            gaps, _, _, pos, done, status, info = self._cut(0, 1)
            if status == UNCLOSED:
                raise self._unclosed(info)
            blank += gaps[0]
            self._advance(self.pos + len(gaps[0]) if done else pos)
            if done:
                break
            if status == END:
                return None
        names: "list[str]" = []
        size = 0  # the record's size from self.pos (which stays: _more keeps it at 0)
        while True:
            _, values, flags, pos, done, status, info = self._cut(len(names), 1)
            if status == UNCLOSED:
                raise self._unclosed(info)
            if not done:
                break
            name = values[0]
            if flags[0] == MALFORMED or not isinstance(name, str):  # a MALFORMED field comes as bytes
                raise ValueError("text after the closing quote of a quoted field")
            names.append(name)
            size = pos - self.pos
        raw = self.buf[self.pos:self.pos + size]
        self._advance(self.pos + size)
        return blank + raw, names

    def chunks(self, index: int, rows: int) -> "Iterator[Chunk]":
        """Chunks of up to `rows` data rows, as _csv_cut gives them: (gaps,
        values, flags), the bytes between the fields of column `index` as
        they are, those fields as text, and their flags (see _csv_cut)."""
        for gaps, values, flags, _, _ in self._chunks(index, rows, None):
            yield gaps, values, flags

    def chunks_with(self, index: int, also: int,
                    rows: int) -> "Iterator[tuple[Chunk, list[str | bytes], bytes]]":
        """chunks(), each with the fields of column `also` of its rows and
        their flags (resolve's base column beside the links)."""
        for gaps, values, flags, others, other_flags in self._chunks(index, rows, also):
            yield (gaps, values, flags), others, other_flags

    def _chunks(self, index: int, rows: int, also: "int | None"
                ) -> "Iterator[tuple[list[bytes], list[str | bytes], bytes, list[str | bytes], bytes]]":
        while True:
            gaps: "list[bytes]" = [b""]
            values: "list[str | bytes]" = []
            flags = b""
            others: "list[str | bytes]" = []
            other_flags = b""
            count = 0
            while count < rows:
                g, v, f, pos, done, status, info = self._cut(index, rows - count)
                if also is not None and done:  # the same records again, around field `also`
                    _, v2, f2, _, done2, status2, info2 = _pctcodec._csv_cut(
                        self.buf, self.pos, self.final, self.delimiter, also, done)
                    if status2 == MISSING:
                        raise MissingField(self.rows + count + len(v2) + 1, info2)
                    others += v2
                    other_flags += f2
                gaps[-1] += g[0]
                gaps += g[1:]
                values += v
                flags += f
                count += done
                self._advance(pos)
                if status == UNCLOSED:
                    raise self._unclosed(info)
                if status == MISSING:
                    raise MissingField(self.rows + count + 1, info)
                if status == END:
                    break
            self.rows += count
            if not count and gaps == [b""]:
                return
            yield gaps, values, flags, others, other_flags
