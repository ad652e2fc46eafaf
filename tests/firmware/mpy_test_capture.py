# Beam edges from hardware counts (boards/__init__.py, the capture), on MicroPython: against a
# plain-Python reference that asserts every intermediate fits 32 bits (a viper int on the ESP32),
# on random beams whose counters are read at random times across the ticks' wrap at 2^30: each
# edge alone between two readings comes out at its exact time; with more, every edge comes out,
# marked late, each beam's blocked and clear time between the readings kept; the falls are never
# more than the counter counted.
import array

from shogun_fw import boards as capture
from shogun_fw.boards.simtime import consts

K = consts(__import__("shogun_fw.boards").boards.__file__)
L = K["_LIMIT"]  # every counter goes back to 0 there (max=)
_WRAP = 1 << 30


def _fit(x):
    assert -(1 << 31) <= x < (1 << 31), "a viper int overflows 32 bits: %d" % x
    return x


class _Lcg:
    def __init__(self, seed):
        self.x = seed

    def below(self, n):
        self.x = (1103515245 * self.x + 12345) & 0x7FFFFFFF
        return self.x % n


class _Ref:
    """read()'s conversion, step by step in plain Python (32-bit checked)."""

    def __init__(self):
        self.st = [[0, 0, 0, 0, 0] for _ in range(2)]  # ticks, G, F, R, F - R when clear
        self.lost = 0
        self.late = 0

    def start(self, b, t, c, level):
        self.st[b] = [t & K["_MASK"], c[0] % L, c[1] % L, c[2] % L, (c[1] - c[2] - level) % L]

    def read(self, b, t1, g1, f1, r1, out):
        st = self.st[b]
        t0, off = st[0], st[4]
        lv0 = (st[2] - st[3] - off) % L
        lv0 = 0 if lv0 > 1 else lv0
        e = _fit(_fit(_fit(t1 - t0) + K["_HALF"]) & K["_MASK"]) - K["_HALF"]
        e = max(e, 0)
        du = _fit(g1 - st[1]) % L
        df = _fit(f1 - st[2]) % L
        dr = _fit(r1 - st[3]) % L
        lv1 = _fit(f1 - r1 - off) % L
        if lv1 > 1:
            lv1 = lv0 ^ ((df + dr) & 1)
        if lv0:
            clear = _fit(max(e - du, 0)) % L
            blocked = e - clear
        else:
            blocked = du if du <= e else e
            clear = e - blocked
        n = df + dr
        if df > K["_MOST"]:
            self.lost += df - K["_MOST"]
            n = _fit(n - 2 * (df - K["_MOST"]))
        flag = b << 1
        if n == 1:
            te = t1 - (blocked if lv1 else clear)
            out.append((_fit(te) & K["_MASK"], flag | lv1))
        elif n > 1:
            self.late += n
            flag |= K["_LATE"]
            share = spare = 0
            first = blocked if lv0 else clear
            if lv0 == lv1:
                m = n >> 1
                total = clear if lv0 else blocked
                share = total // m
                spare = total - share * m
                first >>= 1
            te = _fit(t0 + first)
            state = lv0
            for k in range(1, n + 1):
                state ^= 1
                out.append((te & K["_MASK"], flag | state))
                if state != lv0:
                    te = _fit(te + share + (spare if k == n - 1 else 0))
        self.st[b] = [t1, g1, f1, r1, off]


def _beam(rng, t, count):
    """A beam's edges from ``t``: blocks and gaps of 30 us to 70 ms (now and then a second:
    a stuck cube), the chatter of a few tens of us among them."""
    edges = []
    for _ in range(count):
        for _ in (0, 1):
            kind = rng.below(10)
            t += (20 + rng.below(80)) if kind < 2 else (1000 + rng.below(70000)) if kind < 9 \
                else (200000 + rng.below(1500000))
            edges.append(t)
    return edges


def _counts(edges, t):
    """G, F, R of a beam with these edges (falls at even places) at time t (all plain ints)."""
    g = f = r = 0
    for i in range(0, len(edges), 2):
        if edges[i] > t:
            break
        f += 1
        end = edges[i + 1]
        if end <= t:
            r += 1
            g += end - edges[i]
        else:
            g += t - edges[i]
    return g, f, r


