# Cube detection on MicroPython: the simulated board's physics in virtual time, scene by scene.
import host_part  # noqa: F401 - the host-only decoders, for the tests

from shogun_common import protocol as P
from shogun_common.colours import UNKNOWN
from shogun_fw.boards.sim import REFLECTANCE, SimBoard, pack_light
from shogun_fw.boards.simtime import drive
from shogun_fw.colour import Classifier
from shogun_fw.detector import Detector

MS = 1000


def _setup(**kw):
    kw.setdefault("noise", 2.0)
    board = SimBoard(seed=3, virtual=True, serial=False, **kw)
    events = []
    det = Detector(board, Classifier(), lambda t, p: events.append((t, p)))
    drive(board, det, 100 * MS)  # the chute is empty for a while: the ambient light is learnt
    return board, det, events


def _at(board, ms):
    return board.ticks_add(board.ticks_us(), int(ms * MS))


def _block(board, start_ms, length_ms, *colours):
    """A block from start_ms (from now) on; one colour, or two cubes sharing it evenly."""
    t0 = _at(board, start_ms)
    t1 = _at(board, start_ms + length_ms)
    if len(colours) == 1:
        board.add_block(t0, t1, pack_light(REFLECTANCE[colours[0]]))
    else:
        first, second = colours
        mid = _at(board, start_ms + length_ms / 2)
        board.add_block(t0, t1, pack_light(REFLECTANCE[first]), mid,
                        pack_light(REFLECTANCE[second]))


def _of(events, mtype, unpack):
    return [unpack(p) for t, p in events if t == mtype]


def _cubes(events):
    return _of(events, P.CUBE, P.unpack_cube)


def _ends(events):
    return _of(events, P.THROW_END, P.unpack_throw_end)


def _errors(events):
    return _of(events, P.ERROR, P.unpack_text)


def test_each_cube_is_one_event_with_its_colour():
    board, det, events = _setup()
    for k, colour in enumerate((1, 4, 0, 5, 2, 3)):
        _block(board, 10 + k * 10, 7, colour)  # gaps of 3 ms
    drive(board, det, 200 * MS)
    cubes = _cubes(events)
    assert [c["colour"] for c in cubes] == [1, 4, 0, 5, 2, 3], cubes
    assert [c["cube_no"] for c in cubes] == [1, 2, 3, 4, 5, 6]
    assert all(6500 <= c["block_us"] <= 7500 for c in cubes)


def test_throw_ends_after_quiet_window_and_reconciles():
    board, det, events = _setup()
    _block(board, 10, 7, 1)
    _block(board, 25, 7, 1)
    drive(board, det, 300 * MS)
    assert not _ends(events)
    drive(board, det, 200 * MS)
    assert _ends(events) == [{"throw_no": 1, "cubes": 2, "hw_count": 2}]
    assert det.mismatches == 0 and not _errors(events)


def test_two_cubes_together_are_two_cubes_each_in_its_colour():
    board, det, events = _setup()
    _block(board, 10, 14, 1, 4)  # red and blue touching: one block, one count
    drive(board, det, 600 * MS)
    cubes = _cubes(events)
    assert [c["colour"] for c in cubes] == [1, 4], cubes
    assert not cubes[0]["flags"] & P.FLAG_DOUBLE and cubes[1]["flags"] & P.FLAG_DOUBLE
    assert _ends(events) == [{"throw_no": 1, "cubes": 2, "hw_count": 1}]
    assert not _errors(events)


def test_a_stuck_cube_is_one_cube_and_holds_the_throw_open():
    board, det, events = _setup()
    _block(board, 10, 700, 2)  # held in front of the beam for longer than the quiet window
    drive(board, det, 650 * MS)
    assert not _cubes(events) and not _ends(events)
    drive(board, det, 600 * MS)
    cubes = _cubes(events)
    assert len(cubes) == 1 and cubes[0]["colour"] == 2 and cubes[0]["flags"] & P.FLAG_STUCK
    assert _ends(events)[0]["cubes"] == 1


