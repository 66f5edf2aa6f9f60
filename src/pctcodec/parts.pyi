from typing import Any, Iterable, List, Literal, NamedTuple, Optional, Union, overload

from .batch import _ArrowArray, _ArrowStream, _Rejects, _Series

_OnError = Literal["raise", "null", "keep"]

class URIParts(NamedTuple):
    scheme: Optional[str]
    userinfo: Optional[str]
    host: Optional[str]
    port: Optional[str]
    path: str
    query: Optional[str]
    fragment: Optional[str]
    def geturl(self) -> str: ...

# A column in, a table of the same library out (a pyarrow StructArray or
# ChunkedArray, a pandas or polars DataFrame): Any, since the stubs import
# none of those libraries.
_Column = Union[_ArrowArray, _ArrowStream, _Series]

def split(uri: str, /) -> URIParts: ...
@overload
def split_many(
    values: _Column, *, threads: Optional[int] = None, on_error: _OnError = "raise",
    rejects: Optional[_Rejects] = None,
) -> Any: ...
@overload
def split_many(
    values: Iterable[Optional[str]], *, threads: Optional[int] = None,
    on_error: _OnError = "raise", rejects: Optional[_Rejects] = None,
) -> List[Optional[URIParts]]: ...
