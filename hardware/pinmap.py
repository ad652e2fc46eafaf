"""ESP32 pin capabilities, the jobs of the tower's pins, and a reader for hardware/wiring.yml.

Used by tests/hardware/test_pin_map.py to check that the firmware's pin map
(firmware/shogun_fw/boards/esp32_config.py) and the wiring agree pin for pin, and that every
pin can do its job. Run it directly for a report: `python hardware/pinmap.py`.
"""

from __future__ import annotations

import re
import runpy
import sys
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
FIRMWARE_CONFIG = ROOT / "firmware" / "shogun_fw" / "boards" / "esp32_config.py"
WIRING = ROOT / "hardware" / "wiring.yml"
ESP32 = "ESP32"  # the designator of the ESP32 board in wiring.yml


# ---- what an ESP32 (ESP32-WROOM-32 on a DevKitC) pin can do ---------------------------------

@dataclass(frozen=True)
class Gpio:
    """One ESP32 GPIO. `hazards` are reasons not to use it; each names a fact of the chip."""

    num: int
    output: bool = True    # can drive (GPIO 34-39 are input only)
    pullup: bool = True    # has an internal pull-up/pull-down (GPIO 34-39 have none)
    hazards: tuple[str, ...] = ()


def _table() -> dict[int, Gpio]:
    t: dict[int, Gpio] = {}
    # Every GPIO of the ESP32 (the chip has no 20, 24, 28-31; 37 and 38 are not on a WROOM).
    for n in [*range(0, 20), 21, 22, 23, 25, 26, 27, 32, 33, 34, 35, 36, 39]:
        t[n] = Gpio(n)
    for n in range(6, 12):
        t[n] = Gpio(n, hazards=("wired to the module's SPI flash (GPIO 6-11): using it crashes",))
    for n in (1, 3):
        t[n] = Gpio(n, hazards=("UART0 TX/RX: the USB serial link to the laptop and the REPL",))
    straps = {
        0: "strapping pin: low at reset enters the ROM bootloader (BOOT button)",
        2: "strapping pin: must be low or floating at reset to flash; on-board LED on some boards",
        5: "strapping pin (SDIO timing); outputs a PWM signal during boot",
        12: "strapping pin MTDI: high at reset selects 1.8 V flash and the board will not boot",
        15: "strapping pin MTDO: silences the boot log; outputs a PWM signal during boot",
    }
    for n, why in straps.items():
        t[n] = Gpio(n, hazards=(why,))
    for n in (34, 35, 36, 39):
        t[n] = Gpio(n, output=False, pullup=False)
    return t


# GPIO 16 and 17 drive the PSRAM on ESP32-WROVER modules; on a WROOM (the DevKitC-32E in the
# BOM, wiring.yml's ESP32 subtype) they are free.
PSRAM_PINS = {16: "PSRAM on ESP32-WROVER modules: only free on a WROOM",
              17: "PSRAM on ESP32-WROVER modules: only free on a WROOM"}


ESP32_GPIO: dict[int, Gpio] = _table()

# What each job in the firmware's PINS needs from its pin. A new job (the strip UART's RX, the
# beam capture's pins) is added here, in JOB_ENDPOINTS (where its wire ends) and, if its path
# passes a part, in PASS_THROUGH and JOB_VIA; the capability table then accepts any free
# general-purpose GPIO for it (14, 16-19, 23, 27, 32 on a WROOM; 34-39 for an input pulled
# up or down outside the chip).
#   input:  read as a digital input        output: driven as an output
#   pullup: the firmware enables the internal pull-up (open-collector beam receivers)
# I2C lines are open-drain: the pin must both drive and read.
JOB_NEEDS: dict[str, frozenset[str]] = {
    "beam_upper": frozenset({"input", "pullup"}),
    "beam_lower": frozenset({"input", "pullup"}),
    "i2c_sda": frozenset({"input", "output"}),
    "i2c_scl": frozenset({"input", "output"}),
    "colour_led": frozenset({"output"}),
    "led_strip": frozenset({"output"}),
    "inject": frozenset({"output"}),
    "power_sense": frozenset({"input"}),  # a divider drives it: no pull-up needed
    "capture_clock": frozenset({"output"}),    # LEDC's 1 MHz out (the beams' timebase)
    "capture_clock_in": frozenset({"input"}),  # ... back in, counted by the pulse counters
}

