"""The cubes' way from the tower's outlet through the beams, from geometry.json, against what
the detector assumes: its pairing window, its split of one cube from two, its colour window.

The model (2-D, in the plane of the ramp and the beams; rigid square cubes; no fitted numbers):
- Bodies: cubes of geometry.json's edge (the largest, edge + tolerance), mass 1, moment of
  inertia a^2 / 6 (a uniform cube about an axis through its centre parallel to a face).
- The collar as built (collar.scad's numbers): the tower's floor at the outlet's sill, the
  45-degree ramp (build.ramp_angle, ramp_run), the chute's near wall below the ramp's end and
  its far wall up to the ramp's rim, chute_width apart.
- Contacts: a corner of one body inside a wall or inside the other cube. Each contact takes
  an impulse (Newton's restitution on the normal speed, build.wall_restitution; Coulomb
  friction on the tangential, at most build.friction times the normal impulse: enough to stop
  the slip, no more), solved body against body, several passes a step (sequential impulses,
  as rigid-body engines such as Box2D solve contacts); time steps of STEP seconds, gravity
  geometry.json's.
- A cube leaves the tower horizontally at build.tower_exit_speed, lands on the ramp or flies
  over it, slides, strikes the chute's walls (each strike turns it: friction at a corner)
  and falls through the beams at beam_upper_drop and beam_lower_drop below the fall start.
- What the detector makes of it is computed with its own arithmetic (detector.py's
  `_pair`: the block centres' transit, the speeds -/+ g t / 2, speed times block time, the
  window at the transit's share) and its generated constants (geometry.firmware_timing).
- A pair: two touching cubes leaving the tower together; wedged when both stop above the
  upper beam.

Coefficients: geometry.json's friction and wall_restitution are ranges with their sources;
neither is measured for a wooden cube on printed PLA, so the cases take both ends and the
random runs anything between. Only a real tower settles them (hardware/README.md, What to
measure).

`python hardware/flow.py` (run by `make hardware`) prints the cases, the random runs'
summary and the verdicts, and exits 1 when a verdict fails.
"""

from __future__ import annotations

import math
import random
import sys
from dataclasses import dataclass, field
from pathlib import Path

HERE = Path(__file__).resolve().parent
if str(HERE) not in sys.path:
    sys.path.insert(0, str(HERE))

import collar  # noqa: E402
import geometry  # noqa: E402

STEP = 5e-5            # s: 0.08 mm at the fastest cube, small against the 9 mm of play
PASSES = 6             # sequential-impulse passes over the contacts each step
RESTING = 0.05         # m/s: a slower normal approach bounces no more (resting contact)
STILL = 0.005          # m/s: a cube this slow for STILL_TIME is at rest
STILL_TIME = 0.05      # s
TIME_MAX = 1.0         # s after leaving the tower
SINGLE_RUNS = 40       # seeded random single cubes (and as many pairs)
SEED = 35


@dataclass
class Body:
    x: float
    z: float            # height above the fall start (m): z up here, depths are -z
    a: float            # edge (m)
    vx: float = 0.0
    vz: float = 0.0
    th: float = 0.0     # turn about the axis along the walls (rad)
    w: float = 0.0
    blocks: dict[str, list[float]] = field(default_factory=dict)  # beam -> [first, last] dark
    at: dict[str, float] = field(default_factory=dict)            # depth name -> time
    tilt: dict[str, float] = field(default_factory=dict)          # beam -> folded tilt, deg
    speed: dict[str, float] = field(default_factory=dict)         # beam -> vertical m/s
    strikes: list[float] = field(default_factory=list)            # depths (mm) of wall strikes
    still_since: float | None = None

    @property
    def inv_i(self) -> float:
        return 6 / (self.a * self.a)

    def corners(self) -> list[tuple[float, float]]:
        c, s, h = math.cos(self.th), math.sin(self.th), self.a / 2
        return [(self.x + c * u - s * v, self.z + s * u + c * v)
                for u, v in ((-h, -h), (h, -h), (h, h), (-h, h))]

    def point_velocity(self, px: float, pz: float) -> tuple[float, float]:
        return self.vx - self.w * (pz - self.z), self.vz + self.w * (px - self.x)

    def half_height(self) -> float:
        return self.a / 2 * (abs(math.cos(self.th)) + abs(math.sin(self.th)))


