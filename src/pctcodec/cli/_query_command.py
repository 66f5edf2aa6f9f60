"""``pctcodec query-param NAME --column COL FILE``: the value of the query
parameter NAME of each URI of column COL, decoded, as a new column
``COL_NAME`` right after it (an absent parameter: an empty field, null in
Parquet). An ``_tables.AddColumns`` over ``query_param_many``.
"""
from ._streams import escape_undecoded
from ._tables import AddColumns
from ..query import query_param_many

TYPE_CHECKING = False  # typing is not imported at run time: annotations in quotes
if TYPE_CHECKING:
    from typing import Any, Literal


def query_param_column(name: str) -> AddColumns:
    """The AddColumns of ``query-param NAME``."""

    def many(values: "Any", *, threads: "int | None", on_error: "Literal['raise', 'null', 'keep']",
             rejects: "Any") -> "list[Any]":
        if isinstance(values, list):  # a byte that was not UTF-8 is read as its escape
            values = [v if v is None or v.isascii() else escape_undecoded(v) for v in values]
        # a failed row gets no value, under keep too (its URI stays in its own column)
        policy: "Literal['raise', 'null']" = "raise" if on_error == "raise" else "null"
        return [query_param_many(values, name, threads=threads, on_error=policy, rejects=rejects)]

    return AddColumns("query-param", [name], many)
