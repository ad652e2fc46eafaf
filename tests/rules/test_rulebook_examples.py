"""The worked examples of the rulebooks (002_*.txt French scan, 000_* French), by name."""

from __future__ import annotations

from helpers import chance, quiet_plan, to_planning

from shogun_tower.games.shogun.rules.core.battle import battle_verdict, revolt_verdict
from shogun_tower.games.shogun.rules.core.constants import provisions
from shogun_tower.games.shogun.rules.core.scoring import ranking, score


def _collected(events, player, what):
    return [e["amount"] for e in events if e["event"] == "collected" and e["player"] == player
            and e["what"] == what]


def test_settsu_tax_with_event_cap_and_special_card():
    # 002 p.6: "Arne perçoit l'impôt dans la province de Settsu (7) ... l'événement limite à 5
    # ... carte spéciale +1 coffre ... soit un total de 6" (rules A5, E5, P1)
    s = to_planning(4, order=["tax", "rice", "castle", "temple", "theatre"],
                    specials=["P1", "P2", "P3", "P4", "P5"])
    assert s.owner["Settsu"] == "black" and s.map.provinces["Settsu"].tax == 7
    for p in s.game.players:
        s.apply(quiet_plan(s, p, bid=4 if p == "black" else 0,
                           **({"tax": "Settsu"} if p == "black" else {})))
    chance(s, "event", "E5")  # rule E5: tax at most 5
    chance(s, "bid_tie", ["red", "yellow", "purple"])
    events = s.apply({"type": "special", "player": "black", "position": 1})  # P1: +1 coin
    for p, pos in (("red", 2), ("yellow", 3)):
        events += s.apply({"type": "special", "player": p, "position": pos})
    events += s.apply({"type": "special", "player": "purple", "position": 4})
    assert _collected(events, "black", "tax") == [6]
    assert s.markers["Settsu"] == 1  # rule V4: a quiet collection adds a revolt marker


def test_winter_nine_provinces_six_rice():
    # 002 p.10: "Dirk contrôle 9 provinces mais n'a que 6 unités de riz ... 3 provinces non
    # approvisionnées ... des révoltes vont éclater dans 2 de ses provinces ... 2 villageois
    # supplémentaires" (rule W2)
    assert provisions(9 - 6) == (2, 2)
    assert provisions(2) == (1, 2)
    assert provisions(1) == (1, 1) and provisions(5) == (2, 3) and provisions(7) == (3, 3)
    assert provisions(0) == (0, 0)


def test_winter_nine_provinces_six_rice_in_the_engine():
    from shogun_tower.games.shogun.rules.phases import winter

    s = to_planning(3)
    mine = [x for x, o in s.owner.items() if o == "black"]
    assert len(mine) == 9
    s.rice = {"black": 6, "red": 18, "yellow": 18}
    s.events_up = ["E5"]  # rule W1: loss 0
    s.phase, s.season, s.step, s.winter = "winter", 3, None, None
    ev: list[dict] = []
    step = winter.next_step(s, ev)
    supply = [e for e in ev if e["event"] == "winter_supply" and e["player"] == "black"][0]
    assert (supply["shortage"], supply["revolts"], supply["extra_farmers"]) == (3, 2, 2)
    assert step["what"] == "revolt_draw" and step["count"] == 2 and step["drawer"] == "red"


def test_kai_revolt_when_two_rice_short():
    # 002 p.11: "il manque à Arne 2 unités de riz. Sa province de Kai ... 3 armées des
    # villageois (2 du tableau et une car il y a un marqueur de révolte)" (rules W2, W3, V2)
    from shogun_tower.games.shogun.rules.phases import winter

    s = to_planning(4)
    arne = s.owner["Kai"]
    owned = sum(1 for o in s.owner.values() if o == arne)
    s.rice = dict.fromkeys(s.game.players, 18)
    s.rice[arne] = owned - 2
    s.markers["Kai"] = 1
    s.events_up = ["E5"]
    s.phase, s.season, s.step, s.winter = "winter", 3, None, None
    s.advance([])
    st = s.pending()
    assert st["kind"] == "chance" and st["count"] == 1 and st["player"] == arne
    kai_armies = s.armies["Kai"]
    tray_before = dict(s.tray)
    chance(s, "revolt_draw", ["Kai"])
    st = s.pending()
    assert st["kind"] == "throw" and st["reason"] == "revolt"
    assert st["into_tower"]["green"] == 3 + tray_before["green"]
    assert st["into_tower"][arne] == kai_armies + tray_before[arne]
    assert winter is not None


