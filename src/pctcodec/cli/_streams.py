"""What the line mode and the table mode of the command line share: the
standard streams as bytes, line terminators, the output file, the rule for
bytes that are not valid UTF-8, and how a failure is described.

Input is read as bytes and decoded as UTF-8 with ``surrogateescape``, so a
byte that is not valid UTF-8 survives as a lone surrogate (U+DC80..U+DCFF).
One rule then holds everywhere: quote and quote-plus quote the bytes as they
are (a bad byte becomes its own escape), requote and normalize read a bad
byte as its escape, unquote writes the bytes back as they were.
"""
import errno
import os
import re
import stat
import sys
import tempfile

TYPE_CHECKING = False  # typing is not imported at run time: annotations in quotes
if TYPE_CHECKING:
    from typing import BinaryIO, Callable, Iterator, Protocol, TextIO

    from .._errors import PercentEncodingError

    class BinaryWriter(Protocol):
        """Where output bytes go: sys.stdout.buffer, a binary file, _TextWriter."""

        def write(self, data: bytes, /) -> object: ...
        def flush(self) -> None: ...

    class BinaryReader(Protocol):
        """Where input bytes come from: sys.stdin.buffer, a binary file, _TextReader."""

        def read(self, size: int = -1, /) -> bytes: ...
        def __iter__(self) -> "Iterator[bytes]": ...

# Bytes that are not valid UTF-8, as surrogateescape decodes them.
_UNDECODED = re.compile("[\udc80-\udcff]")
_UNDECODED_RUN = re.compile("[\udc80-\udcff]+")
# Such a byte in the repr of a text inside a message (an unescaped
# backslash, then the surrogate's escape).
_UNDECODED_REPR = re.compile(r"(?<!\\)((?:\\\\)*)\\udc([89a-f][0-9a-f])")


def decode(data: bytes) -> str:
    """The text of input bytes (a bad byte kept as a lone surrogate)."""
    return data.decode("utf-8", "surrogateescape")


def encode(text: str) -> bytes:
    """The bytes of a text made by `decode` (or of any result): UTF-8, a lone
    surrogate back to the byte it stood for."""
    return text.encode("utf-8", "surrogateescape")


def escape_undecoded(text: str) -> str:
    """Text for the URI commands: a byte that was not valid UTF-8 becomes its
    %XX escape, which is what it stands for in a URI."""
    if text.isascii():
        return text
    return _UNDECODED.sub(lambda m: "%%%02X" % (ord(m.group()) - 0xDC00), text)


def check_reason(text: str, exc: "PercentEncodingError") -> str:
    """check()'s reason for its offence in `text`, a byte that was not valid
    UTF-8 said as such (not as the surrogate that stands for it)."""
    position = exc.position
    if 0 <= position < len(text) and 0xDC80 <= ord(text[position]) <= 0xDCFF:
        return "byte 0x%02X is not valid UTF-8 (no URI character)" % (ord(text[position]) - 0xDC00)
    return exc.reason


def quote_errors(encoding: str, errors: str) -> str:
    """The error handler quote and quote-plus run with: under UTF-8 the bytes
    of a value are quoted as they are, a bad byte as its escape."""
    import codecs

    return "surrogateescape" if codecs.lookup(encoding).name == "utf-8" else errors


def shown(value: object) -> str:
    """A value in a message or a rejects file: as its input bytes would
    print, not with surrogateescape's internals."""
    if isinstance(value, str):
        return repr(encode(value))[1:] if _UNDECODED.search(value) else repr(value)
    return repr(value)


