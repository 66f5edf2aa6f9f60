"""The commands of the command line as functions on text, the same for the
line mode (one value at a time) and the table mode (a column at a time).

Values come in as ``_streams.decode`` makes them (a byte that is not valid
UTF-8 as a lone surrogate) and go out through ``_streams.encode``.
"""
from .. import batch, normalize, quote, quote_plus, requote, unquote, unquote_plus
from .. import canonical, query, resolution
from ._streams import escape_undecoded, quote_errors
from .._typecheck import cast, overload

TYPE_CHECKING = False  # typing is not imported at run time: annotations in quotes
if TYPE_CHECKING:
    from typing import Any, Callable

    import pyarrow

    from ..batch import Reject

    # A batch function's result is of its input's type (list in, list out;
    # Arrow in, Arrow out: see batch.pyi's overloads): Command.many's
    # overloads say which.
    _Functions = tuple[Callable[..., str], Callable[..., object], tuple[str, ...]]

COMMANDS = ("quote", "quote-plus", "unquote", "unquote-plus", "requote", "normalize", "check",
            "clean-query", "query-param", "resolve", "canonicalize")
URI_COMMANDS = ("requote", "normalize", "check", "clean-query", "query-param", "resolve",
                "canonicalize")


def _param_line(uri: str, name: str) -> str:
    """query-param's line: the value, or an empty line for an absent parameter."""
    value = query.query_param(uri, name)
    return "" if value is None else value

def _resolve_line(reference: str, base: str, resolve_normalize: bool, strict: bool) -> str:
    """resolve's line: the link made absolute against the fixed base."""
    return resolution.resolve(base, reference, normalize=resolve_normalize, strict=strict)


def _resolve_column(values: "object", base: "str | None", resolve_normalize: bool, strict: bool,
                    *, threads: "int | None", on_error: str, rejects: "list[Reject]",
                    bases: "object" = None) -> "object":
    """resolve's column: against the fixed base, or the chunk's `bases`."""
    return resolution.resolve_many(base if bases is None else bases, values,  # type: ignore[call-overload]
                                   normalize=resolve_normalize, strict=strict, threads=threads,
                                   on_error=on_error, rejects=rejects)


def _clean_patterns(drop: "list[str]", keep: "list[str] | None") -> "dict[str, Any]":
    """clean_query's drop and keep for --drop and --keep: no --drop leaves
    drop to its default (TRACKING_PARAMS)."""
    return {"drop": drop, "keep": keep} if drop else {"keep": keep}


def _clean_line(uri: str, drop: "list[str]", keep: "list[str] | None", sort: bool,
                tracking: bool, html_amp: bool = False) -> str:
    """clean-query's function: --drop and --keep as written, then --tracking's
    TRACKING_PARAMS in any case (the same as one pass: the filters add up);
    without --drop, drop is clean_query's default, TRACKING_PARAMS."""
    if drop or keep is not None or not tracking:
        uri = query.clean_query(uri, **_clean_patterns(drop, keep), sort=sort, html_amp=html_amp)
    if tracking:
        uri = query.clean_query(uri, drop=query.TRACKING_PARAMS, sort=sort, html_amp=html_amp)
    return uri


def _clean_many(values: "Any", drop: "list[str]", keep: "list[str] | None", sort: bool,
                tracking: bool, html_amp: bool = False, **batch: "Any") -> "Any":
    """_clean_line over a column (a list or an Arrow array, as Command.many passes)."""
    if drop or keep is not None or not tracking:
        values = query.clean_query_many(values, **_clean_patterns(drop, keep), sort=sort,
                                        html_amp=html_amp, **batch)
    if tracking:
        values = query.clean_query_many(values, drop=query.TRACKING_PARAMS, sort=sort,
                                        html_amp=html_amp, **batch)
    return values


# command: (single-value function, batch function, names of its options)
FUNCTIONS: "dict[str, _Functions]" = {
    "quote": (quote, batch.quote_many, ("safe", "encoding", "errors")),
    "quote-plus": (quote_plus, batch.quote_plus_many, ("safe", "encoding", "errors")),
    "unquote": (unquote, batch.unquote_many, ("encoding", "errors")),
    "unquote-plus": (unquote_plus, batch.unquote_plus_many, ("encoding", "errors")),
    "requote": (requote, batch.requote_many, ()),
    "normalize": (normalize, batch.normalize_many, ("sort_query", "drop_fragment", "strict_idna")),
    "clean-query": (_clean_line, _clean_many, ("drop", "keep", "sort", "tracking", "html_amp")),
    "canonicalize": (canonical.canonicalize, canonical.canonicalize_many,
                     ("drop", "keep", "strip_www", "same_scheme", "strip_trailing_slash", "html_amp")),
    "query-param": (_param_line, query.query_param_many, ("name",)),  # tables: _query_command
    "resolve": (_resolve_line, _resolve_column, ("base", "resolve_normalize", "strict")),
}


