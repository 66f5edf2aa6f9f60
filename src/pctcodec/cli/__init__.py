"""Command-line interface: quote, unquote, repair, normalize or check text,
one value per line, or one column of a table.

    pctcodec {quote,quote-plus,unquote,unquote-plus,requote,normalize,check,clean-query,
              canonicalize} [FILE]
    pctcodec query-param NAME [FILE]
    pctcodec query-param NAME --column COL FILE [-o OUT]
    pctcodec COMMAND --column NAME FILE [-o OUT]
    pctcodec split --column NAME FILE [--parts host,path] [-o OUT]
    pctcodec domain [--column NAME] FILE [--parts ...] [--private] [--unicode]
    pctcodec parse-url [--base URL] [FILE]
    pctcodec parse-url --column NAME FILE [--parts href,hostname] [--base URL] [-o OUT]
    pctcodec resolve --base URI [FILE]
    pctcodec resolve --column NAME (--base URI | --base-column NAME) FILE [-o OUT]

Lines are read from FILE (or standard input) as bytes and written to standard
output one by one, each with the line terminator it had (``\\n``, ``\\r\\n``,
``\\r`` or none on the last line): one output line per input line, a result
holding CR or LF (a decoded ``%0D`` or ``%0A``) having them written as
``%0D`` and ``%0A``. With ``--column``, FILE is a CSV, TSV or Parquet file
and only that column changes (see ``pctcodec.cli._tables``).
"""
import argparse
import codecs
import os
import sys
import textwrap

from .. import PercentEncodingError, __version__, check, resolve
from ._commands import COMMANDS, URI_COMMANDS, Command
from ._help import TAGLINE, command_description, command_epilog, command_list, command_usage
from ._streams import (
    Failures,
    LineReader,
    Output,
    OutputError,
    RowFailure,
    Terminated,
    binary_stdin,
    catch_sigterm,
    hold_signals,
    check_reason,
    quiet_broken_pipe,
)
from ._tables import TABLE_FORMATS

TYPE_CHECKING = False  # typing is not imported at run time: annotations in quotes
if TYPE_CHECKING:
    from typing import Any, BinaryIO, Callable, Sequence

    from ._streams import BinaryReader
    from ._tables import AddColumns

DESCRIPTION = textwrap.fill(TAGLINE, 79) + """

""" + command_list() + """

With --column NAME, FILE is a table (CSV, TSV or Parquet, by its extension or
--format) and the command applies to that column only; check then prints
LINE:POSITION: message, LINE being the file line the row starts on (for
Parquet: ROW, the 1-based number of the row). See docs/csv.md for what the
CSV reader does with every shape of input.
"""

