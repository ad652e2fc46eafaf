"""The power budget: what every part draws on the 5 V side, the LED strip's current model (the
firmware's, score_track.py), the worst case on USB before and after the host configures the
track, and the same figures measured on the simulated board.

`python hardware/power.py` prints the table that hardware/README.md shows;
`python hardware/power.py --measure` also runs the simulated board (the firmware on the
MicroPython unix port) through the host's own game loop, reads its LED frame back with
led_read and sums it with the current model below. The firmware's budget per power source and
the supply's hand-over time are generated from here into score_track.py (`--write`; `--check`
exits 1 when they are stale).
"""

from __future__ import annotations

import math
import re
import sys
from dataclasses import dataclass
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
if str(HERE) not in sys.path:
    sys.path.insert(0, str(HERE))
SCORE_TRACK = ROOT / "firmware" / "shogun_fw" / "score_track.py"

USB2_MA = 500
STRIP_BUDGET_MA = 370      # the strip's budget on USB (score_track.py's, generated below)
PSU_MA = 3000              # Mean Well GST18E05-P1J: 5 V, 3 A
PSU_DERATE = 0.8           # run the supply at 80 % of its rating at most
PSU_STRIP_BUDGET_MA = round(PSU_MA * PSU_DERATE)  # the strip alone is on the supply
SENSE_GPIO = 34            # hardware/pinmap.py PLANNED_PINS["power_sense"]
VBUS_V = (4.75, 5.25)      # USB 2.0 VBUS at the device
PSU_V = 5.0
D_PSU_V = 0.5              # 1N5822 forward drop at 2-3 A (its datasheet's curve, about 0.45-0.5 V)
AHCT_VCC_MIN = 4.5         # 74AHCT125's supply range 4.5-5.5 V
LED_CAP_UF = 0.1           # the 100 nF beside each WS2812B on the strip
# NDP6020P (onsemi datasheet): gate threshold 0.4-1.0 V, input capacitance about 1.2 nF; the
# plateau while it ramps the strip up is an estimate (its gate-charge curve at low current)
Q_SS_VTH_MIN = 0.4
Q_SS_CISS_UF = 0.0012
Q_SS_PLATEAU_V = (1.0, 2.0)
USB_INRUSH_UC = 10.0 * 5.0  # USB 2.0: 10 uF at 5 V, the most a device may charge at attach
USB_INRUSH_MA = 100.0       # the soft start keeps the strip rail's charging current below this
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
    full duty and idle mA per LED (integer const()s), and the budget per power source."""
    src = SCORE_TRACK.read_text()
    out = {}
    for key, name in (("channel_ma", "_CH_MA"), ("idle_ma", "_IDLE_MA"),
                      ("usb_budget_ma", "_USB_BUDGET_MA"),
                      ("supply_budget_ma", "_SUPPLY_BUDGET_MA")):
        m = re.search(rf"^{name}\s*=\s*const\((\d+)\)", src, re.M)
        out[key] = float(m.group(1)) if m else float("nan")
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


# What the board learns of the power source (the firmware side reads GPIO34 and sets its strip
# budget; hardware/pinmap.py checks the divider's wiring, soft_start() the hand-over time).
SOURCE_SENSE = (f"GPIO{SENSE_GPIO} high: the 5 V supply is plugged in and feeds the strip, budget "
                f"{PSU_STRIP_BUDGET_MA} mA (raised once GPIO{SENSE_GPIO} has stayed high for "
                "the hand-over time in the power source table); low: USB feeds the strip, budget "
                f"{STRIP_BUDGET_MA} mA (lowered at once, on the pin's falling edge)")


@dataclass(frozen=True)
class SoftStart:
    """Q_SS between USB and the strip rail, from wiring.yml's parts (ohm, uF)."""

    r_g: float       # gate to the supply's 5 V (pulled to GND through the sense divider)
    r_gs: float      # gate to source
    r_sense: float   # the sense divider, the supply unplugged: R_G's path to GND
    c_gs: float
    c_gd: float
    c_rail: float    # on the strip rail: C_BULK and the strip's own

    def hold_v(self, vbus: float) -> float:
        """|Vgs| the instant USB is plugged in: C_GS holds the gate near the source."""
        c = self.c_gs + self.c_gd + Q_SS_CISS_UF
        return vbus * (self.c_gd + Q_SS_CISS_UF) / c

    def on_v(self, vbus: float) -> float:
        """|Vgs| once on, the supply unplugged."""
        return vbus * self.r_gs / (self.r_gs + self.r_g + self.r_sense)

    def ramp_v_per_s(self, vbus: float, plateau: float) -> float:
        """The strip rail's rise while Q_SS sits on its plateau: the gate current through C_GD."""
        i = (vbus - plateau) / (self.r_g + self.r_sense) - plateau / self.r_gs
        return i / (self.c_gd * 1e-6)

    def inrush_ma(self, vbus: float, plateau: float) -> float:
        return self.c_rail * 1e-6 * self.ramp_v_per_s(vbus, plateau) * 1000

    def handover_s(self, vbus: float) -> float:
        """From plugging the supply in until Q_SS lets go of USB (|Vgs| below its lowest
        threshold): R_G pulls the gate to the supply's 5 V."""
        tau = self.r_g * self.r_gs / (self.r_g + self.r_gs) * (self.c_gs + self.c_gd) * 1e-6
        return tau * math.log(self.on_v(vbus) / Q_SS_VTH_MIN)

    def handback_s(self, vbus: float) -> float:
        """From pulling the supply out until Q_SS begins to conduct (|Vgs| up to its lowest
        threshold), at the earliest: the jack fallen to 0 V at once (a heavy strip drains C_PSU
        in milliseconds), the gate following it through R_G. The firmware must have lowered
        the strip by then: USB then carries it."""
        tau = self.r_g * self.r_gs / (self.r_g + self.r_gs) * (self.c_gs + self.c_gd) * 1e-6
        on = self.on_v(vbus)
        return tau * math.log(on / (on - Q_SS_VTH_MIN))


