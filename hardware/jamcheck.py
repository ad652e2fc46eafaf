"""The jam and geometry check: before printing, the margins of the chute and of the beams'
single-or-double decision, over the cube's size (geometry.json cube_edge +- cube_tolerance),
its tilt (0 to tilt_max, and tumbling in any orientation) and the printer's undersizing
(build.print_undersize), all from hardware/geometry.json.

`python hardware/jamcheck.py` (and `make -C hardware check`) prints the tables that
hardware/README.md shows and exits 1 when a swept case can jam or a single cube can be taken
for two; a test checks that the README shows exactly this output.
"""

from __future__ import annotations

import math
import sys
from dataclasses import dataclass
from pathlib import Path

HERE = Path(__file__).resolve().parent
if str(HERE) not in sys.path:
    sys.path.insert(0, str(HERE))

import collar  # noqa: E402
import geometry  # noqa: E402
from power import table  # noqa: E402

TILT_STEPS_DEG = (0.0, 10.0, 20.0)  # and tilt_max, and tumbling
KEPT_SPEED_MIN = 0.5   # a cube striking a funnel wall keeps half its speed at least
PILE_MARGIN = 5.0      # mm between the heap's top and the chute's end


def steps(lo: float, hi: float, n: int = 3) -> list[float]:
    return [lo + (hi - lo) * i / (n - 1) for i in range(n)] if hi > lo else [lo]


def tilted_extent(edge: float, tilt_deg: float) -> float:
    """Vertical extent of a cube turned by tilt_deg about one horizontal axis (an edge)."""
    t = math.radians(min(45.0, tilt_deg))
    return edge * (math.cos(t) + math.sin(t))