EPILOG = """\
Input is read as bytes. With the default UTF-8 encoding, quote and quote-plus
quote the bytes of each line as they are, so a line that is not valid UTF-8
keeps its bytes as escapes. Unquoted text is written as UTF-8. requote,
normalize and clean-query also write a byte that is not part of valid UTF-8 as
its escape (query-param reads it as U+FFFD).

examples:
  pctcodec quote examples/urls.txt
  echo 'caf%C3%A9 du monde' | pctcodec unquote
  pctcodec quote-plus --safe=/: < values.txt > quoted.txt
  pctcodec normalize --sort-query urls.txt
  pctcodec normalize --strict-idna --on-error null --rejects bad.csv --column url visits.csv
  pctcodec check urls.txt
  pctcodec normalize --column url examples/urls.csv > clean.csv
  pctcodec unquote --column path logs.parquet -o decoded.parquet --progress
  pctcodec check --column url examples/urls.csv
  pctcodec clean-query --tracking urls.txt
  pctcodec clean-query --drop 'utm_*' --drop ref --sort --column url visits.csv
  pctcodec query-param q search-urls.txt
  pctcodec canonicalize --column url visits.csv > keyed.csv
  pctcodec query-param utm_source --column url visits.csv > with-source.csv
  pctcodec split --column url --parts host,path examples/urls.csv > parts.csv
  pctcodec parse-url --column url --parts hostname,pathname examples/urls.csv
  pctcodec domain --column url examples/urls.csv > with-domains.csv
  pctcodec domain --parts public_suffix --private urls.txt
  pctcodec resolve --base https://example.com/docs/ links.txt
  pctcodec resolve --column href --base-column url crawl.csv > absolute.csv

Tables: a CSV file is copied byte for byte except for the fields of the
column (quoted fields stay quoted; LF, CRLF or CR line endings kept); Parquet
keeps its schema and compression and needs -o. Rows are processed in chunks
of --chunk-size, so files larger than memory work.

Dirty data: by default the first value that fails stops the run. With
--on-error null its output is empty (null in Parquet), with --on-error keep it
is written as it was; either way the run goes on, --rejects FILE lists each
failed row as CSV (line, row, value, reason) and a summary line goes to
stderr. A CSV record with another field count than the header's, or whose
quote never closes (it is then read to the end of its line), is a failed
row too, written back as it was. In the line mode, a result holding CR or LF
has them written as %0D and %0A: one output line per input line.
  pctcodec quote --encoding ascii --on-error keep --rejects bad.csv names.txt

exit status:
  0  every value done (and, for check, every value valid)
  1  some values failed (or, for check, are not valid URIs); a CSV field
     with text after its closing quote, a ragged record or an unclosed
     quote is such a failed row
  2  usage error (an argument that is not UTF-8 too), a file that cannot be
     read or written, or a table that cannot be read (no header, no such
     column, a malformed header)
  130, 143  stopped by Ctrl-C or SIGTERM (no partial -o file is left)
A closed pipe (`pctcodec check urls.txt | head`) ends the run quietly, with the
status of what was done so far.
"""


# Which commands an option applies to (None: all); a command's own --help
# lists only its options.
_QUOTES = ("quote", "quote-plus")
# the commands not in _commands.COMMANDS (their own modules)
_ADDED = ("split", "domain", "parse-url")
_CODECS = ("quote", "quote-plus", "unquote", "unquote-plus")


