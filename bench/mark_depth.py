"""How deep the collector's mark goes in the firmware's heap: does stock MicroPython's mark stack
overflow on an ESP32?

A collection on stock MicroPython marks the heap depth first with a stack of 64 blocks
(MICROPY_ALLOC_GC_STACK_SIZE). Past that it marks the rest by scanning the whole heap again, a
second mark that bench_cpu counts in every stock collection here (a third of its instructions).
Here the heap also holds the test fakes of `machine`, the sensor and the serial port: Python
modules, classes and instances. On an ESP32 those are C objects, most of them in ROM, which the
collector never scans; so whether a board's stock mark overflows could not be read from the
count. This bench measures it:

- a probe twin: the unix port built from the MicroPython mirror (as bench/unix_twin.py builds
  its twins) with a few lines added to its collector (py/gc.c) and its `micropython` module.
  They record the deepest the mark stack went, the blocks it could not push, and the stack's
  content at its deepest; and they can run one mark with a given list of objects counted as
  ROM (marked before the mark starts, so nothing in them is scanned), then undo it without
  freeing anything. The source is patched in a copy; the other twins are untouched.
- bench/mpy/gc_cost.py's throw (the real board's code, `app.main`, after 40 cubes), then three
  collections called from the link's module, as its housekeeping calls them: as it is; with
  the fakes' modules, classes, functions and the instances that are static on an ESP32 (pins,
  the serial port's stand-in) as ROM (the high bound: the fake timers', counters' and buses'
  Python attributes still count, which a C struct does not have); and with every fake instance
  as ROM too (the low bound: a board's timer is a small object in the heap).

The heap is larger than bench_cpu's (the probe allocates its list of objects); the depth
depends on the objects and their links, not on the heap's size.

    python bench/mark_depth.py          (also run by bench_cpu.py)
"""

from __future__ import annotations

import json
import pathlib
import shutil
import subprocess
import sys
import tempfile

import unix_twin

from shogun_tower.device.romfs import build_image
from shogun_tower.sim_device import compile_firmware, firmware_dir

STOCK_STACK = 64

