from typing import Iterable, List, Optional, Tuple, Union, overload

from .batch import _Column, _OnError, _Rejects

_Patterns = Union[str, Iterable[str], None]

TRACKING_PARAMS: Tuple[str, ...]

def query_param(uri: str, name: str) -> Optional[str]: ...
def clean_query(uri: str, *, drop: _Patterns = ..., keep: _Patterns = None, sort: bool = False,
                ignore_case: Optional[bool] = None, html_amp: bool = False) -> str: ...
@overload
def query_param_many(
    values: _Column, name: str, *,
    threads: Optional[int] = None, on_error: _OnError = "raise", rejects: Optional[_Rejects] = None,
) -> _Column: ...
@overload
def query_param_many(
    values: Iterable[Optional[str]], name: str, *,
    threads: Optional[int] = None, on_error: _OnError = "raise", rejects: Optional[_Rejects] = None,
) -> List[Optional[str]]: ...
@overload
def clean_query_many(
    values: _Column, *, drop: _Patterns = ..., keep: _Patterns = None, sort: bool = False,
    ignore_case: Optional[bool] = None, html_amp: bool = False,
    threads: Optional[int] = None, on_error: _OnError = "raise", rejects: Optional[_Rejects] = None,
) -> _Column: ...
@overload
def clean_query_many(
    values: Iterable[Optional[str]], *, drop: _Patterns = ..., keep: _Patterns = None, sort: bool = False,
    ignore_case: Optional[bool] = None, html_amp: bool = False,
    threads: Optional[int] = None, on_error: _OnError = "raise", rejects: Optional[_Rejects] = None,
) -> List[Optional[str]]: ...
