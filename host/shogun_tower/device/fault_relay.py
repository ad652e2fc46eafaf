"""Faults for the link's tests and fault campaigns (`make bench`), kept out of the production link.

:class:`CorruptingRelay` sits between a host and a tower: the host opens its :attr:`port` (a new
pseudo-terminal) as it would open the tower's; every byte going either way is replaced by another
with the probability given for its direction. Seeded: the same seed corrupts the same bytes.

:class:`FaultyLink` is a :class:`DeviceLink` that loses what a test tells it to: incoming events
or replies, as if lost on the line, and its ACKs (a silent host).
"""

from __future__ import annotations

import os
import pty
import random
import select
import threading
import tty

from shogun_common import protocol as P
from shogun_tower.device.link import DeviceLink


class CorruptingRelay:
    def __init__(self, target: str, p_to_tower: float = 0.0, p_to_host: float = 0.0,
                 seed: int = 1) -> None:
        self.target = target
        self.p = {"up": p_to_tower, "down": p_to_host}
        self.rng = random.Random(seed)
        self.bytes = {"up": 0, "down": 0}
        self.corrupted = {"up": 0, "down": 0}
        self.port = ""
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def start(self) -> CorruptingRelay:
        self._tower = os.open(self.target, os.O_RDWR | os.O_NOCTTY | os.O_NONBLOCK)
        tty.setraw(self._tower)
        self._master, self._slave = pty.openpty()
        tty.setraw(self._slave)
        self.port = os.ttyname(self._slave)
        self._thread = threading.Thread(target=self._run, name="fault-relay", daemon=True)
        self._thread.start()
        return self

    def _corrupt(self, data: bytes, way: str) -> bytes:
        p = self.p[way]
        self.bytes[way] += len(data)
        if p <= 0:
            return data
        out = bytearray(data)
        for i in range(len(out)):
            if self.rng.random() < p:
                out[i] ^= self.rng.randrange(1, 256)
                self.corrupted[way] += 1
        return bytes(out)

    def _run(self) -> None:
        ways = {self._master: (self._tower, "up"), self._tower: (self._master, "down")}
        while not self._stop.is_set():
            ready, _, _ = select.select(list(ways), [], [], 0.05)
            for fd in ready:
                try:
                    data = os.read(fd, 4096)
                except (BlockingIOError, InterruptedError):
                    continue
                except OSError:
                    if self._stop.is_set():
                        return
                    continue  # the tower restarting, or the host's end not yet open
                if data:
                    dest, way = ways[fd]
                    self._write(dest, self._corrupt(data, way))

    def _write(self, fd: int, data: bytes) -> None:
        while data and not self._stop.is_set():
            try:
                data = data[os.write(fd, data):]
            except BlockingIOError:
                select.select([], [fd], [], 0.05)
            except OSError:
                return

    def stop(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=1)
        for fd in (self._tower, self._master, self._slave):
            try:
                os.close(fd)
            except OSError:
                pass

    def __enter__(self) -> CorruptingRelay:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()


class FaultyLink(DeviceLink):
    """A DeviceLink for tests: the next ``drop_incoming_events`` events and
    ``drop_incoming_replies`` replies it reads are dropped as if lost on the line; while
    ``hold_acks`` is set it acknowledges nothing (a silent host; ``acknowledge()`` once it is
    cleared)."""

    def __init__(self, *args: object, **kwargs: object) -> None:
        # (before the reading thread starts, in DeviceLink.__init__)
        self.drop_incoming_events = 0
        self.drop_incoming_replies = 0
        self.hold_acks = False
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]

    def _dispatch(self, mtype: int, seq: int, payload: bytes) -> None:
        if mtype >= P.EVENTS_FROM and self.inbox is not None and self.drop_incoming_events > 0:
            self.drop_incoming_events -= 1
            return
        if P.OK <= mtype < P.EVENTS_FROM and mtype != P.FATAL:
            with self._reply_cv:
                if seq in self._awaiting and self.drop_incoming_replies > 0:
                    self.drop_incoming_replies -= 1
                    return
        super()._dispatch(mtype, seq, payload)

    def acknowledge(self) -> None:
        if not self.hold_acks:
            super().acknowledge()
