"""The ESP32 port's contract (firmware/port/esp32-<release>.json): what firmware/port/
derive_contract.py derives from MicroPython's own source at that release, and what the facts it
must hold say. The fakes follow it: tests/firmware/mpy_test_port_fakes.py (on MicroPython)."""

from __future__ import annotations

import json
import os
import pathlib
import subprocess
import sys

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
PORT = ROOT / "firmware" / "port"
RELEASE = "v1.28.0"
CONTRACT = PORT / f"esp32-{RELEASE}.json"

sys.path.insert(0, str(PORT))
import derive_contract  # noqa: E402

sys.path.remove(str(PORT))


def _source() -> derive_contract.Source:
    """The MicroPython source at the release: MICROPYTHON_MIRROR, a git directory (bare or
    not) holding the release's tag, or a checkout of that release."""
    where = os.environ.get("MICROPYTHON_MIRROR")
    if not where:
        pytest.skip("no MicroPython source to derive from (set MICROPYTHON_MIRROR)")
    path = pathlib.Path(where)
    git_dir = path / ".git" if (path / ".git").exists() else path
    tagged = subprocess.run(["git", "--git-dir", str(git_dir), "rev-parse", "--verify", "-q",
                             f"{RELEASE}^{{commit}}"], capture_output=True, text=True)
    if tagged.returncode == 0:
        return derive_contract.Source(git_dir=git_dir, tag=RELEASE)
    pytest.skip(f"MICROPYTHON_MIRROR ({where}) has no tag {RELEASE}")


def test_the_committed_contract_is_what_the_release_source_gives() -> None:
    contract, flags = derive_contract.derive(_source(), RELEASE)
    assert flags == [], flags
    assert derive_contract.render(contract) == CONTRACT.read_text(), (
        "firmware/port/esp32-v1.28.0.json is not what the source gives: run "
        "`python firmware/port/derive_contract.py --git-dir DIR --tag v1.28.0`")


@pytest.fixture(scope="module")
def contract() -> dict:
    return json.loads(CONTRACT.read_text())


def test_it_names_its_release_and_flags_nothing(contract: dict) -> None:
    assert contract["release"] == RELEASE and contract["flags"] == []
    assert len(contract["commit"]) == 40
    assert contract["error_reporting"] == "NORMAL"


def test_it_holds_what_stopped_the_tower(contract: dict) -> None:
    classes = contract["machine"]["classes"]
    pin = classes["Pin"]
    assert [a["name"] for a in pin["methods"]["irq"]["args"]] == ["handler", "trigger", "wake"]
    assert pin["rules"]["irq"] == "scheduled"
    assert classes["Timer"]["rules"] == {"callback": "scheduled", "ids": [0, 1, 2, 3],
                                         "hard_message": "hard Timers are not implemented",
                                         "id_message": "invalid Timer number"}
    assert pin["rules"]["invalid_message"] == "invalid pin" and -1 not in pin["rules"]["valid"]
    assert classes["UART"]["rules"]["default_pins"]["1"] == {"rx": 9, "tx": 10}
    assert contract["scheduler"]["depth"] == 8 and contract["scheduler"]["full"] == "dropped"
    assert contract["arg_errors"]["extra_keyword"] == "extra keyword arguments given"


def test_the_pins_are_the_esp32s(contract: dict) -> None:
    rules = contract["machine"]["classes"]["Pin"]["rules"]
    assert rules["valid"] == [*range(0, 24), 25, 26, 27, *range(32, 40)]
    assert rules["input_only_from"] == 34


def test_the_script_flags_a_rule_the_source_no_longer_holds(tmp_path: pathlib.Path) -> None:
    # A release whose Timer takes hard=True: the anchored rule no longer matches, and says so.
    class Changed(derive_contract.Source):
        def __init__(self, inner: derive_contract.Source):
            super().__init__(inner.checkout, inner.git_dir, inner.tag)

        def read(self, path: str) -> str:
            text = super().read(path)
            if path == "ports/esp32/machine_timer.c":
                text = text.replace("if (args[ARG_hard].u_bool) {", "if (0) {")
            return text

    contract, flags = derive_contract.derive(Changed(_source()), RELEASE)
    assert any(f.startswith("Timer hard: ports/esp32/machine_timer.c") for f in flags), flags
    assert "flagged" in contract["machine"]["classes"]["Timer"]["rules"]
