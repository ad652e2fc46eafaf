"""The collar's parameters, from hardware/geometry.json and only from it.

geometry.json's "values" (the outlet's geometry, read through hardware/geometry.py, whose
`collar_params` names the sensing part) and its "build" section (printing and part values,
validated here) give every number collar.scad uses. `python hardware/collar.py --write`
writes them to hardware/collar_params.scad, which collar.scad includes; `--check` fails when
that file is stale (tests/hardware/test_collar.py checks it too, and probes the rendered STL).
`python hardware/collar.py` prints the derived build numbers (stand, plywood cut-out, ramp).
"""

from __future__ import annotations

import json
import math
import sys
from dataclasses import dataclass
from pathlib import Path

HERE = Path(__file__).resolve().parent
if str(HERE) not in sys.path:
    sys.path.insert(0, str(HERE))

import geometry  # noqa: E402 - hardware/geometry.py, the loader of geometry.json

PARAMS_SCAD = HERE / "collar_params.scad"

# name -> unit; "range" values are [low, high]
BUILD_FIELDS: dict[str, str] = {
    "wall": "mm", "flange_margin": "mm", "flange_thickness": "mm", "mount_hole_d": "mm",
    "funnel_height": "mm", "fit_clearance": "mm", "print_undersize": "mm",
    "liner_thickness": "mm", "beam_aperture_len": "mm", "beam_lens_d": "mm",
    "beam_lens_len": "mm", "beam_body_length": "mm", "beam_body_height": "mm",
    "beam_body_width": "mm", "beam_seat_depth": "mm", "colour_board_w": "mm",
    "colour_board_h": "mm", "colour_board_recess": "mm", "colour_sensor_x": "mm",
    "colour_led_x": "mm", "colour_window_w": "mm", "colour_led_window_w": "mm",
    "colour_led_window_h": "mm", "colour_led_aim_x": "mm", "colour_led_die_w": "mm",
    "colour_led_x_tol": "mm", "wall_reflectance": "1", "cable_exit_d": "mm",
    "cable_exit_drop": "mm", "ramp_angle": "deg", "ramp_run": "mm", "friction": "1",
    "tray_clearance": "mm", "stand_top_thickness": "mm", "pile_cubes": "1",
    "pile_repose_angle": "deg", "pile_packing": "1", "wall_restitution": "1",
    "tower_exit_speed": "m/s",
}
RANGES = {"print_undersize", "friction", "wall_restitution", "tower_exit_speed"}
# positions across the board may be negative
SIGNED = {"colour_sensor_x", "colour_led_x", "colour_led_aim_x"}
# build values for the checks, not for the shape
NOT_IN_SCAD = {"tray_clearance", "colour_led_die_w", "colour_led_x_tol",
               "wall_reflectance", "pile_cubes", "pile_repose_angle", "pile_packing",
               "wall_restitution"}
COUNTERSINK_D = 6.4  # ISO 10642 M3 countersunk head, 6 mm, plus clearance


@dataclass(frozen=True)
class Build:
    values: dict[str, object]
    status: dict[str, str]

    def num(self, name: str) -> float:
        return float(self.values[name])  # type: ignore[arg-type]

    def range(self, name: str) -> tuple[float, float]:
        lo, hi = self.values[name]  # type: ignore[misc]
        return float(lo), float(hi)


def load_build(path: Path = geometry.GEOMETRY_JSON) -> Build:
    """geometry.json's "build" section, every value with its unit, status and how/why."""
    try:
        raw = json.loads(Path(path).read_text()).get("build")
    except (OSError, json.JSONDecodeError) as exc:
        raise geometry.GeometryError(f"{path}: cannot read it as JSON ({exc})") from None
    if not isinstance(raw, dict):
        raise geometry.GeometryError(f"{path}: 'build' must be an object of name -> entry")
    values: dict[str, object] = {}
    status: dict[str, str] = {}
    for name, unit in BUILD_FIELDS.items():
        entry = raw.get(name)
        where = f"{path}: build.{name}"
        if not isinstance(entry, dict) or "value" not in entry:
            raise geometry.GeometryError(f"{where} is missing (an object with value, unit, "
                                         "status)")
        if entry.get("unit") != unit:
            raise geometry.GeometryError(f"{where}: unit must be {unit!r}")
        st = entry.get("status")
        if st not in geometry.STATUSES:
            raise geometry.GeometryError(f"{where}: status must be 'measured' or 'assumed'")
        note = entry.get(geometry.STATUSES[st])
        if not isinstance(note, str) or len(note.strip()) < 10:
            raise geometry.GeometryError(f"{where}: a {st} value needs "
                                         f"'{geometry.STATUSES[st]}' (a sentence)")
        v = entry["value"]
        if name in RANGES:
            if (not isinstance(v, list) or len(v) != 2 or v[0] > v[1]
                    or not all(isinstance(x, (int, float)) and x >= 0 for x in v)):
                raise geometry.GeometryError(f"{where}: must be [low, high], 0 <= low <= high")
        elif (not isinstance(v, (int, float)) or isinstance(v, bool)
              or (v < 0 and name not in SIGNED)):
            raise geometry.GeometryError(f"{where}: must be a number >= 0")
        values[name] = v
        status[name] = st
    unknown = sorted(set(raw) - set(BUILD_FIELDS))
    if unknown:
        raise geometry.GeometryError(f"{path}: unknown build value(s) {', '.join(unknown)}: "
                                     "add them to hardware/collar.py BUILD_FIELDS or remove them")
    return Build(values, status)


