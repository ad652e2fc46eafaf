"""The tower outlet's geometry: hardware/geometry.json, validated, and what follows from it.

One source of truth: the collar's parameters (`collar_params`), the firmware's timing
(`firmware_timing`, a generated block of private const()s in firmware/shogun_fw/detector.py)
and the simulated board's physics (`sim_physics`, a generated block in boards/sim.py) are all
derived here from geometry.json, and only from it. `python hardware/geometry.py` prints the
derived values; `--write` regenerates both blocks; `--check` exits 1 when a block is stale
(tests/firmware/test_geometry_config.py checks it, and checks the simulator against it).

Lengths in the detector's block are in units of 10 um ("cu") and times in us: integers, so the
firmware never computes with floats per edge or sample.
"""

from __future__ import annotations

import json
import math
import sys
from dataclasses import dataclass
from pathlib import Path

HERE = Path(__file__).resolve().parent
GEOMETRY_JSON = HERE / "geometry.json"
SCHEMA = "shogun-tower geometry 1"
STATUSES = {"measured": "how", "assumed": "why"}

# name -> (unit, kind): "num" a number, "range" [lo, hi], "text" a word from CHOICES
FIELDS: dict[str, tuple[str, str]] = {
    "exit_direction": ("", "text"),
    "outlet_width": ("mm", "num"),
    "outlet_height": ("mm", "num"),
    "outlet_sill_height": ("mm", "num"),
    "exit_speed": ("m/s", "range"),
    "beam_speed_min": ("m/s", "num"),
    "gravity": ("m/s^2", "num"),
    "cube_edge": ("mm", "num"),
    "cube_tolerance": ("mm", "num"),
    "tilt_max": ("deg", "num"),
    "tumble_share": ("1", "num"),
    "pair_share": ("1", "num"),
    "chute_width": ("mm", "num"),
    "beam_upper_drop": ("mm", "num"),
    "beam_lower_drop": ("mm", "num"),
    "beam_aperture": ("mm", "num"),
    "colour_window_drop": ("mm", "num"),
    "colour_slit_height": ("mm", "num"),
    "colour_slit_depth": ("mm", "num"),
    "colour_pocket_depth": ("mm", "num"),
    "colour_detector_w": ("mm", "num"),
    "chute_bottom_drop": ("mm", "num"),
    "receiver_fall_delay": ("ms", "range"),
    "receiver_rise_delay": ("ms", "range"),
    "colour_integration": ("ms", "num"),
    "cube_gap_min": ("ms", "num"),
    "chatter_max": ("ms", "num"),
    "throw_pause_max": ("ms", "num"),
}
CHOICES = {"exit_direction": ("down", "side")}


class GeometryError(ValueError):
    """geometry.json is malformed or breaks a rule; the message says which value and what to do."""


@dataclass(frozen=True)
class Geometry:
    """The validated values, each in the unit geometry.json gives (FIELDS)."""

    values: dict[str, object]
    status: dict[str, str]

    def __getattr__(self, name: str) -> object:
        try:
            return self.values[name]
        except KeyError:
            raise AttributeError(name) from None

    def num(self, name: str) -> float:
        return float(self.values[name])  # type: ignore[arg-type]

    def range(self, name: str) -> tuple[float, float]:
        lo, hi = self.values[name]  # type: ignore[misc]
        return float(lo), float(hi)

    def mid(self, name: str) -> float:
        lo, hi = self.range(name)
        return (lo + hi) / 2

    def assumed(self) -> list[str]:
        return [k for k, s in self.status.items() if s == "assumed"]


