# SIM_LOAD on MicroPython: the simulated tower then holds exactly the cubes the host names (the
# game's tower after a resume or an undo); a real board refuses it.
from fakes import FakeBoard

from shogun_common import protocol as P
from shogun_fw import commands
from shogun_fw.boards.sim import SimBoard
from shogun_fw.link import Link

LOAD = bytes((2, 3, 0, 1, 0, 4))  # black, red, yellow, purple, blue, green


def _board():
    return SimBoard(seed=3, virtual=True, serial=False)


def _replies(written):
    # (as the board reads: scan, then next until 0; feed() is the host's)
    reader = P.FrameReader()
    out = []
    for data in written:
        reader.scan(data)
        while True:
            n = reader.next()
            if not n:
                break
            body = reader.body
            out.append((body[0], body[1] | body[2] << 8, bytes(body[3:n])))
    return out


def test_load_then_tower_gives_the_same_counts():
    board = _board()
    board.sim_load(LOAD)
    assert board.sim_tower() == LOAD


def test_load_replaces_what_the_tower_held():
    board = _board()
    board.sim_throw(bytes((10, 10, 10, 10, 10, 10)))
    assert sum(board.sim_tower()) > 0
    board.sim_load(LOAD)
    assert board.sim_tower() == LOAD
    board.sim_load(bytes(6))
    assert board.sim_tower() == bytes(6)


def test_cubes_are_dealt_to_the_ledges_in_turn():
    board = _board()
    board.sim_load(LOAD)
    # colour by colour, black first; cube k on ledge k mod 2 (top ledge first)
    order = [0, 0, 1, 1, 1, 3, 5, 5, 5, 5]
    assert [list(ledge) for ledge in board.tower.ledges] == [order[0::2], order[1::2]]


def test_the_same_load_always_gives_the_same_tower():
    a = _board()
    b = SimBoard(seed=99, virtual=True, serial=False)
    b.sim_throw(bytes((4, 4, 4, 4, 4, 4)))
    a.sim_load(LOAD)
    b.sim_load(LOAD)
    assert a.tower.ledges == b.tower.ledges


def test_a_throw_after_a_load_lets_out_only_loaded_and_thrown_cubes():
    for seed in range(1, 30):
        board = SimBoard(seed=seed, virtual=True, serial=False)
        board.sim_load(LOAD)
        thrown = bytes((0, 0, 0, 0, 8, 0))  # blue: none was loaded
        board.sim_throw(thrown)
        out = [0] * 6
        for _t, colour in board.truth:
            out[colour] += 1
        inside = board.sim_tower()
        for colour in range(6):
            assert out[colour] + inside[colour] == LOAD[colour] + thrown[colour], (seed, colour)
        assert out[2] == 0 and inside[2] == 0, "no yellow was loaded or thrown"


def test_link_answers_ok_on_the_simulated_board():
    board = _board()
    written = []
    board.serial_write = lambda data, off=0, n=-1: written.append(
        bytes(data if n < 0 else data[off:off + n]))
    link = Link(board, "test")
    commands.serve(link, None, None, None)
    link.handle(P.SIM_LOAD, 7, LOAD)
    assert _replies(written) == [(P.OK, 7, b"")]
    assert board.sim_tower() == LOAD


def test_link_refuses_a_bad_payload():
    board = _board()
    written = []
    board.serial_write = lambda data, off=0, n=-1: written.append(
        bytes(data if n < 0 else data[off:off + n]))
    link = Link(board, "test")
    commands.serve(link, None, None, None)
    link.handle(P.SIM_LOAD, 8, b"\x01\x02")
    [(mtype, seq, payload)] = _replies(written)
    assert mtype == P.REFUSED and seq == 8 and payload[0] == P.E_BAD_PAYLOAD


def test_a_throw_that_could_let_out_more_than_the_boards_room_is_refused():
    # 64 held and 64 thrown fit the room the board took at boot for a throw's cubes (a 64K
    # heap had no run to grow it in a session: a fatal MemoryError); the tower holding more
    # (lodged from earlier throws) is refused, nothing thrown, and says what to do.
    board = SimBoard(seed=3, serial=False)  # (real time: the throw scheduled as a session's)
    written = []
    board.serial_write = lambda data, off=0, n=-1: written.append(
        bytes(data if n < 0 else data[off:off + n]))
    link = Link(board, "test")
    commands.serve(link, None, None, None)
    link.handle(P.SIM_LOAD, 1, bytes((10, 10, 10, 10, 10, 14)))
    link.handle(P.SIM_THROW, 2, bytes((12, 12, 12, 12, 12, 4)))
    assert len(board._arrivals) == 128 and board._throw[5] > 64, board._throw  # (its cubes out)
    link.handle(P.SIM_LOAD, 3, bytes((10, 10, 10, 10, 10, 14)))
    board.tower.ledges[0].append(0)  # one more lodged by a throw: 65 held
    held = board.sim_tower()
    link.handle(P.SIM_THROW, 4, bytes((12, 12, 12, 12, 12, 4)))
    replies = _replies(written)
    assert [r[:2] for r in replies] == [(P.OK, 1), (P.OK, 2), (P.OK, 3), (P.REFUSED, 4)], replies
    assert replies[3][2][0] == P.E_BAD_PAYLOAD
    assert b"65 held + 64 thrown, at most 128 fall out: sim_load fewer" in replies[3][2]
    assert board.sim_tower() == held and board.throws == 1


def test_a_real_board_refuses_it():
    board = FakeBoard()  # no CAP_SIMULATED, as the ESP32 board
    link = Link(board, "test")
    commands.serve(link, None, None, None)
    link.handle(P.SIM_LOAD, 9, LOAD)
    [(mtype, seq, payload)] = _replies(board.written)
    assert mtype == P.REFUSED and seq == 9 and payload[0] == P.E_UNSUPPORTED
    assert b"sim_load" in payload


def test_the_firmware_carries_no_host_only_code():
    # protocol.py's `if _HOST:` part (names, Inbox, decoders) is not compiled on MicroPython
    for name in ("NAMES", "Inbox", "unpack_cube", "unpack_status", "pack_scores", "unpack_ack",
                 "RELIABLE_TYPES"):
        assert not hasattr(P, name), name
    assert not hasattr(P.FrameReader, "feed")
    assert hasattr(P, "pack_cube") and hasattr(P, "Outbox")
