"""The collection's second estimate (bench/instructions.py) counts what a collection does: one
count per gc.collect(), the same for the same heap, more for more live words, nothing of the
interpreter's other work; and the mark done again after MicroPython's mark stack overflowed."""

from __future__ import annotations

import os
import pathlib
import sys

import pytest

from shogun_tower.sim_device import micropython_executable

BENCH = pathlib.Path(__file__).parents[2] / "bench"
sys.path.insert(0, str(BENCH))

import instructions  # noqa: E402

SCRIPT = """
import gc
keep = []
gc.collect()
gc.collect()
gc.collect()
keep.extend([[i, i + 1] for i in range(400)])
for _ in range(200000 // 4):
    pass
gc.collect()
"""


@pytest.mark.skipif(instructions.valgrind() is None, reason="valgrind is not installed")
def test_each_collection_is_counted_apart_and_follows_the_live_words(tmp_path) -> None:
    script = tmp_path / "heap.py"
    script.write_text(SCRIPT)
    env = dict(os.environ, PYTHONHASHSEED="0")
    counts, _, again_marked = instructions.per_call(
        [micropython_executable(), "-X", "heapsize=256K", str(script)], env, "gc_collect",
        ("gc_collect_end", "gc_mark_subtree"))
    assert len(counts) == 4, counts
    _first, same, again, more = counts  # (the first also frees what the compiler left)
    assert same > 0 and abs(again - same) < same // 20  # the same heap: about the same count
    # 400 more live lists (about 3200 words to mark) cost more, and the loop's bytecode between
    # the collections is not counted (50,000 rounds would be millions of instructions)
    assert more > again + 400 * 8
    # one list of 400 new lists: more unmarked children than MicroPython's 64-entry mark stack
    # holds, so the collection marks the whole heap again after it (gc_collect_end's calls of
    # gc_mark_subtree), which costs about as much as the first mark
    assert again_marked > 0
    # the same heap without the long list: the mark stack holds, nothing is marked again
    script.write_text(SCRIPT.replace("keep.extend([[i, i + 1] for i in range(400)])", ""))
    _c, _p, again_marked = instructions.per_call(
        [micropython_executable(), "-X", "heapsize=256K", str(script)], env, "gc_collect",
        ("gc_collect_end", "gc_mark_subtree"))
    assert again_marked == 0
    # ESP32 milliseconds from a count: instructions x cycles per instruction / 240 MHz
    assert instructions.esp32_ms(240_000, 1.0) == pytest.approx(1.0)
