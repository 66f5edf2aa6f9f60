"""The batch functions as every integration offers them, read from the
functions themselves.

``FUNCTIONS`` holds one ``Function`` per public ``*_many`` function of
``pctcodec`` (its ``__all__``): its parameters from ``inspect.signature``,
the kind of each option from its default and its docstring, its output type
by running it on an empty Arrow column. The polars namespace, the pandas
accessor, the DuckDB SQL functions and the Spark Column functions are all
built from it, so a new batch function or option joins all four with no
entry written here.

The column: the batch function's ``values`` parameter, or else its last
required parameter that its docstring types as a column (``resolve_many``'s
``references``). Every other parameter is an option, ``threads``,
``on_error`` and ``rejects`` included; a required parameter that the
docstring types as a column (``resolve_many``'s ``base``) is a second column.
"""
import inspect
import re
from typing import Any, Callable, Dict, List, NamedTuple, Optional, Tuple

import pctcodec

# The default of an option that has none: it must be given.
REQUIRED: Any = inspect.Parameter.empty

# Option kinds: how SQL declares an option and the stubs type it.
# "column": a second column, taken row by row (or one str for every row);
# "bool"; "str"; "strings": a str or an iterable of str (SQL: VARCHAR[]);
# "int"; "rejects": a list that gets a Reject per failed row; "object":
# anything else the function takes (in SQL: a VARCHAR).
KINDS = ("column", "bool", "str", "strings", "int", "rejects", "object")


class Option(NamedTuple):
    """One parameter of a batch function besides its column."""

    name: str
    kind: str      # a key of KINDS
    default: Any   # REQUIRED when it has none
    doc: str       # its type as the docstring gives it ("" when it does not)


class Function(NamedTuple):
    """One batch function as every integration offers it: polars
    ``pl.col(c).pct.NAME(...)``, pandas ``s.pct.NAME(...)``, SQL
    ``pct_NAME(column, option...)``, Spark ``NAME(column, ...)``."""

    name: str                      # the batch function's name without "_many"
    batch: Callable[..., Any]
    column: str                    # the batch parameter the engine's column goes to
    options: Tuple[Option, ...]    # every other parameter, in the signature's order
    signature: inspect.Signature   # the batch function's

    def method_signature(self) -> inspect.Signature:
        """The signature of the method on a column: ``self``, then every
        option as the batch function declares it."""
        params = [p for p in self.signature.parameters.values() if p.name != self.column]
        self_param = inspect.Parameter("self", inspect.Parameter.POSITIONAL_OR_KEYWORD)
        return self.signature.replace(parameters=[self_param] + params)

    def bind(self, column: Any, args: Tuple[Any, ...], given: Dict[str, Any]) -> Dict[str, Any]:
        """The batch function's keyword arguments for one call on ``column``
        (a TypeError for an unknown, repeated or missing option, as Python
        raises it for the method)."""
        sig = self.method_signature()
        bound = sig.bind(None, *args, **given)
        bound.arguments.pop("self")
        kwargs = dict(bound.arguments)
        kwargs[self.column] = column
        return kwargs

    def option(self, name: str) -> Option:
        return next(o for o in self.options if o.name == name)


def _doc_types(doc: str) -> Dict[str, str]:
    """The type of each parameter in a numpy docstring's Parameters section
    (``a, b : bool`` gives both), "" for a name listed without one."""
    section = re.search(r"^Parameters\n-+\n(.*?)(?:\n\S[^\n]*\n-+\n|\Z)", doc, re.S | re.M)
    types: Dict[str, str] = {}
    if section is None:
        return types
    for line in section.group(1).splitlines():
        if not line or line[0].isspace():
            continue
        names, _, typ = line.partition(" : ")
        for name in names.split(","):
            types[name.strip()] = typ.strip()
    return types


def _kind(param: inspect.Parameter, doc: str) -> str:
    """The kind of an option: by its name for the three that every batch
    function shares, then by its default, then by its docstring type."""
    default, t = param.default, doc.lower()
    if param.name == "rejects":
        return "rejects"
    if param.name == "threads":
        return "int"
    if isinstance(default, bool):
        return "bool"
    if isinstance(default, (tuple, list)):
        return "strings"
    if re.search(r"\bcolumn\b", t):  # a second column (resolve's and parse_url's base)
        return "column"
    if isinstance(default, str):
        return "str"
    if re.search(r"\bbool\b", t):
        return "bool"
    if re.search(r"\b(iterable|list|sequence) of str\b", t):
        return "strings"
    if re.search(r"\bint\b", t):
        return "int"
    if re.search(r"\bstr\b", t):
        return "str"
    return "object"


def _column(sig: inspect.Signature, types: Dict[str, str]) -> str:
    params = list(sig.parameters.values())
    if "values" in sig.parameters:
        return "values"
    columns = [p.name for p in params if p.default is REQUIRED and re.search(r"\bcolumn\b", types.get(p.name, ""))]
    if not columns:
        raise TypeError("no column parameter in %s" % sig)
    return columns[-1]


