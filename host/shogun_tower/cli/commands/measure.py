"""`shogun-tower measure`: a first build measures its own tower, with the collar fitted.

Guided, step by step, for the builder at the table:
1. the outlet: where the cubes leave, the opening's width and height, the sill (a ruler);
2. the upper beam: a cube held against the wall on the emitters' side, then on the receivers'
   side; the tower's hardware counter must count each (a beam that misses a cube at one wall is
   misaligned or blocked);
3. drops: a cube dropped flat from the outlet's lip, 50 times; the upper beam's block times
   give the speed each cube leaves the outlet with (free fall from the fall start to the beam,
   the receivers' delays as geometry.json says);
then it writes the measured values into hardware/geometry.json, each marked `measured` with how,
regenerates what depends on them (geometry.py --write: the firmware's timing and the simulated
board's physics; collar.py --write: the collar; gen_sim_optics.py --write: the simulated board's
colour optics) and says what changed. A geometry that breaks a rule is not written: the rule is
said and the file stays as it was.

With --sim the simulated tower stands in for the real one and the command plays the builder's
hands (a held cube is a long pulse on the upper beam's inject input; a drop is a one-cube throw
with nothing lodging in the tower); the builder still types the outlet's size.
"""

from __future__ import annotations

import argparse
import dataclasses
import importlib.util
import json
import math
import pathlib
import queue
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from types import ModuleType

from shogun_common import protocol as P
from shogun_tower.device.link import DeviceLink
from shogun_tower.errors import ShogunError
from shogun_tower.i18n import N_, _, ngettext
from shogun_tower.sim_device import SimulatedTower, repo_root

DROPS = 50
_BAD_DROP = P.FLAG_DOUBLE | P.FLAG_STUCK | P.FLAG_RECOVERED
_HELD_US = 60000  # --sim: a held cube, as the longest pulse INJECT gives (its u16 us)