# (file, the line the addition follows or replaces, what comes in its place): our own lines,
# added to a copy of the mirror's source
_PATCHES = (
    ("py/gc.c", "void gc_collect_start(void) {\n    gc_collect_start_common();\n",
     "size_t probe_deepest, probe_dropped, probe_rom_n, probe_snap_n;\n"
     "void *probe_rom[4096];\n"
     "void *probe_snap[MICROPY_ALLOC_GC_STACK_SIZE];\n"
     "int probe_dry;\n"
     "void gc_collect_start(void) {\n    gc_collect_start_common();\n"
     "    for (size_t j = 0; j < probe_rom_n; j++) {\n"
     "        mp_state_mem_area_t *area = &MP_STATE_MEM(area);\n"
     "        if (VERIFY_PTR(probe_rom[j])) {\n"
     "            size_t b = BLOCK_FROM_PTR(area, probe_rom[j]);\n"
     "            if (ATB_GET_KIND(area, b) == AT_HEAD) {\n"
     "                ATB_HEAD_TO_MARK(area, b);\n"
     "            }\n"
     "        }\n"
     "    }\n"),
    ("py/gc.c", "                sp += 1;\n            } else {\n",
     "                sp += 1;\n"
     "                if (sp > probe_deepest) {\n"
     "                    probe_deepest = sp;\n"
     "                    for (size_t q = 0; q < sp; q++) {\n"
     "                        probe_snap[q] = (void *)PTR_FROM_BLOCK(ptr_area,\n"
     "                            MP_STATE_MEM(gc_block_stack)[q]);\n"
     "                    }\n"
     "                    probe_snap_n = sp;\n"
     "                }\n"
     "            } else {\n"
     "                probe_dropped += 1;\n"),
    ("py/gc.c", "void gc_collect_end(void) {\n",
     "void gc_collect_end(void) {\n"
     "    if (probe_dry) {\n"
     "        mp_state_mem_area_t *area = &MP_STATE_MEM(area);\n"
     "        for (size_t b = 0; b < area->gc_alloc_table_byte_len * BLOCKS_PER_ATB; b++) {\n"
     "            if (ATB_GET_KIND(area, b) == AT_MARK) {\n"
     "                ATB_MARK_TO_HEAD(area, b);\n"
     "            }\n"
     "        }\n"
     "        MP_STATE_MEM(gc_stack_overflow) = 0;\n"
     "        MP_STATE_THREAD(gc_lock_depth) &= ~GC_COLLECT_FLAG;\n"
     "        GC_EXIT();\n"
     "        return;\n"
     "    }\n"),
    ("py/modmicropython.c",
     "static const mp_rom_map_elem_t mp_module_micropython_globals_table[] = {\n",
     "#include \"py/objfun.h\"\n"
     "extern size_t probe_deepest, probe_dropped, probe_rom_n, probe_snap_n;\n"
     "extern void *probe_rom[], *probe_snap[];\n"
     "extern int probe_dry;\n"
     "extern char __executable_start, end;\n"
     "static mp_obj_t probe_rom_set(mp_obj_t seq) {\n"
     "    probe_rom_n = 0;\n"
     "    probe_dry = seq != mp_const_none;\n"
     "    if (probe_dry) {\n"
     "        size_t n;\n"
     "        mp_obj_t *items;\n"
     "        mp_obj_get_array(seq, &n, &items);\n"
     "        for (size_t i = 0; i < n && i < 4096; i++) {\n"
     "            probe_rom[probe_rom_n++] = MP_OBJ_TO_PTR(items[i]);\n"
     "        }\n"
     "    }\n"
     "    return mp_const_none;\n"
     "}\n"
     "static MP_DEFINE_CONST_FUN_OBJ_1(probe_rom_obj, probe_rom_set);\n"
     "static void probe_describe(const mp_print_t *pr, void *p) {\n"
     "    const mp_obj_type_t *t = *(const mp_obj_type_t **)p;\n"
     "    int known = t != NULL && (((const char *)t >= &__executable_start\n"
     "        && (const char *)t < &end) || gc_nbytes(t) > 0);\n"
     "    if (!known || t->base.type != &mp_type_type) {\n"
     "        mp_printf(pr, \"(a block of %u bytes)\", (unsigned)gc_nbytes(p));\n"
     "    } else if (t == &mp_type_fun_bc) {\n"
     "        mp_printf(pr, \"function %q\", mp_obj_fun_bc_get_name((const mp_obj_fun_bc_t *)p));\n"
     "    } else if (t == &mp_type_module) {\n"
     "        mp_printf(pr, \"module %s\", mp_obj_str_get_str(\n"
     "            mp_load_attr(MP_OBJ_FROM_PTR(p), MP_QSTR___name__)));\n"
     "    } else if (t == &mp_type_type) {\n"
     "        mp_printf(pr, \"class %q\", (qstr)((const mp_obj_type_t *)p)->name);\n"
     "    } else {\n"
     "        mp_printf(pr, \"%q\", (qstr)t->name);\n"
     "    }\n"
     "}\n"
     "static mp_obj_t probe_stats(void) {\n"
     "    mp_obj_t snap = mp_obj_new_list(0, NULL);\n"
     "    for (size_t q = 0; q < probe_snap_n; q++) {\n"
     "        vstr_t v;\n"
     "        mp_print_t pr;\n"
     "        vstr_init_print(&v, 16, &pr);\n"
     "        probe_describe(&pr, probe_snap[q]);\n"
     "        mp_obj_list_append(snap, mp_obj_new_str_from_vstr(&v));\n"
     "    }\n"
     "    mp_obj_t t[3] = {MP_OBJ_NEW_SMALL_INT(probe_deepest),\n"
     "        MP_OBJ_NEW_SMALL_INT(probe_dropped), snap};\n"
     "    probe_deepest = probe_dropped = probe_snap_n = 0;\n"
     "    return mp_obj_new_tuple(3, t);\n"
     "}\n"
     "static MP_DEFINE_CONST_FUN_OBJ_0(probe_stats_obj, probe_stats);\n"
     "static const mp_rom_map_elem_t mp_module_micropython_globals_table[] = {\n"
     "    { MP_ROM_QSTR(MP_QSTR_probe_rom), MP_ROM_PTR(&probe_rom_obj) },\n"
     "    { MP_ROM_QSTR(MP_QSTR_probe_stats), MP_ROM_PTR(&probe_stats_obj) },\n"),
)


def _patch(tree) -> None:
    for name, anchor, text in _PATCHES:
        path = tree / name
        source = path.read_text()
        if source.count(anchor) != 1:
            raise unix_twin.TwinUnavailable(
                f"the probe's addition to {name} does not fit this MicroPython (its anchor is "
                f"gone): update bench/mark_depth.py for the mirror's version")
        path.write_text(source.replace(anchor, text))


