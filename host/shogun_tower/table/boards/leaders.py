"""The military leaders (expansion X3) as text for the terminal, from their view (the page
draws the same)."""

from __future__ import annotations

from shogun_tower.table.terminal import colour_word


def lines(view: dict, colour: bool = False) -> list[str]:
    """Each player's military leader, statues and trophies (rules X3.5-X3.9)."""
    out = ["Military leaders (a statue stays where it stands; each statue and trophy is 1 VP "
           "at the end)"]
    for p, at in view["leaders"].items():
        where = f"in {at}" if at else ("taken back until the winter's end"
                                       if p in view["taken"] else "not placed yet")
        statues = sorted(x for x, c in view["statues"].items() if c == p)
        out.append(f"  {colour_word(p, colour)}: leader {where}; statues "
                   f"{', '.join(statues) or 'none'} ({view['statue_supply'][p]} left); "
                   f"trophies {', '.join(view['trophies'][p]) or 'none'}; "
                   f"{view['vp'][p]} VP at the end")
    return out