def load(path: Path = GEOMETRY_JSON) -> Geometry:
    """geometry.json, validated: every field present with its unit, a status and its how/why,
    numbers where numbers belong, and the geometry's rules (`problems`) kept."""
    try:
        data = json.loads(Path(path).read_text())
    except (OSError, json.JSONDecodeError) as exc:
        raise GeometryError(f"{path}: cannot read it as JSON ({exc}); fix the file") from None
    if not isinstance(data, dict) or data.get("schema") != SCHEMA:
        raise GeometryError(f"{path}: 'schema' must be {SCHEMA!r}")
    raw = data.get("values")
    if not isinstance(raw, dict):
        raise GeometryError(f"{path}: 'values' must be an object of name -> value entries")
    values: dict[str, object] = {}
    status: dict[str, str] = {}
    for name, (unit, kind) in FIELDS.items():
        entry = raw.get(name)
        where = f"{path}: {name}"
        if not isinstance(entry, dict) or "value" not in entry:
            raise GeometryError(f"{where} is missing (an object with value, unit, status)")
        if entry.get("unit") != unit:
            raise GeometryError(f"{where}: unit must be {unit!r}, not {entry.get('unit')!r}")
        st = entry.get("status")
        if st not in STATUSES:
            raise GeometryError(f"{where}: status must be 'measured' or 'assumed'")
        note = entry.get(STATUSES[st])
        if not isinstance(note, str) or len(note.strip()) < 10:
            raise GeometryError(f"{where}: a {st} value needs '{STATUSES[st]}' (a sentence)")
        v = entry["value"]
        if kind == "text":
            if v not in CHOICES[name]:
                raise GeometryError(f"{where}: must be one of {', '.join(CHOICES[name])}")
        elif kind == "range":
            if (not isinstance(v, list) or len(v) != 2
                    or not all(isinstance(x, (int, float)) and x >= 0 for x in v) or v[0] > v[1]):
                raise GeometryError(f"{where}: must be [low, high], 0 <= low <= high")
        elif not isinstance(v, (int, float)) or isinstance(v, bool) or v < 0:
            raise GeometryError(f"{where}: must be a number >= 0")
        values[name] = v
        status[name] = st
    unknown = sorted(set(raw) - set(FIELDS))
    if unknown:
        raise GeometryError(f"{path}: unknown value(s) {', '.join(unknown)}: add them to "
                            "hardware/geometry.py FIELDS or remove them")
    geo = Geometry(values, status)
    bad = problems(geo)
    if bad:
        raise GeometryError(f"{path}: {bad[0]}")
    return geo


# ---- kinematics (SI: m, s) -------------------------------------------------------------------
def fall_time(geo: Geometry, drop_mm: float, v0: float) -> float:
    """Seconds for a point falling from the fall start at v0 (m/s, downwards) to drop_mm."""
    g = geo.num("gravity")
    return (-v0 + math.sqrt(v0 * v0 + 2 * g * drop_mm / 1000)) / g


def speed(geo: Geometry, drop_mm: float, v0: float) -> float:
    return math.sqrt(v0 * v0 + 2 * geo.num("gravity") * drop_mm / 1000)


def slowest_at_upper(geo: Geometry) -> float:
    """m/s: the slowest a cube's centre passes the upper beam: falling from the fall start at
    exit_speed's low end, or slowed by the chute's walls to beam_speed_min (hardware/flow.py)."""
    lo = geo.range("exit_speed")[0]
    return min(speed(geo, geo.num("beam_upper_drop") + geo.num("cube_edge") / 2, lo),
               geo.num("beam_speed_min"))


def transit(geo: Geometry, v: float) -> float:
    """Seconds to fall from the upper beam to the lower at v (m/s) there."""
    g = geo.num("gravity")
    s = (geo.num("beam_lower_drop") - geo.num("beam_upper_drop")) / 1000
    return (-v + math.sqrt(v * v + 2 * g * s)) / g


def centre_time(geo: Geometry, depth_mm: float, v0: float) -> float:
    """Seconds until a cube's centre is depth_mm below the fall start (it starts half an edge
    above it: the cube's bottom face is at the fall start)."""
    return fall_time(geo, depth_mm + geo.num("cube_edge") / 2, v0)


