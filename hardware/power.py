"""The power budget: what every part draws on the 5 V side, the LED strip's current model (the
firmware's, score_track.py), the worst case on USB before and after the host configures the
track, and the same figures measured on the simulated board.

`python hardware/power.py` prints the table that hardware/README.md shows;
`python hardware/power.py --measure` also runs the simulated board (the firmware on the
MicroPython unix port) through the host's own game loop, reads its LED frame back with
led_read and sums it with the current model below.
"""

from __future__ import annotations

import re
import sys
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SCORE_TRACK = ROOT / "firmware" / "shogun_fw" / "score_track.py"

USB2_MA = 500
STRIP_BUDGET_MA = 370      # firmware DEFAULT_BUDGET_MA (score_track.py), and what the host sends
VP_LEDS = 81               # spaces 0-80
RICE_LEDS = 19             # rice 0-18, chained after the VP LEDs
LED_IDLE_MA = 1.0          # each WS2812B draws about 1 mA even when dark
LED_CHANNEL_MA = 20.0      # per colour channel at full duty; 60 mA full white

LOADS_MA = {  # everything but the strip, powered from USB through the DevKitC
    "ESP32-DevKitC, Wi-Fi off (50-80 mA; 240 mA peaks with Wi-Fi on)": 80.0,
    "2 IR emitters at 3.3 V through 1 kohm (~1.7 mA each; 10 mA without)": 3.5,
    "2 IR receivers (open collector, pull-up current)": 1.0,
    "TCS34725 (0.3 mA) + its white LED (~20 mA)": 20.3,
    "I2C pull-ups, both lines low (2 x 3.3 V / 1.8 kohm)": 3.7,
    "74AHCT125 (3.3 V input on a 5 V part: ~1.5 mA)": 1.5,
    "R_PD 10 kohm while the strip's data line is high": 0.3,
}


def strip_ma(frame: bytes, leds_present: int) -> float:
    """The firmware's current model applied to a frame: 20 mA per channel at full duty, and
    1 mA idle for every LED on the strip, lit or not, told to the firmware or not."""
    return sum(frame) * LED_CHANNEL_MA / 255 + LED_IDLE_MA * leds_present


def firmware_model() -> dict[str, float]:
    """The current model's constants as score_track.py's limiter uses them: mA per channel at
    full duty and idle mA per LED (integer const()s), and the default budget."""
    src = SCORE_TRACK.read_text()
    out = {}
    for key, name in (("channel_ma", "_CH_MA"), ("idle_ma", "_IDLE_MA")):
        m = re.search(rf"^{name}\s*=\s*const\((\d+)\)", src, re.M)
        out[key] = float(m.group(1)) if m else float("nan")
    m = re.search(r"DEFAULT_BUDGET_MA\s*=\s*const\((\d+)\)", src)
    out["DEFAULT_BUDGET_MA"] = float(m.group(1)) if m else float("nan")
    return out


@dataclass(frozen=True)
class Budget:
    """The strip as built (``present`` LEDs) and as the firmware is told (``configured``)."""

    present: int = VP_LEDS + RICE_LEDS
    configured: int = VP_LEDS + RICE_LEDS
    budget_ma: float = STRIP_BUDGET_MA

    def strip_worst_ma(self) -> float:
        # The limiter holds (lit + idle of the configured LEDs) at the budget; LEDs it was not
        # told about draw their idle current on top.
        return self.budget_ma + LED_IDLE_MA * max(0, self.present - self.configured)

    def worst_ma(self) -> float:
        return sum(LOADS_MA.values()) + self.strip_worst_ma()


def power_rows() -> list[tuple[str, str]]:
    n = VP_LEDS + RICE_LEDS
    rest = sum(LOADS_MA.values())
    told = Budget()
    untold = Budget(configured=VP_LEDS)
    room = USB2_MA - rest - n * LED_IDLE_MA
    rows = [(k, f"{v:g} mA") for k, v in LOADS_MA.items()]
    rows += [
        ("ESP32 + sensors", f"{rest:.0f} mA"),
        (f"strip idle ({n} LEDs x {LED_IDLE_MA:.0f} mA, dark)", f"{n * LED_IDLE_MA:.0f} mA"),
        ("strip at the firmware budget (idle included)", f"{STRIP_BUDGET_MA} mA"),
        (f"worst case on USB, host sends track_config ({n} LEDs counted)",
         f"{told.worst_ma():.0f} mA (USB 2.0 gives {USB2_MA} mA)"),
        (f"worst case on USB without track_config ({VP_LEDS} of {n} LEDs counted)",
         f"{untold.worst_ma():.0f} mA"),
        ("largest strip budget that fits USB 2.0", f"{USB2_MA - rest:.0f} mA"),
        ("lit LEDs within that, full white (60 mA each)",
         f"{room / (3 * LED_CHANNEL_MA):.1f} LEDs"),
        ("lit LEDs within that, one channel full (red, 20 mA)",
         f"{room / LED_CHANNEL_MA:.1f} LEDs"),
        (f"all {n} LEDs full white (never asked for)", f"{n * 3 * LED_CHANNEL_MA / 1000:.1f} A"),
    ]
    return rows