def derive(batch: Callable[..., Any]) -> Function:
    """The ``Function`` of one batch function, from its signature and docstring."""
    sig = inspect.signature(batch)
    types = _doc_types(inspect.getdoc(batch) or "")
    column = _column(sig, types)
    options = tuple(Option(p.name, _kind(p, types.get(p.name, "")), p.default, types.get(p.name, ""))
                    for p in sig.parameters.values() if p.name != column)
    name = batch.__name__
    return Function(name[:-len("_many")], batch, column, options, sig)


def batch_functions() -> List[Callable[..., Any]]:
    """Every public batch function: the ``*_many`` names of ``pctcodec.__all__``."""
    return [getattr(pctcodec, name) for name in pctcodec.__all__ if name.endswith("_many")]


def _shared_kinds(functions: Tuple[Function, ...]) -> Tuple[Function, ...]:
    """An option whose kind its own default and docstring leave open takes
    the kind of the option of the same name in another batch function (a
    name means one thing across the API: ``keep``, ``ignore_case``)."""
    known = {o.name: o.kind for f in functions for o in f.options if o.kind != "object"}
    return tuple(f._replace(options=tuple(o._replace(kind=known.get(o.name, o.kind)) if o.kind == "object" else o
                                          for o in f.options)) for f in functions)


FUNCTIONS: Tuple[Function, ...] = _shared_kinds(tuple(derive(f) for f in batch_functions()))


# ---------------------------------------------------------------- Arrow

def empty_column(pa: Any) -> Any:
    return pa.array([], type=pa.string())


def output_type(function: Function, kwargs: Dict[str, Any]) -> Any:
    """The Arrow type of the function's output for these arguments: the
    batch function run on an empty Arrow column (which also raises a bad
    option where the call is written, before any row runs)."""
    import pyarrow as pa

    probe = {}
    for option in function.options:
        if option.name not in kwargs or option.kind == "rejects":
            continue
        value = kwargs[option.name]
        probe[option.name] = value if option.kind != "column" or isinstance(value, str) else empty_column(pa)
    probe[function.column] = empty_column(pa)
    return function.batch(**probe).type


def arrow_array(pa: Any, values: Any) -> Any:
    """One pyarrow Array of a ChunkedArray (or an Array as it is)."""
    if isinstance(values, pa.ChunkedArray):
        return values.chunk(0) if values.num_chunks == 1 else values.combine_chunks()
    return values


# ---------------------------------------------------------------- docs, errors

def describe(function: Function, how: str) -> str:
    """The docstring of one generated method or function: the batch
    function's, introduced by what the column is."""
    name = "pctcodec.%s" % function.batch.__name__
    head = ("%s() on %s (the parameter ``%s``); every other parameter is the batch function's, "
            "as documented below." % (name, how, function.column))
    return head + "\n\n" + (inspect.getdoc(function.batch) or "")


def missing(engine: str, exc: ImportError) -> ImportError:
    """The ImportError of an integration whose engine is not installed (a
    ModuleNotFoundError, as the import of the engine itself raises)."""
    error = ModuleNotFoundError("pctcodec.integrations.%s needs %s, which is not installed (%s): "
                                "pip install 'pctcodec[%s]'" % (engine, engine, exc, engine))
    error.name = exc.name
    return error


def check_policy(threads: Any, on_error: Any) -> None:
    """Raise the batch functions' error for a bad ``threads`` or ``on_error``."""
    pctcodec.requote_many([], threads=threads, on_error=on_error)


def with_message(exc: Exception, where: Optional[str] = None) -> Exception:
    """The error to raise for ``exc`` out of an engine that keeps only an
    error's class and message (DuckDB), or raises it anew as its class
    called with one message (polars): the message takes in the notes that
    name the row (or ``where``, in the place of the index), and a class that
    cannot be built from one message (UnicodeError's subclasses, the
    errors with a position: PercentEncodingError, HostError, ResolveError,
    URLParseError) becomes its nearest base class that can, the
    message then starting with the class's name."""
    message = str(exc) + "".join("; " + note for note in getattr(exc, "__notes__", ()))
    if where is not None:
        for pattern, text in ((r"\b(?:the )?value at index \d+", where), (r"\bat index \d+", "at " + where)):
            message = re.sub(pattern, lambda m: text, message)
    for cls in type(exc).__mro__:
        try:
            text = message if cls is type(exc) else "%s: %s" % (type(exc).__name__, message)
            return cls(text)  # type: ignore[no-any-return]
        except Exception:
            continue
    return exc


__all__ = ["FUNCTIONS", "Function", "Option", "REQUIRED", "KINDS", "derive", "batch_functions",
           "output_type", "describe", "missing", "with_message"]
