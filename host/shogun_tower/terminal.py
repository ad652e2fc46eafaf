"""Terminal output: player colours and the LED score track drawn from the firmware's frame."""

from __future__ import annotations

import os
import sys

ANSI_RGB = {
    "black": (160, 160, 160),
    "red": (230, 40, 40),
    "yellow": (240, 200, 0),
    "purple": (170, 60, 230),
    "blue": (50, 110, 255),
    "green": (40, 200, 60),
    "unknown": (200, 200, 200),
}


def use_colour(stream: object = None) -> bool:
    stream = stream or sys.stdout
    if os.environ.get("NO_COLOR"):
        return False
    if os.environ.get("FORCE_COLOR"):
        return True
    return hasattr(stream, "isatty") and stream.isatty()  # type: ignore[attr-defined]


def paint(text: str, rgb: tuple[int, int, int], enabled: bool) -> str:
    if not enabled:
        return text
    r, g, b = rgb
    return f"\x1b[38;2;{r};{g};{b}m{text}\x1b[0m"


def colour_word(name: str, enabled: bool) -> str:
    return paint(name, ANSI_RGB.get(name, (200, 200, 200)), enabled)


def counts_text(counts: dict[str, int], enabled: bool) -> str:
    parts = [f"{colour_word(c, enabled)} {n}" for c, n in counts.items() if n]
    return ", ".join(parts) if parts else "nothing"


def _ungamma(v: int) -> int:
    # The frame holds gamma-corrected, current-limited LED values; undo the gamma for the eye.
    return int(255 * (v / 255) ** (1 / 2.2)) if v else 0


def led_bar(frame: bytes, enabled: bool, width: int = 81) -> str:
    """The strip as one line: a block per LED in its colour, a dot for a dark LED."""
    cells = []
    for i in range(min(width, len(frame) // 3)):
        r, g, b = frame[3 * i:3 * i + 3]
        if not (r or g or b):
            cells.append("·")
            continue
        if r == g == b and r < 16:
            cells.append("+")  # the dim mark on every tenth space
            continue
        rgb = (_ungamma(r), _ungamma(g), _ungamma(b))
        peak = max(rgb) or 1
        rgb = tuple(min(255, c * 255 // peak) for c in rgb)  # full brightness, same hue
        cells.append(paint("█", rgb, enabled) if enabled else _nearest_letter(rgb))
    return "".join(cells)


def _nearest_letter(rgb: tuple[int, ...]) -> str:
    # Without colour support each lit LED shows its player's initial (B for black, b for blue).
    letters = {"black": "K", "red": "R", "yellow": "Y", "purple": "P", "blue": "B", "green": "G"}
    def distance(item: tuple[str, tuple[int, int, int]]) -> int:
        return sum((a - b) ** 2 for a, b in zip(item[1], rgb, strict=True))

    best = min(ANSI_RGB.items(), key=distance)
    return letters.get(best[0], "?")