def describe(exc: BaseException) -> str:
    """A failure as one line: for a codec error the input bytes it is about
    rather than the decoded text with its lone surrogates. An input byte
    that is not valid UTF-8 is said to be one: another --encoding than UTF-8
    cannot encode it, but the input is what is wrong."""
    if isinstance(exc, UnicodeEncodeError) and isinstance(exc.object, str):
        bad = _UNDECODED_RUN.match(exc.object, exc.start, exc.end)
        if bad is not None:
            data = encode(bad.group())
            return "input %s %s (at %d) %s not valid UTF-8 (the input is read as UTF-8 whatever " \
                   "--encoding says)" % ("byte" if len(data) == 1 else "bytes",
                                         " ".join("0x%02X" % b for b in data), exc.start,
                                         "is" if len(data) == 1 else "are")
    if isinstance(exc, (UnicodeEncodeError, UnicodeDecodeError)) and isinstance(exc.object, (str, bytes)):
        # The characters a codec cannot encode, the bytes it cannot decode.
        part = exc.object[exc.start:exc.end]
        return "%r codec cannot %s %s (at %d): %s" % (
            exc.encoding, "encode" if isinstance(exc, UnicodeEncodeError) else "decode",
            shown(part) if isinstance(part, str) else repr(part)[1:], exc.start, exc.reason)
    text = str(exc)
    if isinstance(exc, KeyError) and exc.args:  # str(KeyError) is its repr
        text = str(exc.args[0])
    if "\\udc" in text:  # a quoted text holding such a byte: shown as `shown` shows the value
        text = _UNDECODED_REPR.sub(r"\1\\x\2", text)
    return escape_undecoded(text) if _UNDECODED.search(text) else text


def binary_stdout() -> "BinaryWriter":
    """sys.stdout as a binary stream (a text stream standing in for it is written as UTF-8)."""
    if sys.stdout is None:  # started with descriptor 1 closed (`>&-`)
        raise OutputError("standard output", OSError(errno.EBADF, "it is closed"))
    out = getattr(sys.stdout, "buffer", None)
    return out if out is not None else _TextWriter(sys.stdout)


def binary_stdin() -> "BinaryReader":
    """sys.stdin as a binary stream."""
    if sys.stdin is None:  # started with descriptor 0 closed (`<&-`)
        raise OSError(errno.EBADF, "standard input is closed")
    stdin = getattr(sys.stdin, "buffer", None)
    return stdin if stdin is not None else _TextReader(sys.stdin)


class _TextWriter:
    """A text stream standing in for stdout, written as UTF-8 bytes."""

    def __init__(self, stream: "TextIO") -> None:
        self.stream = stream

    def write(self, data: bytes, /) -> None:
        self.stream.write(decode(data))

    def flush(self) -> None:
        self.stream.flush()


class _TextReader:
    """A text stream standing in for stdin, read as UTF-8 bytes."""

    def __init__(self, stream: "TextIO") -> None:
        self.stream = stream

    def read(self, size: int = -1, /) -> bytes:
        return encode(self.stream.read(size))

    def __iter__(self) -> "Iterator[bytes]":
        for line in self.stream:
            yield encode(line)


# A line ends at LF, CRLF or a lone CR, as in the CSV reader (bytes.splitlines).
_LINE_END = re.compile(b"\r\n?|\n")
LINE_BLOCK = 1 << 20


