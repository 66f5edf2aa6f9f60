"""The table of functions that every integration offers.

One ``Function`` per batch function: the polars namespace, the pandas
accessor, the DuckDB SQL functions and the Spark Column functions are all
built from ``FUNCTIONS`` (a new batch function joins all four by adding one
entry here). Options are passed to the batch function by keyword.
"""
from typing import Any, Callable, Dict, NamedTuple, Tuple

# The library, imported here only: every integration reads it through the table.
from .. import _pctcodec, batch, canonical, domains, query, url

# The default of an option that has none: it must be given.
REQUIRED: Any = type("Required", (), {"__repr__": lambda self: "REQUIRED"})()


class Option(NamedTuple):
    """One keyword option of a batch function."""

    name: str      # the batch function's keyword
    kind: str      # a key of KINDS: how SQL and Spark declare it
    default: Any   # REQUIRED when it has none


class Function(NamedTuple):
    """One batch function as every integration offers it: polars
    ``pl.col(c).pct.NAME(...)``, pandas ``s.pct.NAME(...)``, SQL
    ``pct_NAME(column, option...)``, Spark ``NAME(column, ...)``."""

    name: str
    batch: Callable[..., Any]    # batch(column, **options, threads=, on_error=)
    single: Callable[..., Any]   # the single-value function: what each row gives
    options: Tuple[Option, ...]  # in the order of the SQL arguments after the column
    output: str                  # a key of OUTPUTS


# Option kinds: "str" (a SQL VARCHAR), "bool" (a BOOLEAN), "patterns" (a
# list of str: VARCHAR[]; a str is one pattern), "column" (a second column
# taken row by row, such as the base of a reference).
KINDS = ("str", "bool", "patterns", "column")

# Output kinds: their types in polars, Arrow, SQL (DuckDB) and Spark.
OUTPUTS: Dict[str, Dict[str, str]] = {
    "string": {"polars": "String", "arrow": "string", "sql": "VARCHAR", "spark": "string"},
    "int64": {"polars": "Int64", "arrow": "int64", "sql": "BIGINT", "spark": "bigint"},
}


_CODEC = (Option("encoding", "str", "utf-8"), Option("errors", "str", "replace"))
_DOMAIN = (Option("private", "bool", False), Option("unicode", "bool", False))

FUNCTIONS: Tuple[Function, ...] = (
    Function("quote", batch.quote_many, _pctcodec.quote,
             (Option("safe", "str", "/"), Option("encoding", "str", None), Option("errors", "str", None)),
             "string"),
    Function("quote_plus", batch.quote_plus_many, _pctcodec.quote_plus,
             (Option("safe", "str", ""), Option("encoding", "str", None), Option("errors", "str", None)),
             "string"),
    Function("unquote", batch.unquote_many, _pctcodec.unquote, _CODEC, "string"),
    Function("unquote_plus", batch.unquote_plus_many, _pctcodec.unquote_plus, _CODEC, "string"),
    Function("requote", batch.requote_many, _pctcodec.requote, (), "string"),
    Function("normalize", batch.normalize_many, _pctcodec.normalize,
             (Option("sort_query", "bool", False), Option("drop_fragment", "bool", False),
              Option("strict_idna", "bool", False)),
             "string"),
    Function("check", batch.check_many, batch._check_position, (), "int64"),
    Function("query_param", query.query_param_many, query.query_param,
             (Option("name", "str", REQUIRED),), "string"),
    Function("clean_query", query.clean_query_many, query.clean_query,
             (Option("drop", "patterns", query.TRACKING_PARAMS), Option("keep", "patterns", None),
              Option("sort", "bool", False)),
             "string"),
    Function("registered_domain", domains.registered_domain_many, domains.registered_domain,
             _DOMAIN, "string"),
    Function("public_suffix", domains.public_suffix_many, domains.public_suffix, _DOMAIN, "string"),
    Function("canonicalize", canonical.canonicalize_many, canonical.canonicalize,
             (Option("strip_www", "bool", False), Option("same_scheme", "bool", False),
              Option("strip_trailing_slash", "bool", False)),
             "string"),
    Function("url_href", url.url_href_many, url.url_href, (Option("base", "str", None),), "string"),
)


