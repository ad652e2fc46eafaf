"""Text cut into a terminal's lines in any of the players' languages: a wide character (kanji,
kana) takes two columns, colour codes none, and Japanese, which puts no space between words,
may break between two of its characters (but never before a closing mark such as 。、」 nor
after an opening one such as 「（), as Japanese typesetting does (JIS X 4051's basic rule)."""

from __future__ import annotations

import re
import unicodedata

ANSI = re.compile(r"\x1b\[[0-9;]*[A-Za-z]")
# no line begins with these, none ends with the opening ones
CLOSING = set("、。，．・：；？！）」』】〕〉》ー～…‥ぁぃぅぇぉっゃゅょゎァィゥェォッャュョヮ"
              ")]}:;,.!?%\u00a0")
OPENING = set("「『（【〔〈《([{\u00a0")  # a no-break space holds both its neighbours


def cells(text: str) -> int:
    """The columns ``text`` takes on a terminal (colour codes none, wide characters two)."""
    return sum(2 if unicodedata.east_asian_width(c) in "WF" else 1
               for c in ANSI.sub("", text))


def _wide(c: str) -> bool:
    return unicodedata.east_asian_width(c) in "WF"


def pieces(word: str) -> list[str]:
    """A word (no spaces) cut where a line may break: between two characters when one of them
    is wide, except before a closing mark and after an opening one. Colour codes stay with
    the character after them."""
    out: list[str] = []
    current, previous, pending = "", "", ""
    for token in re.findall(r"\x1b\[[0-9;]*[A-Za-z]|.", word):
        if ANSI.fullmatch(token):
            pending += token
            continue
        breaks = bool(current) and (_wide(token) or _wide(previous)) \
            and token not in CLOSING and previous not in OPENING
        if breaks:
            out.append(current)
            current = ""
        current += pending + token
        pending, previous = "", token
    if current or pending:
        out.append(current + pending)
    return out


# French puts a space before these marks and after «: the mark never begins a line, « never
# ends one (the space beside them is not a place to break)
_BEFORE_MARK = re.compile(r"^[;:!?»]+[).,]*$")


def _french_marks(words: list[str]) -> list[str]:
    """The words, each French mark held to its word by the space between them."""
    out: list[str] = []
    for word in words:
        if out and (_BEFORE_MARK.match(word) or out[-1] == "«"):
            out[-1] += " " + word
        else:
            out.append(word)
    return out


def wrap(line: str, width: int, hang: int | None = None) -> list[str]:
    """``line`` cut at spaces (and between wide characters) into lines of at most ``width``
    columns; the following lines indented ``hang`` (by default two more than the first). A
    word longer than the width stays whole."""
    if cells(line) <= width:
        return [line]
    indent = len(line) - len(line.lstrip(" "))
    hang_text = " " * min(indent + 2 if hang is None else hang, width // 2)
    out: list[str] = []
    current, size = " " * indent, indent
    empty = True
    for word in _french_marks(line.strip(" ").split(" ")):
        for k, piece in enumerate(pieces(word) or [""]):
            n = cells(piece)
            gap = 1 if k == 0 else 0
            if not empty and size + gap + n > width:
                out.append(current)
                current, size, empty = hang_text, len(hang_text), True
            if empty:
                current += piece
                size += n
                empty = False
            else:
                current += " " * gap + piece
                size += gap + n
    out.append(current)
    return out