def test_mikawa_revolt_with_two_markers():
    # 002 p.11: "Dirk perçoit l'impôt dans la province de Mikawa. Il y a déjà deux marqueurs
    # ... Dirk jette les 4 armées ... ainsi que 2 armées des villageois ... Si Dirk remporte ce
    # combat, il gardera sa province et y placera un marqueur de révolte supplémentaire."
    s = to_planning(4, order=["tax", "rice", "castle", "temple", "theatre"])
    dirk = s.owner["Mikawa"]
    s.armies["Mikawa"] += 1  # 4 armies as in the example
    s.supply[dirk] -= 1
    s.markers["Mikawa"] = 2
    for p in s.game.players:
        s.apply(quiet_plan(s, p, **({"tax": "Mikawa"} if p == dirk else {})))
    chance(s, "event", "E1")
    chance(s, "bid_tie", list(s.game.players))
    events: list[dict] = []
    for i, p in enumerate(s.game.players):
        events += s.apply({"type": "special", "player": p, "position": i + 1})
        if s.pending()["kind"] == "throw":
            break
    st = s.pending()
    assert st["kind"] == "throw" and st["province"] == "Mikawa"
    assert st["into_tower"] == {dirk: 4, "green": 2}
    kinds = [e["event"] for e in events]
    assert kinds.index("collected") < kinds.index("revolt")  # rule V1: income paid first
    s.apply({"type": "tray", "counts": {dirk: 3, "green": 1}})  # Dirk wins 3 to 1
    assert s.owner["Mikawa"] == dirk and s.armies["Mikawa"] == 2  # 3 - 1 lost
    assert s.markers["Mikawa"] == 3  # rule V4: one more marker


def test_blue_attacks_yellow_in_kozuke_with_red_and_green_in_tray():
    # 002 p.11: blue moves 4 armies from Shinano into yellow's Kozuke (3 yellow armies); out
    # fall 3 blue, 1 yellow, 1 red, 1 green. No revolt marker: farmers side with yellow; blue
    # wins 3 to 2; red stays in the tray; yellow, green and two blue go back; 1 blue in Kozuke.
    v = battle_verdict("blue", "yellow", {"blue": 3, "yellow": 1, "red": 1, "green": 1},
                       farmers_fight=True)
    assert v.outcome == "attacker" and v.holder == "blue" and v.to_province == 1
    assert v.to_supply == {"blue": 2, "yellow": 1, "green": 1}
    assert "red" not in v.to_supply


def test_blue_attacks_yellow_in_kozuke_in_the_engine():
    s = to_planning(5, order=["battle_a", "rice", "castle", "temple", "theatre"])
    # 5-player fixed set-up: Kozuke (3) is red's, Shinano (4) purple's: recolour to the example
    assert (s.owner["Kozuke"], s.armies["Kozuke"]) == ("red", 3)
    s.owner["Kozuke"] = "yellow"
    s.supply["red"] += 3
    s.supply["yellow"] -= 3
    s.owner["Shinano"] = "blue"
    s.supply["purple"] += s.armies["Shinano"]
    s.armies["Shinano"] = 5
    s.supply["blue"] -= 5
    for p in s.game.players:
        s.apply(quiet_plan(s, p, **({"battle_a": "Shinano"} if p == "blue" else {})))
    chance(s, "event", "E1")
    chance(s, "bid_tie", ["blue", "black", "red", "yellow", "purple"])
    for i, p in enumerate(["blue", "black", "red", "yellow", "purple"]):
        s.apply({"type": "special", "player": p, "position": i + 1})
    st = s.pending()
    assert st["kind"] == "march" and st["player"] == "blue" and "Kozuke" in st["targets"]
    s.apply({"type": "march", "player": "blue", "to": "Kozuke", "armies": 4})
    st = s.pending()
    assert st["into_tower"] == {"blue": 4, "yellow": 3}
    s.tower["red"] += 1  # a red cube stuck from an earlier throw falls out now
    s.supply["red"] -= 1
    s.tower["green"] += 1
    s.supply["green"] -= 1
    before = dict(s.supply)
    s.apply({"type": "tray", "counts": {"blue": 3, "yellow": 1, "red": 1, "green": 1}})
    assert s.owner["Kozuke"] == "blue" and s.armies["Kozuke"] == 1
    assert s.tray == {"black": 0, "red": 1, "yellow": 0, "purple": 0, "blue": 0, "green": 0}
    assert s.supply["blue"] == before["blue"] + 2
    assert s.supply["yellow"] == before["yellow"] + 1
    assert s.supply["green"] == before["green"] + 1