@dataclass(frozen=True)
class Sweep:
    geo: geometry.Geometry
    build: collar.Build

    @property
    def sizes(self) -> tuple[float, float]:
        e, t = self.geo.num("cube_edge"), self.geo.num("cube_tolerance")
        return e - t, e + t

    # ---- the chute ----------------------------------------------------------------------------
    def chute_rows(self) -> list[list[str]]:
        small, large = self.sizes
        diag = math.sqrt(3) * large
        two = 2 * small
        width = self.geo.num("chute_width")
        aperture = self.geo.num("beam_aperture")
        out = []
        for u in steps(*self.build.range("print_undersize")):
            printed = width - u
            wedge = printed - diag
            pair = two - printed
            ok = wedge > 0 and pair > 0
            out.append([f"{u:.1f} mm", f"{printed:.1f} mm", f"{wedge:+.2f} mm",
                        f"{pair:+.2f} mm", f"{aperture - u:.1f} mm",
                        "ok" if ok else ("may wedge" if wedge <= 0 else "two side by side")])
        return out

    def chute_table(self) -> str:
        small, large = self.sizes
        head = ["printer undersizing", "chute as printed",
                f"over a {large:g} mm cube's space diagonal ({math.sqrt(3) * large:.2f})",
                f"under two {small:g} mm cubes ({2 * small:.1f})", "beam aperture", "verdict"]
        return _table(head, self.chute_rows())

    # ---- block lengths and times ----------------------------------------------------------------
    def cases(self) -> list[tuple[str, float, float]]:
        small, large = self.sizes
        tmax = self.geo.num("tilt_max")
        out = [(f"one cube, flat ({small:g}-{large:g} mm)", small, large)]
        for t in (*[x for x in TILT_STEPS_DEG if 0 < x < tmax], tmax):
            out.append((f"one cube, tilted up to {t:g} deg", small, tilted_extent(large, t)))
        out.append(("one cube, tumbling (any orientation)", small, math.sqrt(3) * large))
        out.append(("two touching cubes, flat", 2 * small, 2 * large))
        out.append(("two touching cubes, any orientation", 2 * small, 2 * math.sqrt(3) * large))
        return out

    def speeds(self) -> tuple[float, float]:
        """m/s at the upper beam: the slowest cube (from rest, or slowed by the walls to
        beam_speed_min) and the fastest (exit_speed's high end)."""
        up = self.geo.num("beam_upper_drop")
        return (min(geometry.speed(self.geo, up, self.geo.range("exit_speed")[0]),
                    self.geo.num("beam_speed_min")),
                geometry.speed(self.geo, up, self.geo.range("exit_speed")[1]))

    def block_ms(self, length: float, v: float, slow_receiver: bool) -> float:
        """Upper-beam block time (ms) of a vertical extent for a cube reaching the beam at v
        (m/s), the receivers' delays included: a block looks longer by (rise delay - fall
        delay)."""
        g = self.geo.num("gravity")
        t = 1000 * (-v + math.sqrt(v * v + 2 * g * length / 1000)) / g
        fall, rise = self.geo.range("receiver_fall_delay"), self.geo.range("receiver_rise_delay")
        return t + (rise[1] - fall[0] if slow_receiver else rise[0] - fall[1])

    def length_rows(self) -> list[list[str]]:
        v_lo, v_hi = self.speeds()
        rows = []
        for label, lo, hi in self.cases():
            rows.append([label, f"{lo:.1f}-{hi:.1f} mm",
                         f"{self.block_ms(lo, v_hi, False):.1f}-"
                         f"{self.block_ms(hi, v_lo, True):.1f} ms"])
        return rows

    def margins(self) -> dict[str, float]:
        small, large = self.sizes
        single_max, double_min = math.sqrt(3) * large, 2 * small
        split = (single_max + double_min) / 2  # the detector's SPLIT_CU
        fall, rise = self.geo.range("receiver_fall_delay"), self.geo.range("receiver_rise_delay")
        spread_ms = ((rise[1] - fall[0]) - (rise[0] - fall[1])) / 2
        v_fast = geometry.speed(self.geo, self.geo.num("beam_upper_drop"),
                                self.geo.range("exit_speed")[1])
        error = spread_ms * v_fast  # mm: the receivers' unknown part of a block, as a length
        return {"single_max": single_max, "double_min": double_min, "split": split,
                "gap": double_min - single_max, "error": error,
                "left": (double_min - single_max) / 2 - error,
                "time_overlap": self.block_ms(single_max, self.speeds()[0], True)
                - self.block_ms(double_min, self.speeds()[1], False)}

    def length_table(self) -> str:
        m = self.margins()
        rows = self.length_rows() + [
            ["longest single against shortest double", f"{m['gap']:.2f} mm apart",
             f"by time alone they overlap by {m['time_overlap']:.1f} ms"],
            ["the detector's split (middle)", f"{m['split']:.2f} mm",
             f"receivers' response spread: +-{m['error']:.2f} mm at the fastest cube"],
            ["margin left on each side of the split", f"{m['left']:+.2f} mm",
             "ok" if m["left"] > 0 else "single and double overlap"],
        ]
        return _table(["what falls", "vertical extent",
                       "upper-beam block (fastest .. slowest, wall-slowed)"],
                      rows)

    # ---- the funnel from a wide outlet, and the tray under the chute ---------------------------
    def funnel_angle(self) -> float:
        """Degrees between a converging wall and the cubes' path: from the outlet's width to
        the chute's over the ramp's run (side) or the funnel's height (down)."""
        narrow = (self.geo.num("outlet_width") - self.geo.num("chute_width")) / 2
        run = (self.build.num("ramp_run") if self.geo.exit_direction == "side"
               else self.build.num("funnel_height"))
        return math.degrees(math.atan2(max(0.0, narrow), run))

    def kept_speed(self, angle: float) -> float:
        """Share of its speed a cube keeps along a wall it strikes at `angle`: the normal part
        is lost, the friction of the blow (at most mu (1 + e) times the normal impulse) takes
        from the rest (the highest friction and restitution)."""
        a = math.radians(angle)
        mu = self.build.range("friction")[1]
        e = self.build.range("wall_restitution")[1]
        return max(0.0, math.cos(a) - mu * (1 + e) * math.sin(a))

    def friction_angle(self) -> float:
        """The largest friction angle, wood on PLA and wood on wood (build.friction's highest,
        as the funnel rule takes it)."""
        return math.degrees(math.atan(self.build.range("friction")[1]))

    def pair_can_lock(self, angle: float) -> bool:
        """Whether two touching cubes side by side, each against one of the throat's two
        walls (each at `angle` to the cubes' path), can stay wedged however hard they are
        pressed. The pair is a wedge of two parts; with the friction angle phi at every
        contact (walls and between the cubes) a wedge locks itself when
        tan(a - phi) + tan(b - phi) <= 0 for its walls' angles a and b (the classic
        self-locking wedge: a <= phi for two equal walls). Gravity only presses it harder."""
        phi = self.friction_angle()
        a = b = angle
        return math.tan(math.radians(a - phi)) + math.tan(math.radians(b - phi)) <= 0

    def steepest_funnel(self) -> float:
        return max(a / 10 for a in range(0, 900) if self.kept_speed(a / 10) >= KEPT_SPEED_MIN)

    def pile_height(self) -> float:
        """Height of a conical heap of pile_cubes of the largest cubes at the angle of repose:
        V = pi h^3 / (3 tan^2 angle) at the packing's share."""
        n, edge = self.build.num("pile_cubes"), sum(self.sizes) / 2 + self.geo.num("cube_tolerance")
        t = math.tan(math.radians(self.build.num("pile_repose_angle")))
        v = n * edge ** 3 / self.build.num("pile_packing")
        return (3 * v * t * t / math.pi) ** (1 / 3)

    def tray_rows(self) -> list[list[str]]:
        angle = self.funnel_angle()
        kept = self.kept_speed(angle)
        steepest = self.steepest_funnel()
        h = self.pile_height()
        clear = self.build.num("tray_clearance")
        phi = self.friction_angle()
        return [
            ["funnel wall against the cubes' path (wide outlet)",
             f"{angle:.1f} deg, the cube keeps {100 * kept:.0f} % of its speed",
             f"at most {steepest:.1f} deg (keeps {100 * KEPT_SPEED_MIN:.0f} %)",
             "ok" if angle <= steepest else "too steep"],
            ["two touching cubes side by side at the throat",
             f"walls at {angle:.1f} deg each",
             f"steeper than the friction angle, {phi:.1f} deg (no self-locking wedge)",
             "a pair can wedge" if self.pair_can_lock(angle) else "ok"],
            [f"heap of {self.build.num('pile_cubes'):.0f} cubes under the chute",
             f"{h:.1f} mm high ({self.build.num('pile_repose_angle'):g} deg, "
             f"{100 * self.build.num('pile_packing'):.0f} % packed)",
             f"chute end {clear:g} mm above the tray (needs {h + PILE_MARGIN:.1f})",
             "ok" if clear >= h + PILE_MARGIN else "the heap reaches the chute"],
        ]

    def tray_table(self) -> str:
        return _table(["rule", "as built", "limit", "verdict"], self.tray_rows())

    def problems(self) -> list[str]:
        out = [f"undersizing {r[0]}: {r[-1]}" for r in self.chute_rows() if r[-1] != "ok"]
        out += [f"{r[0]}: {r[-1]}" for r in self.tray_rows() if r[-1] != "ok"]
        if self.margins()["left"] <= 0:
            out.append("a single cube's block length can reach a double's: no margin left")
        return out


def _table(head: list[str], rows: list[list[str]]) -> str:
    lines = ["| " + " | ".join(head) + " |", "|" + " --- |" * len(head)]
    lines += ["| " + " | ".join(r) + " |" for r in rows]
    return "\n".join(lines)


def load() -> Sweep:
    return Sweep(geometry.load(), collar.load_build())


def report(sweep: Sweep | None = None) -> str:
    sweep = sweep or load()
    return (sweep.chute_table() + "\n\n" + sweep.length_table() + "\n\n" + sweep.tray_table()
            + "\n")


def main(argv: list[str]) -> int:
    try:
        sweep = load()
    except geometry.GeometryError as exc:
        print(f"jamcheck: {exc}", file=sys.stderr)
        return 1
    print(report(sweep), end="")
    bad = sweep.problems()
    for p in bad:
        print("PROBLEM:", p)
    return 1 if bad else 0


__all__ = ["Sweep", "load", "report", "table"]

if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
