"""Terminal output: player colours (their words and RGB are ``shogun_tower.words``; drawn by
rich, which also decides whether the terminal gets colour: NO_COLOR, FORCE_COLOR, TERM=dumb, a
pipe) and the LED score track read from the firmware's frame."""

from __future__ import annotations

import sys

from rich.color import Color, ColorSystem
from rich.console import Console as RichConsole
from rich.style import Style

from shogun_common.colours import CUBE_COLOURS
from shogun_tower import words
from shogun_tower.i18n import _, join
from shogun_tower.words import LETTERS, RGB

ANSI_RGB = RGB  # the terminal's colour of each cube colour (shogun_tower.words)


def use_colour(stream: object = None) -> bool:
    """Whether ``stream`` (stdout by default) shows colour, as rich decides it."""
    console = RichConsole(file=stream or sys.stdout)  # type: ignore[arg-type]
    return console.is_terminal and not console.no_color and console.color_system is not None


def paint(text: str, rgb: tuple[int, int, int], enabled: bool) -> str:
    if not enabled:
        return text
    return Style(color=Color.from_rgb(*rgb)).render(text, color_system=ColorSystem.TRUECOLOR)


def colour_word(name: str, enabled: bool) -> str:
    """A player's colour as players name it, in their language, painted in that colour (a
    word that is not a colour, e.g. one already translated, is painted as it is)."""
    return paint(words.colour_word(name), ANSI_RGB.get(name, (200, 200, 200)), enabled)


def cube_word(colour: str, enabled: bool) -> str:
    """A cube colour as players name it: the green cubes are the farmers."""
    return paint(words.cube_word(colour), ANSI_RGB.get(colour, (200, 200, 200)), enabled)


def counts_text(counts: dict[str, int], enabled: bool) -> str:
    """``red 3, farmers 1`` in the colours' order: green is only the farmers' cube colour,
    never their name."""
    order = [c for c in CUBE_COLOURS if c in counts] + [c for c in counts if c not in
                                                         CUBE_COLOURS]
    # the same words as shogun_tower.words.cubes_text, painted
    parts = [_("{colour} {count}").format(colour=cube_word(c, enabled), count=counts[c])
             for c in order if counts[c]]
    return join(parts) if parts else _("nothing")


def _ungamma(v: int) -> int:
    # The frame holds gamma-corrected, current-limited LED values; undo the gamma for the eye.
    return int(255 * (v / 255) ** (1 / 2.2)) if v else 0


VP_SPACES = 81


def track_letters(frame: bytes, scores: list[tuple[str, int, int]], enabled: bool,
                  width: int = VP_SPACES) -> str | None:
    """The victory-point track as the strip shows it: a letter per player on the LED of their
    space (K for black, whose LED is white), ``+`` on every tenth space, ``·`` dark. None when
    the frame is not a settled picture of ``scores`` (an animation or a lap's blink is lit):
    such a frame is never shown as the track. Players sharing a space take turns on its LED."""
    at: dict[int, set[str]] = {}
    for player, vp, _rice in scores:
        at.setdefault(vp % width, set()).add(player)
    cells = []
    for i in range(min(width, len(frame) // 3)):
        r, g, b = frame[3 * i:3 * i + 3]
        mark = 0 < r == g == b < 16  # the dim mark on every tenth space
        if not (r or g or b) or mark:
            if i in at:
                return None  # a player's space is dark: not the scores' picture
            cells.append("+" if mark else "·")
            continue
        player = _nearest_player((_ungamma(r), _ungamma(g), _ungamma(b)))
        if player not in at.get(i, ()):
            return None  # lit where nobody stands, or in another's colour: an animation
        cells.append(paint(LETTERS[player], ANSI_RGB[player], enabled))
    return "".join(cells)


def _nearest_player(rgb: tuple[int, int, int]) -> str:
    peak = max(rgb) or 1
    rgb = tuple(min(255, c * 255 // peak) for c in rgb)  # full brightness, same hue

    def distance(name: str) -> int:
        ref = ANSI_RGB[name]
        top = max(ref)
        return sum((a - b * 255 // top) ** 2 for a, b in zip(rgb, ref, strict=True))

    return min(LETTERS, key=distance)
