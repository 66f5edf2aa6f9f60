"""``pctcodec split --column NAME FILE``: the components of a URI column as
new columns of the table (``NAME_scheme``, ``NAME_host`` ...), right after
it; ``--parts`` chooses which. An ``_tables.AddColumns`` over ``split_many``.

There is no line mode: the parts of a line have no place to go in a line of
text that keeps absent and empty parts apart, so ``split`` without
``--column`` is a usage error.
"""
from ._streams import escape_undecoded
from ._tables import AddColumns
from ..parts import URIParts, split_many

TYPE_CHECKING = False  # typing is not imported at run time: annotations in quotes
if TYPE_CHECKING:
    from typing import Any, Literal, Sequence

PARTS = URIParts._fields


def parse_parts(text: "str | None", parts: "Sequence[str]" = PARTS) -> "list[str]":
    """The part names of --parts (comma-separated, in the order given), or
    ValueError naming a part that is not one of `parts`."""
    if text is None:
        return list(parts)
    chosen = [part.strip() for part in text.split(",") if part.strip()]
    for part in chosen:
        if part not in parts:
            raise ValueError(f"--parts: no part {part!r}; the parts are {','.join(parts)}")
    if not chosen:
        raise ValueError(f"--parts names no part; the parts are {','.join(parts)}")
    if len(set(chosen)) != len(chosen):
        raise ValueError("--parts names a part twice")
    return chosen


def split_command(parts: "Sequence[str]") -> AddColumns:
    """The AddColumns of ``split`` for the part names `parts`."""
    indexes = [PARTS.index(part) for part in parts]

    def many(values: "Any", *, threads: "int | None", on_error: "Literal['raise', 'null', 'keep']",
             rejects: "Any") -> "list[Any]":
        if isinstance(values, list):
            # a byte that was not UTF-8 is read as its escape, as split_many
            # writes it on Arrow (a Parquet column): the same parts either way
            values = [v if v is None or v.isascii() else escape_undecoded(v) for v in values]
        out = split_many(values, threads=threads, on_error=on_error, rejects=rejects)
        if isinstance(values, list):
            return [[None if type(row) is not URIParts else row[k] for row in out]
                    for k in indexes]
        children = out.flatten()  # the struct's nulls applied to each child
        return [children[k] for k in indexes]

    return AddColumns("split", parts, many)
