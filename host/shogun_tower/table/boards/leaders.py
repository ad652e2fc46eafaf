"""The military leaders (expansion X3) as text for the terminal, from their view (the page
draws the same)."""

from __future__ import annotations

from shogun_tower.i18n import _, and_list
from shogun_tower.table.terminal import colour_word
from shogun_tower.words import province_word


def lines(view: dict, colour: bool = False) -> list[str]:
    """Each player's military leader, statues and trophies (rules X3.5-X3.9)."""
    out = [_("Military leaders (a statue stays where it stands; each statue and trophy is 1 VP "
             "at the end)")]
    for p, at in view["leaders"].items():
        if at:
            where = _("leader in {province}").format(province=province_word(at))
        elif p in view["taken"]:
            where = _("leader taken back until the winter's end")
        else:
            where = _("leader not placed yet")
        statues = sorted(x for x, c in view["statues"].items() if c == p)
        trophies = view["trophies"][p]
        values = dict(player=colour_word(p, colour), leader=where,
                      statues=and_list([province_word(x) for x in statues]) or _("none"),
                      left=view["statue_supply"][p], vp=view["vp"][p])
        if trophies:
            line = _("{player}: {leader}; statues {statues} ({left} left); trophies "
                     "{trophies}; {vp} VP at the end").format(
                trophies=and_list([colour_word(t, False) for t in trophies]), **values)
        else:  # a whole sentence: "none" agrees with trophies in French, not with statues
            line = _("{player}: {leader}; statues {statues} ({left} left); trophies none; "
                     "{vp} VP at the end").format(**values)
        out.append("  " + line)
    return out