def options(function: Function, args: Tuple[Any, ...], given: Dict[str, Any]) -> Dict[str, Any]:
    """The keyword arguments of one call, from its positional ``args`` (the
    options in the table's order) and keywords ``given``. They are checked
    against the table (an unknown, repeated or missing option is a
    TypeError) and by the batch function itself on no rows, so that a bad
    option (an unknown encoding or on_error, threads out of range) is raised
    where the call is written, not when a query runs."""
    names = [o.name for o in function.options]
    if len(args) > len(names):
        raise TypeError("%s() takes %d options, %d given" % (function.name, len(names), len(args)))
    given = dict(given)
    for name, value in zip(names, args):
        if name in given:
            raise TypeError("%s() got the option %r twice" % (function.name, name))
        given[name] = value
    unknown = sorted(set(given) - set(names) - {"threads", "on_error"})
    if unknown:
        raise TypeError("%s() got an unexpected option %r" % (function.name, unknown[0]))
    missing = [o.name for o in function.options if o.default is REQUIRED and o.name not in given]
    if missing:
        raise TypeError("%s() missing the option %r" % (function.name, missing[0]))
    columns = {o.name for o in function.options if o.kind == "column"}
    function.batch([], **{k: [] if k in columns else v for k, v in given.items()})
    return given


def check_policy(threads: Any, on_error: Any) -> None:
    """Raise the batch functions' error for a bad ``threads`` or ``on_error``."""
    batch.requote_many([], threads=threads, on_error=on_error)


def signature(function: Function) -> str:
    """The options of a function as its methods' docstrings show them."""
    shown = [o.name if o.default is REQUIRED else "%s=%r" % (o.name, o.default)
             for o in function.options]
    return ", ".join(shown + ["threads=None", "on_error='raise'"])


_KIND_TEXT = {"str": "str", "bool": "bool", "patterns": "str or iterable of str",
              "column": "column (an expression or Column of the engine) or str"}


def describe(function: Function, how: str) -> str:
    """The numpy-style docstring of one generated function or method."""
    name = "%s.%s" % (function.batch.__module__, function.batch.__name__)
    lines = ["%s(%s)" % (function.name, signature(function)), "",
             "%s() on every row of %s: each row gives what" % (name, how),
             "%s() gives for it; a null stays null." % getattr(function.single, "__name__", function.name),
             "", "Parameters", "----------"]
    for o in function.options:
        default = "" if o.default is REQUIRED else ", default %r" % (o.default,)
        lines += ["%s : %s%s" % (o.name, _KIND_TEXT[o.kind], default),
                  "    As %s() takes it (by position or keyword)." % name]
    lines += ["threads : int or None, default None", "    The batch function's threads.",
              "on_error : {'raise', 'null', 'keep'}, default 'raise'",
              "    A failed row raises, gives null, or gives its input.",
              "", "Returns", "-------",
              "the engine's column of %s" % {"string": "strings", "int64": "64-bit integers"}.get(
                  function.output, function.output),
              "", "Raises", "------",
              "TypeError, ValueError, LookupError",
              "    An unknown, repeated or missing option, a bad encoding, threads or",
              "    on_error: where the call is written, before any row runs.",
              "", "Examples", "--------",
              "See docs/integrations.md."]
    return "\n".join(lines)


def with_message(exc: Exception) -> Exception:
    """The error to raise for ``exc`` out of an engine that keeps only an
    error's class and message (DuckDB), or raises it anew as its class
    called with one message (polars): the message takes in the notes that
    name the row, and a class that cannot be built from one message
    (UnicodeError's subclasses, PercentEncodingError) becomes its nearest
    base class that can, the message then starting with the class's name."""
    message = str(exc) + "".join("; " + note for note in getattr(exc, "__notes__", ()))
    for cls in type(exc).__mro__:
        try:
            text = message if cls is type(exc) else "%s: %s" % (type(exc).__name__, message)
            return cls(text)  # type: ignore[no-any-return]
        except Exception:
            continue
    return exc