def soft_start() -> SoftStart:
    import pinmap  # wiring.yml (PyYAML comes with wireviz: `make -C hardware tools`)

    w = pinmap.load_wiring()
    leds = VP_LEDS + RICE_LEDS
    return SoftStart(r_g=w.ohms["R_G"], r_gs=w.ohms["R_GS"],
                     r_sense=w.ohms["R_SNS_HI"] + w.ohms["R_SNS_LO"],
                     c_gs=w.microfarads["C_GS"], c_gd=w.microfarads["C_GD"],
                     c_rail=w.microfarads["C_BULK"] + leds * LED_CAP_UF)


def source_rows(ss: SoftStart | None = None) -> list[tuple[str, str]]:
    """The strip's budget for each power source, how the board tells them apart, and the
    soft start that keeps USB's inrush limit."""
    ss = ss or soft_start()
    import pinmap

    w = pinmap.load_wiring()
    hi, lo = w.ohms["R_SNS_HI"], w.ohms["R_SNS_LO"]
    sense = PSU_V * lo / (hi + lo)
    lo_v, hi_v = VBUS_V
    ramp = [ss.ramp_v_per_s(v, p) for v in VBUS_V for p in Q_SS_PLATEAU_V]
    inrush = [ss.inrush_ma(v, p) for v in VBUS_V for p in Q_SS_PLATEAU_V]
    hub_uc = w.microfarads["C_HUB"] + w.microfarads["C_HUB_HF"]
    return [
        ("strip on USB (no supply plugged in): budget", f"{STRIP_BUDGET_MA} mA"),
        (f"strip on the supply ({PSU_MA / 1000:g} A, run at {100 * PSU_DERATE:.0f} %): budget",
         f"{PSU_STRIP_BUDGET_MA} mA; USB then carries the ESP32 and sensors, "
         f"{sum(LOADS_MA.values()):.0f} mA"),
        (f"GPIO{SENSE_GPIO} with the supply plugged in ({PSU_V:g} V, 10k/15k divider)",
         f"{sense:.2f} V (reads high above 2.48 V: supplies from "
         f"{2.475 * (hi + lo) / lo:.2f} V; at most 3.6 V: up to {3.6 * (hi + lo) / lo:.1f} V)"),
        ("strip rail on the supply (through D_PSU at full load)",
         f"{PSU_V - D_PSU_V:.2f} V (74AHCT125 needs {AHCT_VCC_MIN:g} V)"),
        ("capacitance straight across VBUS (USB allows 10 uF)",
         f"{pinmap.usb_capacitance_uf(w):g} uF, plus the DevKitC's own"),
        ("Q_SS at the instant USB is plugged in: gate-source voltage",
         f"{ss.hold_v(hi_v):.2f} V (off: threshold {Q_SS_VTH_MIN:g} V or more)"),
        ("Q_SS on (no supply): gate-source voltage", f"{ss.on_v(lo_v):.2f}-{ss.on_v(hi_v):.2f} V"),
        (f"strip rail ramp on USB ({ss.c_rail:g} uF: C_BULK and the strip's own)",
         f"{min(ramp):.0f}-{max(ramp):.0f} V/s, {1000 * hi_v / max(ramp):.0f}-"
         f"{1000 * hi_v / min(ramp):.0f} ms to 5 V"),
        ("USB inrush into the strip rail (limit: the strip's idle current aside)",
         f"{min(inrush):.0f}-{max(inrush):.0f} mA (below {USB_INRUSH_MA:g} mA)"),
        ("collar hub decoupling charged through the DevKitC's regulator at attach",
         f"{hub_uc * 3.3:.0f} uC (USB's 10 uF at 5 V: {USB_INRUSH_UC:g} uC)"),
        ("hand-over after the supply is plugged in (Q_SS lets go of USB)",
         f"{ss.handover_s(hi_v):.1f} s at most: the firmware raises the budget after it"),
        ("supply pulled out: Q_SS begins to hand the strip back to USB",
         f"{1000 * min(ss.handback_s(v) for v in VBUS_V):.0f} ms at the earliest (the jack "
         f"fallen at once): the firmware lowers the strip on GPIO{SENSE_GPIO}'s falling edge"),
        (f"GPIO{SENSE_GPIO} as the jack falls (ESP32: low below 0.25 VDD, high above 0.75 VDD)",
         f"low below {0.825 * (hi + lo) / lo:.2f} V at the jack, high above "
         f"{2.475 * (hi + lo) / lo:.2f} V, either between"),
    ]


