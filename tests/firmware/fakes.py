# A scripted board for firmware unit tests on MicroPython: time stands still unless a test moves
# it, edges and the hardware count are what the test says.
import time


class FakeBoard:
    name = "fake"
    caps = 0
    colour_period_ms = 2
    saturation = 1023

    def __init__(self):
        self.now = 1000000
        self.edges = []
        self.count = 0
        self.strip = bytearray()
        self.strip_busy = 0  # writes to refuse
        self.files = {}
        self.written = []
        self.edges_lost = 0
        self.readings_skipped = 0

    def ticks_us(self):
        return self.now

    def ticks_ms(self):
        return self.now // 1000

    ticks_diff = staticmethod(time.ticks_diff)
    ticks_add = staticmethod(time.ticks_add)

    def random32(self):
        return 1234

    def supply_5v(self):
        return False  # (USB feeds the strip; a test sets board.supply_5v to say otherwise)

    def poll(self):
        pass

    def take_edges(self, ts, vs):
        n = 0
        while n < len(ts) and self.edges and time.ticks_diff(self.now, self.edges[0][0]) >= 0:
            t, blocked = self.edges.pop(0)
            ts[n] = t
            vs[n] = 1 if blocked else 0
            n += 1
        return n

    def beam_count(self):
        return self.count

    def block(self, t0, t1, counted=True):
        self.edges.append((t0, True))
        self.edges.append((t1, False))
        self.edges.sort(key=lambda e: e[0])
        if counted:
            self.count += 1

    def strip_init(self, n):
        self.strip = bytearray(3 * n)

    def strip_write(self, frame):
        if self.strip_busy:  # the real board's UART still sending the last frame
            self.strip_busy -= 1
            return False
        self.strip[:] = frame
        return True

    def flash_read(self, name):
        return self.files.get(name)

    def flash_write_atomic(self, name, text):
        self.files[name] = text

    def serial_write(self, data, off=0, n=-1):
        # (copies: the link writes buffers it reuses, or a part of one)
        self.written.append(bytes(data if n < 0 else data[off:off + n]))


async def turns_until(done):
    """The loop's turns (sleep_ms(0)) until done(): a few when a sleeping task was woken,
    thousands when it sleeps out its sleep_ms (link.wake's tests)."""
    import asyncio

    n = 0
    while not done() and n < 100000:
        n += 1
        await asyncio.sleep_ms(0)
    return n
