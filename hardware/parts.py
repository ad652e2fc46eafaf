"""The parts list (hardware/bom.csv) checked against what each part number is.

Every row names a part number, its package and its pin count. Where a maker's part number
encodes the part (Yageo's resistor codes, Panasonic's, Nichicon's and KEMET's capacitor
codes, JST's and Samtec's pin counts, Mill-Max's socket codes, TI's package suffix) the number
is decoded here by that maker's ordering scheme and compared with the row: value, voltage,
pins, package. The others are in CATALOGUE, with the datasheet that gives their pins and
package. Then the rows are compared with wiring.yml: every part the wiring draws has a row,
with the pins the wiring gives it, and the IC socket has the IC's pins.

`python hardware/parts.py` prints the problems (none: "parts: ok"); `make hardware` runs it.
"""

from __future__ import annotations

import csv
import re
import sys
from collections.abc import Callable
from pathlib import Path

HERE = Path(__file__).resolve().parent
if str(HERE) not in sys.path:
    sys.path.insert(0, str(HERE))
BOM = HERE / "bom.csv"

Facts = dict[str, object]


def _ohms(code: str) -> float:
    """Yageo's resistance code: 330R, 2K2, 10K, 1M (R, K or M stands for the decimal point)."""
    m = re.fullmatch(r"(\d+)([RKM])(\d*)", code)
    if not m:
        raise ValueError(code)
    scale = {"R": 1, "K": 1e3, "M": 1e6}[m.group(2)]
    return float(f"{m.group(1)}.{m.group(3) or 0}") * scale


def _pf_code(code: str) -> float:
    """The EIA three-digit capacitance code in pF: 104 = 10 x 10^4 pF = 100 nF."""
    return int(code[:2]) * 10 ** int(code[2]) * 1e-6  # uF


def _uf_code(code: str) -> float:
    """Three digits in uF with R for a decimal point (Panasonic, Nichicon): 221 = 220 uF,
    100 = 10 uF, 2R2 = 2.2 uF."""
    if "R" in code:
        return float(code.replace("R", "."))
    return int(code[:2]) * 10 ** int(code[2])


_VOLT = {"0J": 6.3, "1A": 10, "1C": 16, "1E": 25, "1V": 35, "1H": 50}

# (pattern on the part number, the facts its groups give): each maker's ordering scheme.
DECODERS: list[tuple[str, Callable[[re.Match[str]], Facts]]] = [
    # Yageo CFR-25 carbon film, 1/4 W axial: CFR-25JB-52-<value>
    (r"Yageo CFR-25JB-52-(\w+)", lambda m: {"ohm": _ohms(m.group(1)), "pins": 2,
                                              "package": "axial"}),
    # Vishay K-series ceramic: K<code><tol><lead spacing 15 = 5.08 mm><dielectric><voltage F=50>
    (r"Vishay K(\d{3})K15X7RF5TL2", lambda m: {"uf": _pf_code(m.group(1)), "volts": 50,
                                               "pins": 2, "package": "radial 5.08 mm"}),
    # KEMET Goldmax radial ceramic: C3<size><lead>C<code><tol><voltage 3=25 V><dielectric R>
    (r"KEMET C32\dC(\d{3})K([35])R5TA", lambda m: {"uf": _pf_code(m.group(1)),
                                                   "volts": {"3": 25, "5": 50}[m.group(2)],
                                                   "pins": 2, "package": "radial 5.08 mm"}),
    # Panasonic FR electrolytic: EEU-FR<voltage code><uF code>
    (r"Panasonic EEU-FR(\d[A-Z])(\w{3})", lambda m: {"volts": _VOLT[m.group(1)],
                                                     "uf": _uf_code(m.group(2)), "pins": 2}),
    # Nichicon UVR electrolytic: UVR<voltage code><uF code>M<case> (MDD: 5 mm)
    (r"Nichicon UVR(\d[A-Z])(\w{3})MDD", lambda m: {"volts": _VOLT[m.group(1)],
                                                    "uf": _uf_code(m.group(2)), "pins": 2,
                                                    "package": "radial 5 mm"}),
    # JST XH: B<n>B-XH-A top-entry header, XHP-<n> housing
    (r"JST B(\d+)B-XH-A", lambda m: {"pins": int(m.group(1)), "package": "XH header"}),
    (r"JST XHP-(\d+)", lambda m: {"pins": int(m.group(1)), "package": "XH housing"}),
    (r"JST SXH-001T-P0\.6", lambda m: {"pins": 1, "package": "crimp contact"}),
    # Samtec SSW: SSW-1<nn>-...: one row of nn sockets
    (r"Samtec SSW-1(\d\d)-01-T-S.*", lambda m: {"pins": int(m.group(1)),
                                               "package": f"1x{int(m.group(1))} socket strip"}),
    # Amphenol 10129378-9<nn>001BLF: one row of nn pins
    (r"Amphenol 10129378-9(\d\d)001BLF.*", lambda m: {"pins": int(m.group(1)),
                                                     "package": f"1x{int(m.group(1))} header"}),
    # Mill-Max 110 series DIP socket: 110-<plating>-<row spacing 3 = 0.300"><pins>-41-001000
    (r"Mill-Max 110-\d\d-3(\d\d)-41-001000", lambda m: {"pins": int(m.group(1)),
                                                        "package": f"DIP-{int(m.group(1))} "
                                                                   "socket"}),
    # TI: the suffix N is the plastic DIP
    (r"TI SN74AHCT125N", lambda m: {"pins": 14, "package": "PDIP-14"}),
]