# Pins the firmware joins with one wire on the controller board (esp32_config.py names both
# ends): the capture clock's PWM out to the pulse counters' input. The one net of two GPIOs
# the short check allows; it must be drawn.
JUMPERS: dict[str, tuple[str, str]] = {"capture_clock": ("CAPTURE_CLOCK", "CAPTURE_CLOCK_IN")}

# Jobs the wiring gives the firmware before its PINS names them: the firmware reads them by
# these pins (power.SOURCE_SENSE says what a level means).
PLANNED_PINS: dict[str, int] = {"power_sense": 34}

# Where each job's wire must end (connector, pin label), following wires and PASS_THROUGH parts.
JOB_ENDPOINTS: dict[str, tuple[str, str]] = {
    "beam_upper": ("BEAM_UP_RX", "OUT"),
    "beam_lower": ("BEAM_LO_RX", "OUT"),
    "i2c_sda": ("TCS34725", "SDA"),
    "i2c_scl": ("TCS34725", "SCL"),
    "colour_led": ("TCS34725", "LED"),
    "led_strip": ("STRIP", "DIN"),
    "inject": ("BEAM_UP_RX", "OUT"),
    "power_sense": ("J_PWR", "+5V"),
}

# Parts a signal passes through on its way (in pin, out pin), by designator in wiring.yml.
PASS_THROUGH: dict[str, tuple[str, str]] = {
    "U_LVL": ("1A", "1Y"),     # 74AHCT125 gate 1: 3.3 V in, 5 V out
    "R_DATA": ("A", "B"),      # 330 ohm series resistor at the strip
    "R_INJ": ("A", "B"),       # 1 kohm in the inject line
    "JP_INJ": ("1", "2"),      # inject jumper (fitted for hardware-in-loop tests)
    "R_S_UP": ("A", "B"),      # series resistors on the long lines to the collar
    "R_S_LO": ("A", "B"),
    "R_S_SDA": ("A", "B"),
    "R_S_SCL": ("A", "B"),
    "R_S_LED": ("A", "B"),
    "R_SNS_HI": ("A", "B"),    # the supply sense divider's top
}
# The long lines to the hand-touched collar (0.5 m): each passes a series resistor on the
# controller board (ESD current into the ESP32's clamps, ringing on the cable).
SERIES = {"beam_upper": "R_S_UP", "beam_lower": "R_S_LO", "i2c_sda": "R_S_SDA",
          "i2c_scl": "R_S_SCL", "colour_led": "R_S_LED"}

# Parts each job's path must pass through (the firmware's comments promise them).
JOB_VIA: dict[str, tuple[str, ...]] = {
    "led_strip": ("U_LVL", "R_DATA"),
    "inject": ("R_INJ", "JP_INJ"),
    "power_sense": ("R_SNS_HI",),
    **{job: (part,) for job, part in SERIES.items()},
}

POWER_LABELS = {"5V", "3V3", "VIN", "VCC", "+5V", "+", "USB", "PSU", "STRIP"}

# ---- I2C rise time ----------------------------------------------------------------------------
# t_r (30 % -> 70 % of VDD) = 0.8473 R C for a resistive pull-up (NXP UM10204, 7.1).
I2C_RISE_LIMIT_NS = {100_000: 1000, 400_000: 300, 1_000_000: 120}  # UM10204 table 10, max t_r
I2C_SINK_LIMIT_MA = 3.0           # VOL = 0.4 V at 3 mA (Standard and Fast mode)
I2C_VDD = 3.3
BREAKOUT_PULLUP_OHM = 10_000      # Adafruit 1334 pulls SDA and SCL up with 10 kohm each
# Bus capacitance, estimated (assumed, not measured): 0.5 m of W1 and 0.2 m of Dupont lead at
# about 100 pF/m core to core, plus about 10 pF for each of the ESP32 pin, the TCS34725 and
# the two boards' traces.
I2C_WIRE_M = 0.7
I2C_PF_PER_M = 100.0
I2C_PF_PINS = 30.0
I2C_NETS = {"i2c_sda": ("TCS34725", "SDA"), "i2c_scl": ("TCS34725", "SCL")}


