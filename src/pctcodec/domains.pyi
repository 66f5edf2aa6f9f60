import os
from typing import Any, Iterable, List, NamedTuple, Optional, Union, overload

from ._errors import HostError as HostError
from ._errors import SuffixListError as SuffixListError
from .batch import _ArrowArray, _ArrowStream, _Column, _OnError, _Rejects, _Series

class DomainParts(NamedTuple):
    subdomain: Optional[str]
    registered_domain: Optional[str]
    public_suffix: Optional[str]

class RuleCounts(NamedTuple):
    rules: int
    wildcards: int
    exceptions: int

class SuffixList:
    source: str
    version: Optional[str]
    commit: Optional[str]
    icann: RuleCounts
    private: RuleCounts
    def __init__(self, text: Union[str, bytes, bytearray, memoryview], source: str = "<text>") -> None: ...
    @classmethod
    def from_text(cls, text: Union[str, bytes, bytearray, memoryview], source: str = "<text>") -> "SuffixList": ...
    @classmethod
    def from_file(cls, path: Union[str, "os.PathLike[str]"]) -> "SuffixList": ...

_Source = Union[None, str, "os.PathLike[str]", SuffixList]

def suffix_list(source: _Source = None) -> SuffixList: ...
def registered_domain(value: str, *, private: bool = False, unicode: bool = False,
                      suffix_list: _Source = None) -> Optional[str]: ...
def public_suffix(value: str, *, private: bool = False, unicode: bool = False,
                  suffix_list: _Source = None) -> Optional[str]: ...
def domain_parts(value: str, *, private: bool = False, unicode: bool = False,
                 suffix_list: _Source = None) -> DomainParts: ...
@overload
def registered_domain_many(
    values: _Column, *, private: bool = False, unicode: bool = False, suffix_list: _Source = None,
    threads: Optional[int] = None, on_error: _OnError = "raise", rejects: Optional[_Rejects] = None,
) -> _Column: ...
@overload
def registered_domain_many(
    values: Iterable[Optional[str]], *, private: bool = False, unicode: bool = False,
    suffix_list: _Source = None, threads: Optional[int] = None, on_error: _OnError = "raise",
    rejects: Optional[_Rejects] = None,
) -> List[Optional[str]]: ...
@overload
def public_suffix_many(
    values: _Column, *, private: bool = False, unicode: bool = False, suffix_list: _Source = None,
    threads: Optional[int] = None, on_error: _OnError = "raise", rejects: Optional[_Rejects] = None,
) -> _Column: ...
@overload
def public_suffix_many(
    values: Iterable[Optional[str]], *, private: bool = False, unicode: bool = False,
    suffix_list: _Source = None, threads: Optional[int] = None, on_error: _OnError = "raise",
    rejects: Optional[_Rejects] = None,
) -> List[Optional[str]]: ...
# A column in, a table of the same library out (a pyarrow StructArray or
# ChunkedArray, a pandas or polars DataFrame): Any, as for split_many.
@overload
def domain_parts_many(
    values: Union[_ArrowArray, _ArrowStream, _Series], *, private: bool = False, unicode: bool = False,
    suffix_list: _Source = None, threads: Optional[int] = None, on_error: _OnError = "raise",
    rejects: Optional[_Rejects] = None,
) -> Any: ...
@overload
def domain_parts_many(
    values: Iterable[Optional[str]], *, private: bool = False, unicode: bool = False,
    suffix_list: _Source = None, threads: Optional[int] = None, on_error: _OnError = "raise",
    rejects: Optional[_Rejects] = None,
) -> List[Optional[DomainParts]]: ...
