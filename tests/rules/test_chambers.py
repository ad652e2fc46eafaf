"""X4 the Chambers (rulebook 002 "CHAMBRES"): the region row, the tiles drawn each season, the
region majorities' swaps, the neutral player, the end-game rows and columns, the rulebook's sums
(X4.n)."""

from __future__ import annotations

import copy
import json

import pytest
from helpers import DEFAULT_EVENTS, DEFAULT_ORDER, DEFAULT_SPECIALS, chance
from hypothesis import given, settings, strategies

from shogun_tower.errors import DataError
from shogun_tower.games.shogun.bots import HeuristicBot
from shogun_tower.games.shogun.journal import Journal
from shogun_tower.games.shogun.rules import Game, RulesError, State
from shogun_tower.games.shogun.rules.core.files import packaged
from shogun_tower.games.shogun.rules.core.invariants import problems
from shogun_tower.games.shogun.rules.expansions import chambers
from shogun_tower.games.shogun.runner import play_game

ROW = ["red", "brown", "yellow", "purple", "green"]  # the region tiles as laid (X4.2)
FIRST_TILES = ["A1", "B2", "C3", "D4", "E5", "F6"]


def _me(s: State) -> dict:
    return s.expansions["chambers"]


def _drawn(players: int = 4, tiles: list[str] | None = None) -> State:
    """A physical-cards game with the chambers, its first season's tiles drawn (X4.2, X4.3)."""
    s = State.new(Game.create(players, chance="physical", expansions=["chambers"]))
    s.apply({"type": "tray", "counts": {}})
    chance(s, "year_events", DEFAULT_EVENTS)
    for a in DEFAULT_ORDER[:5]:
        chance(s, "action_card", a)
    chance(s, "specials", DEFAULT_SPECIALS)
    chance(s, "chamber_regions", ROW)
    chance(s, "chamber_tiles", tiles or FIRST_TILES)
    assert s.pending()["kind"] == "plan"
    return s


def _at_claim(s: State, turn_order: list[str]) -> list[dict]:
    """Straight to the end of the season (rule X4.4): the tests set who holds what first."""
    s.turn_order = list(turn_order)
    s.phase, s.step = "chambers_claim", None
    ev: list[dict] = []
    s.advance(ev)
    return ev


def _take(s: State, tile: str) -> list[dict]:
    st = s.pending()
    return s.apply({"type": "choose", "player": st["player"], "what": "chamber_tile",
                    "option": tile})


def _give_region(s: State, region: str, counts: dict[str, int]) -> None:
    """Hand out a region's provinces: ``counts`` per player, the rest neutral."""
    members = sorted(x for x in s.map.regions[region] if x in s.owner)
    it = iter(members)
    for x in members:
        s.owner[x] = None
    for p, n in counts.items():
        for _ in range(n):
            s.owner[next(it)] = p


# ---- the rulebook's example (rule X4.7) ----------------------------------------------------------
# The scan kept only the example's sums: "=5 PV (3+0+2)", "=4 PV (1+1+0+2)", "=5 PV", "=0 PV".
# This board (a decision, the picture is lost) gives exactly those sums with the packaged values
# (rows and columns 3, 2, 1, 1, 2, 3): K black, R red, Y yellow, P purple, # neutral.
SEED_BOARD = """
      A B C D E F
   1  K Y K P # K
   2  # Y K K K #
   3  P R R Y R #
   4  R R R # # P
   5  # Y K R P R
   6  Y Y R # # Y
"""
LETTER = {"K": "black", "R": "red", "Y": "yellow", "P": "purple", "#": chambers.NEUTRAL}


def _board_from_picture(s: State, picture: str) -> None:
    me = _me(s)
    me["bag"], me["up"], me["down"], me["box"], me["markers"] = [], [], [], [], {}
    lines = [ln.split() for ln in picture.strip().splitlines()]
    columns = lines[0]
    for row in lines[1:]:
        for col, mark in zip(columns, row[1:], strict=True):
            tile = f"{col}{row[0]}"
            if LETTER[mark] == chambers.NEUTRAL:
                me["down"].append(tile)
            else:
                me["box"].append(tile)
                me["markers"][tile] = LETTER[mark]
                me["supply"][LETTER[mark]] -= 1