class LineReader:
    """The lines of a binary stream, each with its terminator (LF, CRLF, CR,
    or none at the end), read in blocks (``read1`` where the stream has it,
    so that a pipe's lines come as they are written). A line longer than a
    block is grown in one bytearray, so that holding it costs about its own
    size; iterating gives each line without keeping a reference to it."""

    def __init__(self, infile: "BinaryReader", block: int = LINE_BLOCK) -> None:
        self._read = getattr(infile, "read1", infile.read)
        self.block = block
        self._parts: "list[bytes | bytearray]" = []  # complete lines of the block, reversed
        self._carry = bytearray()        # the start of a line that goes on past the block

    def __iter__(self) -> "Iterator[bytes | bytearray]":
        parts = self._parts
        while True:
            while parts:
                yield parts.pop()  # no local keeps the line
            if not self._fill():
                return
            parts = self._parts

    def _fill(self) -> bool:
        """Reads blocks until a line is complete; False at the end."""
        while not self._parts:
            block = self._read(self.block)
            if not block:
                if not self._carry:
                    return False
                self._parts = [self._carry]
                self._carry = bytearray()
            elif not self._carry:
                self._split(block)
            else:
                self._take_carry_end(block)
        return True

    def _take_carry_end(self, block: bytes) -> bool:
        """Ends the pending line with the start of `block` where it can
        (the line then goes to _parts, before the block's own lines): False
        while it goes on past the block."""
        carry = self._carry
        start = 0
        if carry[-1:] == b"\r":  # complete, with CRLF when the block starts with LF
            start = 1 if block[:1] == b"\n" else 0
        else:
            found = _LINE_END.search(block)
            if found is None or (found.end() == len(block) and block[-1:] == b"\r"):
                carry += block  # no end yet (a CR at the block's end may be a CRLF's)
                return False
            start = found.end()
        carry += block[:start]
        self._carry = bytearray()
        self._split(block[start:] if start else block)
        self._parts.append(carry)
        return True

    def _split(self, data: bytes) -> None:
        parts: "list[bytes | bytearray]" = list(data.splitlines(keepends=True))
        if parts and parts[-1][-1:] != b"\n":  # no terminator yet, or a CR that may be a CRLF's
            self._carry = bytearray(parts.pop())
        parts.reverse()
        self._parts = parts


def quiet_broken_pipe() -> None:
    """The reader went away (e.g. `| head`): stop quietly, and keep the
    interpreter from complaining when it flushes stdout at exit."""
    try:
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    except (OSError, ValueError, AttributeError):  # AttributeError: no sys.stdout at all
        pass


class OutputError(Exception):
    """Writing the output failed (a full disk, /dev/full ...): not the input's fault."""

    def __init__(self, path: str, error: OSError) -> None:
        super().__init__(f"{path}: cannot write: {error.strerror or error}")


class Output:
    """Standard output, or a file that appears at its path only once
    complete (written to a temporary file next to it, then renamed). The
    file gets the mode a plain open() would give (0666 less the umask), or
    the mode of the file it replaces. A symbolic link is written through
    (the file it points to is replaced, the link stays); a path that is not
    a regular file (a device such as /dev/null, a FIFO) is written directly,
    never replaced."""

    def __init__(self, path: "str | None") -> None:
        self.path = path
        self.temp: "str | None" = None
        self._file: "BinaryIO | None" = None  # the file opened (None for stdout)
        self.stream: "BinaryWriter"
        if path is None:
            self.stream = binary_stdout()
            return
        self.target = os.path.realpath(path)
        try:
            st = os.stat(self.target)
        except OSError:
            st = None  # a new file
        if st is not None and not stat.S_ISREG(st.st_mode):
            try:
                self.stream = self._file = open(self.target, "wb")
            except OSError as exc:
                exc.filename = path
                raise
            return
        mode = st.st_mode & 0o7777 if st is not None else 0o666 & ~_umask()
        try:
            handle, temp = tempfile.mkstemp(dir=os.path.dirname(self.target), prefix=".pctcodec-",
                                            suffix=".part")
        except OSError as exc:
            # Not the target's own error (it may exist, /proc/version): its
            # folder takes no new file, where the output is written first.
            why = "no new file can be made in %s (%s)" % (os.path.dirname(self.target), exc.strerror)
            if st is not None:
                why += ", where the output is written before it replaces the file"
            raise OutputError(path, OSError(exc.errno, why)) from None
        try:
            os.chmod(temp, mode)
            self.stream = self._file = os.fdopen(handle, "wb")
        except BaseException:  # no finish() to remove it: the caller has no Output
            # A signal (Terminated, KeyboardInterrupt) can land inside fdopen
            # after the file object took the descriptor and was dropped,
            # which closed it: EBADF here must not replace the signal.
            try:
                os.close(handle)
            except OSError:
                pass
            os.unlink(temp)
            raise
        self.temp = temp

    def write(self, data: bytes) -> None:
        try:
            self.stream.write(data)
        except BrokenPipeError:
            raise
        except OSError as exc:
            raise OutputError(self.path or "standard output", exc) from None

    def finish(self, ok: bool) -> None:
        try:
            if self._file is None:
                self.stream.flush()
            else:
                self._file.close()
        except BrokenPipeError:
            raise
        except OSError as exc:
            ok = False
            raise OutputError(self.path or "standard output", exc) from None
        finally:
            if self.temp is not None:
                if ok:
                    os.replace(self.temp, self.target)
                else:
                    os.unlink(self.temp)


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


