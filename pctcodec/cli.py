"""Command-line interface: quote, unquote, repair, normalize or check text,
one value per line, or one column of a table.

    pctcodec {quote,quote-plus,unquote,unquote-plus,requote,normalize,check} [FILE]
    pctcodec COMMAND --column NAME FILE [-o OUT]

Lines are read from FILE (or standard input) as bytes and written to standard
output one by one, each with the line terminator it had (``\\n``, ``\\r\\n`` or
none on the last line). With ``--column``, FILE is a CSV, TSV or Parquet file
and only that column changes (see ``pctcodec._tables``).
"""
import argparse
import codecs
import os
import re
import sys

from . import (
    PercentEncodingError,
    __version__,
    check,
    normalize,
    quote,
    quote_from_bytes,
    quote_plus,
    requote,
    unquote,
    unquote_plus,
)

COMMANDS = ("quote", "quote-plus", "unquote", "unquote-plus", "requote", "normalize", "check")
URI_COMMANDS = ("requote", "normalize", "check")
TABLE_FORMATS = ("csv", "tsv", "parquet")

DESCRIPTION = """\
Percent-encode (quote) or decode (unquote) text, one value per line, with the
same results as Python's urllib.parse.

commands:
  quote         percent-encode each line, like urllib.parse.quote
  quote-plus    the same, with spaces as '+', like urllib.parse.quote_plus
  unquote       decode the %XX escapes of each line, like urllib.parse.unquote
  unquote-plus  the same, with '+' as a space, like urllib.parse.unquote_plus
  requote       make each line a valid URI without changing what it denotes
  normalize     normalize each line as a URI (RFC 3986 6.2.2 and 6.2.3)
  check         print LINE:POSITION: message for each line that is not a
                valid URI; exit status 1 if there is one

With --column NAME, FILE is a table (CSV, TSV or Parquet, by its extension or
--format) and the command applies to that column only; check then prints
ROW:POSITION: message, ROW being the 1-based number of the data row (the
header and blank lines not counted).
"""

EPILOG = """\
Input is read as bytes. With the default UTF-8 encoding, quote and quote-plus
quote the bytes of each line as they are, so a line that is not valid UTF-8
keeps its bytes as escapes. Unquoted text is written as UTF-8. requote and
normalize also write a byte that is not part of valid UTF-8 as its escape.

examples:
  pctcodec quote examples/urls.txt
  echo 'caf%C3%A9 du monde' | pctcodec unquote
  pctcodec quote-plus --safe=/: < values.txt > quoted.txt
  pctcodec normalize --sort-query urls.txt
  pctcodec check urls.txt
  pctcodec normalize --column url examples/urls.csv > clean.csv
  pctcodec unquote --column path logs.parquet -o decoded.parquet --progress
  pctcodec check --column url examples/urls.csv

Tables: a CSV file is copied byte for byte except for the fields of the
column (quoted fields stay quoted; LF or CRLF line endings kept); Parquet
keeps its schema and compression and needs -o. Rows are processed in chunks
of --chunk-size, so files larger than memory work. Exit status 2 for a
missing column or a file that does not fit, 1 for a value that fails.
"""


