"""What the board page shows of a game of Samurai: a JSON-ready view, rebuilt from the state
after every entry (the page never computes a rule)."""

from __future__ import annotations

from collections.abc import Callable

from shogun_tower.games.knizia_samurai.catalogue import catalogue
from shogun_tower.games.knizia_samurai.ranking import most_holders
from shogun_tower.games.knizia_samurai.state import SamuraiJournal, SamuraiState, ordinal
from shogun_tower.i18n import N_, _, and_list, join, ngettext
from shogun_tower.words import colour_word

NO_STRIP = N_("no tower lights this game")


def view(state: SamuraiState, last: list[str] | None = None, strip: dict | None = None,
         bands: dict | None = None, waiting: str = "", strip_note: str = NO_STRIP) -> dict:
    """``last``: the lines that told the last entry; ``strip``: the LED bands as read back
    from the tower (player -> type -> figures shown), or None without a tower; ``bands``: each
    player's three segments LED by LED as read back (``·`` dark, ``W`` white, else the
    player's letter); ``strip_note``: what the page says when it shows no strip."""
    cat = catalogue()
    return {
        "game": "samurai",
        "players": list(state.game.players),
        "types": [{"name": f.name, "title": f.said, "plural": f.said_plural}
                  for f in cat.figures],
        # each player's colour in the players' language, as the page shows it
        "names": {p: colour_word(p) for p in state.game.players},
        "figures_per_type": state.game.figures_per_type,
        "captured": state.captured,
        # each type's player with a strict most (rule K12), or None: the page marks them
        "most": most_holders(state.captured),
        "removed": state.removed,
        "on_board": state.on_board(),
        "on_board_words": {t: cat.figure(t).count(n) for t, n in state.on_board().items()},
        "ties": state.ties(),
        "ties_that_end": cat.ties_that_end,
        "ties_text": ties_text(state.ties()),
        "entries": state.entries,
        "headline": " · ".join((
            ngettext("{n} player", "{n} players", len(state.game.players)).format(
                n=len(state.game.players)),
            ngettext("{n} figure a type", "{n} figures a type",
                     state.game.figures_per_type).format(n=state.game.figures_per_type),
            ngettext("{n} entry", "{n} entries", state.entries).format(n=state.entries))),
        "last": list(last or []),
        "over": state.over,
        "over_text": over_text(state) if state.over else "",
        "result": state.result,
        # the words of the end, the same as the terminal's: the page computes no rule
        "winner_line": winner_line(state.result) if state.result else "",
        # the words after the player's name in the ranking ("{player}: ..." with no name)
        "standings": [dict(st, text=standing_text(st), after=_("{player}: {standing}").format(
                           player="", standing=standing_text(st)),
                           winner=st["player"] in state.result["winners"])
                      for st in (state.result or {}).get("ranking", [])],
        "strip": strip,
        "bands": bands,
        "strip_note": _(strip_note),  # what the page says when it shows no strip
        "waiting": waiting,
    }


def ties_text(ties: int) -> str:
    """How many figures have left the board on a tie, against the number that ends the game
    (rule K11; one tile can take it past: the 4th and the 5th together)."""
    end = catalogue().ties_that_end
    if ties > end:
        return _("tie removals {ties} (the {ordinal} ended the game)").format(
            ties=ties, ordinal=ordinal(end))
    return _("tie removals {ties} of {end}").format(ties=ties, end=end)


def winner_line(result: dict, name: Callable[[str], str] = colour_word) -> str:
    """``Winner: green — why`` or ``Nobody wins — why`` (rule K12); ``name`` shows a player."""
    winners = result.get("winners", [])
    reason = result.get("reason", "")
    if not winners:
        return _("Nobody wins — {reason}").format(reason=reason)
    return ngettext("Winner: {players} — {reason}", "Winners: {players} — {reason}",
                    len(winners)).format(players=and_list([name(p) for p in winners]),
                                         reason=reason)


