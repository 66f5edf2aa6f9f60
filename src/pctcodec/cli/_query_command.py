"""``pctcodec query-param NAME --column COL FILE``: the value of the query
parameter NAME of each URI of column COL, decoded, as a new column
``COL_NAME`` right after it (an absent parameter: an empty field, null in
Parquet). NAME may be several names, comma-separated (``q,page``): one
column each, in that order. An ``_tables.AddColumns`` over
``query_param_many``.
"""
from ._streams import escape_undecoded
from ._tables import AddColumns
from ..query import query_param_many

TYPE_CHECKING = False  # typing is not imported at run time: annotations in quotes
if TYPE_CHECKING:
    from typing import Any, Literal


def parse_names(text: str) -> "list[str]":
    """The names of NAME (comma-separated), or ValueError."""
    names = text.split(",")
    if "" in names:
        raise ValueError(f"query-param {text!r}: an empty name (names are comma-separated)")
    if len(set(names)) != len(names):
        raise ValueError(f"query-param {text!r}: a name is given twice")
    return names


def query_param_column(names: "list[str]") -> AddColumns:
    """The AddColumns of ``query-param NAME[,NAME...]``."""

    def many(values: "Any", *, threads: "int | None", on_error: "Literal['raise', 'null', 'keep']",
             rejects: "Any") -> "list[Any]":
        if isinstance(values, list):  # a byte that was not UTF-8 is read as its escape
            values = [v if v is None or v.isascii() else escape_undecoded(v) for v in values]
        # a failed row gets no value, under keep too (its URI stays in its own column)
        policy: "Literal['raise', 'null']" = "raise" if on_error == "raise" else "null"
        # a row fails for every name alike (its URI): its rejects are taken once
        out = [query_param_many(values, names[0], threads=threads, on_error=policy,
                                rejects=rejects)]
        return out + [query_param_many(values, name, threads=threads, on_error=policy,
                                       rejects=[]) for name in names[1:]]

    # lists of str, one per name: cheaper than loading pyarrow for them
    return AddColumns("query-param", names, many, arrow=False)