def test_chatter_is_merged_or_dropped_and_still_reconciles():
    board, det, events = _setup()
    board.add_block(_at(board, 10), _at(board, 10.1))  # a lone blip
    board.add_block(_at(board, 30), _at(board, 30.15))  # a blip, 0.3 ms gap, a cube
    _block(board, 30.45, 7, 5)
    drive(board, det, 600 * MS)
    cubes = _cubes(events)
    assert [c["colour"] for c in cubes] == [5], cubes
    assert det.chatter == 1
    assert _ends(events) == [{"throw_no": 1, "cubes": 1, "hw_count": 3}]
    assert not _errors(events)


def test_lost_edges_are_reported_and_counted_not_hidden():
    board, det, events = _setup()
    _block(board, 10, 7, 1)
    _block(board, 30, 7, 1)
    drive(board, det, 25 * MS)
    board._edge_pos += 2  # the soft interrupts dropped the second block's two edges
    drive(board, det, 600 * MS)
    errors = _errors(events)
    assert errors and errors[0][0] == P.E_COUNT_MISMATCH, errors
    cubes = _cubes(events)
    assert len(cubes) == 2
    assert cubes[1]["colour"] == UNKNOWN and cubes[1]["flags"] & P.FLAG_RECOVERED
    assert _ends(events) == [{"throw_no": 1, "cubes": 2, "hw_count": 2}]
    assert det.mismatches == 1


def test_a_saturated_reading_is_unknown_never_guessed():
    board, det, events = _setup()
    t0, t1 = _at(board, 10), _at(board, 17)
    board.add_block(t0, t1, pack_light((2000, 300, 200, 3000)))
    drive(board, det, 100 * MS)
    cube = _cubes(events)[0]
    assert cube["colour"] == UNKNOWN and cube["flags"] & P.FLAG_SATURATED


def test_a_mix_of_two_colours_in_one_sample_is_not_used():
    board, det, events = _setup()
    _block(board, 10, 7, 1)
    _block(board, 20, 7, 4)  # 3 ms apart: samples that saw both are skipped
    drive(board, det, 100 * MS)
    assert [c["colour"] for c in _cubes(events)] == [1, 4]


def test_calibration_mode_sends_the_corrected_reading():
    board, det, events = _setup(noise=0.0)
    det.calibration_colour = 4
    _block(board, 10, 7, 4)
    drive(board, det, 100 * MS)
    det.calibration_colour = P.CAL_OFF
    _block(board, 10, 7, 4)
    drive(board, det, 100 * MS)
    readings = _of(events, P.CAL_READING, P.unpack_cal_reading)
    assert len(readings) == 1 and len(_cubes(events)) == 2
    r = readings[0]
    assert r["colour"] == 4 and r["cube_no"] == 1
    for got, want in zip((r["r"], r["g"], r["b"], r["c"]), REFLECTANCE[4]):
        assert abs(got - want) <= 0.1 * want + 3, (r, REFLECTANCE[4])


def test_a_dead_sensor_is_reported_and_cubes_come_as_unknown():
    board, det, events = _setup()
    board.sensor_fault = True
    _block(board, 10, 7, 1)
    reading = [0] * 6
    for _ in range(200):  # as run_colour does
        board.advance(1000)
        try:
            board.read_colour(reading)
        except OSError as exc:
            det._sensor_error(exc)
        det.step()
    errors = _errors(events)
    assert len(errors) == 1 and errors[0][0] == P.E_SENSOR
    cube = _cubes(events)[0]
    assert cube["colour"] == UNKNOWN and cube["flags"] & P.FLAG_NO_SAMPLE


def test_ambient_drift_is_followed():
    board, det, events = _setup(drift=1.0)
    drive(board, det, 15000 * MS)  # half a drift period: the stray light doubled
    assert det._ambient[3] > 100, det._ambient
    _block(board, 10, 7, 0)  # black: the cube most easily hidden by stray light
    drive(board, det, 100 * MS)
    assert _cubes(events)[0]["colour"] == 0