def band(geo: Geometry, gap_mm: float) -> float:
    """Height of the cube face the colour sensor sees with the face gap_mm from the chute wall:
    the sensor channel (colour_slit_height high, from the board to the shared pocket
    colour_pocket_depth behind the chute face) and the photodiode array (colour_detector_w)
    let through rays that spread by (height + array) over the channel's length
    (hardware/optics.py traces the same rays)."""
    h, det = geo.num("colour_slit_height"), geo.num("colour_detector_w")
    pocket = geo.num("colour_pocket_depth")
    channel = geo.num("colour_slit_depth") - pocket
    return h + (h + det) * (gap_mm + pocket) / channel


def slit_equivalent(geo: Geometry) -> tuple[float, float]:
    """(height, depth) of the plain slit whose full acceptance, h + 2 gap h / d, is `band`:
    the simulated board's colour window takes its band in that form."""
    h0 = band(geo, 0.0)
    slope = band(geo, 1.0) - h0
    return h0, 2 * h0 / slope


def extents(geo: Geometry) -> dict[str, float]:
    """Vertical extents (mm) the firmware must tell apart."""
    edge, tol = geo.num("cube_edge"), geo.num("cube_tolerance")
    return {
        "single_min": edge - tol,
        "single_max": math.sqrt(3) * (edge + tol),  # a tumbling cube on its corner
        "double_min": 2 * (edge - tol),             # two flat cubes touching, in single file
        "double_max": 2 * math.sqrt(3) * (edge + tol),
    }


def problems(geo: Geometry) -> list[str]:
    """The rules a geometry must keep for the firmware to work; [] when it keeps them all."""
    out: list[str] = []
    edge, tol = geo.num("cube_edge"), geo.num("cube_tolerance")
    ext = extents(geo)
    up, lo = geo.num("beam_upper_drop"), geo.num("beam_lower_drop")
    win = geo.num("colour_window_drop")
    if edge <= 0:
        out.append("cube_edge must be > 0")
        return out
    if not math.sqrt(3) * (edge + tol) < geo.num("chute_width") < 2 * (edge - tol):
        out.append("chute_width must exceed the cube's space diagonal (nothing wedges) and stay "
                   "below two cubes (single file)")
    if lo - up <= ext["single_max"]:
        out.append("the beams must be further apart than a cube's space diagonal")
    band_max = band(geo, geo.num("chute_width") - edge)
    if not up + band_max / 2 < win < lo - band_max / 2:
        out.append("colour_window_drop must lie between the beams")
    if ext["single_max"] >= ext["double_min"]:
        out.append("cube_tolerance too large: a tumbling cube could be as tall as two cubes")
    if geo.num("chute_bottom_drop") < lo + 6:
        out.append("chute_bottom_drop must be below the lower beam's boss (lower beam + 6 mm)")
    gap_left = geo.num("cube_gap_min") - (geo.range("receiver_rise_delay")[1]
                                          - geo.range("receiver_fall_delay")[0])
    if gap_left <= 2 * geo.num("chatter_max"):
        out.append("the receiver's response eats the shortest gap between cubes: the beams "
                   "cannot tell two cubes 'cube_gap_min' apart")
    v_fast = speed(geo, lo, geo.range("exit_speed")[1])
    full = (edge - tol - band(geo, (geo.num("chute_width") - edge) / 2)) / v_fast
    if full < geo.num("colour_integration"):
        out.append("a fast cube fills the colour sensor's view for less than one integration")
    return out