def _parser(command: "str | None" = None) -> argparse.ArgumentParser:
    """The parser of the command line; with `command`, the one whose help
    is that command's page (its options only), not used to parse."""
    if command is None:
        parser = argparse.ArgumentParser(
            prog="pctcodec",
            usage="%(prog)s [options] COMMAND [FILE]\n"
                  "       %(prog)s [options] query-param NAME [FILE]\n"
                  "       %(prog)s [options] COMMAND --column NAME FILE [-o OUT]\n"
                  "       %(prog)s COMMAND --help",
            description=DESCRIPTION,
            epilog=EPILOG,
            formatter_class=argparse.RawDescriptionHelpFormatter,
        )
        parser.add_argument("command", choices=(*COMMANDS, *_ADDED), metavar="COMMAND",
                            help="one of: %(choices)s; `pctcodec COMMAND --help` for its page")
        parser.add_argument("file", nargs="?", default="-", metavar="FILE",
                            help="input file; '-' or none reads standard input "
                                 "(query-param: NAME, then FILE)")
        parser.add_argument("file2", nargs="?", help=argparse.SUPPRESS)
    else:
        parser = argparse.ArgumentParser(
            prog=f"pctcodec {command}", usage=command_usage(command),
            description=command_description(command), epilog=command_epilog(command),
            formatter_class=argparse.RawDescriptionHelpFormatter)
        if command == "query-param":
            parser.add_argument("name", metavar="NAME",
                                help="the parameter's decoded name (tables: names, comma-separated)")
        parser.add_argument("file", nargs="?", metavar="FILE",
                            help="input file; '-' or none reads standard input")

    def add(where: "argparse._ActionsContainer", commands: "Sequence[str] | None", *flags: str,
            **options: "Any") -> None:
        if command is None or commands is None or command in commands:
            where.add_argument(*flags, **options)

    add(parser, _QUOTES, "--safe", metavar="CHARS",
        help="characters not to quote (default: '/' for quote, none for quote-plus; write "
             "--safe=-... if they start with '-')")
    add(parser, _CODECS, "--encoding", metavar="ENC",
        help="quote, unquote: encoding of the text behind the escapes (default: utf-8)")
    add(parser, _CODECS, "--errors", metavar="ERR",
        help="quote, unquote: codec error handler (default: strict for quote, replace for "
             "unquote)")
    add(parser, ("normalize",), "--sort-query", action="store_true",
        help="normalize: sort the query's parameters by name")
    add(parser, ("normalize",), "--drop-fragment", action="store_true",
        help="normalize: remove the fragment")
    add(parser, ("normalize",), "--strict-idna", action="store_true",
        help="normalize: a host with no IDNA (ASCII) form is an error, not written "
             "percent-encoded")
    add(parser, ("clean-query", "canonicalize"), "--drop", action="append", metavar="PAT",
        help="clean-query, canonicalize: remove the parameters whose decoded name matches the "
             "shell-style pattern PAT (utm_*, ?, [...]); repeatable")
    add(parser, ("clean-query", "canonicalize"), "--keep", action="append", metavar="PAT",
        help="clean-query, canonicalize: keep only the parameters whose decoded name matches "
             "PAT (and no --drop); repeatable")
    add(parser, ("clean-query",), "--tracking", action="store_true",
        help="clean-query: remove the common tracking parameters (pctcodec.TRACKING_PARAMS: "
             "utm_*, fbclid, gclid, ...) as well as --drop's; without --drop, they are the "
             "default")
    add(parser, ("clean-query",), "--sort", action="store_true",
        help="clean-query: sort the kept parameters by decoded name")
    add(parser, ("clean-query", "canonicalize"), "--html-amp", action="store_true",
        help="clean-query, canonicalize: read &amp; in a query as one separator (links "
             "scraped from HTML without unescaping)")
    base_help = {"resolve": "the base URI every link is resolved against",
                 "parse-url": "the base URL a relative URL is read against (as new URL(value, "
                              "base) does)"}
    add(parser, ("resolve", "parse-url"), "--base",
        metavar="URL" if command == "parse-url" else "URI",
        help=base_help.get(command or "", "resolve: " + base_help["resolve"] + "; parse-url: "
                           + base_help["parse-url"]))
    add(parser, ("resolve",), "--base-column", metavar="NAME",
        help="resolve (tables): the column holding each row's base URI (the page URL beside "
             "its link); an empty base gives an empty field, as resolve_many gives null")
    add(parser, ("resolve",), "--normalize", action="store_true", dest="resolve_normalize",
        help="resolve: normalize the result (as the normalize command does)")
    add(parser, ("resolve",), "--non-strict", action="store_true",
        help="resolve: read a link with the base's scheme without it (RFC 3986 5.2.2's "
             "non-strict parser, as urljoin does)")
    add(parser, ("canonicalize",), "--strip-www", action="store_true",
        help="canonicalize: remove 'www.' at the start of the host")
    add(parser, ("canonicalize",), "--same-scheme", action="store_true",
        help="canonicalize: write https as http (then :80 is the default port)")
    add(parser, ("canonicalize",), "--strip-trailing-slash", action="store_true",
        help="canonicalize: remove the trailing '/'s of the path (not '/')")
    parts_help = {
        "split": "the components to add, comma-separated, from "
                 "scheme,userinfo,host,port,path,query,fragment (default: all)",
        "domain": "from subdomain,registered_domain,public_suffix (default: all with --column, "
                  "registered_domain for lines, which take one)",
        "parse-url": "tables: the getters to add, comma-separated (default: all): href, origin, "
                     "protocol, username, password, host, hostname, port, pathname, search, hash",
    }
    add(parser, ("split", "domain", "parse-url"), "--parts", metavar="LIST",
        help=parts_help.get(command or "", "split: " + parts_help["split"] + "; domain: "
                            + parts_help["domain"] + "; parse-url: " + parts_help["parse-url"]))
    add(parser, ("domain",), "--private", action="store_true",
        help="domain: the Public Suffix List's PRIVATE section as well as ICANN's (github.io a "
             "public suffix)")
    add(parser, ("domain",), "--unicode", action="store_true",
        help="domain: xn-- labels in Unicode (default: ASCII)")
    add(parser, ("domain",), "--suffix-list", metavar="FILE",
        help="domain: the Public Suffix List file to use (default: the snapshot shipped with "
             "pctcodec)")
    add(parser, None, "--on-error", choices=("stop", "null", "keep"), default="stop",
        help="a value that fails: stop the run (default), write it empty (null), or write it "
             "as it was (keep)")
    add(parser, None, "--rejects", metavar="FILE",
        help="with --on-error null or keep: write the failed rows to FILE as CSV with the "
             "columns line,row,value,reason")
    table = parser.add_argument_group("tables (with --column)")
    add(table, None, "--column", metavar="NAME", help="transform this column of the table FILE")
    add(table, None, "--format", choices=TABLE_FORMATS,
        help="table format (default: from FILE's extension; csv for stdin)")
    add(table, None, "--delimiter", metavar="CHAR",
        help="CSV field delimiter (default: ',', tab for .tsv)")
    add(table, None, "-o", "--output", metavar="OUT",
        help="write the table to OUT (required for Parquet; default: stdout)")
    add(table, None, "--chunk-size", type=int, metavar="ROWS",
        help="rows per chunk (default: 32768)")
    add(table, None, "--threads", type=int, metavar="N",
        help="threads for the batch functions (default: their own)")
    add(table, None, "--progress", action="store_true",
        help="progress bar on stderr (default: when stderr is a terminal; the bar needs tqdm: "
             "pip install 'pctcodec[progress]')")
    if command is None:
        parser.add_argument("--version", action="version", version=f"pctcodec {__version__}")
    return parser