# ---- the firmware's constants ------------------------------------------------------------------
FIRMWARE_BEGIN = ("# ---- power: generated by hardware/power.py from its budget and wiring.yml, "
                  "do not edit")
FIRMWARE_END = "# ---- end of power"


def firmware_constants(ss: SoftStart | None = None) -> dict[str, int]:
    """What score_track.py's budget follows: the strip's budget on USB and on the supply, and
    the hand-over (the slowest, at the highest VBUS, rounded up to 10 ms) after which the
    supply, not USB, feeds the strip."""
    ss = ss or soft_start()
    handover = max(ss.handover_s(v) for v in VBUS_V)
    return {"USB_BUDGET_MA": STRIP_BUDGET_MA, "SUPPLY_BUDGET_MA": PSU_STRIP_BUDGET_MA,
            "HANDOVER_MS": 10 * math.ceil(handover * 100)}


def firmware_block(ss: SoftStart | None = None) -> str:
    """The generated block of score_track.py: private const()s (inlined by the compiler: no
    RAM of the 64K heap)."""
    lines = [f"_{k} = const({v})" for k, v in firmware_constants(ss).items()]
    return "\n".join([FIRMWARE_BEGIN, *lines, FIRMWARE_END])


def splice_firmware(text: str, block: str) -> str:
    try:
        a = text.index(FIRMWARE_BEGIN)
        b = text.index(FIRMWARE_END, a) + len(FIRMWARE_END)
    except ValueError:
        raise SystemExit(f"{SCORE_TRACK}: no generated power block ({FIRMWARE_BEGIN!r} ... "
                         f"{FIRMWARE_END!r}); put the two marker lines back") from None
    return text[:a] + block + text[b:]


def firmware_stale(ss: SoftStart | None = None) -> bool:
    text = SCORE_TRACK.read_text()
    return splice_firmware(text, firmware_block(ss)) != text


def source_problems(ss: SoftStart | None = None) -> list[str]:
    ss = ss or soft_start()
    out = []
    if ss.hold_v(VBUS_V[1]) >= Q_SS_VTH_MIN:
        out.append("C_GS does not hold Q_SS off at the instant USB is plugged in")
    if ss.on_v(VBUS_V[0]) < 4.0:
        out.append("Q_SS's gate drive on USB is below 4 V: it may not switch fully on")
    worst = max(ss.inrush_ma(v, p) for v in VBUS_V for p in Q_SS_PLATEAU_V)
    if worst > USB_INRUSH_MA:
        out.append(f"the strip rail's inrush on USB reaches {worst:.0f} mA, above "
                   f"{USB_INRUSH_MA:g} mA: raise C_GD or R_G")
    if PSU_V - D_PSU_V < AHCT_VCC_MIN:
        out.append("the strip rail on the supply falls below the 74AHCT125's 4.5 V")
    if firmware_stale(ss):
        out.append("score_track.py's budgets or hand-over time are stale: run "
                   "python hardware/power.py --write")
    return out


def source_table() -> str:
    return table(source_rows(), ("power source (the board learns it on GPIO34)", "value"))


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
            # (players sharing a space take turns every 500 ms: the heaviest frame of a turn
            # and the next, not whichever the read met)
            first = _heaviest_frame(link, 1.2)
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
    if "--write" in argv:
        SCORE_TRACK.write_text(splice_firmware(SCORE_TRACK.read_text(), firmware_block()))
        print(f"wrote the power block of {SCORE_TRACK.relative_to(ROOT)}")
        return 0
    if "--check" in argv:
        stale = firmware_stale()
        state = "STALE: python hardware/power.py --write" if stale else "up to date"
        print(table([(f"_{k}", str(v)) for k, v in firmware_constants().items()] +
                    [("state", state)],
                    ("generated from power.py and wiring.yml", "score_track.py")))
        return 1 if stale else 0
    print(power_table())
    print()
    print(source_table())
    print()
    print(SOURCE_SENSE)
    bad = source_problems()
    for p in bad:
        print("PROBLEM:", p)
    if bad:
        return 1
    if "--measure" in argv:
        print()
        print(measured_table(measure_on_sim()))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
