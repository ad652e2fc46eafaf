"""The table's words for what was decided: a command as the players say it ("red's Battle/Move A
from Ise into Mino with 3 armies"), a throw's headline, for the console's "taken back" and its
headlines. Each is a whole sentence part built in one place, in the players' language (the
journal keeps the commands themselves: only their words are translated, here)."""

from __future__ import annotations

from shogun_tower.games.shogun.narrate import CHANCE_NAMES
from shogun_tower.games.shogun.rules.core.choices import option_text, question_text
from shogun_tower.games.shogun.rules.core.constants import ACTION_NAMES
from shogun_tower.games.shogun.rules.core.tower import throw_title
from shogun_tower.i18n import _, join
from shogun_tower.table.terminal import counts_text
from shogun_tower.words import colour_word, province_word, sentence


def throw_headline(st: dict) -> str:
    """A throw step as its headline: "Battle for Mino: red against purple"."""
    reason = st.get("reason")
    if reason == "setup":
        return _("The set-up throw")
    if reason == "battle":
        if st.get("defender"):
            return _("{title}: {attacker} against {defender}").format(
                title=throw_title(st), attacker=colour_word(st["attacker"]),
                defender=colour_word(st["defender"]))
        return _("{title}: {attacker} against the farmers").format(
            title=throw_title(st), attacker=colour_word(st["attacker"]))
    if reason == "revolt":
        return _("{title} against {player}").format(title=throw_title(st),
                                                     player=colour_word(st.get("player", "")))
    return _("A throw")


def throw_words(st: dict, command: dict) -> str:
    """A throw that was made: "the throw of the battle for Mino (red 3, purple 2 fell out)"."""
    fell = counts_text(command.get("counts") or {}, False)
    reason, province = st.get("reason"), province_word(str(st.get("province")))
    if reason == "battle":
        return _("the throw of the battle for {province} ({cubes} fell out)").format(
            province=province, cubes=fell)
    if reason == "revolt":
        return _("the throw of the revolt in {province} ({cubes} fell out)").format(
            province=province, cubes=fell)
    return _("the set-up throw ({cubes} fell out)").format(cubes=fell)


def command_words(command: dict, st: dict) -> str:
    """A command in the table's words, with the step it answered (for "taken back: ...")."""
    kind = command.get("type")
    who = colour_word(command.get("player", ""))
    if kind == "plan":
        return _("{player}'s plan").format(player=who)
    if kind == "tray":
        return throw_words(st, command)
    if kind == "draft":
        take = command.get("take")
        if take == "refresh":
            return _("{player}'s draft pick (two new face-up cards)").format(player=who)
        return _("{player}'s draft pick ({province})").format(player=who,
                                                               province=province_word(str(take)))
    if kind == "special":
        return _("{player}'s choice of place {n} in the turn order").format(
            player=who, n=command.get("position"))
    if kind == "march":
        action = _(ACTION_NAMES.get(st.get("action", ""), "Battle/Move"))
        return sentence(command.get("armies", 0),
                        "{player}'s {action} from {frm} into {to} with {n} army",
                        "{player}'s {action} from {frm} into {to} with {n} armies",
                        player=who, action=action, frm=province_word(str(st.get("from"))),
                        to=province_word(str(command.get("to"))))
    if kind == "move":
        n = command.get("armies", 0)
        if not n:
            return _("{player}'s choice not to move armies from {frm}").format(
                player=who, frm=province_word(str(st.get("from"))))
        return sentence(n, "{player}'s move of {n} army from {frm} to {to}",
                        "{player}'s move of {n} armies from {frm} to {to}", player=who,
                        frm=province_word(str(st.get("from"))),
                        to=province_word(str(command.get("to"))))
    if kind == "revolt_order":
        return _("{player}'s order of the winter revolts ({provinces})").format(
            player=who, provinces=join([province_word(x) for x in command.get("order") or []]))
    if kind == "choose":
        text = next((option_text(o) for o in st.get("options", ())
                     if o["value"] == command.get("option")), str(command.get("option")))
        if st.get("question"):
            return _("{player}'s answer “{answer}” to: {question}").format(
                player=who, answer=text, question=question_text(st))
        return _("{player}'s answer “{answer}” to a question").format(player=who, answer=text)
    if kind == "chance":
        what = command.get("what")
        if str(what) in CHANCE_NAMES:
            return _("the draw of {what}").format(what=_(CHANCE_NAMES[str(what)]))
        return _("the draw of cards")
    if kind == "spilled":
        return _("the spilled cubes ({cubes})").format(
            cubes=counts_text(command.get("counts") or {}, False))
    return str(kind)