def _help_command(parser: argparse.ArgumentParser, argv: "Sequence[str]") -> "str | None":
    """The command named by an argument list that asks for help (-h or
    --help before any --), or None: the program's page then."""
    command = None
    asked = False
    skip = False
    for arg in argv:
        if skip:
            skip = False
        elif arg == "--":
            break
        elif arg in ("-h", "--help"):
            asked = True
        elif arg.startswith("-") and arg != "-":
            action = parser._option_string_actions.get(arg.split("=", 1)[0])
            skip = action is not None and action.nargs is None and "=" not in arg
        elif command is None and arg in (*COMMANDS, *_ADDED):
            command = arg
    return command if asked else None


def _error(message: object, status: int = 1) -> int:
    print(f"pctcodec: {message}", file=sys.stderr)
    return status


def _check_args(parser: argparse.ArgumentParser, args: argparse.Namespace) -> None:
    """Usage errors, found before any output is written (status 2)."""
    args.param = None
    if args.command == "query-param":  # query-param NAME [FILE]
        if args.file2 is None and args.file == "-":
            parser.error("query-param needs the NAME of a parameter")
        args.param, args.file = args.file, args.file2 or "-"
        if "," in args.param and args.column is None:
            parser.error(f"query-param {args.param}: several names need --column (a table gets "
                         "a column for each; a line holds one value)")
    elif args.file2 is not None:
        parser.error(f"unrecognized arguments: {args.file2}")
    _check_utf8(parser, args)
    if (args.tracking or args.sort) and args.command != "clean-query":
        parser.error("--tracking and --sort apply to clean-query only")
    if (args.drop or args.keep or args.html_amp) and args.command not in ("clean-query", "canonicalize"):
        parser.error("--drop, --keep and --html-amp apply to clean-query and canonicalize only")
    if ((args.strip_www or args.same_scheme or args.strip_trailing_slash)
            and args.command != "canonicalize"):
        parser.error("--strip-www, --same-scheme and --strip-trailing-slash apply to "
                     "canonicalize only")
    if args.safe is not None and not args.command.startswith("quote"):
        parser.error("--safe applies to quote and quote-plus only")
    if (args.sort_query or args.drop_fragment or args.strict_idna) and args.command != "normalize":
        parser.error("--sort-query, --drop-fragment and --strict-idna apply to normalize only")
    if args.parts is not None and args.command not in _ADDED:
        parser.error("--parts applies to split, domain and parse-url only")
    if (args.private or args.unicode or args.suffix_list) and args.command != "domain":
        parser.error("--private, --unicode and --suffix-list apply to domain only")
    _check_resolve_args(parser, args)
    if args.command == "split" and args.column is None:
        parser.error("split adds columns to a table: give --column NAME and a CSV, TSV or "
                     "Parquet FILE (it has no line mode)")
    if args.command in (*URI_COMMANDS, *_ADDED):
        used = [flag for flag, value in (("--encoding", args.encoding), ("--errors", args.errors))
                if value is not None]
        if used:
            verb = "applies" if len(used) == 1 else "apply"
            parser.error(f"{' and '.join(used)} {verb} to quote and unquote only: "
                         f"{args.command} works on UTF-8")
    for flag, value in (("-o", getattr(args, "output", None)), ("--rejects", args.rejects)):
        if value == "":
            parser.error(f"{flag} needs a file name")
    if args.rejects is not None and args.on_error == "stop":
        parser.error("--rejects needs --on-error null or keep")
    if (args.rejects is not None and getattr(args, "output", None) is not None
            and os.path.realpath(args.rejects) == os.path.realpath(args.output)):
        parser.error("--rejects and -o name the same file")
    if (args.rejects is not None and args.file != "-"
            and os.path.realpath(args.rejects) == os.path.realpath(args.file)):
        # the rejects file is opened (emptied) before the input is read
        parser.error("--rejects and the input FILE name the same file")
    if args.on_error == "keep" and args.command == "check":
        parser.error("check writes no values: --on-error keep does not apply")
    if args.column is None:
        used = [flag for flag, value in (("--format", args.format), ("--delimiter", args.delimiter),
                                         ("-o", args.output), ("--threads", args.threads),
                                         ("--chunk-size", args.chunk_size),
                                         ("--progress", args.progress or None))
                if value is not None]
        if used:
            verb = "applies" if len(used) == 1 else "apply"
            parser.error(f"{', '.join(used)} {verb} to tables only (with --column)")
    if args.threads is not None and not 1 <= args.threads <= 1024:
        parser.error("--threads must be between 1 and 1024")


