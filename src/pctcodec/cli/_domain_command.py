"""``pctcodec domain``: the parts of each URL's host by the Public Suffix
List (``pctcodec.domains``).

With ``--column NAME`` the parts are new columns of the table right after
NAME (``NAME_subdomain``, ``NAME_registered_domain``, ``NAME_public_suffix``;
``--parts`` chooses which), an ``_tables.AddColumns`` over the ``_many``
functions. Without it, each line gives one line: its registered domain, or
the one part ``--parts`` names, and an empty line where there is none.
"""
from ._commands import Command
from ._split_command import parse_parts as split_parts
from ._tables import AddColumns
from ..domains import DomainParts, domain_parts_many, public_suffix, registered_domain

TYPE_CHECKING = False  # typing is not imported at run time: annotations in quotes
if TYPE_CHECKING:
    from typing import Any, Callable, Literal, Sequence

PARTS = DomainParts._fields


def parse_parts(text: "str | None", lines: bool) -> "list[str]":
    """The part names of --parts (as split reads them; the line mode takes
    one, the registered domain by default), or ValueError."""
    if text is None and lines:
        return ["registered_domain"]
    chosen = split_parts(text, PARTS)
    if lines and len(chosen) > 1:
        raise ValueError("--parts: the line mode writes one part a line; give one, or --column")
    return chosen


def domain_columns(parts: "Sequence[str]", private: bool, unicode: bool,
                   suffix_list: "str | None") -> AddColumns:
    """The AddColumns of ``domain --column``."""
    indexes = [PARTS.index(part) for part in parts]

    def many(values: "Any", *, threads: "int | None", on_error: "Literal['raise', 'null', 'keep']",
             rejects: "Any") -> "list[Any]":
        # a failed row gets no parts, under keep too (its URL stays in its own column)
        policy: "Literal['raise', 'null']" = "raise" if on_error == "raise" else "null"
        out = domain_parts_many(values, private=private, unicode=unicode, suffix_list=suffix_list,
                                threads=threads, on_error=policy, rejects=rejects)
        if isinstance(values, list):
            return [[None if row is None else row[k] for row in out] for k in indexes]
        children = out.flatten()  # the struct's nulls applied to each child
        return [children[k] for k in indexes]

    return AddColumns("domain", parts, many)


class DomainLines(Command):
    """The line mode of ``domain``: one part of each line's host."""

    def __init__(self, part: str, private: bool, unicode: bool, suffix_list: "str | None") -> None:
        self.name = "domain"
        self.uri = False
        self.options = {"private": private, "unicode": unicode, "suffix_list": suffix_list}
        self.part = part

    def line_function(self) -> "Callable[[str], str]":
        options = self.options
        if self.part == "subdomain":
            from ..domains import domain_parts

            return lambda text: domain_parts(text, **options).subdomain or ""  # type: ignore[arg-type]
        func = registered_domain if self.part == "registered_domain" else public_suffix
        return lambda text: func(text, **options) or ""  # type: ignore[arg-type]
