from typing import Iterable, List, Optional, Union, overload

from ._errors import ResolveError as ResolveError
from .batch import _ArrowArray, _ArrowStream, _Column, _OnError, _Rejects

# One base for every row, or a column of them as long as the references.
_Bases = Union[str, Iterable[Optional[str]], _ArrowArray, _ArrowStream]

def resolve(base: str, reference: str, *, normalize: bool = False, strict: bool = True) -> str: ...
@overload
def resolve_many(
    base: _Bases, references: _Column, *, normalize: bool = False, strict: bool = True,
    threads: Optional[int] = None, on_error: _OnError = "raise", rejects: Optional[_Rejects] = None,
) -> _Column: ...
@overload
def resolve_many(
    base: _Bases, references: Iterable[Optional[str]], *, normalize: bool = False, strict: bool = True,
    threads: Optional[int] = None, on_error: _OnError = "raise", rejects: Optional[_Rejects] = None,
) -> List[Optional[str]]: ...