# ---- what follows for the build -------------------------------------------------------------
def ramp_drop(b: Build) -> float:
    return b.num("ramp_run") * math.tan(math.radians(b.num("ramp_angle")))


def ramp_exit_speed(geo: geometry.Geometry, b: Build, v_in: float = 0.0,
                    mu: float | None = None) -> tuple[float, float]:
    """(speed along the ramp, its vertical part) in m/s at the ramp's end for a cube entering
    it at v_in (m/s) and sliding with friction mu (by default the middle of build.friction)."""
    a = math.radians(b.num("ramp_angle"))
    mu = sum(b.range("friction")) / 2 if mu is None else mu
    length = b.num("ramp_run") / 1000 / math.cos(a)
    v2 = v_in ** 2 + 2 * geo.num("gravity") * length * (math.sin(a) - mu * math.cos(a))
    v = math.sqrt(max(0.0, v2))
    return v, v * math.sin(a)


Box = tuple[float, float, float, float]  # x0, x1, z0, z1: an opening across the colour wall


def colour_openings(geo: geometry.Geometry, b: Build) -> dict[str, Box]:
    """The colour window's openings (x along the wall, z from the window's centre, mm): the
    sensor channel (the same at the board and at the pocket), the LED channel at the board
    and at the pocket (it leans towards the sensor), the pocket's back (both channels' ends)
    and its mouth in the chute face: wide enough for every ray the sensor channel lets
    through, and chamfered at 45 degrees below (the pocket's floor sheds a cube's edge and
    prints upside down without support)."""
    h, depth = geo.num("colour_slit_height"), geo.num("colour_slit_depth")
    pocket = geo.num("colour_pocket_depth")
    sx, ws = b.num("colour_sensor_x"), b.num("colour_window_w")
    lx, aim = b.num("colour_led_x"), b.num("colour_led_aim_x")
    wl, hl = b.num("colour_led_window_w"), b.num("colour_led_window_h")
    sensor = (sx - ws / 2, sx + ws / 2, -h / 2, h / 2)
    led_front = (aim - wl / 2, aim + wl / 2, -hl / 2, hl / 2)
    spread = 1 + 2 * pocket / (depth - pocket)  # the sensor channel's full acceptance
    back = (min(sensor[0], led_front[0]), max(sensor[1], led_front[1]),
            min(sensor[2], led_front[2]), max(sensor[3], led_front[3]))
    mouth = (min(back[0], sx - ws / 2 * spread), max(back[1], sx + ws / 2 * spread),
             min(back[2], -h / 2 * spread) - pocket, max(back[3], h / 2 * spread))
    return {"sensor": sensor, "led_rear": (lx - wl / 2, lx + wl / 2, -hl / 2, hl / 2),
            "led_front": led_front, "pocket_back": back, "mouth": mouth}


def side(geo: geometry.Geometry) -> bool:
    return geo.exit_direction == "side"


def stand_top_z(geo: geometry.Geometry, b: Build) -> float:
    """Height of the stand's top surface, in the collar's coordinates (z = 0: fall start)."""
    if side(geo):
        return ramp_drop(b) - geo.num("outlet_sill_height")  # the tower's base on it
    return -b.num("flange_thickness")  # the collar's flange lies on it, the tower on the flange


def stand_height(geo: geometry.Geometry, b: Build) -> float:
    """From the table (the tray's floor) to the stand's top surface: the legs plus the top."""
    table_z = -geo.num("chute_bottom_drop") - b.num("tray_clearance")
    return stand_top_z(geo, b) - table_z