# ---- the firmware's timing -------------------------------------------------------------------
def firmware_timing(geo: Geometry) -> dict[str, int]:
    """The detector's constants (ints: us for times, 10 um for lengths, Qn fixed point)."""
    v0_lo, v0_hi = geo.range("exit_speed")
    v0_mid = (v0_lo + v0_hi) / 2
    g = geo.num("gravity")
    edge = geo.num("cube_edge")
    up, lo = geo.num("beam_upper_drop"), geo.num("beam_lower_drop")
    win = geo.num("colour_window_drop")
    ext = extents(geo)
    fall_lo, fall_hi = geo.range("receiver_fall_delay")
    rise_lo, rise_hi = geo.range("receiver_rise_delay")
    extra_mid = (rise_lo + rise_hi) / 2 - (fall_lo + fall_hi) / 2  # ms a block looks longer
    band_nom = band(geo, (geo.num("chute_width") - edge) / 2)
    band_max = band(geo, geo.num("chute_width") - edge)
    tumble_shift = (ext["single_max"] - ext["single_min"]) / 2  # lead point moves vs the centre

    def tc(v0: float) -> float:  # centre from upper to lower beam, s
        return centre_time(geo, lo, v0) - centre_time(geo, up, v0)

    def to_us(s: float) -> int:
        return round(s * 1e6)

    # Debounce: longer than any blip, shorter than what the receivers leave of the shortest gap.
    gap_left_ms = geo.num("cube_gap_min") - (rise_hi - fall_lo)
    debounce_ms = min(1.0, gap_left_ms / 2)
    debounce_ms = max(debounce_ms, 2 * geo.num("chatter_max"))
    # The slowest cube: from rest at the fall start, or slowed by the walls (beam_speed_min).
    v_up_slow = min(speed(geo, up, v0_lo), geo.num("beam_speed_min"))
    v_up_fast = speed(geo, up, v0_hi)
    v_lo_slow = math.sqrt(v_up_slow ** 2 + 2 * g * (lo - up) / 1000)
    # A double of two tumbling cubes at the slowest speed is the longest moving block.
    double_max_ms = ext["double_max"] / v_up_slow + rise_hi - fall_lo
    stuck_ms = 1.15 * double_max_ms
    tc_min, tc_max = 0.85 * tc(v0_hi), 1.15 * transit(geo, slowest_at_upper(geo))
    # A cube's view (any part of it in the widest band) relative to its upper-beam block, over
    # every speed and tumble: the bounds a cube not yet seen at the lower beam gets.
    entry_min = max(0.0, (win - band_max / 2 - up - tumble_shift) / v_up_fast)
    exit_max = (win + band_max / 2 - up + tumble_shift) / v_up_slow + rise_hi
    lower_block_max = ext["double_max"] / v_lo_slow + rise_hi
    hold_ms = exit_max + 1000 * tc_max + lower_block_max + 2 * geo.num("colour_integration")
    # A cube caught in front of the upper beam falls on from rest, from anywhere the beam
    # stays dark (centre up to half its extent above or below the beam): its lower block
    # follows the end of its upper block by at most the fall from the highest such place.
    stuck_tc_max = 1.15 * math.sqrt(2 * (lo - up + ext["single_max"] / 2) / 1000 / g)
    v_stuck_lo = math.sqrt(2 * g * (lo - up - ext["single_max"] / 2) / 1000)
    stuck_hold_ms = (1000 * stuck_tc_max + ext["single_max"] / v_stuck_lo + rise_hi
                     + 2 * geo.num("colour_integration") + 2)
    # The window's time and place between the beams, for the nominal speed.
    frac_t = (centre_time(geo, win, v0_mid) - centre_time(geo, up, v0_mid)) / tc(v0_mid)
    frac_x = (win - up) / (lo - up)
    v_up_nom, v_win_nom = speed(geo, up + edge / 2, v0_mid), speed(geo, win + edge / 2, v0_mid)
    split = (ext["single_max"] + ext["double_min"]) / 2
    quiet_ms = geo.num("throw_pause_max") + 1000 * tc_max + lower_block_max
    q16 = 1 << 16
    return {
        "CUBE_CU": round(edge * 100),
        "SPLIT_CU": round(split * 100),              # single below, two touching cubes above
        "SPACING_CU": round((lo - up) * 100),
        "BAND_CU": round(band_nom * 100),             # viewed band, cube in the middle
        "BAND_MAX_CU": round(band_max * 100),         # ... cube at the far wall
        "G_HALF_Q": round(g / 2 * 1e-7 * q16 * q16),  # g/2 in 10 um/us^2, Q32
        "WIN_FRAC_Q12": round(frac_t * 4096),         # window centre: share of the beam transit
        "WIN_POS_Q12": round(frac_x * 4096),          # ... share of the beam spacing
        "WIN_DV_Q12": round((2 * frac_t - 1) * 4096),
        "V_UP_NOM16": round(v_up_nom * 0.1 * q16),    # 10 um/us, Q16, nominal exit speed
        "V_WIN_NOM16": round(v_win_nom * 0.1 * q16),
        "WIN_DELAY_NOM_US": to_us(centre_time(geo, win, v0_mid) - centre_time(geo, up, v0_mid)),
        "TC_MIN_US": to_us(tc_min),
        "TC_MAX_US": to_us(tc_max),
        "EXTRA_US": round(extra_mid * 1000),
        # a block's middle comes this late (both its edges do, on average)
        "CENTRE_LAG_US": round(((fall_lo + fall_hi) / 2 + (rise_lo + rise_hi) / 2) / 2 * 1000),
        "DEBOUNCE_US": round(debounce_ms * 1000),
        "STUCK_US": round(stuck_ms * 1000),
        "DOUBLE_NOM_US": round((split / v_up_nom + extra_mid) * 1000),  # no lower beam: by time
        "ENTRY_MIN_US": round(entry_min * 1000),
        "EXIT_MAX_US": round(exit_max * 1000),
        "HOLD_US": round(hold_ms * 1000),
        "STUCK_TC_MAX_US": to_us(stuck_tc_max),
        "STUCK_HOLD_US": round(stuck_hold_ms * 1000),
        "STUCK_RUN_CU": round((lo - up - edge / 2) * 100),   # trail off the upper beam to the
        "STUCK_WIN_RUN_CU": round((win - up - edge / 2) * 100),  # lower / the window (centre)
        "QUIET_US": round(quiet_ms * 1000),
    }


