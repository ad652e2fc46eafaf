"""The tower's LED strip in a game of Samurai: one band per player, three segments in each (the
helmets, the Buddhas, the rice fields, in that order), an LED per captured figure in the
player's colour. Pure: the layout as runs for the SEGMENTS command, and the frame read back
from the tower turned into counts again (so the console can say the strip agrees).

The strip is the score track's: 81 + 19 = 100 LEDs. A band is 100 // players LEDs; a segment is
(band - 3) // 3 LEDs with one dark LED between segments and a grey LED closing the band. A
segment shorter than the most figures of a type a player can hold (4 players: 13 a type, 7 LEDs)
shows a white LED for two figures: c figures on s LEDs are c - s white and 2s - c coloured.
"""

from __future__ import annotations

from shogun_common import protocol as P
from shogun_common.colours import colour_code

STRIP_LEDS = 100  # the score track's 81 LEDs and its rice segment's 19
GREY = 6          # SEGMENTS colours past the cube colours
WHITE = P.SEG_WHITE


def segment_length(players: int, leds: int = STRIP_LEDS) -> int:
    return (leds // players - 3) // 3


def band_start(index: int, players: int, leds: int = STRIP_LEDS) -> int:
    return index * (leds // players)


def runs(players: tuple[str, ...], captured: dict[str, dict[str, int]], types: tuple[str, ...],
         leds: int = STRIP_LEDS) -> list[tuple[int, int, int]]:
    """(first LED, count, colour) for every lit run: the SEGMENTS payload's runs."""
    s = segment_length(len(players), leds)
    out = []
    for i, player in enumerate(players):
        colour = colour_code(player)
        start = band_start(i, len(players), leds)
        for k, t in enumerate(types):
            first = start + k * (s + 1)
            n = captured[player][t]
            if n > 2 * s:
                raise ValueError(f"{n} {t} do not fit {s} LEDs")
            white = max(0, n - s)
            if white:
                out.append((first, white, WHITE))
            if n - 2 * white:
                out.append((first + white, n - 2 * white, colour))
        out.append((start + 3 * s + 2, 1, GREY))
    return out


def counts_from_frame(frame: bytes, players: tuple[str, ...], types: tuple[str, ...],
                      leds: int = STRIP_LEDS) -> dict[str, dict[str, int]]:
    """The figures the strip shows, read back from its frame: a lit LED of the band is one
    figure, a white one two."""
    s = segment_length(len(players), leds)
    out: dict[str, dict[str, int]] = {}
    for i, player in enumerate(players):
        start = band_start(i, len(players), leds)
        out[player] = {}
        for k, t in enumerate(types):
            first = start + k * (s + 1)
            n = 0
            for led in range(first, first + s):
                r, g, b = frame[3 * led:3 * led + 3]
                if r or g or b:
                    n += 2 if r == g == b else 1
            out[player][t] = n
    return out


def band_text(frame: bytes, players: tuple[str, ...], types: tuple[str, ...],
              letters: dict[str, str], leds: int = STRIP_LEDS) -> list[str]:
    """Each band as the strip shows it, for the terminal: a letter per lit LED (``W`` for a
    white one, worth two), ``·`` dark, ``|`` between segments."""
    s = segment_length(len(players), leds)
    lines = []
    for i, player in enumerate(players):
        start = band_start(i, len(players), leds)
        parts = []
        for k in range(len(types)):
            first = start + k * (s + 1)
            cells = ""
            for led in range(first, first + s):
                r, g, b = frame[3 * led:3 * led + 3]
                cells += "·" if not (r or g or b) else "W" if r == g == b else letters[player]
            parts.append(cells)
        lines.append("|".join(parts))
    return lines