@dataclass(frozen=True)
class Case:
    tower: float   # m/s, horizontal, leaving the outlet
    mu: float
    e: float


@dataclass
class Contact:
    i: Body
    j: Body | None   # None: a wall of the collar
    px: float
    pz: float
    nx: float        # normal, out of j (or the wall) towards i
    nz: float
    depth: float
    wall: str        # "far", "near", "ramp", "floor" or "cube"


class Flow:
    def __init__(self, geo: geometry.Geometry, build: collar.Build) -> None:
        self.geo, self.build = geo, build
        self.g = geo.num("gravity")
        self.edge = (geo.num("cube_edge") + geo.num("cube_tolerance")) / 1000
        self.width = geo.num("chute_width") / 1000
        self.up = geo.num("beam_upper_drop") / 1000
        self.lo = geo.num("beam_lower_drop") / 1000
        self.win = geo.num("colour_window_drop") / 1000
        self.angle = math.radians(build.num("ramp_angle"))
        self.run = build.num("ramp_run") / 1000
        self.drop = collar.ramp_drop(build) / 1000
        self.rim = self.drop + geo.num("outlet_height") / 1000
        self.timing = geometry.firmware_timing(geo)
        # The exit as built: the far wall curves over at chute_width from the ramp's lower
        # edge into a guide parallel to the ramp (collar.scad). False: the far wall straight
        # up to the rim, the exit before the guide.
        self.guide = True

    # ---- the collar's walls -----------------------------------------------------------------
    def wall_contacts(self, b: Body) -> list[Contact]:
        out = []
        ta = math.tan(self.angle)
        w = self.width
        nx, nz = math.sin(self.angle), math.cos(self.angle)  # the ramp's normal, up and on
        for px, pz in b.corners():
            if not self.guide and px > w and pz < self.rim:
                out.append(Contact(b, None, px, pz, -1.0, 0.0, px - w, "far"))
            elif pz <= 0 and px > w:
                out.append(Contact(b, None, px, pz, -1.0, 0.0, px - w, "far"))
            elif self.guide and pz > 0 and px * nz > pz * nx and math.hypot(px, pz) > w:
                r = math.hypot(px, pz)  # the arc: below the ramp's normal through its edge
                out.append(Contact(b, None, px, pz, -px / r, -pz / r, r - w, "far"))
            elif self.guide and pz > 0 and px * nx + pz * nz > w:  # the roof
                out.append(Contact(b, None, px, pz, -nx, -nz, px * nx + pz * nz - w, "guide"))
            elif px < -self.run and pz < self.drop:
                out.append(Contact(b, None, px, pz, 0.0, 1.0, self.drop - pz, "floor"))
            elif -self.run <= px < 0 and pz < -px * ta:
                ramp = (-px * ta - pz) * math.cos(self.angle)
                if pz <= 0 and -px < ramp:
                    out.append(Contact(b, None, px, pz, 1.0, 0.0, -px, "near"))
                else:
                    out.append(Contact(b, None, px, pz, math.sin(self.angle),
                                       math.cos(self.angle), ramp, "ramp"))
        return out

    @staticmethod
    def cube_contacts(i: Body, j: Body) -> list[Contact]:
        """Corners of i inside j (the normal: j's face nearest to the corner)."""
        out = []
        c, s, h = math.cos(j.th), math.sin(j.th), j.a / 2
        for px, pz in i.corners():
            dx, dz = px - j.x, pz - j.z
            u, v = c * dx + s * dz, -s * dx + c * dz
            if abs(u) < h and abs(v) < h:
                if h - abs(u) < h - abs(v):
                    lu, lv, depth = math.copysign(1, u), 0.0, h - abs(u)
                else:
                    lu, lv, depth = 0.0, math.copysign(1, v), h - abs(v)
                out.append(Contact(i, j, px, pz, c * lu - s * lv, s * lu + c * lv, depth, "cube"))
        return out

    # ---- one step ---------------------------------------------------------------------------
    def resolve(self, k: Contact, case: Case, t: float) -> None:
        i, j = k.i, k.j
        vi = i.point_velocity(k.px, k.pz)
        vj = j.point_velocity(k.px, k.pz) if j else (0.0, 0.0)
        rvx, rvz = vi[0] - vj[0], vi[1] - vj[1]
        vn = rvx * k.nx + rvz * k.nz
        if vn >= 0:
            return
        if k.wall in ("far", "near") and -vn > RESTING:
            i.strikes.append(-k.pz * 1000)
        tx, tz = -k.nz, k.nx
        vt = rvx * tx + rvz * tz

        def eff(nx: float, nz: float) -> float:
            ri = (k.px - i.x) * nz - (k.pz - i.z) * nx
            m = 1 + i.inv_i * ri * ri
            if j:
                rj = (k.px - j.x) * nz - (k.pz - j.z) * nx
                m += 1 + j.inv_i * rj * rj
            return m

        e = case.e if -vn > RESTING else 0.0
        jn = -(1 + e) * vn / eff(k.nx, k.nz)
        jt = -vt / eff(tx, tz)
        jt = max(-case.mu * jn, min(case.mu * jn, jt))
        px, pz = jn * k.nx + jt * tx, jn * k.nz + jt * tz
        for body, sign in ((i, 1.0), (j, -1.0)):
            if body is None:
                continue
            body.vx += sign * px
            body.vz += sign * pz
            body.w += sign * body.inv_i * ((k.px - body.x) * pz - (k.pz - body.z) * px)

    def step(self, bodies: list[Body], case: Case, t: float) -> None:
        for b in bodies:
            b.vz -= self.g * STEP
            b.x += b.vx * STEP
            b.z += b.vz * STEP
            b.th += b.w * STEP
        for _ in range(PASSES):
            contacts = self.contacts(bodies)
            if not contacts:
                break
            for k in contacts:
                self.resolve(k, case, t)
        for k in self.contacts(bodies):  # push out what still overlaps
            share = 0.5 if k.j else 1.0
            k.i.x += k.nx * k.depth * share
            k.i.z += k.nz * k.depth * share
            if k.j:
                k.j.x -= k.nx * k.depth * share
                k.j.z -= k.nz * k.depth * share

    def contacts(self, bodies: list[Body]) -> list[Contact]:
        out = [k for b in bodies for k in self.wall_contacts(b)]
        if len(bodies) == 2:
            a, b = bodies
            out += self.cube_contacts(a, b) + self.cube_contacts(b, a)
        return out

    def observe(self, b: Body, t: float) -> None:
        hh = b.half_height()
        for name, depth in (("upper", self.up), ("lower", self.lo)):
            if b.x > 0 and b.z - hh <= -depth <= b.z + hh:
                span = b.blocks.setdefault(name, [t, t])
                span[1] = t
        for name, depth in (("upper", self.up), ("window", self.win), ("lower", self.lo)):
            if name not in b.at and b.z <= -depth:
                b.at[name] = t
                deg = abs(math.degrees(b.th)) % 90
                b.tilt[name] = min(deg, 90 - deg)
                b.speed[name] = -b.vz

    # ---- a run ------------------------------------------------------------------------------
    def start(self, case: Case, pair: int) -> list[Body]:
        """Cubes at the outlet, their bottoms at the sill, moving out at the tower's speed.
        pair 1: a second cube touching the first's back, still in the tower's mouth; pair 2:
        the two side by side along the ramp, both over it."""
        a = self.edge
        first = Body(-self.run + a / 2 + 1e-4, self.drop + a / 2 + 1e-5, a, vx=case.tower)
        if not pair:
            return [first]
        if pair == 1:
            return [first, Body(first.x - a - 2e-4, first.z, a, vx=case.tower)]
        return [Body(first.x + a + 2e-4, first.z, a, vx=case.tower), first]

    def run_case(self, case: Case, pair: int = 0) -> tuple[list[Body], bool]:
        """The bodies after the run, and whether one wedged: at rest in the collar (not on
        the tower's floor) above the beams. A run ends when every cube is through the lower
        beam or at rest."""
        bodies = self.start(case, pair)
        t = 0.0
        while t < TIME_MAX:
            self.step(bodies, case, t)
            t += STEP
            for b in bodies:
                self.observe(b, t)
                slow = math.hypot(b.vx, b.vz) < STILL and abs(b.w) * b.a < STILL
                if not slow:
                    b.still_since = None
                elif b.still_since is None:
                    b.still_since = t
            through = [b.z < -(self.lo + b.a) for b in bodies]
            resting = [b.still_since is not None and t - b.still_since > STILL_TIME
                       for b in bodies]
            if all(p or r for p, r in zip(through, resting, strict=True)):
                return bodies, any(r and b.x > -self.run
                                   for r, b in zip(resting, bodies, strict=True))
        return bodies, True

    # ---- what the detector makes of one cube --------------------------------------------
    def detector(self, b: Body) -> dict[str, float] | None:
        """The detector's arithmetic on a cube's blocks (detector.py `_pair`), in s and mm;
        None when a beam saw nothing."""
        if "upper" not in b.blocks or "lower" not in b.blocks or "window" not in b.at:
            return None
        t = self.timing
        u0, u1 = b.blocks["upper"]
        l0, l1 = b.blocks["lower"]
        cu, cl = (u0 + u1) / 2, (l0 + l1) / 2
        tc = cl - cu
        vm = (self.lo - self.up) / tc
        dv = self.g * tc / 2
        hu, hl = (u1 - u0) * (vm - dv), (l1 - l0) * (vm + dv)
        tw = cu + tc * t["WIN_FRAC_Q12"] / 4096
        return {"tc": tc, "paired": float(t["TC_MIN_US"] <= tc * 1e6 <= t["TC_MAX_US"]),
                "extent": 1000 * max(hu, hl), "window_error": tw - b.at["window"],
                "v_window": vm + dv * t["WIN_DV_Q12"] / 4096}

    def window_slack(self, b: Body, d: dict[str, float]) -> float:
        """s: how far the detector's window time may miss the cube's and the cube still fill
        the widest viewed band for one integration (flat: the least; turned: more)."""
        band = self.timing["BAND_MAX_CU"] / 1e5
        extent = b.a * (math.cos(math.radians(b.tilt["window"]))
                        + math.sin(math.radians(b.tilt["window"])))
        fill = (extent - band) / d["v_window"]
        return (fill - self.geo.num("colour_integration") / 1000) / 2

    # ---- the sweep --------------------------------------------------------------------------
    def cases(self) -> list[Case]:
        lo, hi = self.build.range("tower_exit_speed")
        mus = self.build.range("friction")
        es = self.build.range("wall_restitution")
        return [Case(v, m, e) for v in (lo, (lo + hi) / 2, hi) for m in mus for e in es]

    def random_cases(self, n: int = SINGLE_RUNS, seed: int = SEED) -> list[Case]:
        rng = random.Random(seed)
        (v0, v1), (m0, m1) = self.build.range("tower_exit_speed"), self.build.range("friction")
        e0, e1 = self.build.range("wall_restitution")
        return [Case(rng.uniform(v0, v1), rng.uniform(m0, m1), rng.uniform(e0, e1))
                for _ in range(n)]

    def split_mm(self) -> float:
        return self.timing["SPLIT_CU"] / 100


