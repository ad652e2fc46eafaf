"""One help book a game, from its catalogues, read by the console's `help` and served as the
page's help page; every question says what it is, every bot's answer why."""

from __future__ import annotations

import copy
import io
import json
import re
import urllib.request

import pytest

from shogun_tower.games.knizia_samurai import help as samurai_help
from shogun_tower.games.shogun.bots import RandomBot
from shogun_tower.games.shogun.help import QUESTION_HELP, book, question_help
from shogun_tower.games.shogun.hints import decider, hint
from shogun_tower.games.shogun.rules import Game, State
from shogun_tower.games.shogun.rules.core.cards import EVENT_CARDS, SPECIAL_CARDS
from shogun_tower.games.shogun.rules.core.constants import ACTION_NAMES, BUILDING_COST, DEPLOY
from shogun_tower.games.shogun.rules.core.game import Game as CoreGame
from shogun_tower.games.shogun.rules.core.map import load_map
from shogun_tower.games.shogun.rules.core.ruleset import DecisionKind, Expansion, Phase, RuleSet
from shogun_tower.games.shogun.rules.engine import BASE
from shogun_tower.games.shogun.rules.expansions import EXPANSIONS
from shogun_tower.games.shogun2 import help as shogun2_help
from shogun_tower.helpbook import topic_lines
from shogun_tower.table.coach import Coach, attach
from shogun_tower.table.console import Console, UndoRequested
from shogun_tower.web.server import BoardServer

ALL = tuple(EXPANSIONS)


def test_every_question_says_what_it_is_and_every_bots_answer_why() -> None:
    for d in BASE.decisions:
        assert QUESTION_HELP.get(d.kind) or d.help, d.kind
    for e in EXPANSIONS.values():
        assert e.help is not None, e.name
        for what, q in e.questions.items():
            assert q.help and q.why is not None, (e.name, what)
        for d in e.decisions:
            assert d.help and d.hint is not None, (e.name, d.kind)
    for what, q in BASE.questions.items():
        assert q.help and q.why is not None, what
    game = Game.create(3, expansions=ALL)
    st = {"kind": "choose", "what": "leader_move", "player": "red"}
    assert question_help(game, st) == EXPANSIONS["leaders"].questions["leader_move"].help
    assert question_help(game, {"kind": "march"}) == QUESTION_HELP["march"]


def test_the_numbers_are_the_catalogues() -> None:
    b = book()
    actions = dict(b.find("actions").entries)
    assert set(actions) == set(ACTION_NAMES.values())
    assert f"Pay {BUILDING_COST['castle']} coins" in actions["Castle"]
    assert f"put {DEPLOY['deploy3'][1]} armies" in actions["Deploy 3"]
    events = " ".join(n + t for n, t in b.find("events").entries)
    assert all(str(c["rice_loss"]) in events for c in EVENT_CARDS.values())
    specials = [n for n, _ in b.find("specials").entries]
    assert len(specials) == len(SPECIAL_CARDS)
    favours = [n for n, _ in b.find("court").entries if n.startswith("Favour #")]
    assert len(favours) == 21


def test_a_corrected_data_file_is_what_the_help_says() -> None:
    doc = copy.deepcopy(EXPANSIONS["leaders"].load_data(None))
    doc["building_cost"]["castle"]["value"] = 1
    doc["vp"]["trophy"]["value"] = 3
    game = Game.create(3, expansions=["leaders"], expansion_data={"leaders": doc})
    text = " ".join(t for _, t in book(game).find("leaders").entries)
    assert "a castle costs 1 coins" in text and "3 VP for each trophy" in text
    assert book(game).find("leaders").in_game and not book(game).find("court").in_game
    assert "a castle costs 2 coins" in " ".join(t for _, t in book().find("leaders").entries)


def _console(*typed: str) -> tuple[Console, io.StringIO]:
    answers = iter(typed)
    out = io.StringIO()

    def read(prompt: str) -> str:
        try:
            return next(answers)
        except StopIteration:
            raise EOFError from None

    return Console(read=read, out=out, clear_screen=True), out