def test_x4_7_seed_example_five_vp_three_plus_zero_plus_two_and_four_vp_one_one_zero_two() -> None:
    s = _drawn(4)
    _board_from_picture(s, SEED_BOARD)
    assert problems(s) == []
    terms = {p: [line["scores"][p] for line in chambers.line_scores(s) if p in line["scores"]]
             for p in s.game.players}
    assert sorted(terms["black"]) == sorted([3, 0, 2]) and sum(terms["black"]) == 5
    assert sorted(terms["red"]) == sorted([1, 1, 0, 2]) and sum(terms["red"]) == 4
    assert sum(terms["yellow"]) == 5  # "=5 PV", its terms illegible in the scan
    assert chambers.points(s) == {"black": 5, "red": 4, "yellow": 5, "purple": 0}
    events: list[dict] = []  # the end of the game (hook final_scoring) scores the same
    assert chambers.final_scoring(s, events) == {"black": {"chambers": 5},
                                                 "red": {"chambers": 4},
                                                 "yellow": {"chambers": 5},
                                                 "purple": {"chambers": 0}}
    assert events[0]["event"] == "chambers_scored" and len(events[0]["lines"]) == 12
    column_c = next(line for line in chambers.line_scores(s) if line["line"] == "column C")
    # black and red tie on a 1-VP line: each scores 1 - 1 = 0 (the "+0" of both sums)
    assert column_c["leaders"] == ["black", "red"] and column_c["scores"] == {"black": 0,
                                                                              "red": 0}


def test_x4_7_the_neutral_player_wins_lines_and_ties_with_players() -> None:
    s = _drawn(4)
    _board_from_picture(s, SEED_BOARD)
    lines = {line["line"]: line for line in chambers.line_scores(s)}
    assert lines["column E"]["leaders"] == [chambers.NEUTRAL]  # 3 face-down tiles
    assert lines["column E"]["scores"] == {}  # nobody scores a line the neutral player holds
    me = _me(s)
    me["down"].remove("E1")  # E1 becomes purple's: purple 2 - neutral 2 in column E (2 VP)
    me["markers"]["E1"], me["box"] = "purple", me["box"] + ["E1"]
    me["supply"]["purple"] -= 1
    line = next(x for x in chambers.line_scores(s) if x["line"] == "column E")
    assert line["leaders"] == ["neutral", "purple"] and line["scores"] == {"purple": 1}


# ---- material, phases, set-up and the draw (rules X4.1-X4.3) ---------------------------------
def test_x4_phases_draw_at_the_season_start_claims_before_the_season_end() -> None:
    g = Game.create(4, expansions=["chambers"])
    assert g.season_phases == ("season_start", "chambers_draw", "plan", "bids", "specials",
                               "actions", "chambers_claim", "season_end")
    assert g.year_end_phases == ("winter", "winter_scoring", "year_end")  # X4.3: no winter step


def test_x4_1_thirty_six_tiles_in_the_bag_and_fifteen_markers_a_player() -> None:
    s = State.new(Game.create(5, chance="physical", expansions=["chambers"]))
    me = _me(s)
    assert len(me["bag"]) == 36 and me["bag"][:7] == ["A1", "B1", "C1", "D1", "E1", "F1", "A2"]
    assert me["supply"] == dict.fromkeys(s.game.players, 15)
    assert me["up"] == me["down"] == me["box"] == [] and me["markers"] == {}


def test_x4_2_x4_3_the_region_row_then_six_tiles_face_up_on_their_spaces() -> None:
    s = State.new(Game.create(4, chance="physical", expansions=["chambers"]))
    s.apply({"type": "tray", "counts": {}})
    chance(s, "year_events", DEFAULT_EVENTS)
    for a in DEFAULT_ORDER[:5]:
        chance(s, "action_card", a)
    chance(s, "specials", DEFAULT_SPECIALS)
    st = s.pending()
    assert (st["kind"], st["what"], st["count"], st["rule"]) == ("chance", "chamber_regions",
                                                                 5, "X4.2")
    with pytest.raises(RulesError, match="rule X4.2: chamber_regions: report a list of 5"):
        chance(s, "chamber_regions", ["red", "red", "brown", "yellow", "green"])
    chance(s, "chamber_regions", ROW)
    st = s.pending()
    assert (st["what"], st["count"], st["rule"]) == ("chamber_tiles", 6, "X4.3")
    with pytest.raises(RulesError, match="rule X4.3: chamber_tiles: report a list of 6"):
        chance(s, "chamber_tiles", ["A1", "B2", "C3", "D4", "E5", "G7"])
    events = chance(s, "chamber_tiles", ["F6", "A1", "C3", "B2", "E5", "D4"])
    me = _me(s)
    assert me["row"] == ROW and me["up"] == FIRST_TILES  # in board order
    assert len(me["bag"]) == 30 and not set(me["bag"]) & set(FIRST_TILES)
    assert {"event": "chamber_tiles", "tiles": FIRST_TILES, "bag": 30, "rule": "X4.3"} in events
    assert s.pending()["kind"] == "plan"


