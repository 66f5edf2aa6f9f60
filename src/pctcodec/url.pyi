from typing import Any, Iterable, List, NamedTuple, Optional, Sequence, Tuple, Union, overload

from ._errors import URLParseError as URLParseError
from .batch import _ArrowArray, _ArrowStream, _Column, _OnError, _Rejects

FIELDS: Tuple[str, ...]

class URL(NamedTuple):
    href: str
    origin: str
    protocol: str
    username: str
    password: str
    host: str
    hostname: str
    port: str
    pathname: str
    search: str
    hash: str

_Base = Union[None, str, URL]
# a base for every row, or a column of them (a list, an Arrow array, a Series)
_Bases = Union[None, str, URL, Sequence[Optional[str]], _ArrowArray, _ArrowStream, Any]

def parse_url(value: str, base: _Base = None) -> URL: ...
def url_href(value: str, base: _Base = None) -> str: ...
@overload
def url_href_many(
    values: _Column, base: _Bases = None, *, threads: Optional[int] = None,
    on_error: _OnError = "raise", rejects: Optional[_Rejects] = None,
) -> _Column: ...
@overload
def url_href_many(
    values: Iterable[Optional[str]], base: _Bases = None, *, threads: Optional[int] = None,
    on_error: _OnError = "raise", rejects: Optional[_Rejects] = None,
) -> List[Optional[str]]: ...
# A column in, a table of the same library out (a pyarrow StructArray or
# ChunkedArray, a pandas or polars DataFrame): Any, as for split_many.
@overload
def parse_url_many(
    values: Union[_ArrowArray, _ArrowStream], base: _Bases = None, *,
    fields: Optional[Sequence[str]] = None, threads: Optional[int] = None,
    on_error: _OnError = "raise", rejects: Optional[_Rejects] = None,
) -> Any: ...
@overload
def parse_url_many(
    values: Iterable[Optional[str]], base: _Bases = None, *,
    fields: Optional[Sequence[str]] = None, threads: Optional[int] = None,
    on_error: _OnError = "raise", rejects: Optional[_Rejects] = None,
) -> List[Optional[URL]]: ...
