"""docs/protocol.md's example exchange, byte for byte against the simulated tower.

The exchange is a script of this file run against `shogun-tower sim --seed 1`: the test runs it
again and compares every frame with the document's, byte for byte, except the fields that are
random or timed by nature (VARYING: the boot id, the REPL nonce, a cube's clock reading, the
heap's figures, the strip's frames and their age), which must decode to a value of the same
field. `SHOGUN_WRITE_EXAMPLE=1 pytest tests/host/test_protocol_example.py` writes the exchange
the code gives now into the document (then read it and its notes again).
"""

from __future__ import annotations

import os
import pathlib
import struct
import time

import serial

from shogun_common import protocol as P
from shogun_tower.sim_device import SimulatedTower

DOC = pathlib.Path(__file__).parents[2] / "docs" / "protocol.md"
SESSION = 0x5EED0001
# (type name) -> byte ranges of the payload that differ from run to run
VARYING: dict[str, tuple[tuple[int, int], ...]] = {
    "hello_reply": ((1, 5),),        # boot id: random at every boot
    "boot": ((0, 4),),               # the same boot id
    "ack": ((2, 6),),                # ... that the host's ACKs name
    "cube": ((4, 8), (9, 10), (10, 12)),  # the board's clock (µs), confidence, block µs
    "status": ((0, 4), (16, 18), (24, 28), (28, 32)),  # heap free, frame mA, live, peak
    "repl_nonce": ((0, 4),),         # random
    "repl_confirm": ((0, 4),),       # its echo
    "sim_tower_data": ((10, 14), (14, 18)),  # frames the strip took, ms since the last
}


class _Wire:
    """A client of a few lines: frames written and read on the port, each line recorded."""

    def __init__(self, port: str) -> None:
        self.port = serial.Serial(port, 115200, timeout=0.05)
        self.reader = P.FrameReader()
        self.pending: list[tuple[int, int, bytes]] = []
        self.lines: list[tuple[str, int, int, bytes]] = []
        self.boot_id = 0
        self.expected: int | None = None  # (events before hello_reply: not taken)

    def send(self, mtype: int, seq: int, payload: bytes = b"") -> None:
        self.port.write(P.encode_frame(mtype, seq, payload))
        self.lines.append(("H>D", mtype, seq, payload))

    def _frame(self, deadline: float) -> tuple[int, int, bytes]:
        while not self.pending:
            assert time.monotonic() < deadline, "the tower did not answer"
            self.pending.extend(self.reader.feed(self.port.read(256)))
        return self.pending.pop(0)

    def take(self, until: int | None = None, seq: int | None = None,
             wait_s: float = 15.0) -> tuple[int, int, bytes]:
        """Frames read (events taken in order, each acknowledged at once, repeats skipped)
        until one of type ``until`` (an event) or the reply numbered ``seq``."""
        deadline = time.monotonic() + wait_s
        while True:
            mtype, fseq, payload = self._frame(deadline)
            if mtype >= P.EVENTS_FROM:
                if mtype == P.BOOT:
                    self.boot_id = struct.unpack("<I", payload[:4])[0]
                if fseq != self.expected:
                    continue  # before hello_reply, or a repeat: not taken, not listed
                self.lines.append(("D>H", mtype, fseq, payload))
                self.expected = (fseq + 1) & 0xFFFF
                self.send(P.ACK, 0, P.pack_ack(fseq, self.boot_id))
                if mtype == until:
                    return mtype, fseq, payload
            elif fseq == seq:
                self.lines.append(("D>H", mtype, fseq, payload))
                return mtype, fseq, payload

    def ask(self, mtype: int, seq: int, payload: bytes = b"") -> tuple[int, int, bytes]:
        self.send(mtype, seq, payload)
        return self.take(seq=seq)


def run_example(port: str) -> list[tuple[str, int, int, bytes]]:
    """The example exchange: hello, scores, a throw and its ACKs, status, a repeated command,
    a number used again for another command, one far ahead, a reconnect, the REPL."""
    w = _Wire(port)
    try:
        w.send(P.HELLO, 1, P.pack_hello(SESSION))
        _t, _s, reply = w.take(seq=1)
        w.expected = P.unpack_hello_reply(reply)["next_seq"]  # before the events that follow
        w.take(until=P.BOOT)
        w.ask(P.SCORES, 2, P.pack_scores([(1, 12, 3), (4, 40, 1)]))
        w.ask(P.SIM_LOAD, 3, bytes((0, 2, 0, 0, 1, 3)))
        throw = bytes((0, 1, 0, 0, 1, 0))
        w.ask(P.SIM_THROW, 4, throw)
        w.take(until=P.THROW_END)
        time.sleep(0.3)  # (an ACK and a status in one read: the status first; see the page)
        w.ask(P.STATUS_GET, 5)
        w.ask(P.SIM_THROW, 4, throw)                    # a lost reply's retry: the kept ok
        w.ask(P.SIM_THROW, 4, bytes((0, 0, 0, 0, 0, 1)))  # another command, same number
        w.ask(P.SIM_LOAD, 30006, bytes(6))              # far ahead: refused, not kept
        w.ask(P.SIM_TOWER, 6)
        w.ask(P.HELLO, 7, P.pack_hello(SESSION))         # a reconnect: the same session
        _t, _s, nonce = w.ask(P.REPL, 8)
        w.ask(P.REPL_CONFIRM, 9, nonce)
    finally:
        w.port.close()
    return w.lines


def _line(direction: str, mtype: int, seq: int, payload: bytes) -> str:
    octets = " ".join(f"{b:02x}" for b in P.encode_frame(mtype, seq, payload))
    return f"{direction} {P.NAMES[mtype]:<14} {octets}"


def _doc_block() -> tuple[str, str, str]:
    text = DOC.read_text()
    head, rest = text.split("## Example exchange", 1)
    intro, block, tail = rest.split("```", 2)
    return head + "## Example exchange" + intro, block, tail


def _masked(name: str, payload: bytes, like: bytes) -> bytes:
    out = bytearray(payload)
    for start, end in VARYING.get(name, ()):
        out[start:end] = like[start:end]
    return bytes(out)


def test_the_example_exchange_reproduces_against_the_simulated_tower() -> None:
    with SimulatedTower(seed=1) as sim:
        lines = run_example(sim.port)
    got = [_line(*line) for line in lines]
    if os.environ.get("SHOGUN_WRITE_EXAMPLE"):
        before, _block, after = _doc_block()
        DOC.write_text(before + "```\n" + "\n".join(got) + "\n```" + after)
    _before, block, _after = _doc_block()
    documented = [ln.split() for ln in block.strip().splitlines()]
    assert len(documented) == len(lines), (len(documented), "\n".join(got))
    for (direction, mtype, seq, payload), doc in zip(lines, documented, strict=True):
        frames = P.FrameReader().feed(bytes.fromhex("".join(doc[2:])))
        assert len(frames) == 1, doc
        dtype, dseq, dpayload = frames[0]
        name = P.NAMES[mtype]
        assert (doc[0], doc[1], dtype, dseq) == (direction, name, mtype, seq), (doc, name, seq)
        assert len(dpayload) == len(payload), (name, seq)
        # byte for byte, the fields that vary by nature taken from the document's run
        mine = _line(direction, mtype, seq, _masked(name, payload, dpayload)).split()
        assert mine == doc, (
            name, seq, payload.hex(), dpayload.hex())