def test_x4_3_auto_mode_draws_from_the_seeded_generator_in_the_state() -> None:
    a = State.new(Game.create(4, seed=11, expansions=["chambers"]))
    b = State.new(Game.create(4, seed=11, expansions=["chambers"]))
    c = State.new(Game.create(4, seed=12, expansions=["chambers"]))
    a.apply({"type": "tray", "counts": {}})
    b.apply({"type": "tray", "counts": {}})
    c.apply({"type": "tray", "counts": {}})
    assert _me(a) == _me(b) and len(_me(a)["up"]) == 6
    assert (_me(a)["up"], _me(a)["row"]) != (_me(c)["up"], _me(c)["row"])


# ---- the end of the season (rules X4.4-X4.6) --------------------------------------------------
def test_x4_4_region_by_region_the_majority_holder_may_swap_a_marker_for_a_tile() -> None:
    s = _drawn(4)
    _give_region(s, "red", {"black": 1, "red": 3})
    _give_region(s, "brown", {"yellow": 2, "purple": 2})  # tie: yellow is first in turn order
    _give_region(s, "yellow", {})  # empty: skipped
    _give_region(s, "purple", {"purple": 4})
    _give_region(s, "green", {"black": 2})
    events = _at_claim(s, ["yellow", "purple", "black", "red"])
    st = s.pending()
    assert (st["kind"], st["what"], st["player"], st["region"], st["rule"]) == \
        ("choose", "chamber_tile", "red", "red", "X4.4")
    assert [o["value"] for o in st["options"]] == FIRST_TILES + ["none"]
    assert st["options"][0]["text"] == "A1 (row 3 VP, column 3 VP)"
    assert {"event": "chamber_majority", "region": "red", "player": "red", "provinces": 3,
            "rule": "X4.4"} in events
    events = _take(s, "C3")
    me = _me(s)
    assert me["markers"] == {"C3": "red"} and me["box"] == ["C3"]
    assert me["supply"]["red"] == 14 and "C3" not in me["up"]
    assert events[0] == {"event": "chamber_taken", "player": "red", "tile": "C3",
                         "region": "red", "markers_left": 14, "rule": "X4.4"}
    assert (s.pending()["player"], s.pending()["region"]) == ("yellow", "brown")  # turn order
    events = _take(s, "A1")
    # the yellow region comes next: nobody holds a province there, so purple's is asked
    assert {"event": "chamber_region_skipped", "region": "yellow", "player": None,
            "reason": "no player holds a province there",
            "reason_words": {"msgid": "no player holds a province there", "values": {}},
            "rule": "X4.4"} in events
    assert (s.pending()["player"], s.pending()["region"]) == ("purple", "purple")
    events = _take(s, "none")  # purple keeps the marker (the seed: "peut choisir")
    assert events[0]["event"] == "chamber_declined"
    assert (s.pending()["player"], s.pending()["region"]) == ("black", "green")
    events = _take(s, "F6")
    assert {"event": "chamber_face_down", "tiles": ["B2", "D4", "E5"], "rule": "X4.5"} in events
    assert {"event": "chamber_row", "row": ROW[1:] + ROW[:1], "rule": "X4.6"} in events
    assert me["down"] == ["B2", "D4", "E5"] and me["up"] == []
    assert me["markers"] == {"C3": "red", "A1": "yellow", "F6": "black"}
    assert me["row"] == ["brown", "yellow", "purple", "green", "red"]
    assert chambers.problems(s) == []  # (the test handed out provinces without armies)


