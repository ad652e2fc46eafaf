"""Brings the computed tables in hardware/README.md up to date after geometry.json, the wiring
or the parts change: `python hardware/readme.py` (`make -C hardware readme`) rewrites every
table that design.py, parts.py, printcheck.py, jamcheck.py, optics.py, flow.py and power.py
print, in place, found by its header row;
`--measure` also reruns the power measurement on the simulated board. The tests check that
the README shows exactly these tables.
"""

from __future__ import annotations

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
if str(HERE) not in sys.path:
    sys.path.insert(0, str(HERE))

import design  # noqa: E402
import flow  # noqa: E402
import jamcheck  # noqa: E402
import optics  # noqa: E402
import parts  # noqa: E402
import power  # noqa: E402
import printcheck  # noqa: E402

README = HERE / "README.md"


STL = HERE / "build" / "collar.stl"


def tables(measure: bool) -> list[str]:
    """Every computed table the README shows; the printed collar's from build/collar.stl
    (`make -C hardware readme` renders it first)."""
    out = [design.geometry_table(), design.build_table(), parts.table(),
           printcheck.report(STL)[0], *jamcheck.report().strip().split("\n\n"),
           optics.table(), *flow.report()[0].strip().split("\n\n"), power.power_table(),
           power.source_table()]
    if measure:
        out.append(power.measured_table(power.measure_on_sim()))
    return out


def replace_table(text: str, table: str) -> str:
    """``text`` with the table whose header row is ``table``'s replaced by ``table``."""
    lines = text.split("\n")
    head = table.split("\n", 1)[0]
    start = lines.index(head)  # ValueError: the README lost the table
    end = start
    while end < len(lines) and lines[end].startswith("|"):
        end += 1
    return "\n".join(lines[:start] + table.split("\n") + lines[end:])


def main(argv: list[str]) -> int:
    text = README.read_text()
    for t in tables("--measure" in argv):
        try:
            text = replace_table(text, t)
        except ValueError:
            print(f"readme: no table headed {t.split(chr(10), 1)[0]!r} in {README}",
                  file=sys.stderr)
            return 1
    README.write_text(text)
    print(f"updated the tables in {README}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
