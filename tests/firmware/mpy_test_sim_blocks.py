# The simulated board's beam blocks, on MicroPython: once it has started, scheduling one takes
# nothing from the heap (seven ints in the room taken at start-up, boards/sim.py add_block), and
# a throw in real time never needs more than that room. A tuple a block, made in the middle of
# a 64K session, now and then found no free run and ended it (docs/firmware.md, Memory).
import array
import gc

import micropython

from shogun_fw.boards.sim import FAITHFUL, SimBoard, pack_light

ROOM = 16  # boards/sim.py _BLOCK_ROOM
AHEAD = 4  # boards/sim.py _AHEAD: a throw's blocks scheduled ahead of the upper beam, in real time


def test_scheduling_a_block_takes_nothing_from_the_heap():
    board = SimBoard(seed=3, serial=False)  # real time: the room a 64K session has
    t = board.ticks_us()
    light = pack_light(900, 400, 300, 1800)
    win = 100 | 900 << 22 | 300 << 44
    lower = 4000 | 9000 << 22
    micropython.heap_lock()
    try:
        for k in range(ROOM // 2):
            t0 = board.ticks_add(t, 20000 * k)
            board.add_block(t0, board.ticks_add(t0, 5000), light, win, 0, 0, lower)
            # a touching pair
            board.add_block(board.ticks_add(t0, 10000), board.ticks_add(t0, 16000), light, win,
                            light, win, lower)
    finally:
        micropython.heap_unlock()
    assert len(board._blocks) == 7 * ROOM
    assert board.last_end() == board.ticks_add(t, 20000 * (ROOM // 2 - 1) + 16000)


def _run(board, ms):
    """The board's outlet for ``ms`` ms in 0.5 ms steps, its beams and sensor read as the
    firmware reads them; the most blocks it held, and the start of each cube as scheduled."""
    ts = array.array("i", bytes(4 * 32))
    vs = bytearray(32)
    reading = [0] * 6
    most = 0
    starts = []
    last = None
    for _ in range(2 * ms):
        board.advance(500)
        board.poll()
        board.take_edges(ts, vs)
        board.beam_count()
        board.read_colour(reading)
        most = max(most, len(board._blocks) // 7)
        if board.truth and board.truth[-1] is not last:
            last = board.truth[-1]
            starts.append(last[0])
    return most, starts


def test_a_throw_in_real_time_stays_in_the_boards_room():
    # Virtual time, scheduled as real time schedules it (AHEAD at a time), every hazard of a
    # real outlet, chatter in every other gap: 64 cubes thrown into a full tower.
    opts = dict(FAITHFUL)
    opts["chatter_p"] = 0.5
    board = SimBoard(seed=11, virtual=True, serial=False, gap_ms=(3.0, 12.0), **opts)
    board.sim_load(bytes((10, 10, 10, 10, 4, 20)))
    cubes = bytearray(k % 6 for k in range(64))
    board.release_cubes(board.tower.throw(cubes, board.tower_rng, bytearray()), AHEAD)
    assert len(board.truth) < 40  # (not all at once)
    most, _ = _run(board, 10000)
    # every cube out (one lower block a touching pair), and never more blocks than the room
    assert board._throw is None and len(board.truth) > 64, len(board.truth)
    assert board.lower_count() == len(board.truth) - board.pairs, board.lower_count()
    assert most <= ROOM, most  # (15 with this seed)


def test_throws_released_while_one_is_coming_out_follow_it_in_the_room():
    # A host that throws again before a throw is out (four at once): each waits for the one
    # before it. Finding that one's end by scheduling all its cubes at once overflowed the room
    # (a MemoryError, allocating 2688 bytes, in a 64K session).
    board = SimBoard(seed=5, virtual=True, serial=False, gap_ms=(3.0, 12.0), **FAITHFUL)
    colours = bytearray(k % 6 for k in range(52))
    for _ in range(4):
        board.release_cubes(colours, AHEAD)
    most, starts = _run(board, 20000)
    assert board._throw is None and len(board.truth) == 4 * 52, len(board.truth)
    assert board.lower_count() == len(board.truth) - board.pairs
    # in time order, one throw after the other
    assert all(board.ticks_diff(b, a) > 0 for a, b in zip(starts, starts[1:]))
    assert most <= ROOM, most


def test_an_inject_released_while_a_throw_is_coming_out_follows_it_in_the_room():
    # A throw, inject pulses and a throw, released one after the other before the first is
    # out: the pulses wait for the first throw, the second throw for the pulses.
    opts = dict(FAITHFUL)
    opts["chatter_p"] = 0.0  # (every upper block without a lower one is then a pulse)
    board = SimBoard(seed=6, virtual=True, serial=False, gap_ms=(3.0, 12.0), **opts)
    colours = bytearray(k % 6 for k in range(40))
    board.release_cubes(colours, AHEAD)
    board.inject(30, 7000, 10000)
    board.release_cubes(colours, AHEAD)
    most, starts = _run(board, 20000)
    assert board._throw is None and not board.injecting and len(board.truth) == 80
    assert board.beam_count() - board.lower_count() == 30  # the pulses, once each
    assert board.lower_count() == len(board.truth) - board.pairs
    assert all(board.ticks_diff(b, a) > 0 for a, b in zip(starts, starts[1:]))
    # between the two throws, the pulses: 30 of 17 ms
    assert board.ticks_diff(board.truth[40][0], board.truth[39][0]) > 30 * 17000
    assert most <= ROOM, most


def test_cubes_held_up_by_the_laptop_wait_and_keep_their_own_edges():
    # The beams' counters are read every 0.5 ms (the board's handlers and steps), but the blocks
    # ahead are topped up only every 80 ms (a loaded laptop holding the process up past the
    # cubes scheduled ahead). A cube scheduled before the counters' last reading was counted
    # there without its edges: its fall placed onto the cube before it, the two read as one
    # block (a lost cube, the falls agreeing with the hardware count). Each waits instead.
    board = SimBoard(seed=4, virtual=True, serial=False, gap_ms=(3.0, 12.0), tumble_p=0.0)
    cubes = bytearray(k % 6 for k in range(40))
    board.release_cubes(cubes, AHEAD)
    ts = array.array("i", bytes(4 * 32))
    vs = bytearray(32)
    upper = []
    for step in range(2 * 4000):
        board.advance(500)
        if step % 160 == 0:
            board.poll()
        n = board.take_edges(ts, vs)
        upper += [(ts[i], vs[i]) for i in range(n) if not vs[i] & 2]
    assert board._throw is None and len(board.truth) == 40, len(board.truth)
    assert all(v & 4 == 0 for _, v in upper), [v for _, v in upper]  # none late
    assert len(upper) == 2 * 40 == 2 * board.beam_count(), (len(upper), board.beam_count())
    gaps = [board.ticks_diff(upper[i + 1][0], upper[i][0]) for i in range(1, len(upper) - 1, 2)]
    assert min(gaps) >= 1000, min(gaps)  # (the detector's debounce: two blocks, two cubes)


def test_the_real_time_sim_holds_its_handlers_for_the_firmware_s_own_step_lengths():
    # boards/sim.py's ESP32 microseconds are simtime.py's step lengths (the firmware's
    # instruction counts, bench/bench_steps.py) x 3.7 cycles at 240 MHz: within 15 % of them
    from shogun_fw.boards import simtime
    from shogun_fw.boards.simtime import consts

    sim = consts(__import__("shogun_fw.boards.sim").boards.sim.__file__)
    per = simtime._CYCLES_PER_INSTR / simtime._MHZ
    for name, want in (("_STEP_US0", simtime._STEP_BASE_I * per),
                       ("_STEP_US1", simtime._STEP_EDGE_I * per),
                       ("_CALLBACK_US", simtime._SAMPLE_I * per + simtime._SAMPLE_US)):
        assert abs(sim[name] - want) <= 0.15 * want, (name, sim[name], want)


def test_a_held_up_process_still_reads_each_edge_at_its_own_time():
    # Real time, as `shogun-tower sim` runs: three blocks 1 ms apart, and the process held up
    # for 60 ms (a loaded laptop: 10 ms of it pass for the board, its _STALL_US). The ESP32's
    # handlers would have read each edge within a fraction of a ms, so the capture gives each
    # its own time, none marked late: read at the process's turn, one reading would hold all six
    # and the gaps between the blocks would be lost (three cubes read as two, or one).
    import time

    board = SimBoard(seed=5, serial=False)
    t = board.ticks_add(board.ticks_us(), 500)
    blocks = []
    for k in range(3):
        t0 = board.ticks_add(t, 3000 * k)
        t1 = board.ticks_add(t0, 2000)
        board.add_block(t0, t1)
        blocks += [t0, t1]
    time.sleep_ms(60)
    ts = array.array("i", bytes(4 * 32))
    vs = bytearray(32)
    n = board.take_edges(ts, vs)
    upper = [(ts[i], vs[i]) for i in range(n) if not vs[i] & 2]
    assert len(upper) == 6, upper
    for i, (te, v) in enumerate(upper):
        assert v & 4 == 0, (i, upper)           # not late
        assert v & 1 == (1 if i % 2 == 0 else 0)  # a fall, then a rise
        assert abs(board.ticks_diff(te, blocks[i])) <= 50, (i, te, blocks[i])


def test_a_stall_of_the_laptop_does_not_pass_for_the_simulated_board():
    # 200 ms without the process running (a loaded laptop): the board's clock moves on by 10 ms
    # at most (its _STALL_US); an ESP32 is never held up so, and its cubes wait instead.
    import time

    board = SimBoard(seed=5, serial=False)
    t0, m0 = board.ticks_us(), board.ticks_ms()
    time.sleep_ms(200)
    t1, m1 = board.ticks_us(), board.ticks_ms()
    assert 10000 <= board.ticks_diff(t1, t0) < 15000, board.ticks_diff(t1, t0)
    assert 9 <= board.ticks_diff(m1, m0) <= 16, board.ticks_diff(m1, m0)
    for _ in range(20):  # awake every ms: the clock goes as the laptop's
        time.sleep_ms(1)
        board.ticks_us()
    assert board.ticks_diff(board.ticks_us(), t1) >= 15000  # (a sleep_ms(1): 0.98 ms and up)


def _single_block_holes():
    # Every free run of the heap cut down to one block (32 bytes on the 64-bit port): it is
    # filled with one-block floats with the collector off, every other one kept, and the rest
    # collected. (The collector then frees single blocks only: nothing else is made here.)
    gc.collect()
    gc.disable()
    kept = [None] * (gc.mem_free() // 64 + 64)
    f = 0.5
    i = 0
    try:
        while i < len(kept):
            _ = f + 1.0  # (one float: a block, left as garbage)
            kept[i] = f + 2.0
            i += 1
    except MemoryError:
        pass
    gc.enable()
    gc.collect()
    return kept


def test_a_cube_falls_in_a_heap_with_no_free_run_of_two_blocks():
    # A 64K session's heap has a few KB free after a collection, in holes of a few blocks. A
    # cube's scheduling (its fall, extents, paint and pass of the window: drop) makes floats and
    # the generator's big ints, a block each, and nothing longer: reflectance()'s tuple a cube
    # found no 120-byte run in two 500-cube sessions of three (a MemoryError, the throw lost).
    board = SimBoard(seed=3, serial=False, **FAITHFUL)
    t = board.ticks_us()
    kept = _single_block_holes()
    try:
        for k in range(3 * ROOM):
            if k % ROOM == 0:
                del board._blocks[:]  # (the room kept)
            board.drop(board.ticks_add(t, 20000 * k), k % 6, None, None, None, 0, None)
    finally:
        kept = None
    assert len(board._blocks) == 7 * ROOM and kept is None