@dataclass
class Runs:
    """Every simulated run of one report."""

    singles: list[tuple[Case, Body, bool]]
    pairs: list[tuple[Case, list[Body], bool]]
    pairs_unguided: list[bool]   # the same pairs, the far wall straight up (no guide)


def simulate(flow: Flow, runs: int = SINGLE_RUNS) -> Runs:
    singles = []
    for c in flow.cases() + flow.random_cases(runs):
        bodies, stuck = flow.run_case(c)
        singles.append((c, bodies[0], stuck))
    pairs, unguided = [], []
    for n, c in enumerate(flow.random_cases(runs, SEED + 1)):
        bodies, stuck = flow.run_case(c, pair=1 + n % 2)
        pairs.append((c, bodies, stuck))
        guide, flow.guide = flow.guide, False
        unguided.append(flow.run_case(c, pair=1 + n % 2)[1])
        flow.guide = guide
    return Runs(singles, pairs, unguided)


def _mm(ms: float) -> str:
    return f"{ms:.1f}"


def case_table(flow: Flow, runs: Runs) -> str:
    head = ["tower's speed", "friction", "restitution", "wall strikes above / in the beams",
            "tilt at the upper / lower beam", "vertical speed at the upper beam",
            "transit (window)", "extent read", "window time off (slack)"]
    t = flow.timing
    rows = []
    for c, b, stuck in runs.singles[:len(flow.cases())]:
        d = flow.detector(b)
        if stuck or d is None:
            rows.append([f"{c.tower:.2f} m/s", f"{c.mu:.2f}", f"{c.e:.1f}", "stuck", "", "", "",
                         "", ""])
            continue
        inside = sum(1 for z in b.strikes if z >= flow.up * 1000 - b.a * 1000)
        rows.append([
            f"{c.tower:.2f} m/s", f"{c.mu:.2f}", f"{c.e:.1f}",
            f"{len(b.strikes) - inside} / {inside}",
            f"{b.tilt['upper']:.0f} / {b.tilt['lower']:.0f} deg",
            f"{b.speed['upper']:.2f} m/s",
            f"{d['tc'] * 1000:.1f} ms ({t['TC_MIN_US'] / 1000:.1f}-{t['TC_MAX_US'] / 1000:.1f})",
            f"{d['extent']:.1f} mm",
            f"{abs(d['window_error']) * 1000:.2f} ms ({flow.window_slack(b, d) * 1000:.2f})"])
    return _table(head, rows)


