"""``pctcodec parse-url``: URLs as the URL Standard's parser (a browser)
reads them (``pctcodec.url``).

With ``--column NAME`` the getters of each URL are new columns of the table
right after NAME (``NAME_href``, ``NAME_hostname`` ...; ``--parts`` chooses
which, all by default), an ``_tables.AddColumns`` over ``parse_url_many``.
Without it, each line gives one line: its ``href``, the serialization a
browser loads, as ``normalize`` gives one line per line.
"""
from ._commands import Command
from ._split_command import parse_parts as split_parts
from ._tables import AddColumns
from ..url import FIELDS, parse_url_many, url_href

TYPE_CHECKING = False  # typing is not imported at run time: annotations in quotes
if TYPE_CHECKING:
    from typing import Any, Callable, Literal, Sequence

PARTS = FIELDS


def parse_parts(text: "str | None", lines: bool) -> "list[str]":
    """The field names of --parts (as split reads them; all by default), or
    ValueError; the line mode writes href only."""
    if lines and text is not None:
        raise ValueError("--parts: the line mode writes each URL's href; give --column for "
                         "other parts")
    return split_parts(text, PARTS)


def check_base(base: "str | None") -> None:
    """URLParseError (a ValueError) for a --base the parser rejects."""
    if base is not None:
        url_href("", base)


def url_columns(parts: "Sequence[str]", base: "str | None") -> AddColumns:
    """The AddColumns of ``parse-url --column``."""
    indexes = [FIELDS.index(part) for part in parts]

    def many(values: "Any", *, threads: "int | None", on_error: "Literal['raise', 'null', 'keep']",
             rejects: "Any") -> "list[Any]":
        # a failed row gets no parts, under keep too (its URL stays in its own column)
        policy: "Literal['raise', 'null']" = "raise" if on_error == "raise" else "null"
        if isinstance(values, list):
            out = parse_url_many(values, base, threads=threads, on_error=policy, rejects=rejects)
            return [[None if row is None else row[k] for row in out] for k in indexes]
        struct = parse_url_many(values, base, fields=parts, threads=threads, on_error=policy,
                                rejects=rejects)
        return list(struct.flatten())  # the struct's nulls applied to each child

    return AddColumns("parse-url", parts, many)


class URLLines(Command):
    """The line mode of ``parse-url``: each line's href."""

    def __init__(self, base: "str | None") -> None:
        self.name = "parse-url"
        self.uri = False  # a byte that is not UTF-8 is read as U+FFFD, as a browser does
        self.options = {"base": base}

    def line_function(self) -> "Callable[[str], str]":
        base = self.options["base"]
        return lambda text: url_href(text, base)  # type: ignore[arg-type]
