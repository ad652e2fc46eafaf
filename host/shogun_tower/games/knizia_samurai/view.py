"""What the board page shows of a game of Samurai: a JSON-ready view, rebuilt from the state
after every entry (the page never computes a rule)."""

from __future__ import annotations

from collections.abc import Callable

from shogun_tower.games.knizia_samurai.catalogue import catalogue
from shogun_tower.games.knizia_samurai.ranking import most_holders
from shogun_tower.games.knizia_samurai.state import SamuraiJournal, SamuraiState, ordinal

NO_STRIP = "no tower lights this game"


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
        "types": [{"name": f.name, "title": f.title, "plural": f.plural} for f in cat.figures],
        "figures_per_type": state.game.figures_per_type,
        "captured": state.captured,
        # each type's player with a strict most (rule K12), or None: the page marks them
        "most": most_holders(state.captured),
        "removed": state.removed,
        "on_board": state.on_board(),
        "ties": state.ties(),
        "ties_that_end": cat.ties_that_end,
        "ties_text": ties_text(state.ties()),
        "entries": state.entries,
        "headline": f"{len(state.game.players)} players · {state.game.figures_per_type} figures "
                    f"a type · {state.entries} {'entry' if state.entries == 1 else 'entries'}",
        "last": list(last or []),
        "over": state.over,
        "result": state.result,
        # the words of the end, the same as the terminal's: the page computes no rule
        "winner_line": winner_line(state.result) if state.result else "",
        "standings": [dict(st, text=standing_text(st),
                           winner=st["player"] in state.result["winners"])
                      for st in (state.result or {}).get("ranking", [])],
        "strip": strip,
        "bands": bands,
        "strip_note": strip_note,  # what the page says when it shows no strip
        "waiting": waiting,
    }


def ties_text(ties: int) -> str:
    """How many figures have left the board on a tie, against the number that ends the game
    (rule K11; one tile can take it past: the 4th and the 5th together)."""
    end = catalogue().ties_that_end
    if ties > end:
        return f"tie removals {ties} (the {ordinal(end)} ended the game)"
    return f"tie removals {ties} of {end}"


def winner_line(result: dict, name: Callable[[str], str] = str) -> str:
    """``Winner: green — why`` or ``Nobody wins — why`` (rule K12); ``name`` shows a player."""
    winners = result.get("winners", [])
    if not winners:
        return f"Nobody wins — {result.get('reason', '')}"
    return f"Winner: {' and '.join(name(p) for p in winners)} — {result.get('reason', '')}"


def standing_text(standing: dict) -> str:
    """A player's place in words: the types they have the most of, or that they lost, and the
    counts the end rules compare (rule K12)."""
    cat = catalogue()
    most = " and ".join(cat.figure(t).plural for t in standing["most_of"])
    if not most:
        return f"no most of any type, so lost; {standing['total']} figures in all"
    if len(standing["most_of"]) > 1:
        return f"the most {most}, a winner at once; {standing['total']} figures in all"
    return (f"the most {most}; other figures {standing['others']}, {standing['total']} in "
            f"all")


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
            lines.append(f"{event['player']} captures a {f.title}")
        else:
            lines.append(f"a {f.title} leaves the board on a tie")
        if event["event"] == "captured" and event["player"] not in takers:
            takers.append(event["player"])
        if event["event"] == "removed" and f.name not in tied:
            tied.append(f.name)
    for player in takers:
        lines.append(f"  {player} now has " + ", ".join(
            cat.figure(t).count(n) for t, n in state.captured[player].items()))
    if tied:
        left = ", ".join(cat.figure(t).count(state.on_board()[t]) for t in tied)
        lines.append(f"  {ties_text(state.ties())}; left on the board: {left}")
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
        "the strip is read back at the laptop that runs the game"
    return view(state, entry_lines(state, events), strip_note=note)


def replay_lines(journal: SamuraiJournal, path: str) -> list[str]:
    """What `replay` prints of a saved game: the counts, the figures left and the end."""
    cat = catalogue()
    s = journal.state
    lines = [f"{path}: Knizia's Samurai, {len(s.game.players)} players, {s.entries} "
             f"entr{'y' if s.entries == 1 else 'ies'}"]
    for p in s.game.players:
        lines.append(f"  {p:7} " + ", ".join(cat.figure(t).count(n)
                                            for t, n in s.captured[p].items()))
    lines.append("  on the board: " + ", ".join(cat.figure(t).count(n)
                                               for t, n in s.on_board().items())
                 + f"; {ties_text(s.ties())}")
    if s.over is None:
        lines.append("  waiting for: the next entry")
        return lines
    lines.append(f"  The game is over: {s.over['text']}.")
    lines.append("  " + winner_line(s.result or {}))
    lines += [f"    {st['place']}. {st['player']}: {standing_text(st)}"
              for st in (s.result or {}).get("ranking", [])]
    return lines