def verdict_rows(flow: Flow, runs: Runs) -> list[list[str]]:
    t = flow.timing
    singles = [(b, flow.detector(b)) for _, b, stuck in runs.singles if not stuck]
    seen = [(b, d) for b, d in singles if d is not None]
    n = len(runs.singles)
    stuck = sum(1 for _, _, s in runs.singles if s)
    tcs = [d["tc"] * 1000 for _, d in seen]
    paired = sum(1 for _, d in seen if d["paired"])
    extents = [d["extent"] for _, d in seen]
    tilts = [max(b.tilt["upper"], b.tilt["lower"]) for b, _ in seen]
    off = [(abs(d["window_error"]), flow.window_slack(b, d)) for b, d in seen]
    late = sum(1 for e, s in off if e > s)
    in_beams = sum(1 for b, _ in seen if any(z >= flow.up * 1000 - b.a * 1000 for z in b.strikes))
    v_up = [b.speed["upper"] for b, _ in seen]
    v_min = geometry.slowest_at_upper(flow.geo)
    wedged = sum(1 for _, _, s in runs.pairs if s)
    tilt_max = flow.geo.num("tilt_max")
    ok = "ok"
    return [
        ["cubes through the beams", f"{n - stuck} of {n}", "all", ok if not stuck else "NOT MET"],
        ["vertical speed at the upper beam", f"{min(v_up):.2f}-{max(v_up):.2f} m/s",
         f"at least beam_speed_min, {v_min:.2f} m/s (the pairing window's slowest)",
         ok if min(v_up) >= v_min else "NOT MET"],
        ["tilt at the beams", f"up to {max(tilts):.0f} deg", f"tilt_max, {tilt_max:g} deg",
         ok if max(tilts) <= tilt_max + 0.5 else "NOT MET"],
        ["upper-to-lower transit (block centres)", f"{min(tcs):.1f}-{max(tcs):.1f} ms",
         f"pairing window {t['TC_MIN_US'] / 1000:.1f}-{t['TC_MAX_US'] / 1000:.1f} ms",
         ok if paired == len(seen) else f"NOT MET: {len(seen) - paired} unpaired"],
        ["a single cube's extent as the detector reads it",
         f"{min(extents):.1f}-{max(extents):.1f} mm", f"below the split, {flow.split_mm():.2f} mm",
         ok if max(extents) < flow.split_mm() else "NOT MET"],
        ["the window time against the cube's",
         f"off by up to {1000 * max(e for e, _ in off):.2f} ms, at most "
         f"{100 * max(e / s for e, s in off):.0f} % of the cube's slack",
         "within each cube's slack: the time it fills the widest viewed band longer than one "
         "integration, halved", ok if not late else f"NOT MET: {late} outside"],
        ["wall strikes while the cube is in the beams", f"{in_beams} of {len(seen)} runs",
         "any (the transit, the extents and the window time above include them)", ok],
        ["two touching cubes leaving together: wedged in the chute",
         f"{wedged} of {len(runs.pairs)} runs", "none", ok if not wedged else "NOT MET"],
        ["the same pairs with the far wall straight up (no guide, before)",
         f"{sum(runs.pairs_unguided)} of {len(runs.pairs_unguided)} runs wedged",
         "(what the guide is for)", ok],
    ]