def below_stand(geo: geometry.Geometry, b: Build) -> tuple[float, float, float, float]:
    """(x0, x1, y0, y1): the footprint of everything that hangs below the stand's top (the
    chute, its bosses, the ramp's underside or the funnel), from the same numbers collar.scad
    draws them with."""
    w, gap = b.num("wall"), b.num("fit_clearance") + b.num("liner_thickness")
    half = geo.num("chute_width") / 2
    outer = half + w
    beam_x = half + b.num("beam_aperture_len") + b.num("beam_lens_len") + b.num("beam_seat_depth")
    beam_y = max(outer, (b.num("beam_body_width") + 2 * gap) / 2 + w)
    colour_y = half + geo.num("colour_slit_depth") + b.num("colour_board_recess")
    colour_x = (b.num("colour_board_w") + 2 * b.num("fit_clearance")) / 2 + w
    lug_y = half + w + b.num("cable_exit_d") + 2 * w
    x0, x1 = -beam_x, beam_x
    y0, y1 = -max(beam_y, lug_y), max(beam_y, colour_y)
    x0, x1 = min(x0, -colour_x), max(x1, colour_x)
    if side(geo):
        x0 = min(x0, -(half + b.num("ramp_run")))
        ramp_y = geo.num("outlet_width") / 2 + w
        y0, y1 = min(y0, -ramp_y), max(y1, ramp_y)
    else:
        ox, oy = geo.num("outlet_width") / 2 + w, geo.num("outlet_height") / 2 + w
        x0, x1, y0, y1 = min(x0, -ox), max(x1, ox), min(y0, -oy), max(y1, oy)
    return x0, x1, y0, y1


def hole(geo: geometry.Geometry, b: Build) -> tuple[float, float, float, float]:
    """The stand's cut-out (x0, x1, y0, y1): what hangs below it, plus the fit clearance."""
    c = b.num("fit_clearance")
    x0, x1, y0, y1 = below_stand(geo, b)
    return x0 - c, x1 + c, y0 - c, y1 + c


def cutout(geo: geometry.Geometry, b: Build) -> tuple[float, float]:
    """The hole in the stand's top, along x and across (y), mm."""
    x0, x1, y0, y1 = hole(geo, b)
    return x1 - x0, y1 - y0


def scad_params(geo: geometry.Geometry, b: Build) -> dict[str, object]:
    """Every parameter collar.scad uses, in the order collar_params.scad lists them."""
    out: dict[str, object] = {"exit_side": side(geo)}
    out.update(geometry.collar_params(geo))
    out.update({
        "outlet_height": geo.num("outlet_height"),
        "outlet_sill_height": geo.num("outlet_sill_height"),
        "colour_slit_depth": geo.num("colour_slit_depth"),
    })
    scad_build = [k for k in BUILD_FIELDS if k not in RANGES and k not in NOT_IN_SCAD]
    out.update({k: b.num(k) for k in scad_build})
    out.update({f"colour_{k}": [round(x, 3) for x in v]
                for k, v in colour_openings(geo, b).items()})
    out.update({
        "ramp_drop": round(ramp_drop(b), 3),
        "stand_top_z": round(stand_top_z(geo, b), 3),
        "stand_hole": [round(v, 3) for v in hole(geo, b)],
        "countersink_d": COUNTERSINK_D,
    })
    return out


def _scad(v: object) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, (list, tuple)):
        return "[" + ", ".join(_scad(x) for x in v) + "]"
    return f"{float(v):g}"  # type: ignore[arg-type]


def render_params(geo: geometry.Geometry, b: Build) -> str:
    lines = ["// Generated by hardware/collar.py from hardware/geometry.json: do not edit.",
             "// Change geometry.json, then: python hardware/collar.py --write "
             "(make -C hardware params)."]
    lines += [f"{k} = {_scad(v)};" for k, v in scad_params(geo, b).items()]
    return "\n".join(lines) + "\n"