def i2c_bus_pf() -> float:
    return I2C_WIRE_M * I2C_PF_PER_M + I2C_PF_PINS


def parallel(*ohms: float) -> float:
    return 1 / sum(1 / r for r in ohms)


def i2c_rise_ns(pullup_ohm: float, bus_pf: float | None = None) -> float:
    return 0.8473 * pullup_ohm * (i2c_bus_pf() if bus_pf is None else bus_pf) * 1e-3


def i2c_mode_limit_ns(freq: int) -> int:
    """The largest rise time the I2C mode that runs at ``freq`` allows."""
    return next(limit for top, limit in sorted(I2C_RISE_LIMIT_NS.items()) if freq <= top)


def pin_problems(job: str, gpio: int, module: str = "ESP32-WROOM-32") -> list[str]:
    """Why `gpio` cannot (or should not) do `job` on `module`; empty when it is fine."""
    if job not in JOB_NEEDS:
        return [f"{job}: unknown job (add it to JOB_NEEDS in hardware/pinmap.py)"]
    pin = ESP32_GPIO.get(gpio)
    if pin is None:
        return [f"{job}: GPIO{gpio} does not exist on an ESP32-WROOM-32"]
    needs = JOB_NEEDS[job]
    out = [f"{job}: GPIO{gpio} {h}" for h in pin.hazards]
    if "WROVER" in module.upper() and gpio in PSRAM_PINS:
        out.append(f"{job}: GPIO{gpio} {PSRAM_PINS[gpio]}")
    if "output" in needs and not pin.output:
        out.append(f"{job}: GPIO{gpio} is input only (34-39) and cannot drive")
    if "pullup" in needs and not pin.pullup:
        out.append(f"{job}: GPIO{gpio} has no internal pull-up (34-39)")
    return out


def load_firmware_pins(path: Path = FIRMWARE_CONFIG) -> tuple[dict[str, int], int]:
    """The firmware's PINS and I2C_FREQ (the file is plain, MicroPython-compatible Python)."""
    ns = runpy.run_path(str(path))
    return dict(ns["PINS"]), int(ns["I2C_FREQ"])


def load_jumper_pins(path: Path = FIRMWARE_CONFIG) -> dict[str, int]:
    """The jumpered pins' jobs and GPIOs: {"capture_clock": 18, "capture_clock_in": 19}."""
    ns = runpy.run_path(str(path))
    out = {}
    for job, (a, b) in JUMPERS.items():
        out[job], out[f"{job}_in"] = int(ns[a]), int(ns[b])
    return out


# ---- wiring.yml as nets ----------------------------------------------------------------------

Node = tuple[str, str]  # (designator, pin label) for connectors, (cable, wire number) for wires


