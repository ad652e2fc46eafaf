# A fake of the ESP32 board's serial port (tests only, and bench/mpy/gc_cost.py): what the host
# sends waits in `rx`, what the board writes lands in `tx`.
import io


class FakeSerial(io.IOBase):
    """Stands for select.poll on sys.stdin, sys.stdin.buffer and sys.stdout.buffer; asyncio's
    poller can wait on it (the link's serial_receive) as on the board's stdin."""

    def __init__(self):
        self.rx = bytearray()
        self.tx = bytearray()

    def ioctl(self, req, arg):
        if req == 3:  # MP_STREAM_POLL: readable when bytes wait
            return arg & 1 if self.rx else 0
        return -1     # no file descriptor: the poller asks this method

    def ipoll(self, timeout):
        return [(self, 1)] if self.rx else []

    def readinto(self, buf):
        if not self.rx:
            return 0
        buf[0] = self.rx[0]
        self.rx = self.rx[1:]
        return 1

    def write(self, data, off=0, n=-1):  # (as a MicroPython stream's: buf, offset, length)
        if n >= 0:
            data = data[off:off + n]
        self.tx += data
        return len(data)


def attach(board):
    """The board's stdin and stdout (and its poll of stdin) are a FakeSerial from now on."""
    s = FakeSerial()
    board.serial_on(s, s, s)
    return s