def _check_utf8(parser: argparse.ArgumentParser, args: argparse.Namespace) -> None:
    """Values given on the command line (not file names) must be text: an
    argument whose bytes are not valid UTF-8 (a lone surrogate in argv) is
    a usage error."""
    given = [("NAME", args.param), ("--safe", args.safe), ("--encoding", args.encoding),
             ("--errors", args.errors), ("--column", args.column),
             ("--delimiter", args.delimiter), ("--parts", args.parts),
             ("--base", args.base), ("--base-column", args.base_column),
             *(("--drop", pattern) for pattern in args.drop or ()),
             *(("--keep", pattern) for pattern in args.keep or ())]
    for flag, value in given:
        if value is None:
            continue
        try:
            value.encode("utf-8")
        except UnicodeEncodeError:
            shown = value.encode("utf-8", "surrogateescape")
            parser.error(f"{flag} {shown!r}: not valid UTF-8")


def _check_resolve_args(parser: argparse.ArgumentParser, args: argparse.Namespace) -> None:
    """resolve's options: one base, fixed or a column (tables only)."""
    if args.command == "parse-url":
        if args.base_column is not None or args.resolve_normalize or args.non_strict:
            parser.error("--base-column, --normalize and --non-strict apply to resolve only")
        return  # its --base is read by _url_command.check_base
    if args.command != "resolve":
        if (args.base is not None or args.base_column is not None or args.resolve_normalize
                or args.non_strict):
            parser.error("--base applies to resolve and parse-url only" if args.base is not None
                         else "--base-column, --normalize and --non-strict apply to resolve only")
        return
    if (args.base is None) == (args.base_column is None):
        parser.error("resolve needs one of --base URI and --base-column NAME")
    if args.base_column is not None and args.column is None:
        parser.error("--base-column reads a table: give --column NAME too (the line mode "
                     "takes --base URI)")
    if args.base is not None:
        try:
            resolve(args.base, "")
        except ValueError as exc:
            parser.error(f"--base {args.base}: {exc}")