def sim_physics(geo: Geometry) -> dict[str, int]:
    """The simulated board's physics constants, as ints (um, mm/s, mm/s^2, us, millidegrees,
    parts per million): private const()s cost the 64K heap nothing."""
    def um(name: str) -> int:
        return round(geo.num(name) * 1000)

    v0_lo, v0_hi = geo.range("exit_speed")
    fall_lo, fall_hi = geo.range("receiver_fall_delay")
    rise_lo, rise_hi = geo.range("receiver_rise_delay")
    return {
        "G_MM_S2": round(geo.num("gravity") * 1000),
        "CUBE_UM": um("cube_edge"),
        "CUBE_TOL_UM": um("cube_tolerance"),
        "V0_LO_MM_S": round(v0_lo * 1000),
        "V0_HI_MM_S": round(v0_hi * 1000),
        "TILT_MAX_MDEG": round(geo.num("tilt_max") * 1000),
        "TUMBLE_PPM": round(geo.num("tumble_share") * 1e6),
        "PAIR_PPM": round(geo.num("pair_share") * 1e6),
        "BEAM_UPPER_UM": um("beam_upper_drop"),
        "BEAM_LOWER_UM": um("beam_lower_drop"),
        "WINDOW_UM": um("colour_window_drop"),
        "SLIT_H_UM": round(slit_equivalent(geo)[0] * 1000),  # the band as a plain slit's
        "SLIT_D_UM": round(slit_equivalent(geo)[1] * 1000),
        "SIDE_GAP_UM": round((geo.num("chute_width") - geo.num("cube_edge")) * 1000),
        "FALL_LO_US": round(fall_lo * 1000),
        "FALL_HI_US": round(fall_hi * 1000),
        "RISE_LO_US": round(rise_lo * 1000),
        "RISE_HI_US": round(rise_hi * 1000),
        "MIN_GAP_US": round(geo.num("cube_gap_min") * 1000),
        "CHATTER_MAX_US": round(geo.num("chatter_max") * 1000),
    }