def test_x4_4_an_empty_region_and_a_player_without_markers_are_skipped() -> None:
    s = _drawn(4)
    for region in ROW:
        _give_region(s, region, {})
    _give_region(s, "purple", {"black": 1})
    _me(s)["supply"]["black"] = 0  # as if his 15 markers were all on the board
    _me(s)["markers"].update({t: "black" for t in chambers.board(s).tiles[6:21]})
    events = _at_claim(s, ["black", "red", "yellow", "purple"])
    skipped = [(e["region"], e["reason"]) for e in events
               if e["event"] == "chamber_region_skipped"]
    assert skipped == [("red", "no player holds a province there"),
                       ("brown", "no player holds a province there"),
                       ("yellow", "no player holds a province there"),
                       ("purple", "black has no marker left"),
                       ("green", "no player holds a province there")]
    assert _me(s)["down"] == FIRST_TILES  # all six turn face down (X4.5)


def test_x4_4_a_tile_not_face_up_is_refused_in_one_line() -> None:
    s = _drawn(4)
    _give_region(s, "red", {"red": 2})
    _at_claim(s, ["red", "black", "yellow", "purple"])
    with pytest.raises(RulesError, match=r'rule X4.4: .*answer one of "A1", "B2"'):
        _take(s, "A2")
    with pytest.raises(RulesError, match="it is red's turn"):
        s.apply({"type": "choose", "player": "black", "what": "chamber_tile", "option": "A1"})


# ---- whole games: scoring, journal, undo (rules X4.3-X4.7) ------------------------------------
def _bot_game(players: int, seed: int, expansions: tuple[str, ...] = ("chambers",),
              record: list | None = None) -> tuple[State, list[str]]:
    g = Game.create(players, seed=seed, expansions=list(expansions))
    broken: list[str] = []

    def watch(s: State, cmd: dict) -> None:
        broken.extend(problems(s))

    s = play_game(g, {p: HeuristicBot(i) for i, p in enumerate(g.players)}, seed,
                  on_command=watch, record=record)
    return s, broken


@pytest.mark.parametrize("players,seed", [(3, 1), (4, 2), (5, 3)])
def test_x4_a_whole_game_fills_the_board_and_scores_rows_and_columns(players: int,
                                                                     seed: int) -> None:
    s, broken = _bot_game(players, seed)
    assert broken == [] and s.phase == "over"
    me = _me(s)
    assert me["bag"] == [] and me["up"] == []  # 6 seasons x 6 tiles = 36 (X4.3)
    assert len(me["down"]) + len(me["markers"]) == 36
    assert len(me["down"]) >= 6  # at most 5 regions claim a season: one tile or more is left
    final = s.scores[-1]["final"]
    assert {p: row["chambers"] for p, row in final.items()} == chambers.points(s)
    assert sum(chambers.points(s).values()) > 0
    # the VP the LED score track shows are s.vp: winter scoring plus the chambers' points
    winters = {p: sum(sc["table"][p]["total"] for sc in s.scores) for p in s.game.players}
    assert all(s.vp[p] >= winters[p] + final[p]["chambers"] for p in s.game.players)


def test_x4_the_journal_replays_a_chambers_game_exactly_and_undo_takes_a_swap_back(
        tmp_path) -> None:
    record: list[dict] = []
    end, _ = _bot_game(4, 7, record=record)
    path = tmp_path / "ch.jsonl"
    j = Journal.new(Game.create(4, seed=7, expansions=["chambers"]), path)
    swap_at = None
    for i, c in enumerate(record):
        if c.get("what") == "chamber_tile" and c["option"] != "none" and swap_at is None:
            swap_at = i
            before = copy.deepcopy(j.state.to_json())
        j.apply(c)
    assert j.state.to_json() == end.to_json()
    header = json.loads(path.read_text().splitlines()[0])
    assert header["expansions"] == ["chambers"]
    assert header["game"]["expansion_data"]["chambers"] == packaged("chambers.json")
    again = Journal.load(path)
    assert again.state.to_json() == end.to_json()
    assert swap_at is not None
    j2 = Journal.new(Game.create(4, seed=7, expansions=["chambers"]), tmp_path / "u.jsonl")
    for c in record[:swap_at + 1]:
        j2.apply(c)
    j2.undo()
    assert j2.state.to_json() == before


