from typing import Any, Dict, Iterable, List, Optional, Tuple, Union, overload

from .batch import _ArrowArray, _ArrowStream, _OnError, _Rejects, _Series

# A column in, a column or table of the same library out (pyarrow ListArray,
# StructArray or Table, pandas or polars Series or DataFrame): Any, since the
# stubs import none of those libraries. A Series is a column (not the
# iterable of the list overload) also where pandas-stubs gives it no Arrow
# interface.
_Column = Union[_ArrowArray, _ArrowStream, _Series]
_Names = Union[str, Iterable[str]]

def parse_query(uri: str, *, keep_plus: bool = False, html_amp: bool = False) -> List[Tuple[str, str]]: ...
def query_params(
    uri: str, names: _Names, *, all: bool = False, keep_plus: bool = False, html_amp: bool = False,
) -> Dict[str, Any]: ...
@overload
def parse_query_many(
    values: _Column, *, keep_plus: bool = False, html_amp: bool = False,
    threads: Optional[int] = None, on_error: _OnError = "raise", rejects: Optional[_Rejects] = None,
) -> Any: ...
@overload
def parse_query_many(
    values: Iterable[Optional[str]], *, keep_plus: bool = False, html_amp: bool = False,
    threads: Optional[int] = None, on_error: _OnError = "raise", rejects: Optional[_Rejects] = None,
) -> List[Optional[List[Tuple[str, str]]]]: ...
@overload
def parse_query_long(
    values: _Column, *, keep_plus: bool = False, html_amp: bool = False,
    threads: Optional[int] = None, on_error: _OnError = "raise", rejects: Optional[_Rejects] = None,
) -> Any: ...
@overload
def parse_query_long(
    values: Iterable[Optional[str]], *, keep_plus: bool = False, html_amp: bool = False,
    threads: Optional[int] = None, on_error: _OnError = "raise", rejects: Optional[_Rejects] = None,
) -> List[Tuple[int, str, str]]: ...
@overload
def query_params_many(
    values: _Column, names: _Names, *, all: bool = False, keep_plus: bool = False,
    html_amp: bool = False,
    threads: Optional[int] = None, on_error: _OnError = "raise", rejects: Optional[_Rejects] = None,
) -> Any: ...
@overload
def query_params_many(
    values: Iterable[Optional[str]], names: _Names, *, all: bool = False, keep_plus: bool = False,
    html_amp: bool = False,
    threads: Optional[int] = None, on_error: _OnError = "raise", rejects: Optional[_Rejects] = None,
) -> List[Optional[Dict[str, Any]]]: ...