def build(bits32: bool = False):
    """The probe twin's binary, built if needed (TwinUnavailable says why not)."""
    src = unix_twin._source()
    tree = unix_twin.BUILD / f"probe-{src.name}"
    if not (tree / "ports" / "unix" / "Makefile").is_file():
        part = tree.with_name(tree.name + ".part")
        shutil.rmtree(part, ignore_errors=True)
        shutil.copytree(src, part, symlinks=True,
                        ignore=shutil.ignore_patterns("build", "build-*", "*.part"))
        _patch(part)
        part.rename(tree)
    return unix_twin.make_unix_port(tree, "build-probe32" if bits32 else "build-probe",
                                    f"{'32-bit ' if bits32 else ''}probe twin", bits32)


def measure(command, mpy, image, bits32: bool = False) -> dict:
    """The three marks for `make deploy` (``mpy``) and ROMFS (``image``). ``command(mpy, image,
    executable, heap)`` is bench_cpu's gc_cost.py command."""
    exe = build(bits32)
    out = {}
    for form, kw in (("deploy", {"mpy": mpy, "image": None}),
                     ("romfs", {"mpy": None, "image": image})):
        cmd, env = command(kw["mpy"], kw["image"], exe, "160wK")
        env["SHOGUN_MARK_DEPTH"] = "1"
        proc = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=300)
        if proc.returncode != 0:
            raise SystemExit(f"gc_cost.py on the probe twin failed:\n{proc.stderr[-3000:]}")
        out[form] = json.loads(proc.stdout.strip().splitlines()[-1])["mark_depth"]
    return out


def _runs(snap: list[str]) -> str:
    """The stack's content, bottom first, a run of the same kind as one entry."""
    parts: list[list] = []
    for what in snap:
        if parts and parts[-1][0] == what:
            parts[-1][1] += 1
        else:
            parts.append([what, 1])
    return ", ".join(what if n == 1 else f"{what} x{n}" for what, n in parts)


def verdict(row: dict) -> str:
    """Whether a stock ESP32's mark overflows, from the two bounds."""
    high, low = row["rom_high"], row["rom_low"]
    if low["dropped"]:
        return "overflows (at both bounds)"
    if high["dropped"]:
        return "at the edge (overflows at the high bound only)"
    return f"holds (deepest {high['deepest']} of {STOCK_STACK})"


def print_table(results: dict[str, dict | str]) -> None:
    """One row a port and form: the deepest and the blocks not pushed, for each of the three
    (a port's entry is a string when it could not be measured: why)."""
    print("The mark stack (stock: 64 blocks) in the firmware's heap after a throw, collections "
          "called from the link's module (bench/mark_depth.py: a probe twin):")
    print(f"{'port, form':24} {'as here':>14} {'fakes as ROM, high':>20} "
          f"{'fakes as ROM, low':>19}  on a stock ESP32")
    for port, rows in results.items():
        if isinstance(rows, str):
            print(f"{port:24} not measured, {rows}")
            continue
        for form, row in rows.items():
            cells = [f"{r['deepest']:>3}, {r['dropped']:>3} lost"
                     for r in (row["heap"], row["rom_high"], row["rom_low"])]
            print(f"{port + ', ' + form:24} {cells[0]:>14} {cells[1]:>20} {cells[2]:>19}  "
                  f"{verdict(row)}")
    for port, rows in results.items():
        if not isinstance(rows, str):
            print(f"  {port}, ROMFS, fakes as ROM (high): the stack at its deepest, bottom "
                  f"first: {_runs(rows['romfs']['rom_high']['snap'])}")


def measure_all(command, forms: dict[str, tuple]) -> dict[str, dict | str]:
    """``forms``: port ("64-bit", "32-bit") -> (the .mpy folder, the ROMFS image) compiled for
    it; each port's three marks, or why it could not be measured."""
    results: dict[str, dict | str] = {}
    for port, (mpy, image) in forms.items():
        try:
            results[port] = measure(command, mpy, image, port == "32-bit")
        except unix_twin.TwinUnavailable as exc:
            results[port] = str(exc)
    return results


def main() -> int:
    import bench_cpu  # here: bench_cpu imports this module

    with tempfile.TemporaryDirectory(prefix="mark-depth-") as tmp:
        root = firmware_dir()
        forms = {}
        for port, arch in (("64-bit", "host"), ("32-bit", "x86")):
            image = build_image(pathlib.Path(tmp) / f"{arch}.romfs", root, root.parent / "common",
                                simulated=False, arch=arch)
            mpy = compile_firmware(pathlib.Path(tmp) / f"{arch}-mpy",
                                   arch=None if arch == "host" else arch)
            forms[port] = (mpy, image)
        print_table(measure_all(bench_cpu._gc_command, forms))
    return 0


if __name__ == "__main__":
    sys.exit(main())
