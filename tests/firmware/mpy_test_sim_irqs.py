# The simulated tower's soft interrupts in real time (boards/simtime.py irqs, as
# boards/sim.py's _hardware task runs them), on MicroPython, played here on a virtual clock: a
# handler runs after the idle dispatch or after the detector step it came in, its length the
# firmware's own (soft_irq_us); a burst past the scheduler's queue of 8 drops handlers and loses
# no edge; every edge keeps its time when its handler ran before the next edge.
import array

from shogun_fw.boards import simtime
from shogun_fw.boards.sim import SimBoard


class _Flag:
    def set(self):
        pass


def _board():
    board = SimBoard(seed=3, virtual=True, serial=False)
    board.edge_flag = _Flag()
    return board, simtime.irq_state(board.ticks_us())


def _take(board):
    ts = array.array("i", bytes(4 * 32))
    vs = bytearray(32)
    n = board.take_edges(ts, vs)
    return [(ts[i], vs[i]) for i in range(n)]


def _readings(board):
    return board.capture.status[0]  # (boards/__init__.py _S_W: readings written)


def test_a_handler_runs_after_the_dispatch_or_after_the_step_it_came_in():
    board, st = _board()
    dispatch, handler, base = simtime.soft_irq_us()[:3]
    t0 = board.ticks_add(board.ticks_us(), 1000)
    board.add_block(t0, board.ticks_add(t0, 6000))
    board.advance(1000 + dispatch - 1)
    w = _readings(board)
    simtime.irqs(board, st, board.ticks_us())
    assert _readings(board) == w            # not yet: the interpreter comes to it
    board.advance(1)
    simtime.irqs(board, st, board.ticks_us())
    assert _readings(board) == w + 1
    # the detector's step (a base and no edges) from just before the rise: its handler waits
    simtime.busy(st, board.ticks_add(t0, 5990), 2, 0)
    board.advance(6000 + base)
    simtime.irqs(board, st, board.ticks_us())
    assert st[0] == board.ticks_add(t0, 5990 + base + handler)  # (_Q_FREE: after it)


def test_a_burst_past_the_queue_drops_handlers_and_loses_no_edge():
    board, st = _board()
    t = board.ticks_add(board.ticks_us(), 1000)
    for k in range(10):                     # 20 edges inside one long detector step
        board.add_block(board.ticks_add(t, 200 * k), board.ticks_add(t, 200 * k + 100))
    simtime.busy(st, board.ticks_us(), 2, 200)
    board.advance(3000)
    simtime.irqs(board, st, board.ticks_us())
    assert st[4] == 20 - 8, st[4]           # (_Q_DROPPED) the queue held 8
    edges = _take(board)
    assert [v & 1 for _, v in edges] == [1, 0] * 10, edges
    assert board.beam_count() == 10


def test_edges_whose_handlers_ran_before_the_next_edge_keep_their_times():
    board, st = _board()
    t = board.ticks_add(board.ticks_us(), 1000)
    for k in range(4):
        board.add_block(board.ticks_add(t, 10000 * k), board.ticks_add(t, 10000 * k + 5000))
    for _ in range(50):
        board.advance(1000)
        simtime.irqs(board, st, board.ticks_us())
    edges = _take(board)
    want = []
    for k in range(4):
        want += [(board.ticks_add(t, 10000 * k), 1), (board.ticks_add(t, 10000 * k + 5000), 0)]
    assert edges == want, edges
