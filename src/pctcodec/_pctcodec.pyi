import sys
from typing import Any, Callable, Iterable, List, Optional, Tuple, Union

if sys.version_info >= (3, 12):
    from collections.abc import Buffer
else:
    from typing_extensions import Buffer

_Safe = Union[str, bytes, Iterable[int]]

def quote(
    string: Union[str, bytes, bytearray],
    safe: _Safe = "/",
    encoding: Optional[str] = None,
    errors: Optional[str] = None,
) -> str: ...
def quote_plus(
    string: Union[str, bytes, bytearray],
    safe: _Safe = "",
    encoding: Optional[str] = None,
    errors: Optional[str] = None,
) -> str: ...
def quote_from_bytes(bs: Union[bytes, bytearray], safe: _Safe = "/") -> str: ...
def unquote(string: Union[str, bytes], encoding: str = "utf-8", errors: str = "replace") -> str: ...
def unquote_plus(string: str, encoding: str = "utf-8", errors: str = "replace") -> str: ...
def unquote_to_bytes(string: Union[str, bytes, bytearray]) -> bytes: ...
def encode(data: Buffer, safe: _Safe = b"", plus: bool = False) -> bytes: ...
def decode(data: Buffer, plus: bool = False) -> bytes: ...

# RFC 3986 (see pctcodec.rfc3986)
def requote(uri: str, /) -> str: ...
def check(s: str, /) -> None: ...
def is_valid(s: str, /) -> bool: ...
def normalize(uri: str, /, *, sort_query: bool = False, drop_fragment: bool = False,
              strict_idna: bool = False) -> str: ...
def equivalent(a: str, b: str, /) -> bool: ...
def iri_to_uri(iri: str, /, *, strict_idna: bool = False) -> str: ...

# Behind pctcodec.ecmascript and pctcodec.rfc3986.uri_to_iri
def _decode_uri(s: str, /) -> str: ...
def _decode_uri_component(s: str, /) -> str: ...
def _js_escape(s: str, /) -> str: ...
def _js_unescape(s: str, /) -> str: ...
def _uri_to_iri(uri: str, /) -> Union[str, Tuple[str, int, int]]: ...

# Behind pctcodec.batch
def _many_list(
    values: Union[List[Optional[str]], Tuple[Optional[str], ...]],
    op: int,
    func: Callable[[str], Any],
    safe: Any,
    encoding: Optional[str],
    errors: Union[str, bytes, None],  # bytes: clean_query_many's keep patterns
    opts: int,
    on_error: int,
    rejects: Optional[List[Any]],
    /,
) -> List[Any]: ...
def _many_arrow(
    source: Any,
    op: int,
    func: Callable[[str], Any],
    safe: Any,
    encoding: Optional[str],
    errors: Union[str, bytes, None],
    opts: int,
    on_error: int,
    rejects: Optional[List[Any]],
    threads: int,
    base: int,
    /,
) -> Tuple[Any, Any]: ...

# Behind pctcodec.query (names and patterns as UTF-8 bytes, see pctcodec/query.py)
def _query_param(uri: str, name: bytes, /) -> Optional[str]: ...
def _clean_query(uri: str, drop: bytes, keep: Optional[bytes], sort: bool, /) -> str: ...

# Behind pctcodec.cli._csv and pctcodec.cli._tables
def _csv_cut(
    buf: bytes, pos: int, final: bool, delimiter: bytes, index: int, expect: int, rows: int,
    line: int, /
) -> Tuple[List[bytes], List[Union[str, bytes]], bytes, bytes, List[int], int, int, int, int]: ...
def _csv_header(
    buf: bytes, pos: int, final: bool, delimiter: bytes, line: int, /
) -> Tuple[int, List[Union[str, bytes]], bytes, int, int, int, int]: ...
def _csv_join(
    gaps: List[bytes], fields: List[Union[str, bytes]], flags: bytes, delimiter: bytes, /
) -> bytes: ...
