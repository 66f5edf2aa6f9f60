"""IDNA for hosts with non-ASCII characters, called from the C binding.

The idna package takes tens of microseconds per host; real data repeats its
hosts, so results are cached. Only short hosts are: UTS #46 drops some
characters (soft hyphens, ...), so a huge host can map to a valid one, and
the cache must not hold huge keys.
"""
from functools import lru_cache

import idna

_CACHED_LENGTH = 256


def _encode(host):
    return idna.encode(host, uts46=True).decode("ascii")


_encode_cached = lru_cache(maxsize=8192)(_encode)
_decode_cached = lru_cache(maxsize=8192)(idna.decode)


def to_ascii(host: str) -> str:
    """The ASCII (punycode) form of a host by UTS #46; idna.IDNAError if it has none."""
    return (_encode_cached if len(host) <= _CACHED_LENGTH else _encode)(host)


def to_unicode(label: str) -> str:
    """The Unicode form of one ``xn--`` label; idna.IDNAError if it is not valid."""
    return (_decode_cached if len(label) <= _CACHED_LENGTH else idna.decode)(label)