def _codec_error(args: argparse.Namespace) -> "str | None":
    """An unknown --encoding or --errors, as a message."""
    try:
        if args.encoding is not None:
            codecs.lookup(args.encoding)
        if args.errors is not None:
            codecs.lookup_error(args.errors)
    except LookupError as exc:
        return str(exc)
    return None


_BOM = b"\xef\xbb\xbf"

# Above this size a line is decoded in place and its result written in
# slices, so that line mode holds about twice the longest line at most.
_BIG = 1 << 20


# Commands that work on each character or each run of %XX escapes alone: a
# long line goes through them in pieces cut outside escapes, the same result.
_PIECEWISE = ("quote", "quote-plus", "unquote", "unquote-plus")


def _pieces(text: str) -> "list[tuple[int, int]]":
    """(start, end) of pieces of about _BIG characters that together make
    `text`, each cut before a character that is no '%' and not within two
    characters after one (so no run of escapes is cut)."""
    cuts = [0]
    while len(text) - cuts[-1] > _BIG:
        i = cuts[-1] + _BIG
        while i < len(text) and (text[i] == "%" or "%" in text[i - 2:i]):
            i += 1
        cuts.append(i)
    if cuts[-1] != len(text):
        cuts.append(len(text))
    return list(zip(cuts, cuts[1:]))


def _long_line(one: "Callable[[str], str]", text: str, piecewise: bool) -> "list[str]":
    """one(text) for a long line: as the results of its pieces for the
    commands that allow it (the text held once, not with a whole result and
    the function's own buffers beside it)."""
    if not piecewise:
        return [one(text)]
    try:
        return [one(text[start:end]) for start, end in _pieces(text)]
    except (ValueError, TypeError, LookupError):
        return [one(text)]  # the error again, its position in the whole line


def _one_line(text: str) -> str:
    """A result as one output line: CR and LF (which a decoded value may
    hold) written as %0D and %0A."""
    if "\n" in text or "\r" in text:
        return text.replace("\r", "%0D").replace("\n", "%0A")
    return text


def _write_text(write: "Callable[[bytes], object]", text: str) -> None:
    """Writes text as bytes (see _streams.encode), a long one in slices."""
    if len(text) <= _BIG:
        write(text.encode("utf-8", "surrogateescape"))
        return
    for start in range(0, len(text), _BIG):  # a lone surrogate is one character: any cut is fine
        write(text[start:start + _BIG].encode("utf-8", "surrogateescape"))


