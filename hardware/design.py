"""The numbers behind the hardware: sensing geometry (from collar.scad's parameters) and the
power budget. `python hardware/design.py` prints the tables that hardware/README.md shows;
`--check` exits non-zero if a design rule is broken (tests/hardware/test_design.py runs both).
"""

from __future__ import annotations

import math
import re
import sys
from dataclasses import dataclass
from pathlib import Path

HERE = Path(__file__).resolve().parent
COLLAR = HERE / "collar.scad"
G = 9.81  # m/s^2

# ---- sensing ---------------------------------------------------------------------------------
T_INT_MS = 2.4       # TCS34725 integration with ATIME = 0xFF (one 2.4 ms cycle, 1024 counts)
MIN_GAP_MS = 3.0     # shortest gap between two cubes the detector must see
BLOCK_BAND_MS = (5.0, 10.0)  # blocking time of one flat cube the firmware expects
V0_CASES = (0.0, 0.5, 1.0, 1.5)  # vertical speed (m/s) with which a cube leaves the outlet


def scad_params(path: Path = COLLAR) -> dict[str, float]:
    """The numeric `name = value;` assignments of an OpenSCAD file (top level, literals only)."""
    out: dict[str, float] = {}
    for m in re.finditer(r"^(\w+)\s*=\s*(-?[\d.]+)\s*;", path.read_text(), re.M):
        out[m.group(1)] = float(m.group(2))
    return out


def fall_time(drop_mm: float, v0: float) -> float:
    """Seconds for a cube leaving the lip at v0 (m/s, downwards) to fall drop_mm."""
    h = drop_mm / 1000
    return (-v0 + math.sqrt(v0 * v0 + 2 * G * h)) / G


def speed(drop_mm: float, v0: float) -> float:
    return math.sqrt(v0 * v0 + 2 * G * drop_mm / 1000)


def block_ms(beam_drop: float, length: float, v0: float) -> float:
    """How long a cube of vertical extent `length` blocks a beam `beam_drop` below the lip
    (its bottom face starts at the lip)."""
    return 1000 * (fall_time(beam_drop + length, v0) - fall_time(beam_drop, v0))


def viewed_band(p: dict[str, float], gap_mm: float) -> float:
    """Height of the cube face the colour sensor sees through its slit, at `gap_mm` from the
    chute wall: the slit's full acceptance (slit height w, depth t) widens by w/t per mm."""
    w, t = p["colour_window_h"], p["colour_tunnel"]
    return w + 2 * gap_mm * w / t


def best_sample_coverage(band: float, length: float, v: float, t_int_ms: float = T_INT_MS,
                         steps: int = 240) -> float:
    """Fraction of the viewed band covered by the cube, averaged over one integration, for the
    best of the back-to-back integrations while the cube passes, in the worst phase of the
    integrations against the cube (the sensor runs free)."""
    period = t_int_ms / 1000
    t_pass = (length + band) / (v * 1000)  # from first to last overlap

    def cover(t: float) -> float:  # bottom of the cube enters the band's top at t = 0
        bottom = v * 1000 * t
        top = bottom - length
        return max(0.0, min(bottom, band) - max(top, 0.0)) / band

    worst = 1.0
    for k in range(steps):
        phase = period * k / steps
        best = 0.0
        start = -phase
        while start < t_pass:
            n = 48
            avg = sum(cover(start + period * (i + 0.5) / n) for i in range(n)) / n
            best = max(best, avg)
            start += period
        worst = min(worst, best)
    return worst


