import sys
from typing import Iterable, Optional, Union

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