def _tracking_and(drop: "list[str]") -> "tuple[str, ...]":
    """TRACKING_PARAMS and the patterns of --drop, matched in any case."""
    return query.TRACKING_PARAMS + tuple(drop)


class Command:
    """A command with its options: ``one`` and ``many`` take text as
    ``_streams.decode`` gives it (``prepare`` applied)."""

    def __init__(self, name: str, safe: "str | None" = None, encoding: str = "utf-8",
                 errors: "str | None" = None, sort_query: bool = False,
                 drop_fragment: bool = False, strict_idna: bool = False,
                 drop: "list[str] | None" = None,
                 keep: "list[str] | None" = None, sort: bool = False,
                 param: "str | None" = None, tracking: bool = False, html_amp: bool = False,
                 strip_www: bool = False, same_scheme: bool = False,
                 strip_trailing_slash: bool = False, base: "str | None" = None,
                 resolve_normalize: bool = False, strict: bool = True) -> None:
        self.name = name
        # requote and normalize read a byte that is not UTF-8 as its escape;
        # check reports it (a raw byte is no URI character)
        self.uri = name in URI_COMMANDS and name != "check"
        if name == "check":
            self.options: "dict[str, object]" = {}
            return
        if errors is None:
            errors = "strict" if name.startswith("quote") else "replace"
        given = {"safe": safe, "encoding": encoding, "errors": errors,
                 "sort_query": sort_query, "drop_fragment": drop_fragment, "strict_idna": strict_idna,
                 "drop": drop, "keep": keep, "sort": sort, "name": param,
                 "tracking": tracking, "html_amp": html_amp, "strip_www": strip_www, "same_scheme": same_scheme,
                 "strip_trailing_slash": strip_trailing_slash,
                 "base": base, "resolve_normalize": resolve_normalize, "strict": strict}
        self._one, self._many, names = FUNCTIONS[name]
        self.options = {key: given[key] for key in names}
        if name == "canonicalize":  # --drop adds to TRACKING_PARAMS (any case), --keep restricts
            self.options["drop"] = query.TRACKING_PARAMS if not drop else _tracking_and(drop)
            self.options["ignore_case"] = True
        if name.startswith("quote"):
            if safe is None:
                self.options["safe"] = "" if name == "quote-plus" else "/"
            # the bytes of a value are quoted as they are (see _streams)
            self.options["errors"] = quote_errors(encoding, errors)

    def prepare(self, text: str) -> str:
        """A value as the function takes it: for the URI commands a byte
        that was not valid UTF-8 is read as its escape."""
        return escape_undecoded(text) if self.uri else text

    def prepare_all(self, values: "list[str | None]") -> "list[str | None]":
        """prepare() over a list (None kept)."""
        if not self.uri:
            return values
        try:
            if "".join(values).isascii():  # type: ignore[arg-type]  # TypeError on None, caught
                return values  # nothing to escape (checked at once)
        except TypeError:  # None among them
            pass
        return [v if v is None or v.isascii() else escape_undecoded(v) for v in values]

    def one(self, text: str) -> str:
        """The single-value function on one text."""
        return self._one(self.prepare(text), **self.options)

    @overload
    def many(self, values: "list[str | None]", *, threads: "int | None", on_error: str,
             rejects: "list[Reject]", bases: "object" = None) -> "list[str | None]": ...
    @overload
    def many(self, values: "pyarrow.Array", *, threads: "int | None", on_error: str,
             rejects: "list[Reject]", bases: "object" = None) -> "pyarrow.Array": ...

    def many(self, values: "list[str | None] | pyarrow.Array", *, threads: "int | None",
             on_error: str, rejects: "list[Reject]",
             bases: "object" = None) -> "list[str | None] | pyarrow.Array":
        """The batch function over a list of texts or an Arrow array (whose
        values are valid UTF-8: nothing to prepare); `bases`: resolve's
        base column for these rows, of the same kind."""
        if isinstance(values, list):
            values = self.prepare_all(values)
        if bases is None:
            return self._many(values, **self.options, threads=threads, on_error=on_error,
                              rejects=rejects)
        # a row with no base gives null, as resolve_many does (an empty CSV
        # field is no base: the table mode's null); written as an empty
        # field, not as a failure
        if not isinstance(bases, list):
            return self._many(values, **self.options, threads=threads, on_error=on_error,
                              rejects=rejects, bases=bases)
        bases = self.prepare_all([None if b == "" else b for b in bases])
        out = cast("list[str | None]", self._many(values, **self.options, threads=threads,
                                                   on_error=on_error, rejects=rejects,
                                                   bases=bases))
        if None in bases:
            out = ["" if base is None and value is not None else result
                   for base, value, result in zip(bases, cast("list[str | None]", values), out)]
        return out

    def line_function(self) -> "Callable[[str], str]":
        """one() as a plain function, for the line mode's loop."""
        func, options = self._one, self.options
        if self.uri:
            return lambda text: func(text if text.isascii() else escape_undecoded(text), **options)
        return lambda text: func(text, **options)
