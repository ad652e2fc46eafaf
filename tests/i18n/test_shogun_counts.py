"""A count and its noun in the players' language: the noun takes the form the count gives it
in the catalogue's plural rule ("1 château", "2 temples"; Japanese has one form), on the board
page (the supply line, the court's favour pile), in the narration of the Samurai cards and in
the demo's one-line report. Each is read where a person reads it."""

from __future__ import annotations

import io
import pathlib

import pytest
from web import seen

from i18n.test_shogun_languages import last_season
from shogun_tower.games.shogun.rules.expansions.samurai import NARRATION
from shogun_tower.games.shogun.view import Chronicle
from shogun_tower.table.console import Console
from shogun_tower.table.report import SeasonReport


@pytest.mark.parametrize(("speaking", "supply", "pile"), [
    ("fr", "Réserve : 1 château, 2 temples, 1 théâtre Nô, 1 fermier",
     "cartes Faveur : 17 dans la pioche, 1 partie"),
    ("ja", "ストック：城1、寺院2、劇場1、農民1", "恩恵カード：山札に17、使用済み1"),
], indirect=["speaking"])
def test_the_board_page_counts_in_the_language(browser, board, tmp_path: pathlib.Path,
                                               speaking: str, supply: str, pile: str) -> None:
    view = Chronicle().view(last_season(tmp_path / "game.jsonl").state)
    view["supplies"].update(castle=1, temple=2, theatre=1, farmers=1)
    view["expansions"]["court"].update(pile=17, gone=1)
    board.publish(view)
    with seen.page_at(browser, 1280) as page:
        seen.open_board(page, board, 1)
        assert page.text_content("#supplies") == supply
        assert page.text_content("#court-pile") == pile


@pytest.mark.parametrize(("speaking", "said"), [
    ("fr", "rouge a des provinces dans 1 région : la carte Samouraï reste"),
    ("en", "red holds 1 region: the Samurai card stays"),
], indirect=["speaking"])
def test_the_samurai_card_is_told_with_the_count(speaking: str, said: str) -> None:
    assert NARRATION["samurai_stays"]({"player": "red", "regions": 1}) == said
    assert "2 régions" in NARRATION["samurai_card"]({"player": "red", "regions": 2}) \
        or speaking == "en"


@pytest.mark.parametrize(("speaking", "line"), [
    ("fr", "1 coffre 1 province"), ("en", "1 coin 1 province"),
], indirect=["speaking"])
def test_the_one_line_report_counts_in_the_language(tmp_path: pathlib.Path, speaking: str,
                                                    line: str) -> None:
    state = last_season(tmp_path / "game.jsonl").state
    poorest = state.game.players[0]
    state.coins[poorest] = 1
    for province in [x for x, o in state.owner.items() if o == poorest][1:]:
        state.owner[province] = None
    shown = io.StringIO()
    SeasonReport(Console(out=shown), one_line=True).report(state, "x")
    assert line in shown.getvalue(), shown.getvalue()