def _lines(command: Command, infile: "BinaryReader", out: Output, failures: Failures) -> int:
    """The line mode; the number of invalid lines (check). Lines end at LF,
    CRLF or CR; each gives one output line with the terminator it had."""
    invalid = 0
    null = failures.on_error == "null"
    checking = command.name == "check"
    one = None if checking else command.line_function()
    piecewise = command.name in _PIECEWISE
    stream_write = out.stream.write

    def write(data: bytes) -> None:
        try:
            stream_write(data)
        except BrokenPipeError:
            raise
        except OSError as exc:
            raise OutputError("standard output", exc) from None

    lineno = 0
    # no enumerate: its reused tuple would keep the last line alive
    for line in LineReader(infile):
        lineno += 1
        if lineno == 1 and line[:3] == _BOM:
            # a UTF-8 byte order mark is no data: it is kept on the output
            # (as the table mode keeps it), before the first result
            line = line[3:]
            if not checking:
                write(_BOM)
        n = len(line)
        if line[-1:] == b"\n":  # the line's terminator (inline: this loop is the hot path)
            size = n - 2 if line[-2:-1] == b"\r" else n - 1
        else:
            size = n - 1 if line[-1:] == b"\r" else n
        end = line[size:]
        if n <= _BIG:
            text = line[:size].decode("utf-8", "surrogateescape")
        else:  # decoded in place, the bytes let go before the work
            text = str(memoryview(line)[:size], "utf-8", "surrogateescape")
        del line
        if checking:
            try:
                check(command.prepare(text))
            except PercentEncodingError as exc:
                invalid += 1
                reason = check_reason(text, exc)
                write(f"{lineno}:{exc.position}: {reason}\n".encode("utf-8", "backslashreplace"))
            except (ValueError, TypeError) as exc:
                failures.add(lineno, text, exc, lineno)
            continue
        assert one is not None  # set unless checking
        try:
            results = _long_line(one, text, piecewise) if n > _BIG else None
            result = one(text) if results is None else ""
        except (ValueError, TypeError, LookupError) as exc:  # UnicodeError is a ValueError
            failures.add(lineno, text, exc, lineno)
            results, result = None, "" if null else text  # the input's own bytes (see _streams.encode)
        if results is not None:
            del text
            while results:
                _write_text(write, _one_line(results.pop(0)))
            write(bytes(end))
            continue
        if "\n" in result or "\r" in result:
            result = _one_line(result)
        try:
            stream_write(result.encode("utf-8", "surrogateescape") + end)
        except BrokenPipeError:
            raise
        except OSError as exc:
            raise OutputError("standard output", exc) from None
    failures.rows += lineno
    return invalid


