# The app (shogun_fw/app.py) on the simulated board, on MicroPython: run by test_on_micropython.py.
import asyncio

from shogun_fw import app
from shogun_fw.boards.sim import SimBoard
from shogun_fw.detector import Detector


class _QuietBoard(SimBoard):
    """A simulated board whose host never sends anything and whose fatal() only records."""

    def __init__(self):
        super().__init__(serial=False, flash_dir="/tmp/shogun-mpy-test-app")
        self.out = bytearray()
        self.failed = []

    def serial_write(self, data, off=0, n=-1):
        self.out.extend(data if n < 0 else data[off:off + n])

    async def serial_receive(self, most=256):
        await asyncio.sleep_ms(100000)

    def fatal(self, exc):
        self.failed.append(exc)


def test_an_exception_in_a_task_reaches_the_board_and_ends_the_app():
    # (robustness: the board reports it and resets, never a task silently gone)
    saved = Detector.run_colour

    async def failing(self):
        await asyncio.sleep_ms(30)
        raise ValueError("boom in a task")

    Detector.run_colour = failing
    board = _QuietBoard()
    try:
        app.start(board)
    finally:
        Detector.run_colour = saved
    assert len(board.failed) == 1, board.failed
    exc = board.failed[0]
    assert type(exc) is ValueError and exc.args == ("boom in a task",), repr(exc)
    # the loop's handler is the default one again once the app has ended
    assert asyncio.get_event_loop().get_exception_handler() is None
