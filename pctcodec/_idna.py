"""IDNA for hosts with non-ASCII characters, called from the C binding.

The idna package takes tens of microseconds per host; real data repeats its
hosts, so results are cached.
"""
from functools import lru_cache

import idna


@lru_cache(maxsize=8192)
def to_ascii(host: str) -> str:
    """The ASCII (punycode) form of a host by UTS #46; idna.IDNAError if it has none."""
    return idna.encode(host, uts46=True).decode("ascii")


@lru_cache(maxsize=8192)
def to_unicode(label: str) -> str:
    """The Unicode form of one ``xn--`` label; idna.IDNAError if it is not valid."""
    return idna.decode(label)
