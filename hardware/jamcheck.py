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

    def block_ms(self, length: float, v0: float, slow_receiver: bool) -> float:
        """Upper-beam block time (ms) of a vertical extent, the receivers' delays included:
        a block looks longer by (rise delay - fall delay)."""
        up = self.geo.num("beam_upper_drop")
        t = 1000 * (geometry.fall_time(self.geo, up + length, v0)
                    - geometry.fall_time(self.geo, up, v0))
        fall, rise = self.geo.range("receiver_fall_delay"), self.geo.range("receiver_rise_delay")
        return t + (rise[1] - fall[0] if slow_receiver else rise[0] - fall[1])

    def length_rows(self) -> list[list[str]]:
        v_lo, v_hi = self.geo.range("exit_speed")
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
                "time_overlap": self.block_ms(single_max, self.geo.range("exit_speed")[0], True)
                - self.block_ms(double_min, self.geo.range("exit_speed")[1], False)}

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
        return _table(["what falls", "vertical extent", "upper-beam block (fast .. slow)"],
                      rows)

    def problems(self) -> list[str]:
        out = [f"undersizing {r[0]}: {r[-1]}" for r in self.chute_rows() if r[-1] != "ok"]
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
    return sweep.chute_table() + "\n\n" + sweep.length_table() + "\n"


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