# Parts whose number encodes nothing checkable: pins and package from their datasheets.
CATALOGUE: dict[str, tuple[int, str, str]] = {
    "Espressif ESP32-DevKitC-32E": (38, "2 x 19-pin board",
                                    "ESP32-DevKitC V4 user guide: two 19-pin headers"),
    "Adafruit 2167": (5, "3 mm LEDs on leads",
                      "Adafruit 2167: emitter with 2 wires, receiver with 3 (VCC, GND, OUT)"),
    "Adafruit 1334": (7, "20.4 x 20.3 mm board",
                      "Adafruit 1334 pinout: LED, INT, SDA, SCL, 3V3, GND, VIN"),
    "onsemi NDP6020P": (3, "TO-220", "onsemi NDP6020P datasheet: TO-220, gate, drain, source"),
    "Vishay 1N5822-E3/54": (2, "DO-201AD", "Vishay 1N5820-1N5822 datasheet: DO-201AD axial"),
    "CUI PJ-102AH": (3, "PCB jack", "CUI PJ-102AH drawing: centre pin, sleeve, switch"),
    "Harwin M7582-05": (2, "2-way jumper", "Harwin M7582 jumper socket, 2 way"),
    "Mean Well GST18E05-P1J": (2, "plug 5.5/2.1 mm", "Mean Well GST18E: P1J plug 5.5/2.1 mm"),
    "Lapp UNITRONIC LiYY 7x0.14": (7, "7-core cable", "Lapp UNITRONIC LiYY: 7 cores 0.14 mm2"),
}


def decode(part_number: str) -> Facts | None:
    for pattern, facts in DECODERS:
        m = re.fullmatch(pattern, part_number.strip())
        if m:
            return facts(m)
    return None


def _named(name: str) -> Facts:
    """The values a row's name claims: ohms, uF, volts."""
    out: Facts = {}
    m = re.search(r"([\d.]+) ?([kM]?)ohm", name)
    if m:
        out["ohm"] = float(m.group(1)) * {"": 1, "k": 1e3, "M": 1e6}[m.group(2)]
    m = re.search(r"([\d.]+) ?(nF|uF)", name)
    if m:
        out["uf"] = float(m.group(1)) * (1e-3 if m.group(2) == "nF" else 1)
    m = re.search(r"([\d.]+) V\b", name)
    if m and "uF" in name or m and "nF" in name:
        out["volts"] = float(m.group(1))
    return out


def load_bom(path: Path = BOM) -> list[dict[str, str]]:
    return list(csv.DictReader(path.open()))


def row_problems(row: dict[str, str]) -> list[str]:
    """What the row claims against what its part number is."""
    pn, ref = row["part_number"], row["ref"]
    where = f"{ref} ({pn})"
    pins = int(row["pins"])
    facts = decode(pn)
    out: list[str] = []
    if facts is None:
        if pn in CATALOGUE:
            n, package, _ = CATALOGUE[pn]
            facts = {"pins": n, "package": package}
        elif "generic" in pn or pn.startswith(("ISO ", "cut from")):
            return []
        else:
            return [f"{where}: no decoder and no catalogue entry: add it to hardware/parts.py"]
    if "pins" in facts and facts["pins"] != pins:
        out.append(f"{where}: the part has {facts['pins']} pins, the row says {pins}")
    if "package" in facts and facts["package"] != row["package"]:
        out.append(f"{where}: the part is a {facts['package']}, the row says {row['package']}")
    named = _named(row["name"])
    for key in ("ohm", "uf"):
        if key in facts and key in named and abs(facts[key] - named[key]) > 1e-9 * facts[key]:
            out.append(f"{where}: the part is {facts[key]:g} {key}, the name says "
                       f"{named[key]:g}")
    if "volts" in facts and "volts" in named and facts["volts"] < named["volts"]:  # type: ignore[operator]
        out.append(f"{where}: rated {facts['volts']} V, the name asks for {named['volts']} V")
    return out


