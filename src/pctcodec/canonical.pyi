from typing import Iterable, List, Optional, overload

from .batch import _Column, _OnError, _Rejects
from .query import _Patterns

def canonicalize(
    uri: str, *, drop: _Patterns = ..., keep: _Patterns = None, ignore_case: Optional[bool] = None,
    sort_query: bool = True, drop_fragment: bool = True, strip_www: bool = False,
    same_scheme: bool = False, strip_trailing_slash: bool = False, drop_empty_query: bool = True,
    strip_whitespace: bool = True, html_amp: bool = False,
) -> str: ...
@overload
def canonicalize_many(
    values: _Column, *, drop: _Patterns = ..., keep: _Patterns = None,
    ignore_case: Optional[bool] = None, sort_query: bool = True, drop_fragment: bool = True,
    strip_www: bool = False, same_scheme: bool = False, strip_trailing_slash: bool = False,
    drop_empty_query: bool = True, strip_whitespace: bool = True, html_amp: bool = False,
    threads: Optional[int] = None, on_error: _OnError = "raise", rejects: Optional[_Rejects] = None,
) -> _Column: ...
@overload
def canonicalize_many(
    values: Iterable[Optional[str]], *, drop: _Patterns = ..., keep: _Patterns = None,
    ignore_case: Optional[bool] = None, sort_query: bool = True, drop_fragment: bool = True,
    strip_www: bool = False, same_scheme: bool = False, strip_trailing_slash: bool = False,
    drop_empty_query: bool = True, strip_whitespace: bool = True, html_amp: bool = False,
    threads: Optional[int] = None, on_error: _OnError = "raise", rejects: Optional[_Rejects] = None,
) -> List[Optional[str]]: ...