def _run(seed, start, handler_every, room=32):
    rng = _Lcg(seed)
    beams = [_beam(rng, 1000 + rng.below(5000), 40) for _ in (0, 1)]
    cap = capture
    ref = _Ref()
    c = array.array("i", (0, 0, 0))
    for b in (0, 1):
        cap.start(b, start & K["_MASK"], c, 0)
        ref.start(b, start & K["_MASK"], c, 0)
    # readings: after each edge (a handler, late by 0-3 ms, or none at all) and now and then
    times = []
    for b in (0, 1):
        for e in beams[b]:
            if rng.below(100) < handler_every:
                times.append((e + rng.below(3000), b))
        for _ in range(30):
            times.append((rng.below(beams[b][-1]), b))
    times.sort()
    ts = array.array("i", bytes(4 * room))
    vs = bytearray(room)
    got, want = [], []
    for t, b in times + [(beams[0][-1] + 10, 0), (beams[1][-1] + 10, 1)]:
        g, f, r = _counts(beams[b], t)
        c[0], c[1], c[2] = g % L, f % L, r % L  # (the counters as read: reset at the limit)
        tick = (start + t) & K["_MASK"]
        cap.put(b, tick, c)
        ref.read(b, tick, g % L, f % L, r % L, want)
        n = cap.read(ts, vs)
        got += [(ts[i], vs[i]) for i in range(n)]
    return beams, got, want, cap, ref


def test_viper_and_reference_agree_on_random_beams_across_the_tick_wrap():
    for seed in range(1, 9):
        for start in (_WRAP - 200000, 7):
            _beams, got, want, cap, ref = _run(seed, start, 60 + 10 * (seed % 4))
            assert got == want, (seed, start)
            assert cap.status[K["_S_LATE"]] == ref.late and cap.status[K["_S_LOST"]] == ref.lost


def test_an_edge_alone_between_two_readings_comes_out_at_its_time():
    for seed in range(1, 6):
        start = _WRAP - 100000
        beams, got, _want, _cap, _ref = _run(seed, start, 100)
        for b in (0, 1):
            mine = [(t, v & 1) for t, v in got if (v >> 1) & 1 == b]
            exact = [(t, v) for (t, v), (_, w) in zip(mine, [x for x in got
                                                            if (x[1] >> 1) & 1 == b])
                     if not w & K["_LATE"]]
            truth = {((start + e) & K["_MASK"], 1 - (i & 1)) for i, e in enumerate(beams[b])}
            assert exact and all(x in truth for x in exact), (seed, b)
            # every fall is there, late or not, in order: as many as the beam's
            assert sum(v for _, v in mine) == len(beams[b]) // 2, (seed, b)


def test_a_storm_between_two_readings_places_twelve_falls_and_counts_the_rest_lost():
    cap = capture
    c = array.array("i", (0, 0, 0))
    cap.start(0, 1000, c, 0)
    c[0], c[1], c[2] = 300, 20, 20       # 20 blips, 300 us blocked in all, one reading
    cap.put(0, 5000, c)
    ts = array.array("i", bytes(4 * 32))
    vs = bytearray(32)
    n = cap.read(ts, vs)
    assert n == 24 and list(vs[:n]) == [5, 4] * 12, list(vs[:n])
    assert cap.status[K["_S_LOST"]] == 8


def test_a_reading_whose_edges_do_not_fit_waits_for_the_next_call():
    cap = capture
    c = array.array("i", (0, 0, 0))
    cap.start(0, 0, c, 0)
    c[0], c[1], c[2] = 5000, 10, 10      # ten blocks in one reading: 20 edges
    cap.put(0, 20000, c)
    c[0], c[1], c[2] = 7000, 14, 14      # four more in the next: 8 edges
    cap.put(0, 30000, c)
    ts = array.array("i", bytes(4 * 25))
    vs = bytearray(25)
    assert cap.read(ts, vs) == 20 and cap.read(ts, vs) == 8
    assert cap.status[K["_S_LATE"]] == 28


def test_readings_lost_from_a_full_ring_lose_no_edge():
    cap = capture
    c = array.array("i", (0, 0, 0))
    cap.start(0, 0, c, 0)
    for k in range(1, 13):               # 12 blocks, a reading after each edge: 24 readings
        c[1] = k
        c[0] = 1000 * k - 500
        cap.put(0, 2000 * k - 1000, c)
        c[2] = k
        c[0] = 1000 * k
        cap.put(0, 2000 * k, c)
    ts = array.array("i", bytes(4 * 32))
    vs = bytearray(32)
    n = cap.read(ts, vs)
    assert [vs[i] & 3 for i in range(n)] == [1, 0] * 12  # every edge, the first ones late
    assert cap.status[K["_S_SKIPPED"]] == 24 - K["_N"] and cap.status[K["_S_LOST"]] == 0


def test_the_boards_take_the_capture_s_counter_limit_and_status():
    # (each board keeps its own copy: a name shared from a module would cost the 64K heap)
    here = __import__("shogun_fw.boards").boards.__file__.rsplit("/", 1)[0]
    for board in ("sim.py", "esp32.py"):
        own = consts(here + "/" + board)
        assert own["_LIMIT"] == L, board
        for name in ("_S_LOST", "_S_SKIPPED"):
            assert own.get(name, K[name]) == K[name], (board, name)
