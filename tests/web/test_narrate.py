"""One readable line per rules-engine event (games/shogun/narrate.py), checked on real bot
games."""

from __future__ import annotations

import pathlib
import re

import pytest

from shogun_tower.games.shogun.narrate import KNOWN_EVENTS, describe, describe_all
from shogun_tower.games.shogun.rules import Game

from .games import BotGame

RULES_DIR = (pathlib.Path(__file__).resolve().parents[2] / "host" / "shogun_tower" / "games"
             / "shogun"
             / "rules")
# Events told by another line of the same command, or where nothing happened.
SILENT = {"no_move", "province_card"}


def engine_event_kinds() -> set[str]:
    kinds = set()
    for path in RULES_DIR.rglob("*.py"):
        kinds |= set(re.findall(r'"event":\s*"(\w+)"', path.read_text(encoding="utf-8")))
    return kinds


@pytest.fixture(scope="module")
def bot_events() -> list[dict]:
    """Every event of five whole games: 3, 4 and 5 players, fixed and drafted starts, both
    sides of the board."""
    events: list[dict] = []
    for players, side, setup, seed in ((4, "sun", "fixed", 3), (3, "sun", "fixed", 5),
                                       (5, "sun", "draft", 7), (4, "moon", "draft", 11),
                                       (3, "sun", "draft", 2)):
        g = BotGame(Game.create(players=players, map=side, setup=setup, seed=seed), seed)
        g.play_until(lambda g: False)
        events += g.events
    return events


def test_every_event_kind_of_the_engine_has_a_line_or_an_explicit_none():
    kinds = engine_event_kinds()
    assert len(kinds) >= 25, kinds  # the grep still finds the engine's events
    assert kinds <= KNOWN_EVENTS, f"no narration for {sorted(kinds - KNOWN_EVENTS)}"


def test_bot_games_every_event_gets_a_readable_line(bot_events):
    seen = {e["event"] for e in bot_events}
    assert len(seen) >= 24, sorted(engine_event_kinds() - seen)
    for e in bot_events:
        line = describe(e)
        if e["event"] in SILENT or (e["event"] == "drawn" and e["what"] == "draft_pile"):
            assert line is None, e
            continue
        assert isinstance(line, str) and line, e
        assert "\n" not in line and "{" not in line and "None" not in line, line
        assert "_" not in line.replace("Awa-", ""), line  # engine keys never leak into words


def test_lines_name_who_did_what_where(bot_events):
    battle = next(e for e in bot_events if e["event"] == "battle" and e["defender"])
    line = describe(battle)
    assert battle["attacker"] in line and battle["defender"] in line
    assert battle["province"] in line and battle["from"] in line
    assert f"{battle['armies']} armies" in line or "1 army" in line
    verdict = next(e for e in bot_events if e["event"] == "verdict")
    assert describe(verdict) == f"{verdict['province']}: {verdict['text']}"
    tax = next(e for e in bot_events if e["event"] == "collected" and e["what"] == "tax")
    assert describe(tax) == (f"{tax['player']} collects tax in {tax['province']}: "
                             f"{tax['amount']} coins")
    assert describe({"event": "built", "player": "red", "province": "Omi",
                     "building": "theatre", "cost": 1}) == "red builds a Nō theatre in Omi (1 coin)"
    assert describe({"event": "bid", "player": "red", "bid": "Omi"}) == \
        "red bids the province card Omi (pays nothing)"
    assert describe({"event": "bid", "player": "red", "bid": None}) == "red makes no bid"
    assert describe({"event": "marker_removed", "province": "Omi", "rule": "E1"}) == \
        "the new Nō theatre calms Omi: 1 revolt marker removed"


def test_a_plan_is_never_told():
    line = describe({"event": "planned", "player": "red",
                     "actions": {"tax": "Settsu"}, "bid": 4})  # even if a plan slipped in
    assert line == "red has planned"


def test_throw_lines_tell_the_tray_apart():
    e = {"event": "throw_needed", "into_tower": {"red": 5, "green": 1, "blue": 2},
         "from_tray": {"blue": 2}}
    assert describe(e) == "into the tower: red 5, farmers 1, plus the tray's blue 2"
    assert describe({"event": "tray", "counts": {}}) == "out of the tower into the tray: nothing"


def test_unknown_or_malformed_events_get_no_line():
    assert describe({"event": "teleported", "player": "red"}) is None
    assert describe({"event": "battle"}) is None  # fields missing: no line, no crash
    assert describe("battle") is None  # type: ignore[arg-type]


def test_the_cards_dealt_before_planning_are_told_once_by_the_season_line():
    cards = ["tax", "rice", "castle", "deploy5", "battle_a"]
    events = [{"event": "drawn", "what": "action_card", "outcome": a} for a in cards]
    events.append({"event": "season", "year": 1, "season": 1, "action_cards": cards,
                   "specials": ["P1", "P2", "P3", "P4", "P5"]})
    events.append({"event": "drawn", "what": "action_card", "outcome": "temple"})
    lines = describe_all(events)
    assert lines == ["summer of year 1 begins; action cards face up: Tax, Rice, Castle, "
                     "Deploy 5, Battle/Move A", "action card turned up: Temple"]
    # on its own (slots 6-10, turned up as play reaches them) a card gets its line
    assert describe_all(events[:1]) == ["action card turned up: Tax"]
