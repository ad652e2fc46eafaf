"""The referee and replay subcommands, through the real CLI entry point."""

from __future__ import annotations

import json

from shogun_tower.cli import main
from shogun_tower.games.shogun.bots import HeuristicBot
from shogun_tower.games.shogun.journal import Journal
from shogun_tower.games.shogun.rules import Game
from shogun_tower.games.shogun.runner import play_game


def test_referee_battle_kozuke_json(capsys):
    rc = main(["referee", "battle", "--attacker", "blue", "--armies", "4", "--origin-armies",
               "5", "--defender", "yellow", "--defender-armies", "3",
               "--tray", "blue=3,yellow=1,red=1,green=1", "--json"])
    out = json.loads(capsys.readouterr().out)
    assert rc == 0 and out["outcome"] == "attacker" and out["armies_into_province"] == 1
    assert out["stays_in_tray"] == {"red": 1}


def test_referee_refuses_attack_from_one_army_with_b7(capsys):
    rc = main(["referee", "battle", "--attacker", "blue", "--armies", "1", "--origin-armies",
               "1", "--defender", "yellow", "--defender-armies", "3"])
    err = capsys.readouterr().err
    assert rc == 2 and "rule B7" in err and err.count("\n") == 1


def test_referee_revolt_winter_score(capsys):
    assert main(["referee", "revolt", "--player", "red", "--armies", "4", "--markers", "2",
                 "--tray", "red=3,green=1", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["armies_into_province"] == 2
    assert main(["referee", "winter", "--provinces", "9", "--rice", "6", "--loss", "0",
                 "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["revolts"] == 2
    assert main(["referee", "score", "--province", "Omi=black:castle+temple",
                 "--province", "Owari=red:castle", "--json"]) == 0
    table = json.loads(capsys.readouterr().out)
    assert table["black"]["total"] == 1 + 2 + 2 + 2 and table["red"]["total"] == 1 + 1 + 2


def test_replay_prints_final_state(tmp_path, capsys):
    game = Game.create(3, seed=4)
    record: list[dict] = []
    final = play_game(game, {p: HeuristicBot(1) for p in game.players}, 4, record=record)
    j = Journal.new(game, tmp_path / "g.jsonl")
    for c in record:
        j.apply(c)
    assert main(["replay", str(tmp_path / "g.jsonl"), "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == json.loads(json.dumps(final.to_json()))
    (tmp_path / "bad.jsonl").write_text("\n".join(j.lines[:3] + ["{"]) + "\n")
    assert main(["replay", str(tmp_path / "bad.jsonl")]) == 2
    assert "line 4" in capsys.readouterr().err


def test_an_option_naming_a_colour_or_a_figure_type_twice_is_refused(capsys):
    rc = main(["referee", "battle", "--attacker", "blue", "--armies", "2", "--tray",
               "blue=1,blue=2"])
    assert rc == 2
    assert "--tray: blue is given twice" in capsys.readouterr().err
    rc = main(["knizia-samurai", "end", "--players", "2", "--on-board",
               "helmet=1,helmet=2,buddha=0,rice=0"])
    assert rc == 2
    err = capsys.readouterr().err
    assert "helmet is given twice" in err and len(err.strip().splitlines()) == 1
    rc = main(["play", "--expansions", "court,court", "--no-page"])
    assert rc == 2
    err = capsys.readouterr().err
    assert "expansion 'court' is named twice" in err and len(err.strip().splitlines()) == 1