def refs(row: dict[str, str]) -> list[str]:
    """The designators a row covers: 'R_S_SDA/R_S_SCL' -> both."""
    return [r.strip() for r in re.split(r"[/]", row["ref"].split(" (")[0])]


def wiring_problems(rows: list[dict[str, str]]) -> list[str]:
    """Every part wiring.yml draws has a row with its pins; the socket fits the IC."""
    import pinmap  # PyYAML: comes with wireviz (`make -C hardware tools`)

    w = pinmap.load_wiring()
    by_ref = {r: row for row in rows for r in refs(row)}
    out = []
    for name, labels in w.labels.items():
        kind = w.kinds.get(name, "")
        if not re.match(r"(Resistor|Capacitor|Schottky|P-MOSFET)", kind):
            continue
        row = by_ref.get(name)
        if row is None:
            out.append(f"wiring.yml draws {name} ({kind.strip()}), the BOM has no row for it")
            continue
        if int(row["pins"]) != len(labels):
            out.append(f"{name}: wiring.yml gives it {len(labels)} pins, the BOM's part "
                       f"{row['pins']}")
        named = _named(row["name"])
        drawn = {"ohm": w.ohms.get(name), "uf": w.microfarads.get(name)}
        for key, value in drawn.items():
            if value is not None and key in named and abs(named[key] - value) > 1e-9 * value:
                out.append(f"{name}: wiring.yml says {value:g} {key}, the BOM {named[key]:g}")
    ic, socket = by_ref.get("U_LVL"), by_ref.get("U_LVL socket")
    if ic and socket and ic["pins"] != socket["pins"]:
        out.append(f"U_LVL socket has {socket['pins']} positions for a {ic['pins']}-pin IC")
    for connector in ("X_CTRL", "COLLAR"):
        row = by_ref.get(connector)
        if row and connector in w.labels and int(row["pins"]) != len(w.labels[connector]):
            out.append(f"{connector}: {len(w.labels[connector])} pins drawn, {row['pins']} "
                       "in the BOM's header")
    return out


def problems(rows: list[dict[str, str]] | None = None) -> list[str]:
    rows = rows if rows is not None else load_bom()
    out = []
    for row in rows:
        out += row_problems(row)
    return out + wiring_problems(rows)


def checked_by(row: dict[str, str]) -> str:
    """How a row's part number is checked: its maker's ordering scheme, the datasheet in
    CATALOGUE, or nothing (a generic part, named by what it is)."""
    pn = row["part_number"]
    facts = decode(pn)
    if facts is not None:
        said = []
        if "ohm" in facts:
            said.append(_fmt(float(facts["ohm"]), ((1e6, "Mohm"), (1e3, "kohm"), (1, "ohm"))))
        if "uf" in facts:
            said.append(_fmt(float(facts["uf"]), ((1, "uF"), (1e-3, "nF"), (1e-6, "pF"))))
        if "volts" in facts:
            said.append(f"{facts['volts']:g} V")
        said.append(f"{facts['pins']} pin" + ("s" if facts["pins"] != 1 else ""))
        if "package" in facts:
            said.append(str(facts["package"]))
        return "the number itself: " + ", ".join(said)
    if pn in CATALOGUE:
        return CATALOGUE[pn][2]
    return "generic: by its name"


def _fmt(value: float, units: tuple[tuple[float, str], ...]) -> str:
    for scale, unit in units:
        if value >= scale * 0.999:
            return f"{value / scale:g} {unit}"
    return f"{value / units[-1][0]:g} {units[-1][1]}"


def table(rows: list[dict[str, str]] | None = None) -> str:
    rows = rows if rows is not None else load_bom()
    out = ["| ref | part number | package, pins | checked against | verdict |",
           "| --- | --- | --- | --- | --- |"]
    for row in rows:
        bad = row_problems(row)
        out.append(f"| {row['ref']} | {row['part_number']} | {row['package']}, {row['pins']} | "
                   f"{checked_by(row)} | {'ok' if not bad else 'WRONG'} |")
    return "\n".join(out)


def main() -> int:
    print(table())
    bad = problems()
    for p in bad:
        print("PROBLEM:", p)
    print("parts:", "broken" if bad else f"ok ({len(load_bom())} rows checked, and against "
                                         "wiring.yml)")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
