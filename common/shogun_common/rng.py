# A small seeded generator whose whole state is one integer, so it can be kept in a game state,
# written to a journal and restored exactly; identical results on CPython and MicroPython.
# Algorithm: xorshift64* (Vigna, 2016) - good statistical quality, only shifts and one multiply.

_MASK64 = 0xFFFFFFFFFFFFFFFF
_MULT = 0x2545F4914F6CDD1D


def _seed_state(seed):
    # SplitMix64 scramble so that small seeds (0, 1, 2...) give unrelated streams; never zero.
    z = (seed + 0x9E3779B97F4A7C15) & _MASK64
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK64
    z = z ^ (z >> 31)
    return z or 0x9E3779B97F4A7C15


class Rng:
    def __init__(self, seed=0, state=None):
        self.state = state if state else _seed_state(seed)

    def next64(self):
        x = self.state
        x ^= x >> 12
        x ^= (x << 25) & _MASK64
        x ^= x >> 27
        self.state = x
        return (x * _MULT) & _MASK64

    def randbelow(self, n):
        """Uniform integer in [0, n) without modulo bias."""
        if n <= 0:
            raise ValueError("randbelow needs n > 0")
        limit = (1 << 64) - ((1 << 64) % n)
        while True:
            r = self.next64()
            if r < limit:
                return r % n

    def randint(self, a, b):
        return a + self.randbelow(b - a + 1)

    def random(self):
        """Float in [0, 1) with 53 random bits."""
        return (self.next64() >> 11) / 9007199254740992.0

    def chance(self, p):
        return self.random() < p

    def choice(self, seq):
        return seq[self.randbelow(len(seq))]

    def shuffle(self, items):
        """Fisher-Yates in place."""
        for i in range(len(items) - 1, 0, -1):
            j = self.randbelow(i + 1)
            items[i], items[j] = items[j], items[i]