@dataclass
class Wiring:
    """The connectors of a WireViz file and the nets its wires make."""

    labels: dict[str, list[str]]                   # connector -> pin labels (or pin ids)
    parent: dict[Node, Node] = field(default_factory=dict)
    kinds: dict[str, str] = field(default_factory=dict)  # connector -> its type and subtype
    ohms: dict[str, float] = field(default_factory=dict)  # resistor -> value (from its type)
    microfarads: dict[str, float] = field(default_factory=dict)  # capacitor -> value

    def pullups(self, n: Node, rail: Node) -> list[float]:
        """Values of the two-pin resistors that join the net of ``n`` to the net of ``rail``."""
        out = []
        net, up = self.find(n), self.find(rail)
        for part, value in self.ohms.items():
            a, b = (self.find((part, lbl)) for lbl in self.labels[part][:2])
            if {a, b} == {net, up}:
                out.append(value)
        return out

    def find(self, n: Node) -> Node:
        self.parent.setdefault(n, n)
        while self.parent[n] != n:
            self.parent[n] = self.parent[self.parent[n]]
            n = self.parent[n]
        return n

    def join(self, a: Node, b: Node) -> None:
        self.parent[self.find(a)] = self.find(b)

    def nets(self) -> list[set[Node]]:
        """Nets of connector pins (wires left out), each a set of (connector, label)."""
        groups: dict[Node, set[Node]] = {}
        for n in list(self.parent):
            if n[0] in self.labels:
                groups.setdefault(self.find(n), set()).add(n)
        return list(groups.values())

    def net_of(self, n: Node) -> set[Node]:
        root = self.find(n)
        return {m for m in list(self.parent) if m[0] in self.labels and self.find(m) == root}

    def wired(self, n: Node) -> bool:
        return len(self.net_of(n)) > 1

    def reach(
        self, start: Node, through: dict[str, tuple[str, str]]
    ) -> tuple[set[Node], list[str]]:
        """Pins a signal from `start` reaches, following wires and `through` parts (either
        direction), and the through-parts it passed."""
        seen: set[Node] = set()
        passed: list[str] = []
        todo = [start]
        while todo:
            net = self.net_of(todo.pop())
            if net <= seen:
                continue
            seen |= net
            for part, (a, b) in through.items():
                for x, y in ((a, b), (b, a)):
                    if (part, x) in net and (part, y) not in seen:
                        passed.append(part)
                        todo.append((part, y))
        return seen, passed


def _expand(pins: Any) -> list[str]:
    """WireViz pin lists: a single pin, a list, and ranges like '1-7' in a list."""
    items = pins if isinstance(pins, list) else [pins]
    out: list[str] = []
    for p in items:
        s = str(p)
        if "-" in s and s.replace("-", "").isdigit() and not s.startswith("-"):
            lo, hi = (int(x) for x in s.split("-"))
            out += [str(i) for i in range(lo, hi + 1)]
        else:
            out.append(s)
    return out


def parse_wiring(data: dict[str, Any]) -> Wiring:
    """Nets of a WireViz document written as wiring.yml is: explicit designators (no templates
    or auto-generated instances), pins named by label or id, cables in between or pin arrows."""
    connectors: dict[str, dict[str, Any]] = data.get("connectors", {})
    cables: dict[str, dict[str, Any]] = data.get("cables", {})
    labels: dict[str, list[str]] = {}
    ids: dict[str, list[str]] = {}
    for name, c in connectors.items():
        n = len(c.get("pinlabels") or c.get("pins") or []) or int(c.get("pincount", 0))
        pin_ids = [str(p) for p in c.get("pins") or range(1, n + 1)]
        ids[name] = pin_ids
        labels[name] = [str(x) for x in c.get("pinlabels") or pin_ids]
        if len(set(labels[name])) != len(labels[name]):
            raise ValueError(f"{name}: pin labels are not unique")
    w = Wiring(labels)
    for name, c in connectors.items():
        w.kinds[name] = f"{c.get('type', '')} {c.get('subtype', '')}"
        m = re.match(r"Resistor ([\d.]+) ?([kM]?)ohm", str(c.get("type", "")))
        if m and len(labels[name]) == 2:
            w.ohms[name] = float(m.group(1)) * {"": 1, "k": 1e3, "M": 1e6}[m.group(2)]
        m = re.match(r"Capacitor ([\d.]+) ?uF", str(c.get("type", "")))
        if m:
            w.microfarads[name] = float(m.group(1))

    def node(designator: str, pin: str) -> Node:
        if designator in connectors:
            if pin in labels[designator]:
                return designator, pin
            if pin in ids[designator]:
                return designator, labels[designator][ids[designator].index(pin)]
            raise ValueError(f"{designator} has no pin {pin!r}")
        if designator in cables:
            count = int(cables[designator].get("wirecount") or len(cables[designator]["colors"]))
            if not 1 <= int(pin) <= count:
                raise ValueError(f"{designator} has no wire {pin}")
            return designator, pin
        raise ValueError(f"unknown designator {designator!r} (templates are not supported)")

    for k, conn_set in enumerate(data.get("connections", [])):
        columns: list[list[Node | None]] = []  # None: an arrow (pins mate directly)
        for entry in conn_set:
            if isinstance(entry, str):
                columns.append([None])
                continue
            if not isinstance(entry, dict) or len(entry) != 1:
                raise ValueError(f"connection set {k}: use one `DESIGNATOR: [pins]` per entry")
            ((designator, pins),) = entry.items()
            columns.append([node(designator, p) for p in _expand(pins)])
        width = max(len(c) for c in columns)
        if any(len(c) not in (1, width) for c in columns):
            raise ValueError(f"connection set {k}: entries differ in length")
        for row in range(width):
            chain = [c[row] if len(c) == width else c[0] for c in columns]
            for a, b in zip(chain, chain[1:], strict=False):
                if a is not None and b is not None:
                    w.join(a, b)
            for a, b in zip(chain, chain[2:], strict=False):  # across an arrow
                if a is not None and b is not None:
                    w.join(a, b)
            for n in chain:
                if n is not None:
                    w.find(n)
    return w


