"""The table's words for what was decided: a command as the players say it ("red's Battle/Move A
from Ise into Mino with 3 armies"), a throw's headline, for the console's "taken back" and its
headlines. Each is a whole sentence part built in one place."""

from __future__ import annotations

from shogun_tower.games.shogun.narrate import CHANCE_NAMES
from shogun_tower.games.shogun.rules.core.constants import ACTION_NAMES
from shogun_tower.games.shogun.rules.core.tower import throw_title
from shogun_tower.table.terminal import counts_text
from shogun_tower.words import sentence


def throw_headline(st: dict) -> str:
    """A throw step as its headline: "Battle for Mino: red against purple"."""
    reason = st.get("reason")
    if reason == "setup":
        return "The set-up throw"
    if reason == "battle":
        return f"{throw_title(st)}: {st['attacker']} against {st.get('defender') or 'the farmers'}"
    if reason == "revolt":
        return f"{throw_title(st)} against {st.get('player')}"
    return "A throw"


def throw_words(st: dict, command: dict) -> str:
    """A throw that was made: "the throw of the battle for Mino (red 3, purple 2 fell out)"."""
    fell = counts_text(command.get("counts") or {}, False)
    reason, province = st.get("reason"), st.get("province")
    if reason == "battle":
        return f"the throw of the battle for {province} ({fell} fell out)"
    if reason == "revolt":
        return f"the throw of the revolt in {province} ({fell} fell out)"
    return f"the set-up throw ({fell} fell out)"


def command_words(command: dict, st: dict) -> str:
    """A command in the table's words, with the step it answered (for "taken back: ...")."""
    kind = command.get("type")
    who = command.get("player", "")
    if kind == "plan":
        return f"{who}'s plan"
    if kind == "tray":
        return throw_words(st, command)
    if kind == "draft":
        take = command.get("take")
        return f"{who}'s draft pick ({'two new face-up cards' if take == 'refresh' else take})"
    if kind == "special":
        return f"{who}'s choice of place {command.get('position')} in the turn order"
    if kind == "march":
        action = ACTION_NAMES.get(st.get("action", ""), "Battle/Move")
        n = command.get("armies", 0)
        return (f"{who}'s {action} from {st.get('from')} into {command.get('to')} with "
                f"{sentence(n, '{n} army', '{n} armies')}")
    if kind == "move":
        n = command.get("armies", 0)
        if not n:
            return f"{who}'s choice not to move armies from {st.get('from')}"
        return (f"{who}'s move of {sentence(n, '{n} army', '{n} armies')} from "
                f"{st.get('from')} to {command.get('to')}")
    if kind == "revolt_order":
        return f"{who}'s order of the winter revolts ({', '.join(command.get('order') or [])})"
    if kind == "choose":
        text = next((o["text"] for o in st.get("options", ())
                     if o["value"] == command.get("option")), str(command.get("option")))
        return f"{who}'s answer “{text}” to: {st.get('question', 'a question')}"
    if kind == "chance":
        what = CHANCE_NAMES.get(str(command.get("what")), "cards")
        return f"the draw of {what}"
    if kind == "spilled":
        return f"the spilled cubes ({counts_text(command.get('counts') or {}, False)})"
    return str(kind)