def test_majorities_with_ties():
    # 000 "Score": most castles 3, temples 2, theatres 1 per region; tied: value minus 1 (W4)
    from shogun_tower.games.shogun.rules import load_map

    m = load_map("sun")
    owner = {"Omi": "black", "Owari": "red", "Mino": "red", "Hida": "yellow"}
    buildings = {"Omi": ["castle", "temple"], "Owari": ["castle"], "Mino": ["temple"],
                 "Hida": ["theatre"]}
    t = score(m, ["black", "red", "yellow"], owner, buildings)
    # castles: black 1, red 1 -> tied 2 each; temples: black 1, red 1 -> 1 each;
    # theatres: yellow alone -> 1
    assert t["black"] == {"provinces": 1, "buildings": 2, "majorities": 3, "total": 6}
    assert t["red"] == {"provinces": 2, "buildings": 2, "majorities": 3, "total": 7}
    assert t["yellow"] == {"provinces": 1, "buildings": 1, "majorities": 1, "total": 3}


def test_end_tie_break_by_coins_then_shared():
    r = ranking({"black": 30, "red": 30, "yellow": 20}, {"black": 2, "red": 5, "yellow": 9})
    assert r["winners"] == ["red"]
    r = ranking({"black": 30, "red": 30}, {"black": 5, "red": 5})
    assert sorted(r["winners"]) == ["black", "red"]


def test_turn_order_with_province_bids_and_ties():
    # 002 p.8 (rule T5): chests high to low, then province bids, then 0-chests; ties by
    # shuffled Daimyo cards; positions of the taken specials give the turn order
    s = to_planning(5)
    mine = {p: sorted(x for x, o in s.owner.items() if o == p) for p in s.game.players}
    bids = {"black": 0, "red": mine["red"][0], "yellow": 2, "purple": mine["purple"][0],
            "blue": 2}
    coins = dict(s.coins)
    for p in s.game.players:
        s.apply(quiet_plan(s, p, bid=bids[p]))
    chance(s, "event", "E1")
    st = s.pending()
    assert st["what"] == "bid_tie" and st["players"] == ["yellow", "blue"]
    chance(s, "bid_tie", ["blue", "yellow"])
    st = s.pending()
    assert st["what"] == "bid_tie" and st["players"] == ["red", "purple"]
    chance(s, "bid_tie", ["purple", "red"])
    assert s.pick_queue == ["blue", "yellow", "purple", "red", "black"]
    assert s.coins["yellow"] == coins["yellow"] - 2 and s.coins["red"] == coins["red"]
    picks = {"blue": 3, "yellow": 1, "purple": 5, "red": 2, "black": 4}
    for p in s.pick_queue:
        assert s.pending()["player"] == p
        s.apply({"type": "special", "player": p, "position": picks[p]})
        if s.phase == "actions":
            break
    assert s.turn_order == ["yellow", "red", "blue", "black", "purple"]


def test_revolt_tie_goes_to_farmers():
    v = revolt_verdict("red", {"red": 2, "green": 2})
    assert v.outcome == "farmers" and v.clear_province and v.to_supply == {"red": 2, "green": 2}