def standing_text(standing: dict) -> str:
    """A player's place in words: the types they have the most of, or that they lost, and the
    counts the end rules compare (rule K12)."""
    cat = catalogue()
    most = and_list([cat.figure(t).said_plural for t in standing["most_of"]])
    total = standing["total"]
    if not most:
        return ngettext("no most of any type, so lost; {n} figure in all",
                        "no most of any type, so lost; {n} figures in all", total).format(n=total)
    if len(standing["most_of"]) > 1:
        return ngettext("the most {figures}, a winner at once; {n} figure in all",
                        "the most {figures}, a winner at once; {n} figures in all",
                        total).format(figures=most, n=total)
    return _("the most {figures}; other figures {others}, {n} in all").format(
        figures=most, others=standing["others"], n=total)


def standing_line(standing: dict, name: Callable[[str], str] = colour_word) -> str:
    """``1. green: the most rice fields; ...``: a player's place, name and standing."""
    return _("{place}. {player}: {standing}").format(
        place=standing["place"], player=name(standing["player"]), standing=standing_text(standing))


def entry_lines(state: SamuraiState, events: list[dict]) -> list[str]:
    """The lines that tell one entry: each figure that left the board, then where the players
    who took one, and the ties, now stand (``state``: after the entry)."""
    cat = catalogue()
    lines, takers, tied = [], [], []
    for event in events:
        if event["event"] not in ("captured", "removed"):
            continue
        f = cat.figure(event["figure"])
        if "text" in event:
            lines.append(event["text"])
        elif event["event"] == "captured":
            lines.append(_("{player} captures a {figure}").format(
                player=colour_word(event["player"]), figure=f.said))
        else:
            lines.append(_("a {figure} leaves the board on a tie").format(figure=f.said))
        if event["event"] == "captured" and event["player"] not in takers:
            takers.append(event["player"])
        if event["event"] == "removed" and f.name not in tied:
            tied.append(f.name)
    for player in takers:
        lines.append("  " + _("{player} now has {counts}").format(
            player=colour_word(player), counts=join(
                [cat.figure(t).count(n) for t, n in state.captured[player].items()])))
    if tied:
        left = join([cat.figure(t).count(state.on_board()[t]) for t in tied])
        lines.append("  " + _("{ties}; left on the board: {left}").format(
            ties=ties_text(state.ties()), left=left))
    if len(lines) == 2:  # one figure: one line
        return [f"{lines[0]} · {lines[1].strip()}"]
    return lines


def journal_view(journal: SamuraiJournal) -> dict:
    """The page's view of a saved game (`serve --journal`): the counts, the last entry in words
    and the end; the strip is the tower's, which only the laptop running the game reads."""
    state = SamuraiState.new(journal.game)
    events: list[dict] = []
    for command in journal.commands:
        events = state.apply(command)
    tower = (journal.table or {}).get("tower")
    note = NO_STRIP if tower == "manual" else \
        N_("the strip is read back at the laptop that runs the game")
    return view(state, entry_lines(state, events), strip_note=note)


def replay_lines(journal: SamuraiJournal, path: str) -> list[str]:
    """What `replay` prints of a saved game: the counts, the figures left and the end."""
    cat = catalogue()
    s = journal.state
    players = len(s.game.players)
    lines = [ngettext("{path}: Knizia's Samurai, {players} players, {n} entry",
                      "{path}: Knizia's Samurai, {players} players, {n} entries",
                      s.entries).format(path=path, players=players, n=s.entries)]
    width = max(len(colour_word(p)) for p in s.game.players) + 1
    for p in s.game.players:
        lines.append(f"  {colour_word(p):{width}} " + join(
            [cat.figure(t).count(n) for t, n in s.captured[p].items()]))
    lines.append("  " + on_board_text(s))
    if s.over is None:
        lines.append("  " + _("waiting for: the next entry"))
        return lines
    lines.append("  " + over_text(s))
    lines.append("  " + winner_line(s.result or {}))
    lines += ["    " + standing_line(st)
              for st in (s.result or {}).get("ranking", [])]
    return lines


def on_board_text(state: SamuraiState) -> str:
    """``on the board: 3 helmets, 5 Buddhas, 2 rice fields; tie removals 1 of 4``."""
    cat = catalogue()
    return _("on the board: {counts}; {ties}").format(
        counts=join([cat.figure(t).count(n) for t, n in state.on_board().items()]),
        ties=ties_text(state.ties()))


def over_text(state: SamuraiState) -> str:
    """``The game is over: the last helmet has left the board.``"""
    return _("The game is over: {reason}.").format(reason=(state.over or {}).get("text", ""))
