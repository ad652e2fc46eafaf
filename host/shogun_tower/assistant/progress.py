"""A progress line for long runs: rewritten in place on a terminal, silent elsewhere."""

from __future__ import annotations

import time
from typing import TextIO


class ProgressLine:
    def __init__(self, out: TextIO, enabled: bool = True, every_s: float = 0.2) -> None:
        self.out = out
        self.enabled = enabled and hasattr(out, "isatty") and out.isatty()
        self.every_s = every_s
        self._last = 0.0
        self._width = 0
        self._start = time.monotonic()

    def update(self, text: str) -> None:
        if not self.enabled:
            return
        now = time.monotonic()
        if now - self._last < self.every_s:
            return
        self._last = now
        line = f"{text} · {now - self._start:.0f} s"
        self.out.write("\r" + line.ljust(self._width))
        self.out.flush()
        self._width = len(line)

    def clear(self) -> None:
        if self.enabled and self._width:
            self.out.write("\r" + " " * self._width + "\r")
            self.out.flush()
            self._width = 0