def verdict_table(flow: Flow, runs: Runs) -> str:
    return _table(["the detector assumes", "the flow gives", "holds when", "verdict"],
                  verdict_rows(flow, runs))


def _table(head: list[str], rows: list[list[str]]) -> str:
    lines = ["| " + " | ".join(head) + " |", "|" + " --- |" * len(head)]
    lines += ["| " + " | ".join(r) + " |" for r in rows]
    return "\n".join(lines)


def load() -> Flow:
    return Flow(geometry.load(), collar.load_build())


def report(flow: Flow | None = None, runs: Runs | None = None) -> tuple[str, list[str]]:
    """The two tables and the verdicts that fail."""
    flow = flow or load()
    runs = runs or simulate(flow)
    rows = verdict_rows(flow, runs)
    bad = [f"{r[0]}: {r[1]} (holds when {r[2]})" for r in rows if r[-1] != "ok"]
    return case_table(flow, runs) + "\n\n" + verdict_table(flow, runs) + "\n", bad


def main(argv: list[str]) -> int:
    """`--runs N`: N random single cubes and N random pairs instead of SINGLE_RUNS."""
    runs = SINGLE_RUNS
    if "--runs" in argv:
        try:
            runs = int(argv[argv.index("--runs") + 1])
        except (IndexError, ValueError):
            print("flow: --runs takes a number of runs, e.g. --runs 300", file=sys.stderr)
            return 2
    try:
        flow = load()
    except geometry.GeometryError as exc:
        print(f"flow: {exc}", file=sys.stderr)
        return 1
    if flow.geo.exit_direction != "side":
        # (the model draws the side exit's ramp and guide; nothing here is a funnel)
        print("flow: not modelled for a downward outlet (geometry.json exit_direction): its "
              "funnel is bounded by the jam check's funnel rule alone")
        return 0
    text, bad = report(flow, simulate(flow, runs))
    print(text, end="")
    for p in bad:
        print("PROBLEM:", p)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