def register(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser(
        "measure", help=_("a first build measures its tower: outlet, beams, 50 flat drops"),
        description=_("Guides you through measuring your tower with the collar fitted (the "
                      "outlet's size, a cube held against each wall at the upper beam, flat "
                      "drops), writes the values into hardware/geometry.json marked 'measured' "
                      "and regenerates what depends on them."))
    p.add_argument("--port", help=_("serial port of the tower, e.g. /dev/ttyUSB0"))
    p.add_argument("--sim", action="store_true",
                   help=_("measure the simulated tower (the command drops and holds the cubes)"))
    p.add_argument("--drops", type=int, default=DROPS,
                   help=_("flat drops to time (default {n})").format(n=DROPS))
    p.add_argument("--timeout", type=float, default=300.0,
                   help=_("seconds to wait for the drops on a real tower (default 300)"))
    p.add_argument("--checkout", type=pathlib.Path, default=None,
                   help=argparse.SUPPRESS)  # tests: a copy of the checkout to write into
    p.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    if not args.port and not args.sim:
        raise ShogunError(_("measure needs the tower: give --port PORT (e.g. /dev/ttyUSB0), "
                            "or --sim for the simulated tower"))
    if args.drops < 5:
        raise ShogunError(_("--drops must be at least 5"))
    root = args.checkout or repo_root()
    geometry = _geometry_module(root)
    try:
        geo = geometry.load()
    except geometry.GeometryError as exc:
        raise ShogunError(f"{exc}") from None
    print(_("Measuring your tower: answer each question, Enter to go on (Ctrl-C stops; "
            "nothing is written until the end)."))
    values = _ask_outlet(geo)
    if args.sim:
        options = ["--pass-p", "1", "--tumble-p", "0"]
        with SimulatedTower(seed=1, options=options) as sim, DeviceLink(sim.port) as link:
            link.handshake(wait_s=5)
            beams = _check_beam(link, simulated=True)
            speeds = _drops(link, geometry, geo, args.drops, args.timeout, simulated=True)
    else:
        with DeviceLink(args.port) as link:
            link.handshake(wait_s=5)
            beams = _check_beam(link, simulated=False)
            speeds = _drops(link, geometry, geo, args.drops, args.timeout, simulated=False)
    lo, hi = _spread(speeds)
    values["exit_speed"] = Measured(
        [lo, hi], f"shogun-tower measure: {len(speeds)} flat drops from the outlet's lip, the "
        f"speed from each upper-beam block time (free fall from the fall start, the receivers' "
        f"delays as assumed here), the middle 90 % of them ({min(speeds):.2f}-"
        f"{max(speeds):.2f} m/s in all)")
    print(_("upper beam: {beams}").format(beams=beams))
    return _write(root, geometry, values)


# ---- the questions ----------------------------------------------------------------------------
@dataclasses.dataclass
class Measured:
    value: object
    how: str


def _ask(question: str, parse: Callable[[str], object]) -> object:
    """Ask until the answer parses; a wrong one gets one line saying what was wrong."""
    while True:
        try:
            answer = input(question + " ").strip()
        except EOFError:
            raise ShogunError(_("no answer (end of input): run measure again")) from None
        try:
            return parse(answer)
        except ValueError as exc:
            print(f"  {exc}", flush=True)


def _mm(low: float, high: float) -> Callable[[str], float]:
    def parse(text: str) -> float:
        try:
            v = float(text.replace(",", ".").removesuffix("mm").strip())
        except ValueError:
            raise ValueError(_("{text!r} is not a number of millimetres: type e.g. "
                               "38.5").format(text=text)) from None
        if not (low <= v <= high) or math.isnan(v):
            raise ValueError(_("{value} mm is outside {low}-{high} mm: measure again").format(
                value=f"{v:g}", low=f"{low:g}", high=f"{high:g}"))
        return v
    return parse


def _direction(text: str) -> str:
    if text.lower() in ("side", "s"):
        return "side"
    if text.lower() in ("down", "d"):
        return "down"
    raise ValueError(_("{text!r}: type side or down").format(text=text))


def _ask_outlet(geo: object) -> dict[str, Measured]:
    print()
    print(_("1. The outlet (a ruler or calipers, inside the opening)"))
    direction = _ask(_("Do the cubes leave through the side of the tower's foot, or down "
                       "through its base (side or down)?"), _direction)
    width = _ask(_("The opening's width across, in mm?"), _mm(10, 200))
    height = _ask(_("Its height (for a downward exit: its depth front to back), in mm?"),
                  _mm(10, 200))
    out = {"exit_direction": Measured(direction, "shogun-tower measure: the builder looked"),
           "outlet_width": Measured(width, "shogun-tower measure: ruler across the opening"),
           "outlet_height": Measured(height, "shogun-tower measure: ruler, the opening's height "
                                             "(front to back for a downward exit)")}
    if direction == "side":
        sill = _ask(_("The sill: how high is the opening's floor above the table, in mm "
                      "(0 if the cubes roll out at table level)?"), _mm(0, 100))
        out["outlet_sill_height"] = Measured(
            sill, "shogun-tower measure: ruler, the opening's floor above the table")
    return out


def _check_beam(link: DeviceLink, simulated: bool) -> str:
    print()
    print(_("2. The upper beam"))
    for side in (N_("the emitters' side"), N_("the receivers' side")):
        wall = _(side)
        before = link.status()["hw_count"]
        if simulated:
            print(_("Hold a cube against the chute's wall on {wall} at the upper beam for a "
                    "second, then take it out. (simulated: held)").format(wall=wall), flush=True)
            link.inject(1, _HELD_US, 1000)
        else:
            _ask(_("Hold a cube against the chute's wall on {wall} at the upper beam for a "
                   "second, take it out, then press Enter.").format(wall=wall), lambda s: s)
        deadline = time.monotonic() + _HELD_US / 1e6 + 3
        while link.status()["hw_count"] == before and time.monotonic() < deadline:
            time.sleep(0.1)
        if link.status()["hw_count"] == before:
            raise ShogunError(_("the upper beam did not see a cube held against {wall}: check "
                                "that its emitter and receiver face each other through the "
                                "apertures and nothing covers them, then run measure "
                                "again").format(wall=wall))
        print("  " + _("seen against {wall}").format(wall=wall), flush=True)
    return _("sees a cube against either wall")


def _drops(link: DeviceLink, geometry: ModuleType, geo: object, n: int, timeout: float,
           simulated: bool) -> list[float]:
    print()
    print(_("3. {n} flat drops").format(n=n))
    if simulated:
        print(_("The simulated tower drops {n} cubes, one at a time.").format(n=n), flush=True)
    else:
        print(_("Drop a cube flat from the outlet's lip, {n} times, one at a time (any colour; "
                "let each fall through before the next).").format(n=n), flush=True)
    while not link.events.empty():
        link.events.get_nowait()
    speeds: list[float] = []
    skipped = 0
    deadline = time.monotonic() + timeout
    while len(speeds) < n and time.monotonic() < deadline:
        if simulated:
            link.sim_throw({"black": 1})
        try:
            event = link.events.get(timeout=2.0 if simulated else 1.0)
        except queue.Empty:
            continue
        if event.kind != "cube":
            continue
        if event.data["flags"] & _BAD_DROP:
            skipped += 1
            continue
        speeds.append(exit_speed(geometry, geo, event.data["block_us"]))
        print(f"\r  {len(speeds)}/{n}", end="", flush=True)
        if simulated:  # (the throw's end, before the next)
            _drain_until(link, "throw_end", 3.0)
    print()
    if len(speeds) < 5:
        raise ShogunError(ngettext(
            "only {n} drop was timed in {seconds} s: drop cubes while the command waits, or "
            "raise --timeout",
            "only {n} drops were timed in {seconds} s: drop cubes while the command waits, or "
            "raise --timeout", len(speeds)).format(n=len(speeds), seconds=f"{timeout:.0f}"))
    if skipped:
        print("  " + ngettext("{n} drop left out: two cubes together, held in the beam, or "
                              "seen by the hardware counter only",
                              "{n} drops left out: two cubes together, held in the beam, or "
                              "seen by the hardware counter only", skipped).format(n=skipped))
    return speeds


def _drain_until(link: DeviceLink, kind: str, wait_s: float) -> None:
    deadline = time.monotonic() + wait_s
    while time.monotonic() < deadline:
        try:
            if link.events.get(timeout=max(0.0, deadline - time.monotonic())).kind == kind:
                return
        except queue.Empty:
            return


def exit_speed(geometry: ModuleType, geo: object, block_us: int) -> float:
    """The speed (m/s, downwards) a flat cube left the fall start with, from how long it blocked
    the upper beam: its bottom face falls from the beam to an edge below it in that time, less
    how much longer the receivers make a block (geometry.json's delays, their middles)."""
    up, edge = geo.num("beam_upper_drop"), geo.num("cube_edge")  # type: ignore[attr-defined]
    extra = geo.mid("receiver_rise_delay") - geo.mid("receiver_fall_delay")  # type: ignore[attr-defined]
    block = block_us / 1e6 - extra / 1000

    def crossing(v0: float) -> float:
        return geometry.fall_time(geo, up + edge, v0) - geometry.fall_time(geo, up, v0)

    if block >= crossing(0.0):
        return 0.0
    lo, hi = 0.0, 20.0
    for _step in range(60):  # crossing() falls as v0 rises: bisect
        mid = (lo + hi) / 2
        if crossing(mid) > block:
            lo = mid
        else:
            hi = mid
    return (lo + hi) / 2


def _spread(speeds: list[float]) -> tuple[float, float]:
    s = sorted(speeds)
    cut = len(s) // 20
    kept = s[cut:len(s) - cut] if cut else s
    return round(kept[0], 2), round(kept[-1], 2)


# ---- geometry.json and what follows from it ----------------------------------------------------
def _geometry_module(root: pathlib.Path) -> ModuleType:
    path = root / "hardware" / "geometry.py"
    spec = importlib.util.spec_from_file_location("measured_geometry", path)
    if spec is None or spec.loader is None:
        raise ShogunError(_("{path} is missing: run measure from the project's checkout").format(
            path=path))
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # (dataclasses look their module up there)
    spec.loader.exec_module(module)
    return module


def dump(data: dict) -> str:
    """geometry.json as the project writes it: an entry's value and unit on one line, each of
    its other fields on a line of its own."""
    out = ["{"]
    keys = list(data)
    for k in keys:
        comma = "" if k == keys[-1] else ","
        v = data[k]
        if not isinstance(v, dict):
            out.append(f"  {json.dumps(k)}: {json.dumps(v, ensure_ascii=False)}{comma}")
            continue
        out.append(f"  {json.dumps(k)}: {{")
        names = list(v)
        for name in names:
            e = v[name]
            lines = [f'      "value": {json.dumps(e["value"], ensure_ascii=False)}, '
                     f'"unit": {json.dumps(e["unit"], ensure_ascii=False)}']
            lines += [f"      {json.dumps(f)}: {json.dumps(e[f], ensure_ascii=False)}"
                      for f in e if f not in ("value", "unit")]
            out.append(f"    {json.dumps(name)}: {{")
            out.append(",\n".join(lines))
            out.append("    }" + ("" if name == names[-1] else ","))
        out.append("  }" + comma)
    out.append("}")
    return "\n".join(out) + "\n"


def _regenerate(root: pathlib.Path) -> list[tuple[str, list[str]]]:
    """Run the generators; per generated file, the lines that changed (old -> new)."""
    scripts = [("hardware/geometry.py", ["firmware/shogun_fw/detector.py",
                                         "firmware/shogun_fw/boards/sim.py"]),
               ("hardware/collar.py", ["hardware/collar_params.scad"]),
               ("firmware/gen_sim_optics.py", ["firmware/shogun_fw/boards/sim.py"])]
    changed = []
    for script, outputs in scripts:
        before = {o: (root / o).read_text() for o in outputs if (root / o).exists()}
        proc = subprocess.run([sys.executable, str(root / script), "--write"],
                              capture_output=True, text=True, timeout=600)
        if proc.returncode != 0:
            raise ShogunError(_("{script} --write failed: {error} (geometry.json is written; fix "
                                "it and run {script} --write)").format(
                                    script=script, error=proc.stderr.strip().splitlines()[-1]))
        for o in outputs:
            old = before.get(o, "").splitlines()
            new = (root / o).read_text().splitlines()
            gone = [ln for ln in old if ln not in set(new)]
            came = [ln for ln in new if ln not in set(old)]
            if gone or came:
                changed.append((o, _pairs(gone, came)))
    return changed


def _pairs(gone: list[str], came: list[str]) -> list[str]:
    """Changed assignments as 'name: old -> new'; other changed lines as they are."""
    def split(line: str) -> tuple[str, str] | None:
        name, eq, value = line.partition(" = ")
        return (name.strip(), value.strip().removeprefix("const(").rstrip(";)")) if eq else None

    olds = {s[0]: s[1] for s in map(split, gone) if s}
    out = []
    for line in came:
        s = split(line)
        if s and s[0] in olds:
            out.append(f"{s[0]}: {olds.pop(s[0])} -> {s[1]}")
        else:
            out.append(f"+ {line}")
    out += [f"- {ln}" for ln in gone if (split(ln) or ("",))[0] in olds or not split(ln)]
    return out


def _write(root: pathlib.Path, geometry: ModuleType, values: dict[str, Measured]) -> int:
    path = root / "hardware" / "geometry.json"
    data = json.loads(path.read_text())
    changes = []
    for name, m in values.items():
        entry = data["values"][name]
        old, unit = entry["value"], entry["unit"]
        data["values"][name] = {"value": m.value, "unit": unit, "status": "measured",
                                "how": m.how}
        changes.append("  " + _("{name}: {old} -> {new} (was {status})").format(
            name=name, old=old, new=f"{m.value}{' ' + unit if unit else ''}",
            status=entry["status"]))
    text = dump(data)
    with tempfile.TemporaryDirectory() as tmp:
        trial = pathlib.Path(tmp) / "geometry.json"
        trial.write_text(text)
        try:
            geometry.load(trial)
        except geometry.GeometryError as exc:
            rule = str(exc).split(": ", 1)[-1]
            raise ShogunError(_("the measured tower breaks a rule: {rule}; nothing written "
                                "(hardware/README.md, Measure your tower)").format(
                                    rule=rule)) from None
    path.write_text(text)
    print()
    print(_("wrote {path}:").format(path="hardware/geometry.json"))
    print("\n".join(changes))
    regenerated = _regenerate(root)
    if not regenerated:
        print(_("nothing that follows from it changed"))
    for name, lines in regenerated:
        print(_("regenerated {name}:").format(name=name))
        print("\n".join(f"  {ln}" for ln in lines[:40]))
        if len(lines) > 40:
            print("  " + ngettext("... and {n} more line", "... and {n} more lines",
                                  len(lines) - 40).format(n=len(lines) - 40))
    problems = _checks(root)
    for line in problems:
        print(_("check: {problem}").format(problem=line))
    if problems:
        print(_("The tower as measured breaks a rule of the build above: see hardware/README.md "
                "(Measure your tower), change the build's values, then make hardware."))
    print(_("Next: make hardware (the collar and its checks), make deploy (the firmware's new "
            "timing)."))
    return 0


def _checks(root: pathlib.Path) -> list[str]:
    """What the generators' own checks say about the regenerated files (nothing: all is well)."""
    out = []
    for script in ("hardware/geometry.py", "hardware/collar.py", "firmware/gen_sim_optics.py"):
        proc = subprocess.run([sys.executable, str(root / script), "--check"],
                              capture_output=True, text=True, timeout=600)
        if proc.returncode != 0:
            said = (proc.stdout + proc.stderr).strip().splitlines()
            out += [f"{script}: {ln}" for ln in said if ln.strip()][:5]
    return out