def problems(geo: geometry.Geometry, b: Build) -> list[str]:
    """Rules of the build (printing, sliding, mounting); [] when all hold."""
    out = []
    friction_deg = math.degrees(math.atan(b.range("friction")[1]))
    if side(geo):
        if b.num("ramp_angle") < 45:
            out.append("ramp_angle below 45 degrees: the ramp prints upside down only with "
                       "support")
        if b.num("ramp_angle") < friction_deg + 10:
            out.append(f"ramp_angle within 10 degrees of the friction angle "
                       f"({friction_deg:.0f}): cubes may stop on the ramp")
        v0_lo, v0_hi = geo.range("exit_speed")
        for v_in in (0.0, 1.0):
            vy = max(ramp_exit_speed(geo, b, v_in, mu)[1] for mu in b.range("friction"))
            if not v0_lo <= vy <= v0_hi:
                out.append(f"a cube entering the ramp at {v_in} m/s leaves it at {vy:.2f} m/s "
                           f"downwards, outside geometry.json's exit_speed {v0_lo}-{v0_hi}")
    body = b.num("beam_body_height") + 2 * (b.num("fit_clearance") + b.num("liner_thickness"))
    spacing = geo.num("beam_lower_drop") - geo.num("beam_upper_drop")
    if spacing - body < b.num("wall"):
        out.append("the two beam seats are closer than a wall: beam bodies do not fit")
    if stand_height(geo, b) <= b.num("stand_top_thickness"):
        out.append("the stand would be lower than its own top")
    if b.num("beam_seat_depth") > b.num("beam_body_length"):
        out.append("beam_seat_depth is deeper than the beam part's body")
    underside = stand_top_z(geo, b) - b.num("stand_top_thickness")
    if underside < highest_boss(geo, b):
        out.append(f"the stand's top ({underside:.0f} mm underneath) would cut into the sensing "
                   f"bosses (up to {highest_boss(geo, b):.0f} mm): the outlet's sill is too "
                   "high for this ramp; raise ramp_run")
    return out


def highest_boss(geo: geometry.Geometry, b: Build) -> float:
    """The highest point of the bosses on the chute (their 45-degree chamfers), z in mm."""
    w, gap = b.num("wall"), b.num("fit_clearance") + b.num("liner_thickness")
    beam = (-geo.num("beam_upper_drop") + b.num("beam_body_height") / 2 + gap + w
            + b.num("beam_aperture_len") + b.num("beam_lens_len") + b.num("beam_seat_depth"))
    colour = (-geo.num("colour_window_drop") + b.num("colour_board_h") / 2
              + b.num("fit_clearance") + w + geo.num("colour_slit_depth")
              + b.num("colour_board_recess"))
    lug = -b.num("cable_exit_drop") + b.num("cable_exit_d") / 2 + w + b.num("cable_exit_d") + 3 * w
    return max(beam, colour, lug)


def main(argv: list[str]) -> int:
    try:
        geo, b = geometry.load(), load_build()
    except geometry.GeometryError as exc:
        print(f"collar: {exc}", file=sys.stderr)
        return 1
    text = render_params(geo, b)
    if "--write" in argv:
        # unchanged: left as it is, so that make does not render the collar again for nothing
        if PARAMS_SCAD.exists() and PARAMS_SCAD.read_text() == text:
            print(f"{PARAMS_SCAD.name}: up to date")
            return 0
        PARAMS_SCAD.write_text(text)
        print(f"wrote {PARAMS_SCAD.name}")
        return 0
    if "--check" in argv:
        bad = problems(geo, b)
        stale = not PARAMS_SCAD.exists() or PARAMS_SCAD.read_text() != text
        for p in bad:
            print("PROBLEM:", p)
        if stale:
            print(f"{PARAMS_SCAD} is stale: run python hardware/collar.py --write",
                  file=sys.stderr)
        print("collar:", "broken" if bad or stale else "ok")
        return 1 if bad or stale else 0
    for row in build_rows(geo, b):
        print(f"{row[0]}: {row[1]}")
    return 0


def build_rows(geo: geometry.Geometry, b: Build) -> list[tuple[str, str]]:
    cx, cy = cutout(geo, b)
    rows = [("tower outlet", f"{geo.exit_direction}, {geo.num('outlet_width'):g} x "
                             f"{geo.num('outlet_height'):g} mm, sill "
                             f"{geo.num('outlet_sill_height'):g} mm above the tower's base")]
    if side(geo):
        v0, vy0 = ramp_exit_speed(geo, b, 0.0)
        v1, vy1 = ramp_exit_speed(geo, b, 1.0)
        rows += [
            ("side chute ramp", f"{b.num('ramp_angle'):g} deg, {b.num('ramp_run'):g} mm run, "
                                f"{ramp_drop(b):.1f} mm drop"),
            ("cube speed leaving the ramp (entering at 0 / 1 m/s)",
             f"{v0:.2f} / {v1:.2f} m/s, downwards {vy0:.2f} / {vy1:.2f} m/s"),
        ]
    rows += [
        ("stand: table to the top's upper face", f"{stand_height(geo, b):.0f} mm"),
        ("stand: legs (top's thickness off)",
         f"{stand_height(geo, b) - b.num('stand_top_thickness'):.0f} mm"),
        ("stand: cut-out in the top", f"{cx:.1f} x {cy:.1f} mm"),
    ]
    return rows


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