def load_wiring(path: Path = WIRING) -> Wiring:
    import yaml  # PyYAML: comes with wireviz (`make -C hardware tools`)

    return parse_wiring(yaml.safe_load(path.read_text()))


def esp32_gpios(w: Wiring) -> dict[int, str]:
    """GPIO number -> pin label, for the ESP32's GPIO<n> pins that have a wire."""
    out: dict[int, str] = {}
    for label in w.labels[ESP32]:
        if label.startswith("GPIO") and w.wired((ESP32, label)):
            out[int(label[4:])] = label
    return out


def check(pins: dict[str, int], w: Wiring, i2c_freq: int | None = None,
          jumpers: dict[str, int] | None = None) -> list[str]:
    """Every disagreement between the firmware's pin map and the wiring, and every pin that
    cannot do its job. Empty when all is well. `jumpers`: the jumpered pins (by default the
    firmware's, load_jumper_pins)."""
    problems: list[str] = []
    for job, gpio in PLANNED_PINS.items():
        if pins.get(job, gpio) != gpio:
            problems.append(f"{job}: PINS says GPIO{pins[job]}, the wiring gives it GPIO{gpio}")
    jumpers = load_jumper_pins() if jumpers is None else jumpers
    pairs = {frozenset({f"GPIO{jumpers[j]}", f"GPIO{jumpers[f'{j}_in']}"}) for j in JUMPERS
             if j in jumpers}
    for pair in pairs:
        a, b = sorted(pair)
        if (ESP32, b) not in w.net_of((ESP32, a)):
            problems.append(f"the jumper from {a} to {b} is not drawn: one wire joins them")
    pins = {**PLANNED_PINS, **pins, **jumpers}
    module = w.kinds.get(ESP32, "")
    used: dict[int, str] = {}
    for job, gpio in pins.items():
        if gpio in used:
            problems.append(f"{job} and {used[gpio]} share GPIO{gpio}")
        used[gpio] = job
        problems += pin_problems(job, gpio, module)
    wired = esp32_gpios(w)
    for gpio in sorted(set(wired) - set(pins.values())):
        problems.append(f"wiring.yml wires GPIO{gpio}, which no job in PINS uses")
    for job, gpio in pins.items():
        start = (ESP32, f"GPIO{gpio}")
        if gpio not in wired:
            problems.append(f"{job}: PINS says GPIO{gpio}, but wiring.yml has no wire on it")
            continue
        if any(f"GPIO{gpio}" in pair for pair in pairs):
            continue  # a jumper's end: checked above
        end = JOB_ENDPOINTS.get(job)
        if end is None:
            problems.append(f"{job}: no endpoint in JOB_ENDPOINTS (hardware/pinmap.py)")
            continue
        reached, passed = w.reach(start, PASS_THROUGH)
        if end not in reached:
            problems.append(f"{job}: GPIO{gpio} is not wired to {end[0]} {end[1]}")
            continue
        direct = w.net_of(start)
        for part in JOB_VIA.get(job, ()):
            without = {k: v for k, v in PASS_THROUGH.items() if k != part}
            if part not in passed or end in w.reach(start, without)[0]:
                problems.append(f"{job}: the path from GPIO{gpio} does not pass through {part}")
        if JOB_VIA.get(job) is None and end not in direct:
            problems.append(f"{job}: GPIO{gpio} reaches {end} only through other parts")
    # Shorts: a net may hold one ESP32 GPIO and no power rail.
    for net in w.nets():
        gpios = sorted(lbl for (c, lbl) in net if c == ESP32 and lbl.startswith("GPIO"))
        only_wire = all(c not in w.labels for c, lbl in net if c != ESP32)
        if len(gpios) > 1 and not (frozenset(gpios) in pairs and only_wire):
            problems.append(f"short: {', '.join(gpios)} are on one net")
        power = sorted(f"{c} {lbl}" for (c, lbl) in net if lbl in POWER_LABELS)
        if gpios and power:
            problems.append(f"short: {gpios[0]} is on a power net with {', '.join(power)}")
        if (ESP32, "3V3") in net and any(lbl in {"5V", "+5V", "USB", "PSU"} for _, lbl in net):
            problems.append("short: 3V3 is on a net with 5 V")
    # The same for a line behind its series resistor (the cable's side).
    for job, gpio in pins.items():
        if job in SERIES and gpio in wired:
            side = bus_side(w, job, gpio)
            if side[0] != ESP32:
                power = sorted(f"{c} {lbl}" for (c, lbl) in w.net_of(side)
                               if lbl in POWER_LABELS)
                if power:
                    problems.append(f"short: {job}'s line (behind {side[0]}) is on a power "
                                    f"net with {', '.join(power)}")
    # All grounds are one net.
    grounds = [(c, lbl) for c, lbls in w.labels.items() for lbl in lbls
               if lbl in {"GND", "-"} and w.wired((c, lbl))]
    if grounds and any(w.find(g) != w.find(grounds[0]) for g in grounds):
        problems.append("the GND pins are not all on one net")
    if i2c_freq is not None and not 10_000 <= i2c_freq <= 400_000:
        problems.append(f"I2C_FREQ {i2c_freq}: the TCS34725 runs at 400 kHz at most")
    if i2c_freq is not None:
        problems += i2c_problems(pins, w, i2c_freq)
    problems += power_problems(w)
    return problems


