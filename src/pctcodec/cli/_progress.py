"""Progress report on standard error for the table mode of the command line.

tqdm draws the bar when it is installed (``pip install 'pctcodec[progress]'``).
Without it, ``--progress`` falls back to a plain line rewritten in place, and
says once how to get the bar.
"""
import sys

TYPE_CHECKING = False  # typing is not imported at run time: annotations in quotes
if TYPE_CHECKING:
    from typing import Protocol, TextIO

    class _Bar(Protocol):
        """What is used of a tqdm bar."""

        def update(self, n: int = 1, /) -> object: ...
        def close(self) -> None: ...


class Progress:
    """Count units of work (bytes or rows) towards an optional total."""

    def __init__(self, enabled: bool, total: "int | None" = None, unit: str = "rows",
                 requested: bool = False, stream: "TextIO | None" = None) -> None:
        self._stream = sys.stderr if stream is None else stream
        self._bar: "_Bar | None" = None
        self._plain = False
        self._done = 0
        self._total = total
        self._unit = unit
        if not enabled:
            return
        try:
            from tqdm import tqdm
        except ImportError:
            if requested:
                print("pctcodec: tqdm is not installed (pip install 'pctcodec[progress]'): "
                      "plain progress report", file=self._stream)
                self._plain = True
            return
        scale = unit == "B"
        self._bar = tqdm(total=total, unit=unit, unit_scale=scale, unit_divisor=1024 if scale else 1000,
                         file=self._stream, dynamic_ncols=True, leave=True)

    def update(self, count: int) -> None:
        self._done += count
        if self._bar is not None:
            self._bar.update(count)
        elif self._plain:
            if self._total:
                text = "\rpctcodec: %d of %d %s (%d%%)" % (
                    self._done, self._total, self._unit, 100 * self._done // self._total)
            else:
                text = "\rpctcodec: %d %s" % (self._done, self._unit)
            self._stream.write(text)
            self._stream.flush()

    def close(self) -> None:
        if self._bar is not None:
            self._bar.close()
            self._bar = None
        elif self._plain:
            self._stream.write("\n")
            self._stream.flush()
            self._plain = False
