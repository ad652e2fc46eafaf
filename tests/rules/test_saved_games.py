"""Saved games keep working: journals written before issue 16 load and replay to the state they
recorded (fixtures in tests/rules/fixtures, see its README)."""

from __future__ import annotations

import json
import pathlib

import pytest

from shogun_tower.rules.journal import Journal

FIXTURES = pathlib.Path(__file__).parent / "fixtures"
V1 = sorted(p.stem for p in FIXTURES.glob("v1_*.jsonl"))


def test_the_fixtures_are_there() -> None:
    assert len(V1) == 5


@pytest.mark.parametrize("name", V1)
def test_a_v1_journal_replays_to_its_recorded_final_state(name: str) -> None:
    j = Journal.load(FIXTURES / f"{name}.jsonl")
    expected = json.loads((FIXTURES / f"{name}.final.json").read_text())
    got = j.state.to_json()
    assert {k: got[k] for k in expected} == expected