def bus_side(w: Wiring, job: str, gpio: int) -> Node:
    """A pin on the bus side of the job's series resistor (the pin itself without one)."""
    part = SERIES.get(job)
    if part in w.labels and (part, PASS_THROUGH[part][0]) in w.net_of((ESP32, f"GPIO{gpio}")):
        return part, PASS_THROUGH[part][1]
    return ESP32, f"GPIO{gpio}"


def series_ohm(w: Wiring, job: str) -> float:
    part = SERIES.get(job)
    return w.ohms.get(part, 0.0) if part else 0.0


def i2c_pullup(pins: dict[str, int], w: Wiring, job: str) -> float:
    """The pull-up a bus line sees: the breakout's and every resistor from the bus (the
    series resistor's far side) to 3V3 in wiring.yml."""
    return parallel(BREAKOUT_PULLUP_OHM,
                    *w.pullups(bus_side(w, job, pins[job]), (ESP32, "3V3")))


def i2c_problems(pins: dict[str, int], w: Wiring, freq: int) -> list[str]:
    """Rise time and sink current of each I2C line against the mode that ``freq`` needs."""
    out = []
    limit = i2c_mode_limit_ns(freq)
    for job in I2C_NETS:
        if job not in pins:
            continue
        r = i2c_pullup(pins, w, job)
        rise = i2c_rise_ns(r)
        if rise > limit:
            out.append(f"{job}: rise time {rise:.0f} ns with {r:.0f} ohm of pull-up over "
                       f"{i2c_bus_pf():.0f} pF, above the {limit} ns that {freq // 1000} kHz "
                       f"allows: add pull-ups to 3V3 or lower I2C_FREQ")
        sink = I2C_VDD / r * 1000
        if sink > I2C_SINK_LIMIT_MA:
            out.append(f"{job}: {r:.0f} ohm of pull-up makes the pins sink {sink:.1f} mA, above "
                       f"I2C's {I2C_SINK_LIMIT_MA} mA")
        low = i2c_low_v(pins, w, job)
        if low > I2C_VIL_MAX:
            out.append(f"{job}: the ESP32 pulls the bus only to {low:.2f} V through its series "
                       f"resistor, above the {I2C_VIL_MAX:.2f} V the TCS34725 reads as low")
    return out