class Terminated(BaseException):
    """SIGTERM arrived: raised like KeyboardInterrupt for SIGINT, so that
    the run unwinds and Output.finish removes a partial output file."""


def _raise_terminated(signum: int, frame: object) -> None:
    raise Terminated


def hold_signals() -> "Callable[[], object]":
    """SIGINT and SIGTERM held pending (POSIX, main thread) until the
    function returned is called: a file made meanwhile has an owner that
    removes it before either can unwind the run."""
    import signal

    held = {signal.SIGINT, signal.SIGTERM}
    try:
        previous = signal.pthread_sigmask(signal.SIG_BLOCK, held)
    except (AttributeError, ValueError, OSError):  # no such call here (Windows)
        return lambda: None
    return lambda: signal.pthread_sigmask(signal.SIG_SETMASK, previous)


def catch_sigterm() -> "Callable[[], object]":
    """From now on SIGTERM raises Terminated (in the main thread, where
    Python runs signal handlers); the function returned puts the previous
    handler back. Called from another thread, it changes nothing."""
    import signal

    try:
        previous = signal.signal(signal.SIGTERM, _raise_terminated)
    except ValueError:  # not the main thread: its handlers are not ours to change
        return lambda: None
    return lambda: signal.signal(signal.SIGTERM, previous)


def _where(row: int, line: "int | None") -> str:
    """A failed row in a message: its line (the line mode's rows are
    lines), a CSV row's file line and row, a Parquet row."""
    return str(row) if line is None or line == row else f"{line}: row {row}"


class RowFailure(Exception):
    """A value the command fails on under --on-error stop: exit status 1."""

    def __init__(self, row: int, value: object, error: BaseException,
                 line: "int | None" = None) -> None:
        self.row = row
        self.line = line
        super().__init__(f"{_where(row, line)}: {describe(error)} (value {shown(value)})")


class Failures:
    """The rows that fail: under --on-error stop the first one stops the run
    (RowFailure); under null or keep each is counted and, with --rejects,
    written to a CSV file as file line (empty for Parquet), row number, value
    and reason. That file is an Output: it appears only when close(True) is
    called."""

    def __init__(self, on_error: str = "stop", rejects_path: "str | None" = None) -> None:
        self.on_error = on_error
        self.count = 0
        self.rows = 0
        self.rejects_path = rejects_path
        self._out: "Output | None" = None
        self._writerow: "Callable[[list[object]], object] | None" = None
        if rejects_path is not None:
            import csv

            self._out = Output(rejects_path)
            self._writerow = csv.writer(self).writerow
            self._writerow(["line", "row", "value", "reason"])

    def write(self, text: str) -> None:
        """The csv writer's output, to the rejects file (the value's own
        bytes come back through surrogateescape)."""
        assert self._out is not None
        self._out.write(text.encode("utf-8", "surrogateescape"))

    def add(self, row: int, value: object, error: BaseException, line: "int | None" = None) -> None:
        """A failed row: `row` its number, `line` its file line (None for Parquet)."""
        if self.on_error == "stop":
            raise RowFailure(row, value, error, line)
        self.count += 1
        if self._writerow is not None:
            self._writerow(["" if line is None else line, row, value, describe(error)])

    def close(self, ok: bool = True) -> None:
        """Ends the rejects file: kept if `ok`, else removed (an interrupted run)."""
        if self._out is not None:
            out, self._out = self._out, None
            out.finish(ok)

    def summary(self) -> str:
        """The one line for stderr: rows done, rows failed."""
        return f"pctcodec: {self.rows} rows, {self.count} failed" + (
            f" (see {self.rejects_path})" if self.count and self.rejects_path else "")
