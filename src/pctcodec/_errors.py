"""The exception raised for text that is not valid percent-encoded text."""


class PercentEncodingError(ValueError):
    """A string breaks the rules of percent-encoding.

    ``position`` is the index in the string of the first offending character
    (a ``%`` not followed by two hex digits, a character a URI may not hold,
    an escape that does not decode to valid UTF-8, ...). The message names the
    problem and ends with that position.
    """

    # Its public name, as tracebacks, pickles and the documentation show it.
    __module__ = "pctcodec"

    def __init__(self, reason: str, position: int) -> None:
        super().__init__("%s at position %d" % (reason, position))
        self.reason = reason
        self.position = position

    # (annotations in quotes, of builtins: importing typing would slow down `import pctcodec`)
    def __reduce__(self) -> "tuple[type[PercentEncodingError], tuple[str, int]]":
        # Picklable (multiprocessing, Dask workers) despite the two-argument init.
        return (type(self), (self.reason, self.position))
