# The firmware application: one asyncio.run(main()) with a link task, a detector task (and its
# colour-sampling task) and a score-track task. The board is injected; nothing here imports
# `machine`.
#
# Robustness: an exception anywhere in the app reaches `start`. Once the app is up it goes to
# board.fatal: the board reports it to the host (a FATAL frame), keeps it on flash and resets
# (never a REPL left open to the host's bytes). One in start-up, or a second before the host
# heard the first, goes to board.safe_mode: reported the same way, but the board stays at its
# REPL, as a reset would only fail again. The next start tells the host the kept failure once
# (an ERROR event, kept on flash until acknowledged). The watchdog is fed by the link task
# only while every task shows it is alive.
import asyncio
import gc

import micropython

from shogun_common import protocol as P
from shogun_fw import VERSION, commands
from shogun_fw.colour import Classifier
from shogun_fw.detector import Detector
from shogun_fw.link import Link
from shogun_fw.score_track import ScoreTrack

_board = None
_options = {}
_ready = 0  # the app is up (its start-up done)


def start(board=None, **options):
    """Run the app on ``board`` (remembered, so `import app; app.start()` at the REPL resumes)."""
    global _board, _options, _ready
    if board is not None:
        _board = board
        _options = options
    if _board is None:
        raise RuntimeError("app.start() needs a board the first time")
    _ready = 0
    micropython.kbd_intr(-1)  # 0x03 is data on the link, never a KeyboardInterrupt
    try:
        asyncio.run(main(_board, **_options))
    except Exception as exc:  # noqa: BLE001 - never leave a REPL open to the host's bytes
        if not hasattr(_board, "safe_mode"):
            _board.fatal(exc)
        elif not _ready:
            _board.safe_mode(exc)
        elif _board.flash_read("last_error.txt"):  # (kept until a host has heard it)
            _board.safe_mode(exc, "failed again, the last failure unheard: ")
        else:
            _board.fatal(exc)
    finally:
        micropython.kbd_intr(3)
        asyncio.get_event_loop().set_exception_handler(None)
        asyncio.new_event_loop()
    # Reaching here means the host asked for the REPL (protocol REPL command), or safe mode.


async def main(board, quiet_ms=None, double_ms=None):
    global _ready
    gc.collect()
    link = Link(board, VERSION)  # first: its rings want runs of free heap a fragmented one lacks
    board.attach()
    classifier = Classifier.load(board)
    track = ScoreTrack(board)
    detector = Detector(board, classifier, link.send_event, packed=True)
    if quiet_ms:
        detector.quiet_us = quiet_ms * 1000
    if double_ms:
        detector.double_us = int(double_ms * 1000)
    commands.serve(link, track, detector, classifier)
    # While a throw goes on the track's frames wait: a render and a strip write cost the loop
    # its time, and the UART's interrupts that send the frame would run between beam edges and
    # colour samples.
    track.hold = detector.active
    detector.ended = link.throw_ended
    link.send_event(P.BOOT, board.boot_payload(link.boot_id))
    asyncio.get_event_loop().set_exception_handler(link.failed)
    tasks = [
        asyncio.create_task(detector.run()),
        asyncio.create_task(detector.run_colour()),
        asyncio.create_task(track.run()),
    ]
    if hasattr(board, "safe_mode"):  # (it keeps its failures: the last one told once)
        board.tell_kept(link, tasks)
    _ready = 1
    await link.run()  # returns when the host asks for the REPL
    for task in tasks:
        task.cancel()
    board.release()