I2C_PIN_ON_OHM = 25.0           # an ESP32 output pulling low (about 25 ohm at 3.3 V)
I2C_VIL_MAX = 0.3 * I2C_VDD     # UM10204 and the TCS34725: low is below 0.3 VDD


def i2c_low_v(pins: dict[str, int], w: Wiring, job: str) -> float:
    """The bus's low level while the ESP32 pulls it: the pull-up's current through the pin
    and its series resistor (UM10204 7.3, series protection resistors)."""
    r = i2c_pullup(pins, w, job)
    rs = series_ohm(w, job) + I2C_PIN_ON_OHM
    return I2C_VDD * rs / (r + rs)


USB_DEVICE_UF = 10.0  # USB 2.0 7.2.4.1: at most 10 uF across VBUS at attach, more behind a limiter


def usb_capacitance_uf(w: Wiring) -> float:
    """Capacitance straight across the laptop's VBUS (the ESP32's 5V pin) and GND: what
    charges at the instant of plugging in (the strip's, behind Q_SS, ramps up slowly)."""
    vbus, gnd = w.find((ESP32, "5V")), w.find((ESP32, "GND"))
    out = 0.0
    for cap, uf in w.microfarads.items():
        ends = {w.find((cap, lbl)) for lbl in w.labels[cap][:2]}
        if ends == {vbus, gnd}:
            out += uf
    return out


def power_problems(w: Wiring) -> list[str]:
    """VBUS inrush, the strip's soft start and the strip input's pull-down."""
    out = []
    uf = usb_capacitance_uf(w)
    if uf > USB_DEVICE_UF:
        out.append(f"{uf:g} uF straight across VBUS: at most {USB_DEVICE_UF:g} uF (USB inrush)")
    if "STRIP" in w.labels and w.find(("STRIP", "5V")) == w.find((ESP32, "5V")):
        out.append("the strip's 5 V is on VBUS without the soft start Q_SS: C_BULK's inrush")
    if "Q_SS" in w.labels:
        if w.find(("Q_SS", "S")) != w.find((ESP32, "5V")):
            out.append("Q_SS's source is not on the ESP32's 5V pin")
        if "STRIP" in w.labels and w.find(("Q_SS", "D")) != w.find(("STRIP", "5V")):
            out.append("Q_SS's drain does not feed the strip")
    if not w.pullups(("U_LVL", "1A"), ("U_LVL", "GND")):
        out.append("U_LVL 1A has no pull-down to GND: the strip may light while the ESP32 is off")
    return out


def report(pins: dict[str, int], w: Wiring) -> Iterable[str]:
    jumpers = load_jumper_pins()
    ends = {**JOB_ENDPOINTS, **{j: (ESP32, f"GPIO{jumpers[f'{j}_in']}") for j in JUMPERS},
            **{f"{j}_in": (ESP32, f"GPIO{jumpers[j]}") for j in JUMPERS}}
    for job, gpio in sorted({**PLANNED_PINS, **pins, **jumpers}.items(), key=lambda kv: kv[1]):
        end = ends.get(job, ("?", "?"))
        yield f"GPIO{gpio:<3} {job:<16} -> {end[0]} {end[1]}"


def main() -> int:
    pins, freq = load_firmware_pins()
    w = load_wiring()
    for line in report(pins, w):
        print(line)
    for job in I2C_NETS:
        r = i2c_pullup(pins, w, job)
        print(f"{job}: pull-up {r:.0f} ohm, rise time {i2c_rise_ns(r):.0f} ns at "
              f"{i2c_bus_pf():.0f} pF (limit {i2c_mode_limit_ns(freq)} ns at {freq // 1000} kHz), "
              f"low {i2c_low_v(pins, w, job):.2f} V through {series_ohm(w, job):.0f} ohm")
    problems = check(pins, w, freq)
    for p in problems:
        print("PROBLEM:", p)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