def main(argv: "Sequence[str] | None" = None) -> int:
    """Run the command line given by argv (default: sys.argv[1:]); return the exit status."""
    parser = _parser()
    argv = sys.argv[1:] if argv is None else list(argv)
    command_help = _help_command(parser, argv)
    if command_help is not None:  # the command's own page, not the program's
        _parser(command_help).print_help()
        return 0
    args = parser.parse_intermixed_args(argv)
    _check_args(parser, args)
    message = _codec_error(args)
    if message:
        return _error(message, 2)
    command: "Command | AddColumns"
    if args.command == "split":
        from ._split_command import parse_parts, split_command

        try:
            command = split_command(parse_parts(args.parts))
        except ValueError as exc:
            return _error(str(exc), 2)
    elif args.command == "domain":
        from ._domain_command import DomainLines, domain_columns, parse_parts as domain_parts

        try:
            chosen = domain_parts(args.parts, args.column is None)
            if args.suffix_list is not None:
                from ..domains import suffix_list

                suffix_list(args.suffix_list)  # a list that cannot be read: a usage error
        except (ValueError, OSError) as exc:
            return _error(str(exc), 2)
        options = (args.private, args.unicode, args.suffix_list)
        command = (DomainLines(chosen[0], *options) if args.column is None
                   else domain_columns(chosen, *options))
    elif args.command == "parse-url":
        from ._url_command import URLLines, check_base, parse_parts as url_parts, url_columns

        try:
            chosen = url_parts(args.parts, args.column is None)
        except ValueError as exc:
            return _error(str(exc), 2)
        try:
            check_base(args.base)
        except ValueError as exc:  # URLParseError
            return _error(f"--base {args.base}: {exc}", 2)
        command = (URLLines(args.base) if args.column is None
                   else url_columns(chosen, args.base))
    elif args.command == "query-param" and args.column is not None:
        from ._query_command import parse_names, query_param_column

        try:
            command = query_param_column(parse_names(args.param))
        except ValueError as exc:
            return _error(str(exc), 2)
    else:
        command = Command(args.command, safe=args.safe, encoding=args.encoding or "utf-8",
                          errors=args.errors, sort_query=args.sort_query,
                          drop_fragment=args.drop_fragment, strict_idna=args.strict_idna,
                          drop=list(args.drop or ()), keep=args.keep, sort=args.sort,
                          param=args.param, tracking=args.tracking, html_amp=args.html_amp,
                          strip_www=args.strip_www,
                          same_scheme=args.same_scheme,
                          strip_trailing_slash=args.strip_trailing_slash, base=args.base,
                          resolve_normalize=args.resolve_normalize, strict=not args.non_strict)
    where = "<stdin>" if args.file == "-" else args.file
    # SIGTERM unwinds the run as SIGINT does, from before the --rejects file
    # is made: no partial -o or --rejects file is left.
    restore = catch_sigterm()
    try:
        release = hold_signals()  # until the --rejects file has an owner that removes it
        try:
            failures = Failures(args.on_error, args.rejects)
        except OutputError as exc:
            release()
            return _error(exc, 2)
        except OSError as exc:
            release()
            return _error(f"{args.rejects}: {exc.strerror or exc}", 2)
        status = 130
        try:
            release()
            status = _run(args, command, failures, where)
        except KeyboardInterrupt:  # held while the --rejects file was made
            status = 130
        except Terminated:
            status = 143
        finally:
            # an interrupted run leaves no partial --rejects file either
            try:
                failures.close(status not in (130, 143))
            except OutputError as exc:
                status = _error(exc, 2)
            # a stopped run's counts are of an unknown part of it: no summary
            if args.on_error != "stop" and status not in (130, 143):
                print(failures.summary(), file=sys.stderr)
        return status
    finally:
        restore()


def _run(args: argparse.Namespace, command: "Command | AddColumns", failures: Failures,
         where: str) -> int:
    """The run; its exit status (the errors of either mode reported here)."""
    from . import _tables

    opened: "BinaryIO | None" = None  # the input file, closed here
    out: "Output | None" = None
    ok = False
    try:
        if args.column is not None:
            return _tables.run(args, command, failures)
        assert not isinstance(command, _tables.AddColumns)  # a table command (_check_args)
        if args.file == "-":
            infile = binary_stdin()
        else:
            infile = opened = open(args.file, "rb")
        out = Output(None)
        invalid = _lines(command, infile, out, failures)
        ok = True
        out.finish(True)
        return 1 if invalid or failures.count else 0
    except BrokenPipeError:
        # the reader went away (`| head`): quiet, with the status of what was done
        quiet_broken_pipe()
        return 1 if failures.count or args.command == "check" else 0
    except RowFailure as exc:
        _flush(out, ok)
        return _error(f"{where}:{exc}", 1)
    except _tables.TableError as exc:
        return _error(f"{where}: {exc}", 2)
    except OutputError as exc:
        # What is left in stdout's buffer cannot be written either: dropped
        # here, not at exit (where 3.14 reports it and exits 120).
        quiet_broken_pipe()
        return _error(exc, 2)
    except OSError as exc:
        return _error(f"{getattr(exc, 'filename', None) or where}: {exc.strerror or exc}", 2)
    except KeyboardInterrupt:
        return 130  # 128 + SIGINT, as a shell reports it
    except Terminated:
        return 143  # 128 + SIGTERM
    finally:
        if opened is not None:
            opened.close()


def _flush(out: "Output | None", ok: bool) -> None:
    """What came before a failing line goes out first."""
    if out is not None and not ok:
        try:
            out.finish(True)
        except (OSError, OutputError):
            pass