def _coach() -> Coach:
    return Coach(book(Game.create(3, expansions=["court"])), lambda: "the question's line",
                 lambda: ["the bot's answer", "  and why"], lambda: ("odds",))


def test_the_console_reads_the_one_book_for_help_and_a_topic() -> None:
    console, out = _console("?", "h court", "help nothing", "hint", "Shima")
    attach(console, _coach())
    assert console.ask("? ") == "Shima"
    text = out.getvalue()
    assert "This question: the question's line" in text
    assert "Words that work here:" in text and "  odds: at a Battle/Move question" in text
    assert "Expansions not in this game: samurai, leaders, chambers." in " ".join(text.split())
    court = book(Game.create(3, expansions=["court"])).find("court")
    assert "\n".join(topic_lines(court, 79)) in text
    assert "There is no help topic 'nothing'; the topics are: season," in " ".join(text.split())
    assert "the bot's answer\n  and why" in text


def test_help_and_hint_where_the_question_only_waits_for_enter() -> None:
    console, out = _console("hint", "help", "")
    attach(console, _coach())
    console.private("red")
    text = out.getvalue()
    assert "Nothing to decide here: press Enter when ready." in text
    assert "This question: Nothing is decided here" in text and "odds:" not in text
    console, out = _console("h", "undo")
    attach(console, _coach())
    with pytest.raises(UndoRequested):
        console.hold("The season is over.")


@pytest.mark.parametrize("made", [lambda: book(), lambda: samurai_help.book(("red", "blue")),
                                  lambda: shogun2_help.book()])
def test_the_page_serves_the_same_book(made) -> None:
    b = made()
    server = BoardServer(port=0).start()
    try:
        console, _ = _console()
        attach(console, Coach(b, lambda: "", lambda: []), server)
        with urllib.request.urlopen(server.url + "help", timeout=10) as r:
            page = r.read().decode()
        block = re.search(r'<script id="help-book" type="application/json">(.*?)</script>',
                          page, re.S)
        assert block and json.loads(block.group(1).replace("<\\/", "</")) == b.to_json()
        assert '<script src="/help.js">' in page
    finally:
        server.stop()


# ---- a new expansion brings its own words -----------------------------------------------------
def _toy_step(s, ev):
    me = s.expansions["toy"]
    if me["asked"] == [s.year, s.season]:
        return None
    me["asked"] = [s.year, s.season]
    return {"kind": "toy_pick", "player": s.turn_order[0], "rule": "X9.1"}


def _toy_pick(s, cmd, ev):
    s.expansions["toy"]["picked"].append(cmd["number"])
    s.step = None


TOY = Expansion(
    name="toy", rule="X9", title="Toy",
    phases=(Phase("toy_phase", _toy_step, after="specials"),),
    decisions=(DecisionKind(
        "toy_pick", "toy_pick", _toy_pick,
        legal=lambda s: [{"type": "toy_pick", "player": s.step["player"], "number": n}
                         for n in (1, 2, 3)],
        help="Pick a toy number; the highest wins nothing.",
        hint=lambda view, player, seed: [f"Pick 3, {player}: it is the toy's best."]),),
    new_state=lambda s: {"asked": None, "picked": []},
    help=lambda doc: [("Toy number", "A number from 1 to 3, picked each season.")],
)


def test_a_new_expansions_decision_brings_its_help_and_its_hint() -> None:
    game = CoreGame(load_map("sun"), ("black", "red", "yellow", "purple"), seed=1,
                    expansions=("toy",), expansion_data={}, rules=RuleSet.build(BASE, (TOY,)))
    s = State.new(game)
    bot = RandomBot(2)
    while s.step["kind"] != "toy_pick":
        st = s.pending()
        s.apply({"type": "tray", "counts": {}} if st["kind"] == "throw" else
                bot.decide(s, decider(st)))
    who = s.step["player"]
    assert question_help(game, s.pending()) == "Pick a toy number; the highest wins nothing."
    assert hint(s, 0) == [f"Pick 3, {who}: it is the toy's best."]
    assert book(game).find("toy").entries == (("Toy number", "A number from 1 to 3, picked "
                                                             "each season."),)
