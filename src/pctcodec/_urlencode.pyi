from typing import Any, Callable, Mapping, Optional, Sequence, Tuple, Union

def urlencode(
    query: Union[Mapping[Any, Any], Sequence[Tuple[Any, Any]]],
    doseq: bool = False,
    safe: Union[str, bytes] = "",
    encoding: Optional[str] = None,
    errors: Optional[str] = None,
    quote_via: Callable[..., str] = ...,
) -> str: ...