def collar_params(geo: Geometry) -> dict[str, float]:
    """collar.scad's parameters that follow from the geometry (mm). hardware/ generates the
    collar from this one function; tests compare the .scad file against it."""
    return {
        "cube_size": geo.num("cube_edge"),
        "chute_width": geo.num("chute_width"),
        "beam_upper_drop": geo.num("beam_upper_drop"),
        "beam_spacing": geo.num("beam_lower_drop") - geo.num("beam_upper_drop"),
        "beam_aperture_d": geo.num("beam_aperture"),
        "colour_window_drop": geo.num("colour_window_drop"),
        "colour_window_h": geo.num("colour_slit_height"),
        "colour_pocket_depth": geo.num("colour_pocket_depth"),
        "chute_bottom_drop": geo.num("chute_bottom_drop"),
        "outlet_width": geo.num("outlet_width"),
    }


# ---- the generated blocks -------------------------------------------------------------------
BEGIN = ("# ---- geometry: generated by hardware/geometry.py from hardware/geometry.json, "
         "do not edit")
END = "# ---- end of geometry"
DETECTOR = HERE.parent / "firmware" / "shogun_fw" / "detector.py"
SIM_BOARD = HERE.parent / "firmware" / "shogun_fw" / "boards" / "sim.py"


def render_blocks(geo: Geometry) -> dict[Path, str]:
    """The generated block of each firmware file. The detector's are private const()s: the
    compiler inlines them, so they cost no RAM in the 64K heap and nothing to look up."""
    det = [BEGIN, "# (times: us; lengths: 10 um, 'cu'; _Q12/_Q16/_Q: fixed point)"]
    det += [f"_{k} = const({v})" for k, v in firmware_timing(geo).items()]
    sim = [BEGIN, "# (ints, their units in their names: no RAM in the 64K heap)"]
    sim += [f"_{k} = const({v})" for k, v in sim_physics(geo).items()]
    return {DETECTOR: "\n".join(det + [END]), SIM_BOARD: "\n".join(sim + [END])}


def splice(text: str, block: str, path: Path) -> str:
    """``text`` with its generated block replaced by ``block``."""
    try:
        a = text.index(BEGIN)
        b = text.index(END, a) + len(END)
    except ValueError:
        raise GeometryError(f"{path}: no generated geometry block ({BEGIN!r} ... {END!r}); "
                            "put the two marker lines back") from None
    return text[:a] + block + text[b:]


def stale_files(geo: Geometry) -> list[Path]:
    return [p for p, block in render_blocks(geo).items()
            if splice(p.read_text(), block, p) != p.read_text()]


def check_table(geo: Geometry) -> str:
    """The generated blocks against geometry.json, one row each."""
    stale = stale_files(geo)
    what = {DETECTOR: ("the detector's timing", len(firmware_timing(geo))),
            SIM_BOARD: ("the simulated board's physics", len(sim_physics(geo)))}
    rows = ["| generated from geometry.json | file | constants | state |",
            "| --- | --- | --- | --- |"]
    for path, (name, n) in what.items():
        state = "STALE: python hardware/geometry.py --write" if path in stale else "up to date"
        rows.append(f"| {name} | {path.relative_to(HERE.parent)} | {n} | {state} |")
    return "\n".join(rows)


def main(argv: list[str]) -> int:
    try:
        geo = load()
    except GeometryError as exc:
        print(f"geometry: {exc}", file=sys.stderr)
        return 1
    if "--write" in argv:
        for path, block in render_blocks(geo).items():
            path.write_text(splice(path.read_text(), block, path))
            print(f"wrote the geometry block of {path}")
        return 0
    if "--check" in argv:
        print(check_table(geo))
        stale = stale_files(geo)
        for path in stale:
            print(f"{path.relative_to(HERE.parent)}: its geometry block is stale: run "
                  "python hardware/geometry.py --write", file=sys.stderr)
        return 1 if stale else 0
    for k, v in firmware_timing(geo).items():
        print(f"{k:18} {v}")
    print("assumed:", ", ".join(geo.assumed()))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
