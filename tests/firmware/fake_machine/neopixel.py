# Fake `neopixel` module (tests only): the micropython-lib NeoPixel's interface (`buf` in wire
# order, `write()`), recording every frame written instead of bit-banging the pin.
class NeoPixel:
    ORDER = (1, 0, 2, 3)  # WS2812B: G, R, B on the wire

    def __init__(self, pin, n, bpp=3, timing=1):
        self.pin = pin
        self.n = n
        self.bpp = bpp
        self.timing = timing
        self.buf = bytearray(n * bpp)
        pin.init(pin.OUT)
        self.written = []
        strips.append(self)

    def __len__(self):
        return self.n

    def __setitem__(self, i, v):
        off = i * self.bpp
        for k in range(self.bpp):
            self.buf[off + self.ORDER[k]] = v[k]

    def __getitem__(self, i):
        off = i * self.bpp
        return tuple(self.buf[off + self.ORDER[k]] for k in range(self.bpp))

    def fill(self, v):
        for i in range(self.n):
            self[i] = v

    def write(self):
        self.written.append(bytes(self.buf))


strips = []