def table(rows: list[tuple[str, str]], head: tuple[str, str]) -> str:
    lines = [f"| {head[0]} | {head[1]} |", "| --- | --- |"]
    lines += [f"| {a} | {b} |" for a, b in rows]
    return "\n".join(lines)


def power_table() -> str:
    return table(power_rows(), ("power (5 V side)", "current"))


# ---- measured on the simulated board ------------------------------------------------------------

@dataclass
class SimMeasurement:
    scores_ma: float            # the game's first frame: ticks, five players, rice markers
    battle_ma: float            # the heaviest frame of a battle animation in black (dim white)
    untold_battle_ma: float     # the same animation on a board the host never configured
    leds_in_frame: int
    untold_leds_in_frame: int
    rice_lit: int               # rice LEDs lit in the game's first frame

    def rows(self) -> list[tuple[str, str]]:
        n = VP_LEDS + RICE_LEDS
        rest = sum(LOADS_MA.values())
        return [
            ("frame LEDs after the game's track_config / without it",
             f"{self.leds_in_frame} / {self.untold_leds_in_frame}"),
            ("rice LEDs lit by the game's first scores", f"{self.rice_lit}"),
            (f"strip, the game's first scores ({n} LEDs present)", f"{self.scores_ma:.0f} mA"),
            ("strip, battle animation in black, limiter at work", f"{self.battle_ma:.0f} mA"),
            ("the same without track_config", f"{self.untold_battle_ma:.0f} mA"),
            ("USB worst case measured (ESP32 + sensors + battle frame)",
             f"{rest + self.battle_ma:.0f} mA; without track_config "
             f"{rest + self.untold_battle_ma:.0f} mA"),
        ]


def _heaviest_frame(link, seconds: float = 2.0) -> bytes:  # noqa: ANN001 - a DeviceLink
    import time

    best = b""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        frame = link.read_led_frame()
        if sum(frame) > sum(best):
            best = frame
        time.sleep(0.03)
    return best


def measure_on_sim(seed: int = 1) -> SimMeasurement:
    """Run the firmware on the unix port; configure the track as the game does (TableGame.sync,
    which sends track_config before the first scores), read frames back with led_read."""
    import io

    from shogun_tower.device.link import DeviceLink
    from shogun_tower.device.tower import DeviceTower
    from shogun_tower.games.shogun.journal import Journal
    from shogun_tower.games.shogun.rules import Game
    from shogun_tower.sim_device import SimulatedTower
    from shogun_tower.table.conductor import TableGame
    from shogun_tower.table.console import Console
    from shogun_tower.table.seats import BotSeat

    n = VP_LEDS + RICE_LEDS
    with SimulatedTower(seed=seed) as sim:
        link = DeviceLink(sim.port)
        try:
            link.handshake()
            # a board the host never configured: the firmware's boot layout (81 LEDs)
            link.push_scores([("red", 3, 2), ("blue", 7, 5)])
            link.animate_battle("black")
            untold = _heaviest_frame(link)
            game = Game.create(5, seed=seed)
            seats = {p: BotSeat("heuristic", i) for i, p in enumerate(game.players)}
            tg = TableGame(Journal.new(game), seats, DeviceTower(link), Console(out=io.StringIO()),
                           link=link)
            tg.sync()
            first = link.read_led_frame()
            link.animate_battle("black")
            battle = _heaviest_frame(link)
        finally:
            link.close()
    rice = first[3 * VP_LEDS:]
    return SimMeasurement(
        scores_ma=strip_ma(first, n), battle_ma=strip_ma(battle, n),
        untold_battle_ma=strip_ma(untold, n), leds_in_frame=len(first) // 3,
        untold_leds_in_frame=len(untold) // 3,
        rice_lit=sum(1 for i in range(len(rice) // 3) if any(rice[3 * i:3 * i + 3])))


def measured_table(m: SimMeasurement) -> str:
    return table(m.rows(), ("measured on the simulated board (led_read)", "value"))


def main(argv: list[str]) -> int:
    print(power_table())
    if "--measure" in argv:
        print()
        print(measured_table(measure_on_sim()))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
