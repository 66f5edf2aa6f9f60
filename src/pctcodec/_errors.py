"""The exceptions raised for text that is not valid percent-encoded text,
for a host that names no domain, for a base URI that reference
resolution cannot use, and for a URL the URL Standard's parser rejects."""


_CONTINUATION = bytes(range(0x80, 0xC0))


def _index_of(data: bytes, k: int) -> int:
    """The index, in a str whose UTF-8 (lone surrogates passed) is data, of
    the code point at byte k: the bytes before k that start one."""
    return len(data[:k].translate(None, _CONTINUATION))


def _rebuilt(cls: "type[BaseException]", args: "tuple[object, ...]",
             slots: "dict[str, object]") -> BaseException:
    """An error as pickled or copied: made without its __init__ (a subclass
    may take other arguments), its args and slots set; the rest of its state
    (an ``index``, notes, attributes of its own) is set by pickle from its
    __dict__."""
    error = cls.__new__(cls, *args)
    error.args = args
    for name, value in slots.items():
        setattr(error, name, value)
    return error


class _PositionedError(ValueError):
    """A ValueError that names a reason and the position in the string
    where it applies; its message ends with that position."""

    # Slots, not a __dict__ made for every error: a column's failed rows
    # each keep one in their Reject.
    __slots__ = ("_reason", "position")

    def __init__(self, reason: str, position: int) -> None:
        super().__init__("%s at position %d" % (reason, position))
        self._reason = reason
        self.position = position

    @property
    def reason(self) -> str:
        """What is wrong: the message without its position."""
        try:
            return self._reason
        except AttributeError:
            # made by a batch function in C, its message and position only
            # (a failed row's error costs one str less): the message less
            # its " at position N"
            message = self.args[0] if self.args else ""
            tail = " at position %d" % self.position
            self._reason = message[:-len(tail)] if message.endswith(tail) else message
            return self._reason

    @reason.setter
    def reason(self, value: str) -> None:
        self._reason = value

    # (annotations in quotes, of builtins: importing typing would slow down `import pctcodec`)
    def __reduce__(self) -> "tuple[object, ...]":
        # Picklable and copyable (multiprocessing, Dask workers) despite the
        # two-argument init, with what was set on it since (a batch
        # function's `index` and note, an assigned reason).
        slots = {"_reason": self.reason, "position": self.position}
        return (_rebuilt, (type(self), self.args, slots), getattr(self, "__dict__", None) or None)


class PercentEncodingError(_PositionedError):
    """A string breaks the rules of percent-encoding.

    ``position`` is the index in the string of the first offending character
    (a ``%`` not followed by two hex digits, a character a URI may not hold,
    an escape that does not decode to valid UTF-8, ...). The message names the
    problem and ends with that position.
    """

    # Its public name, as tracebacks, pickles and the documentation show it.
    __module__ = "pctcodec"


class HostError(_PositionedError):
    """A URL's host is no domain name: a character a host may not hold, or a
    non-ASCII or escaped host that IDNA's "domain to ASCII" rejects.

    ``position`` is the index in the string where the host starts; the
    message names the problem and the host, and ends with that position.
    """

    __module__ = "pctcodec"


class ResolveError(_PositionedError):
    """A base URI that references cannot be resolved against.

    RFC 3986 5.1: a base URI is absolute, it has a scheme. ``position`` is
    the index in the base of the first character that stops its scheme (0
    when it does not start with a letter, its length when no ``:`` follows
    one). The message names the problem and ends with that position.
    """

    __module__ = "pctcodec"


class SuffixListError(ValueError):
    """A suffix list holds a line that is no rule of the Public Suffix List
    format: a rule that names no domain (a character no host may hold, such
    as ``/`` or NUL, a label that IDNA rejects, an empty label, a wildcard
    that is not the leftmost label, a label over 63 or a domain over 253
    bytes in ASCII form), or bytes that are not UTF-8.

    ``position`` is the number of that line (1-based), ``source`` where the
    list came from (its path, or ``"<text>"``); the message names both.
    """

    __module__ = "pctcodec"

    def __init__(self, reason: str, position: int, source: str = "<text>") -> None:
        super().__init__("%s line %d: %s" % (source, position, reason))
        self.reason = reason
        self.position = position
        self.source = source

    def __reduce__(self) -> "tuple[object, ...]":
        return (_rebuilt, (type(self), self.args, {}), self.__dict__)


class URLParseError(_PositionedError):
    """A URL that the URL Standard's parser rejects (``parse_url``): no
    scheme and no base to resolve it against, a special URL with no host, a
    host with a forbidden character or that IDNA rejects, an IPv4 or IPv6
    address that is not one, a port that is not a number up to 65535.

    ``position`` is the index in the string where the problem was found
    (for a rejected base, in the base: its message then starts with
    "invalid base URL"); the message names the problem and ends with that
    position.
    """

    __module__ = "pctcodec"