@dataclass
class Geometry:
    p: dict[str, float]

    @property
    def beams(self) -> tuple[float, float]:
        up = self.p["beam_upper_drop"]
        return up, up + self.p["beam_spacing"]

    @property
    def cube(self) -> float:
        return self.p["cube_size"]

    def rows(self) -> list[tuple[str, str]]:
        p, L = self.p, self.cube
        up, lo = self.beams
        win = p["colour_window_drop"]
        gap_nom = (p["chute_width"] - L) / 2
        rows = [
            ("cube edge / face diagonal / space diagonal",
             f"{L:.0f} / {L * math.sqrt(2):.1f} / {L * math.sqrt(3):.1f} mm"),
            ("chute inner width", f"{p['chute_width']:.0f} mm"),
            ("beams below the outlet lip", f"{up:.0f} mm and {lo:.0f} mm "
             f"(spacing {p['beam_spacing']:.0f} mm)"),
            ("colour window centre below the lip", f"{win:.0f} mm"),
        ]
        for v0 in V0_CASES:
            rows.append((f"leaving at {v0:.1f} m/s: speed at upper / lower beam",
                         f"{speed(up, v0):.2f} / {speed(lo, v0):.2f} m/s"))
            rows.append((f"leaving at {v0:.1f} m/s: flat cube blocks upper / lower beam",
                         f"{block_ms(up, L, v0):.1f} / {block_ms(lo, L, v0):.1f} ms"))
            tof = 1000 * (fall_time(lo, v0) - fall_time(up, v0))
            rows.append((f"leaving at {v0:.1f} m/s: upper to lower beam", f"{tof:.1f} ms"))
        rows += [
            ("slow cube tilted on an edge (14.1 mm tall), upper beam",
             f"{block_ms(up, L * math.sqrt(2), 0):.1f} ms"),
            ("3 ms gap at the slowest upper-beam speed",
             f"{MIN_GAP_MS * speed(up, 0):.1f} mm (beam aperture {p['beam_aperture_d']:.0f} mm)"),
        ]
        v_win = speed(win + L / 2, 0)
        for label, gap in (("centred", gap_nom), ("far wall", p["chute_width"] - L)):
            band = viewed_band(p, gap)
            full = (L - band) / v_win
            cov = best_sample_coverage(band, L, v_win)
            rows.append((f"colour: viewed band, cube {label} ({gap:.0f} mm from slit)",
                         f"{band:.1f} mm, fills it for {full:.1f} ms at {v_win:.2f} m/s"))
            rows.append((f"colour: best {T_INT_MS} ms sample, cube {label}, worst phase",
                         f"{100 * cov:.0f} % cube"))
        return rows

    def problems(self) -> list[str]:
        p, L = self.p, self.cube
        up, lo = self.beams
        out: list[str] = []
        if not L * math.sqrt(3) < p["chute_width"] < 2 * L:
            out.append("chute_width must exceed the cube's space diagonal (no wedging) and stay "
                       "below two cubes (single file)")
        for v0 in V0_CASES[:-1]:  # 0 .. 1.0 m/s: the band; 1.5 m/s may go below 5 ms
            for b in (up, lo):
                t = block_ms(b, L, v0)
                if not BLOCK_BAND_MS[0] <= t <= BLOCK_BAND_MS[1]:
                    out.append(f"a flat cube leaving at {v0} m/s blocks the beam at {b} mm for "
                               f"{t:.1f} ms, outside {BLOCK_BAND_MS} ms")
        if p["beam_spacing"] < L * math.sqrt(3):
            out.append("beam_spacing below the cube's space diagonal: one cube may block both")
        if p["beam_aperture_d"] > MIN_GAP_MS * speed(up, 0):
            out.append("beam aperture wider than a 3 ms gap: the beam never opens fully")
        band_nom = viewed_band(p, (p["chute_width"] - L) / 2)
        win = p["colour_window_drop"]
        if not up + L / 2 <= win <= lo - L / 2:
            out.append("colour window must sit between the beams")
        v_win = speed(win + L / 2, 0)
        if (L - band_nom) / v_win < 2 * T_INT_MS / 1000:
            out.append("a centred cube fills the colour sensor's view for less than two "
                       "integrations: no sample is guaranteed to see only the cube")
        if p["chute_bottom_drop"] < lo + 6:
            out.append("the chute must extend below the lower beam's boss")
        return out


# ---- power -----------------------------------------------------------------------------------
USB2_MA = 500
STRIP_BUDGET_MA = 370      # firmware DEFAULT_BUDGET_MA (score_track.py): strip, idle included
LEDS = {"score track 0-80": 81, "rice track 0-18": 19}
LED_IDLE_MA = 1.0
LED_CHANNEL_MA = 20.0      # per colour channel at full duty; 60 mA full white
LOADS_MA = {  # everything but the strip, powered from USB through the DevKitC
    "ESP32-DevKitC, Wi-Fi off (50-80 mA; 240 mA peaks with Wi-Fi on)": 80.0,
    "2 IR emitters at 3.3 V (Adafruit 2167: ~10 mA each)": 20.0,
    "2 IR receivers (open collector, pull-up current)": 1.0,
    "TCS34725 (0.3 mA) + its white LED (~20 mA)": 20.3,
    "74AHCT125 (3.3 V input on a 5 V part: ~1.5 mA)": 1.5,
}


def power_rows() -> list[tuple[str, str]]:
    n = sum(LEDS.values())
    rest = sum(LOADS_MA.values())
    rows = [(k, f"{v:g} mA") for k, v in LOADS_MA.items()]
    rows += [
        ("ESP32 + sensors", f"{rest:.0f} mA"),
        (f"strip idle ({n} LEDs x {LED_IDLE_MA:.0f} mA, dark)", f"{n * LED_IDLE_MA:.0f} mA"),
        ("strip at the firmware budget (idle included)", f"{STRIP_BUDGET_MA} mA"),
        ("worst case on USB at the default budget", f"{rest + STRIP_BUDGET_MA:.0f} mA "
         f"(USB 2.0 gives {USB2_MA} mA)"),
        ("largest strip budget that fits USB 2.0", f"{USB2_MA - rest:.0f} mA"),
        ("lit LEDs within that, full white (60 mA each)",
         f"{(USB2_MA - rest - n * LED_IDLE_MA) / (3 * LED_CHANNEL_MA):.1f} LEDs"),
        ("lit LEDs within that, one channel full (red, 20 mA)",
         f"{(USB2_MA - rest - n * LED_IDLE_MA) / LED_CHANNEL_MA:.1f} LEDs"),
        (f"all {n} LEDs full white (never asked for)", f"{n * 3 * LED_CHANNEL_MA / 1000:.1f} A"),
    ]
    return rows


def table(rows: list[tuple[str, str]], head: tuple[str, str]) -> str:
    lines = [f"| {head[0]} | {head[1]} |", "| --- | --- |"]
    lines += [f"| {a} | {b} |" for a, b in rows]
    return "\n".join(lines)


def geometry_table() -> str:
    return table(Geometry(scad_params()).rows(), ("sensing geometry (from collar.scad)", "value"))


def power_table() -> str:
    return table(power_rows(), ("power (5 V side)", "current"))


def tables() -> str:
    return geometry_table() + "\n\n" + power_table() + "\n"


def main(argv: list[str]) -> int:
    if "--check" in argv:
        problems = Geometry(scad_params()).problems()
        for p in problems:
            print("PROBLEM:", p)
        print("design rules:", "broken" if problems else "ok")
        return 1 if problems else 0
    print(tables(), end="")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