def _parser():
    parser = argparse.ArgumentParser(
        prog="pctcodec",
        usage="%(prog)s [options] COMMAND [FILE]\n"
              "       %(prog)s [options] COMMAND --column NAME FILE [-o OUT]",
        description=DESCRIPTION,
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("command", choices=COMMANDS, metavar="COMMAND",
                        help="one of: %(choices)s")
    parser.add_argument("file", nargs="?", default="-", metavar="FILE",
                        help="input file; '-' or none reads standard input")
    parser.add_argument("--safe", metavar="CHARS",
                        help="characters not to quote (default: '/' for quote, "
                             "none for quote-plus; write --safe=-... if they "
                             "start with '-')")
    parser.add_argument("--encoding", default="utf-8", metavar="ENC",
                        help="encoding of the text behind the escapes (default: utf-8)")
    parser.add_argument("--errors", metavar="ERR",
                        help="codec error handler (default: strict for quote, "
                             "replace for unquote)")
    parser.add_argument("--sort-query", action="store_true",
                        help="normalize: sort the query's parameters by name")
    parser.add_argument("--drop-fragment", action="store_true",
                        help="normalize: remove the fragment")
    table = parser.add_argument_group("tables (with --column)")
    table.add_argument("--column", metavar="NAME",
                       help="transform this column of the table FILE")
    table.add_argument("--format", choices=TABLE_FORMATS,
                       help="table format (default: from FILE's extension; csv for stdin)")
    table.add_argument("--delimiter", metavar="CHAR",
                       help="CSV field delimiter (default: ',', tab for .tsv)")
    table.add_argument("-o", "--output", metavar="OUT",
                       help="write the table to OUT (required for Parquet; default: stdout)")
    table.add_argument("--chunk-size", type=int, metavar="ROWS",
                       help="rows per chunk (default: 32768)")
    table.add_argument("--threads", type=int, metavar="N",
                       help="threads for the batch functions (default: their own)")
    table.add_argument("--progress", action="store_true",
                       help="progress bar on stderr (default: when stderr is a terminal; "
                            "the bar needs tqdm: pip install 'pctcodec[progress]')")
    parser.add_argument("--version", action="version", version=f"pctcodec {__version__}")
    return parser


# Bytes that are not valid UTF-8, as surrogateescape decodes them.
_UNDECODED = re.compile("[\udc80-\udcff]")


def escape_undecoded(text):
    """Text for the URI commands: a byte that was not valid UTF-8 (decoded
    with surrogateescape) becomes its %XX escape, which is what it stands for
    in a URI."""
    if text.isascii():
        return text
    return _UNDECODED.sub(lambda m: "%%%02X" % (ord(m.group()) - 0xDC00), text)


def _uri_text(line):
    """A line as text for the URI commands."""
    return escape_undecoded(line.decode("utf-8", "surrogateescape"))


def _converter(command, safe, encoding, errors, options=None):
    """The function that turns the bytes of one line (no terminator) into output bytes."""
    if command == "requote":
        return lambda line: requote(_uri_text(line)).encode("ascii")
    if command == "normalize":
        return lambda line: normalize(_uri_text(line), **options).encode("ascii")
    plus = command.endswith("-plus")
    if command.startswith("unquote"):
        func = unquote_plus if plus else unquote

        def convert(line):
            text = line.decode("utf-8", "surrogateescape")
            return func(text, encoding, errors).encode("utf-8", "surrogateescape")

        return convert

    if safe is None:
        safe = "" if plus else "/"
    if codecs.lookup(encoding).name == "utf-8":
        # Quoting the raw bytes equals quoting the decoded text for valid
        # UTF-8, and keeps any other byte as its escape.
        if plus:
            return lambda line: quote_plus(line, safe).encode("ascii")
        return lambda line: quote_from_bytes(line, safe).encode("ascii")

    func = quote_plus if plus else quote

    def convert(line):
        text = line.decode("utf-8", "surrogateescape")
        return func(text, safe, encoding, errors).encode("utf-8", "surrogateescape")

    return convert


def split_line(line):
    """Split a line read in binary into its content and its terminator."""
    if line.endswith(b"\r\n"):
        return line[:-2], b"\r\n"
    if line.endswith(b"\n"):
        return line[:-1], b"\n"
    return line, b""


def _error(message, status=1):
    print(f"pctcodec: {message}", file=sys.stderr)
    return status


def _quiet_broken_pipe():
    """The reader went away (e.g. `| head`): stop quietly, and keep the
    interpreter from complaining when it flushes stdout at exit."""
    try:
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    except (OSError, ValueError):
        pass


def _binary_stdout():
    """sys.stdout as a binary stream (a text stream standing in for it is written as UTF-8)."""
    out = getattr(sys.stdout, "buffer", None)
    if out is not None:
        return out
    return _TextWriter(sys.stdout)


class _TextWriter:
    def __init__(self, stream):
        self.stream = stream

    def write(self, data):
        self.stream.write(data.decode("utf-8", "surrogateescape"))

    def flush(self):
        self.stream.flush()


def _run_table(args, options):
    from . import _tables

    try:
        return _tables.run(args, options, _binary_stdout())
    except _tables.TableError as exc:
        return _error(f"{args.file}: {exc}", 2)
    except _tables.ValueFailure as exc:
        return _error(f"{args.file}:{exc}", 1)
    except BrokenPipeError:
        _quiet_broken_pipe()
        return 0
    except OSError as exc:
        return _error(f"{getattr(exc, 'filename', None) or args.file}: {exc.strerror or exc}", 2)
    except KeyboardInterrupt:
        return 130


def main(argv=None):
    """Run the command line given by argv (default: sys.argv[1:]); return the exit status."""
    parser = _parser()
    args = parser.parse_intermixed_args(argv)
    if args.safe is not None and not args.command.startswith("quote"):
        parser.error("--safe applies to quote and quote-plus only")
    if (args.sort_query or args.drop_fragment) and args.command != "normalize":
        parser.error("--sort-query and --drop-fragment apply to normalize only")
    errors = args.errors
    if errors is None:
        errors = "strict" if args.command.startswith("quote") else "replace"
    try:
        codecs.lookup(args.encoding)
        codecs.lookup_error(errors)
    except LookupError as exc:
        return _error(exc)
    if args.column is None:
        used = [flag for flag, value in (("--format", args.format), ("--delimiter", args.delimiter),
                                         ("-o", args.output), ("--threads", args.threads),
                                         ("--chunk-size", args.chunk_size),
                                         ("--progress", args.progress or None))
                if value is not None]
        if used:
            parser.error(f"{', '.join(used)} apply to tables only (with --column)")
    options = {"sort_query": args.sort_query, "drop_fragment": args.drop_fragment}
    if args.column is not None:
        return _run_table(args, dict(options, safe=args.safe, encoding=args.encoding, errors=errors))
    convert = _converter(args.command, args.safe, args.encoding, errors, options)

    if args.file == "-":
        infile = getattr(sys.stdin, "buffer", sys.stdin)
    else:
        try:
            infile = open(args.file, "rb")
        except OSError as exc:
            return _error(f"{args.file}: {exc.strerror or exc}")
    out = _binary_stdout()
    write = out.write

    lineno = 0
    invalid = 0
    try:
        for lineno, line in enumerate(infile, 1):
            if isinstance(line, str):  # a text stream standing in for stdin
                line = line.encode("utf-8", "surrogateescape")
            content, end = split_line(line)
            if args.command != "check":
                write(convert(content) + end)
                continue
            try:
                check(content.decode("utf-8", "surrogateescape"))
            except PercentEncodingError as exc:
                invalid += 1
                write(f"{lineno}:{exc.position}: {exc.reason}\n".encode("utf-8", "backslashreplace"))
        out.flush()
    except BrokenPipeError:
        _quiet_broken_pipe()
        return 0
    except (ValueError, TypeError, OSError) as exc:  # UnicodeError is a ValueError
        try:
            out.flush()  # what came before the bad line goes out first
        except OSError:
            pass
        return _error(f"{lineno}: {exc}")
    except KeyboardInterrupt:
        return 130
    finally:
        if args.file != "-":
            infile.close()
    return 1 if invalid else 0
