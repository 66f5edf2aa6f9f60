from typing import Any, Iterable, List, Literal, NamedTuple, Optional, Protocol, TypeVar, Union, overload

_Safe = Union[str, bytes, Iterable[int]]

# A column: a pyarrow Array or ChunkedArray, a pandas or polars Series, any
# object of the Arrow PyCapsule interface. The result is of the same type
# (pyarrow in, pyarrow out; pandas in, pandas out). Overloads try a column
# first: a Series is iterable too, and an iterable gives a list.
class _ArrowArray(Protocol):
    def __arrow_c_array__(self, requested_schema: Any = ..., /) -> Any: ...

class _ArrowStream(Protocol):
    def __arrow_c_stream__(self, requested_schema: Any = ..., /) -> Any: ...

# A pandas or polars Series by what both have and a list has not: in
# pandas-stubs a Series declares no Arrow interface, and without this the
# iterable overload would win (a list type for a Series).
class _Series(Protocol):
    @property
    def dtype(self) -> Any: ...
    @property
    def name(self) -> Any: ...

_Column = TypeVar("_Column", bound=Union[_ArrowArray, _ArrowStream, _Series])
_OnError = Literal["raise", "null", "keep"]

class Reject(NamedTuple):
    index: int  # type: ignore[assignment]  # the field shadows tuple.index
    value: Any
    error: BaseException

class _Rejects(Protocol):
    def append(self, item: Reject, /) -> Any: ...

@overload
def quote_many(
    values: _Column, safe: _Safe = "/", encoding: Optional[str] = None, errors: Optional[str] = None, *,
    threads: Optional[int] = None, on_error: _OnError = "raise", rejects: Optional[_Rejects] = None,
) -> _Column: ...
@overload
def quote_many(
    values: Iterable[Optional[str]], safe: _Safe = "/", encoding: Optional[str] = None,
    errors: Optional[str] = None, *,
    threads: Optional[int] = None, on_error: _OnError = "raise", rejects: Optional[_Rejects] = None,
) -> List[Optional[str]]: ...
@overload
def quote_plus_many(
    values: _Column, safe: _Safe = "", encoding: Optional[str] = None, errors: Optional[str] = None, *,
    threads: Optional[int] = None, on_error: _OnError = "raise", rejects: Optional[_Rejects] = None,
) -> _Column: ...
@overload
def quote_plus_many(
    values: Iterable[Optional[str]], safe: _Safe = "", encoding: Optional[str] = None,
    errors: Optional[str] = None, *,
    threads: Optional[int] = None, on_error: _OnError = "raise", rejects: Optional[_Rejects] = None,
) -> List[Optional[str]]: ...
@overload
def unquote_many(
    values: _Column, encoding: str = "utf-8", errors: str = "replace", *,
    threads: Optional[int] = None, on_error: _OnError = "raise", rejects: Optional[_Rejects] = None,
) -> _Column: ...
@overload
def unquote_many(
    values: Iterable[Optional[str]], encoding: str = "utf-8", errors: str = "replace", *,
    threads: Optional[int] = None, on_error: _OnError = "raise", rejects: Optional[_Rejects] = None,
) -> List[Optional[str]]: ...
@overload
def unquote_plus_many(
    values: _Column, encoding: str = "utf-8", errors: str = "replace", *,
    threads: Optional[int] = None, on_error: _OnError = "raise", rejects: Optional[_Rejects] = None,
) -> _Column: ...
@overload
def unquote_plus_many(
    values: Iterable[Optional[str]], encoding: str = "utf-8", errors: str = "replace", *,
    threads: Optional[int] = None, on_error: _OnError = "raise", rejects: Optional[_Rejects] = None,
) -> List[Optional[str]]: ...
@overload
def requote_many(
    values: _Column, *,
    threads: Optional[int] = None, on_error: _OnError = "raise", rejects: Optional[_Rejects] = None,
) -> _Column: ...
@overload
def requote_many(
    values: Iterable[Optional[str]], *,
    threads: Optional[int] = None, on_error: _OnError = "raise", rejects: Optional[_Rejects] = None,
) -> List[Optional[str]]: ...
@overload
def normalize_many(
    values: _Column, *, sort_query: bool = False, drop_fragment: bool = False, strict_idna: bool = False,
    strip_whitespace: bool = True,
    threads: Optional[int] = None, on_error: _OnError = "raise", rejects: Optional[_Rejects] = None,
) -> _Column: ...
@overload
def normalize_many(
    values: Iterable[Optional[str]], *, sort_query: bool = False, drop_fragment: bool = False,
    strict_idna: bool = False, strip_whitespace: bool = True,
    threads: Optional[int] = None, on_error: _OnError = "raise", rejects: Optional[_Rejects] = None,
) -> List[Optional[str]]: ...
@overload
def check_many(
    values: _Column, *,
    threads: Optional[int] = None, on_error: Literal["raise", "null"] = "raise",
    rejects: Optional[_Rejects] = None,
) -> _Column: ...
@overload
def check_many(
    values: Iterable[Optional[str]], *,
    threads: Optional[int] = None, on_error: Literal["raise", "null"] = "raise",
    rejects: Optional[_Rejects] = None,
) -> List[Optional[int]]: ...

# check_many's value for one str (pctcodec.integrations' table reads it).
def _check_position(s: str) -> Optional[int]: ...