# ---- the data file (rules X4.1, X4.8) ------------------------------------------------------------
def test_x4_8_every_value_of_the_board_file_is_marked_seed_or_decision() -> None:
    doc = packaged("chambers.json")
    counts = ("tiles", "tiles_per_season", "markers_per_player", "tie_penalty")
    assert [doc[k]["value"] for k in counts] == [36, 6, 15, 1]
    assert all(doc[k]["source"] == "seed" for k in counts)
    assert (doc["board"]["rows"], doc["board"]["columns"], doc["board"]["source"]) == \
        (6, 6, "decision")
    assert [r["vp"] for r in doc["rows"]] == [3, 2, 1, 1, 2, 3]
    assert [c["vp"] for c in doc["columns"]] == [3, 2, 1, 1, 2, 3]
    assert all(x["source"] == "decision" and x["reason"] for x in doc["rows"] + doc["columns"])


BAD_BOARDS = [
    (lambda d: d["rows"][2].update(vp=-1), "row 3: field 'vp' must be a whole number 0-20, got -1"),
    (lambda d: d["board"].update(columns=5), "board: 6 x 5 spaces but 36 tiles"),
    (lambda d: d["columns"].pop(), "field 'columns' must list the board's 6 columns"),
    (lambda d: d["rows"].reverse(), 'row 1: rows must be listed in order with "row": 1'),
    (lambda d: d.update(tie_penalty={"value": 1}), "tie_penalty: field 'source' must be"),
    (lambda d: d["columns"][0].update(reason=""), "column A: a decision needs a 'reason'"),
    (lambda d: d["tiles"].update(value=0), "tiles: field 'value' must be a whole number"),
    (lambda d: d.update(format="x"), "field 'format' must be \"shogun-tower-chambers/1\""),
]


@pytest.mark.parametrize("change,message", BAD_BOARDS)
def test_x4_8_a_wrong_board_file_is_refused_in_one_line(change, message: str) -> None:
    doc = copy.deepcopy(packaged("chambers.json"))
    change(doc)
    with pytest.raises(DataError) as err:
        Game.create(4, expansions=["chambers"], expansion_data={"chambers": doc})
    assert message in str(err.value) and "\n" not in str(err.value)


def test_x4_8_a_corrected_board_file_is_played_and_embedded(tmp_path) -> None:
    path = tmp_path / "board.json"
    path.write_text("{ not json")
    with pytest.raises(DataError, match="board.json: not valid JSON"):
        chambers.load_data(path)
    fixed = copy.deepcopy(packaged("chambers.json"))
    fixed["rows"][0]["vp"] = 4  # a player with the real board corrects row 1
    fixed["rows"][0]["source"] = "seed"
    path.write_text(json.dumps(fixed))
    g = Game.create(4, expansions=["chambers"], expansion_data={"chambers": str(path)})
    s = State.new(g)
    assert chambers.board(s).rows == (4, 2, 1, 1, 2, 3)
    assert Game.from_json(g.to_json()).expansion_data == g.expansion_data == {"chambers": fixed}


# ---- properties of the end scoring (rule X4.7) ---------------------------------------------------
OWNERS = ["black", "red", "yellow", "purple", chambers.NEUTRAL, None]


@given(strategies.lists(strategies.sampled_from(OWNERS), min_size=36, max_size=36),
       strategies.integers(0, 35), strategies.sampled_from(["black", "red", "yellow", "purple"]))
@settings(max_examples=300, deadline=None)
def test_x4_7_a_marker_more_never_costs_its_player_points(spaces: list, at: int,
                                                          p: str) -> None:
    s = State.new(Game.create(4, expansions=["chambers"]))
    tiles = chambers.board(s).tiles
    held = {t: o for t, o in zip(tiles, spaces, strict=True) if o is not None}
    before = chambers.points(s, held)
    after = chambers.points(s, dict(held, **{tiles[at]: p}))
    assert after[p] >= before[p]
    b = chambers.board(s)
    assert sum(before.values()) <= len(s.game.players) * (sum(b.rows) + sum(b.columns))
    for line in chambers.line_scores(s, held):
        players = [o for o in line["leaders"] if o != chambers.NEUTRAL]
        alone = len(line["leaders"]) == 1
        assert line["scores"] == {o: line["vp"] - (0 if alone else 1) for o in players}
