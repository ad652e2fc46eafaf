# Cube detection on MicroPython with a scripted board.
from fakes import FakeBoard

from shogun_common import protocol as P
from shogun_common.colours import UNKNOWN
from shogun_fw.boards.sim import AMBIENT, REFLECTANCE
from shogun_fw.colour import Classifier
from shogun_fw.detector import Detector


def _setup():
    board = FakeBoard()
    events = []
    det = Detector(board, Classifier(), lambda t, p: events.append((t, p)))
    # the chute is empty for a while: the detector learns the ambient light
    for _ in range(40):
        det._add_sample([board.now - 2400, board.now] + list(AMBIENT))
        board.now += 2400
    return board, det, events


def _cube(board, det, colour, block_us=7000, gap_us=5000):
    t0 = board.now + gap_us
    t1 = t0 + block_us
    board.block(t0, t1)
    # colour samples every 2.4 ms while the cube passes
    t = board.now
    while t < t1 + 2400:
        inside = max(0, min(t + 2400, t1) - max(t, t0)) / 2400
        reading = [AMBIENT[i] + inside * REFLECTANCE[colour][i] for i in range(4)]
        det._add_sample([t, t + 2400] + [int(v) for v in reading])
        t += 2400
    board.now = t
    det.step()


def _cubes(events):
    return [P.unpack_cube(p) for t, p in events if t == P.CUBE]


def test_each_cube_is_one_event_with_its_colour():
    board, det, events = _setup()
    for colour in (1, 4, 0, 5, 2, 3):
        _cube(board, det, colour)
    cubes = _cubes(events)
    assert [c["colour"] for c in cubes] == [1, 4, 0, 5, 2, 3]
    assert [c["cube_no"] for c in cubes] == [1, 2, 3, 4, 5, 6]
    assert all(6000 < c["block_us"] < 8000 for c in cubes)


def test_throw_ends_after_quiet_window_and_reconciles():
    board, det, events = _setup()
    _cube(board, det, 1)
    _cube(board, det, 1)
    board.now += 300000
    det.step()
    assert not [t for t, p in events if t == P.THROW_END]
    board.now += 200000
    det.step()
    ends = [P.unpack_throw_end(p) for t, p in events if t == P.THROW_END]
    assert ends == [{"throw_no": 1, "cubes": 2, "hw_count": 2}]
    assert det.mismatches == 0


def test_long_block_is_two_cubes():
    board, det, events = _setup()
    _cube(board, det, 2, block_us=15000)
    cubes = _cubes(events)
    assert len(cubes) == 2
    assert cubes[1]["flags"] & P.FLAG_DOUBLE
    assert cubes[0]["colour"] == 2


def test_chatter_shorter_than_debounce_is_ignored():
    board, det, events = _setup()
    board.block(board.now + 100, board.now + 400, counted=False)
    board.now += 5000
    det.step()
    assert _cubes(events) == []


def test_missed_edges_are_reported_not_hidden():
    board, det, events = _setup()
    _cube(board, det, 1)
    board.count += 2  # the hardware counter saw two blocks the interrupts never reported
    board.now += 600000
    det.step()
    errors = [P.unpack_text(p) for t, p in events if t == P.ERROR]
    assert errors and errors[0][0] == P.E_COUNT_MISMATCH
    cubes = _cubes(events)
    assert len(cubes) == 3
    assert cubes[1]["colour"] == UNKNOWN and cubes[2]["colour"] == UNKNOWN
    ends = [P.unpack_throw_end(p) for t, p in events if t == P.THROW_END]
    assert ends[0]["cubes"] == 3 and ends[0]["hw_count"] == 3
