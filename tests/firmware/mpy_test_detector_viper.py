# The detector's viper functions against plain-Python references. On the ESP32 a
# viper int is 32 bits, here 64: an overflow there would never show here. So each reference
# below does what its viper function does, step by step, asserting that every intermediate fits
# 32 bits (_fit), with ticks wrapping at 2^30 as time.ticks_us does on the ESP32; the tests run
# both on the same states (extreme ones: times at and across the wrap, the longest blocks and
# lags the detector can hold) and on whole throws across the wrap, and compare everything.
import array

import host_part  # noqa: F401 - the host-only decoders, for the tests

import shogun_fw.detector
from shogun_common import protocol as P
from shogun_fw import boards as capture
from shogun_fw.boards.sim import SimBoard
from shogun_fw.boards.simtime import consts
from shogun_fw.colour import Classifier
from shogun_fw.detector import Detector

MS = 1000
_WRAP = 1 << 30
K = consts(shogun_fw.detector.__file__)  # the detector's private const()s


# where a sample's R, G, B, C are among its four 16-bit words (colour's _SV_* when defined)
_CHANNEL = [K.get(name, q) for q, name in enumerate(("_SV_R", "_SV_G", "_SV_B", "_SV_C"))]


def _fit(x):
    assert -(1 << 31) <= x < (1 << 31), "a viper int overflows 32 bits: %d" % x
    return x


def _diff(a, b):
    # ((a - b + _HALF) & _MASK) - _HALF, each step 32-bit
    return _fit(_fit(_fit(a - b) + K["_HALF"]) & K["_MASK"]) - K["_HALF"]


def _add(a, d):
    return _fit(a + d) & K["_MASK"]


def _sum(*xs):
    t = 0
    for x in xs:
        t = _fit(t + x)
    return t


def _u32(x):
    # what a ptr32 load gives for a value the detector stores (never negative: see detector.py)
    assert 0 <= x < (1 << 31), x
    return x


# ---- the references ---------------------------------------------------------------------------
def ref_edges(det, n):
    et, ev, bs, bt, c = det._et, det._ev, det._bs, det._bt, det._c
    k = 0
    while k < n:
        t = _u32(et[k])
        v = ev[k]
        k += 1
        beam = (v >> 1) & 1
        j = 2 * beam
        late = (v >> 2) & 1
        cl = K["_C_LATE"] + beam
        if v & 1:
            if beam == 0:
                c[K["_C_FALLS"]] = _fit(c[K["_C_FALLS"]] + 1)
            s = bs[beam]
            if s == 0:
                bt[j] = t
                bs[beam] = 1
                c[cl] = late
            elif s == 2:
                if _diff(t, _u32(bt[j + 1])) >= K["_DEBOUNCE_US"]:
                    if beam:
                        det._finish_lower(bt[j], bt[j + 1])
                    else:
                        det._finish(bt[j], bt[j + 1])
                    bt[j] = t
                    c[cl] = late
                else:
                    c[cl] |= late
                bs[beam] = 1
        elif bs[beam] == 1:
            bt[j + 1] = t
            bs[beam] = 2
            c[cl] |= late
    if n:
        c[K["_C_LAST"]] = et[n - 1]


def ref_may_see_a_cube(det, s0, s1):
    ub = det._ub
    rn = _u32(det._ring[0])
    stop = rn - K["_NEAR"] if rn > K["_NEAR"] else 0
    k = rn
    while k > stop:
        k -= 1
        j = K["_F"] * (k & (K["_UPPER"] - 1))
        if _diff(s1, _u32(ub[j])) <= K["_ENTRY_MIN_US"]:
            continue
        e = _diff(s0, _u32(ub[j + 1]))
        if ub[j + K["_ST"]] & K["_STUCK"]:
            if e < K["_STUCK_TC_MAX_US"]:
                return True
        elif e < K["_EXIT_MAX_US"]:
            return True
    return False


def ref_update_ambient(det, now):
    st, sv, c, bs, bt, a = det._st, det._sv, det._c, det._bs, det._bt, det._ambient
    sh = K["_AMBIENT_SHIFT"]
    known = a[0] >= 0
    n = det._n
    amb = K["_C_AMB"]
    if _fit(n - c[amb]) > K["_SAMPLES"]:
        c[amb] = n - K["_SAMPLES"]
    while c[amb] < n:
        i = c[amb] & (K["_SAMPLES"] - 1)
        s0 = _u32(st[2 * i])
        s1 = _u32(st[2 * i + 1])
        if _diff(now, s1) < K["_AMBIENT_LAG_US"]:
            return
        c[amb] += 1
        if bs[0] and _diff(s1, _u32(bt[0])) > K["_ENTRY_MIN_US"]:
            continue
        if _diff(s0, _u32(c[K["_C_EXIT"]])) < 0 and det._may_see_a_cube(s0, s1):
            continue
        j = 4 * i
        for q in range(4):  # (the ambient R, G, B, C from the sample's words in their order)
            x = sv[j + _CHANNEL[q]]
            a[q] = _fit(x << sh) if not known else _sum(a[q], x, -(a[q] >> sh))
        known = True


def ref_sample_past(det, end, now):
    n = det._n
    step = K["_STEP_US"]
    if n:
        last = _u32(det._st[2 * ((n - 1) & (K["_SAMPLES"] - 1)) + 1])
        ahead = _diff(_fit(end + K["_SETTLE_US"]), last)
        if ahead <= 0:
            return True
        wake = _add(last, _fit(_fit(_fit(ahead + step - 1) // step) * step)
                    + K["_SAMPLE_LAG_US"])
        if _diff(wake, now) <= 0:
            wake = _add(now, K["_SAMPLE_LATE_US"])
            if _diff(now, last) > K["_STALE_US"]:
                wake = _add(now, K["_WAKE_MAX_MS"] * 1000)
    else:
        wake = _add(now, K["_WAKE_MAX_MS"] * 1000)
    det._c[K["_C_WAKE"]] = wake
    return False


def ref_lower_due(det, j, now):
    ub, bt = det._ub, det._bt
    u1 = _u32(ub[j + 1])
    s = det._bs[1]
    if s == 2:
        wake = _add(_u32(bt[3]), K["_DEBOUNCE_US"])
    else:
        wake = _add(u1, _sum(_u32(det._c[K["_C_LAG"]]), K["_DEBOUNCE_US"],
                             K["_LAG_MARGIN_US"]))
        if s == 1:
            bu = _diff(u1, _u32(ub[j]))
            by = _add(_u32(bt[2]), _sum(bu, -(bu >> 3), K["_DEBOUNCE_US"]))
            if _diff(by, wake) > 0:
                wake = by
        if _diff(wake, now) <= 0:
            wake = _add(now, K["_LATE_US"])
    end = _add(u1, K["_TC_MAX_US"] + K["_LOWER_WAIT_US"])
    return end if _diff(wake, end) > 0 else wake


def ref_ready(det, k, j, now):
    ub, c = det._ub, det._c
    wait = K["_TC_MAX_US"] + K["_LOWER_WAIT_US"]
    lower_lost = c[K["_C_LOWER_LOST"]] >= 3
    if (not ub[j + K["_ST"]] & K["_PAIRED"] and not lower_lost
            and _diff(now, _u32(ub[j + 1])) < wait):
        c[K["_C_WAKE"]] = det._lower_due(j, now)
        return False
    v = _u32(ub[j + K["_V"]])
    view = _fit(_fit(_sum(_u32(ub[j + K["_H"]]), K["_BAND_MAX_CU"]) << 15) // v)
    end = _add(_u32(ub[j + K["_TW"]]), view)
    if not det._sample_past(end, now):
        return False
    # its neighbours waited for only while its own samples stay in the ring
    keep = _add(_u32(ub[j + K["_TW"]]), (K["_SAMPLES"] - 4) * K["_STEP_US"] - view)
    if _diff(keep, now) <= 0:
        return True
    bt = det._bt
    wake = None
    if det._bs[0] and _diff(end, _u32(bt[0])) > K["_ENTRY_MIN_US"]:
        wake = _add(_u32(bt[0]), _sum(_diff(_u32(ub[j + 1]), _u32(ub[j])),
                                      _u32(c[K["_C_LAG"]]), K["_DEBOUNCE_US"]))
        if _diff(wake, now) <= 0:
            wake = _add(now, K["_LATE_US"])
    elif det._ring[0] - k > 1:
        i = K["_F"] * ((k + 1) & (K["_UPPER"] - 1))
        if (_diff(end, _u32(ub[i])) > K["_ENTRY_MIN_US"]
                and not ub[i + K["_ST"]] & (K["_PAIRED"] | K["_STUCK"]) and not lower_lost
                and _diff(now, _u32(ub[i + 1])) < wait):
            wake = det._lower_due(i, now)
    if wake is None:
        return True
    c[K["_C_WAKE"]] = keep if _diff(wake, keep) > 0 else wake
    return False


def ref_finish(det, b0, b1):
    c, ring, ub, lr = det._c, det._ring, det._ub, det._lr
    length = _diff(b1, b0)
    if length < K["_DEBOUNCE_US"]:
        c[K["_C_CHATTER"]] += 1
        return
    if _fit(ring[0] - ring[2]) >= K["_UPPER"]:
        k = ring[2]
        ring[2] = k + 1
        det._emit_block(k)
    k = _u32(ring[0])
    j = K["_F"] * (k & (K["_UPPER"] - 1))
    ub[j] = b0
    ub[j + 1] = b1
    ring[0] = _fit(k + 1)
    c[K["_C_BLOCKS"]] += 1
    late = K["_LATE_B"] if c[K["_C_LATE"]] else 0
    if length >= K["_STUCK_US"]:
        ub[j + K["_ST"]] = K["_STUCK"] | late
        ub[j + K["_TW"]] = b1
        ub[j + K["_V"]] = 0
        ub[j + K["_H"]] = 0
        bound = K["_STUCK_TC_MAX_US"]
    else:
        bu = length - K["_EXTRA_US"]
        ub[j + K["_ST"]] = (K["_DOUBLE"] if length >= det.double_us else 0) | late
        ub[j + K["_TW"]] = _add(b0, _sum(length >> 1, K["_WIN_DELAY_NOM_US"],
                                         -K["_CENTRE_LAG_US"]))
        ub[j + K["_V"]] = K["_V_WIN_NOM16"]
        ub[j + K["_H"]] = _fit(bu * K["_V_UP_NOM16"]) >> 16
        bound = K["_EXIT_MAX_US"]
    end = _add(b1, bound)
    if _diff(end, _u32(c[K["_C_EXIT"]])) > 0:
        c[K["_C_EXIT"]] = end
    low = K["_LOWER"]
    ln = _u32(ring[1])
    stop = ln - low if ln > low else 0
    i = ln
    while i > stop and _diff(_u32(lr[2 * ((i - 1) & (low - 1)) + 1]) & K["_MASK"], b0) > 0:
        i -= 1
    while i < ln:
        m = 2 * (i & (low - 1))
        i += 1
        if det._pair(j, lr[m], lr[m + 1]):
            return


def ref_finish_lower(det, b0, b1):
    c, ring, ub, lr = det._c, det._ring, det._ub, det._lr
    if _diff(b1, b0) < K["_DEBOUNCE_US"]:
        c[K["_C_CHATTER"]] += 1
        return
    i = 2 * (ring[1] & (K["_LOWER"] - 1))
    lr[i] = b0
    if c[K["_C_LATE"] + 1]:
        b1 = _fit(b1 | (1 << K["_LR_LATE"]))
    lr[i + 1] = b1
    ring[1] += 1
    c[K["_C_LOWER"]] += 1
    rn = _u32(ring[0])
    stop = rn - K["_UPPER"] if rn > K["_UPPER"] else 0
    k = rn
    while k > stop:
        k -= 1
        j = K["_F"] * (k & (K["_UPPER"] - 1))
        if _diff(b0, _u32(ub[j + 1])) > K["_STUCK_TC_MAX_US"]:
            break
        if not ub[j + K["_ST"]] & K["_PAIRED"]:
            det._pair(j, b0, b1)


def ref_pair(det, j, l0, l1):
    ub = det._ub
    u0 = _u32(ub[j])
    u1 = _u32(ub[j + 1])
    ll = (_u32(l1) >> K["_LR_LATE"]) & 1
    l1 = l1 & K["_MASK"]
    bl = _diff(l1, l0)
    lc = _add(l0, bl >> 1)
    if ub[j + K["_ST"]] & K["_STUCK"]:
        return bool(det._pair_stuck(j, u1, _sum(_diff(lc, u1), K["_EXTRA_US"] >> 1)))
    bu = _diff(u1, u0)
    cu = _add(u0, bu >> 1)
    tc = _diff(lc, cu)
    if tc < K["_TC_MIN_US"] or tc > K["_TC_MAX_US"]:
        return False
    bu -= K["_EXTRA_US"]
    bl -= K["_EXTRA_US"]
    if bl > 0xFFFF:
        bl = 0xFFFF
    vm = _fit(K["_SPACING_CU"] << 16) // tc
    dv = _fit(tc * K["_G_HALF_Q"]) >> 16
    hu = _fit(bu * _fit(vm - dv)) >> 16
    hl = _fit(bl * _fit(vm + dv)) >> 16
    ub[j + K["_TW"]] = _add(cu, _fit(_fit(tc * K["_WIN_FRAC_Q12"]) >> 12) - K["_CENTRE_LAG_US"])
    ub[j + K["_V"]] = _sum(vm, _fit(dv * K["_WIN_DV_Q12"]) >> 12)
    ub[j + K["_H"]] = _sum(hu, _fit(_fit(hl - hu) * K["_WIN_POS_Q12"]) >> 12)
    lu = ub[j + K["_ST"]] & K["_LATE_B"]
    h = max(hu, hl)
    if lu and not ll:
        h = hl
    elif ll and not lu:
        h = hu
    elif lu:
        h = min(hu, hl)
    ub[j + K["_ST"]] = lu | K["_PAIRED"] | (K["_DOUBLE"] if h >= K["_SPLIT_CU"] else 0)
    lag = _diff(l1, u1)
    det._c[K["_C_LAG"]] = lag if lag > 0 else 0
    return True


def ref_step(det):
    board, c = det.board, det._c
    board.poll()
    hw = _fit(board.beam_count() - c[K["_C_HW_BASE"]])
    now = board.ticks_us()
    if hw != c[K["_C_HW"]]:
        c[K["_C_HW"]] = hw
        c[K["_C_LAST"]] = now
    n = board.take_edges(det._et, det._ev)
    took = n
    while n:
        det._edges(n)
        if n < K["_EDGES"]:
            break
        n = board.take_edges(det._et, det._ev)
    bs, bt = det._bs, det._bt
    deb = K["_DEBOUNCE_US"]
    if bs[0] == 2 and _diff(now, _u32(bt[1])) >= deb:
        bs[0] = 0
        det._finish(bt[0], bt[1])
    if bs[1] == 2 and _diff(now, _u32(bt[3])) >= deb:
        bs[1] = 0
        det._finish_lower(bt[2], bt[3])
    if c[K["_C_AMB"]] != det._n:
        det._update_ambient(now)
    ring, ub = det._ring, det._ub
    emitted = 0
    c[K["_C_ON_EDGE"]] = 0
    t1 = hold = 0
    while ring[2] != ring[0]:
        k = _u32(ring[2])
        j = K["_F"] * (k & (K["_UPPER"] - 1))
        t1 = _u32(ub[j + 1])
        late = _diff(now, t1)
        if ub[j + K["_ST"]] & K["_STUCK"]:
            hold = K["_STUCK_HOLD_US"]
            if late < hold and not det._ready_stuck(j, now):
                break
        else:
            hold = K["_HOLD_US"]
            if late < hold and not det._ready(k, j, now):
                break
        if emitted == K["_EMIT_MAX"]:
            c[K["_C_IN_VIEW"]] = 1
            return True
        if took and not c[K["_C_HELD"]]:
            c[K["_C_HELD"]] = 1
            c[K["_C_IN_VIEW"]] = 1
            return True
        c[K["_C_HELD"]] = 0
        emitted += 1
        ring[2] = k + 1
        det._emit_block(k)
    active = det.throw_cubes != 0 or c[K["_C_HW"]] != c[K["_C_HW_END"]]
    idle = K["_IDLE_WAKE_MS"] * 1000
    if ring[2] != ring[0]:
        wake = _add(t1, hold)
        if _diff(_u32(c[K["_C_WAKE"]]), wake) < 0:
            wake = c[K["_C_WAKE"]]
    elif bs[0] == 1:
        wake = _add(now, idle)
        c[K["_C_ON_EDGE"]] = 1
    elif bs[0] == 2:
        wake = _add(_u32(bt[1]), deb)
    else:
        quiet = det.quiet_us
        if active and _diff(now, _u32(c[K["_C_LAST"]])) >= quiet:
            if not c[K["_C_END"]]:
                c[K["_C_END"]] = 1
                return True
            c[K["_C_END"]] = 0
            det._end_throw()
            active = False
        wake = _add(now, idle)
        if _diff(_u32(c[K["_C_EXIT"]]), now) > 0:
            wake = c[K["_C_EXIT"]]
        if active:
            end = _add(_u32(c[K["_C_LAST"]]), quiet)
            if _diff(end, wake) < 0:
                wake = end
        c[K["_C_ON_EDGE"]] = 1
    most = K["_WAKE_MAX_MS"] * 1000
    if c[K["_C_ON_EDGE"]] == 0 and _diff(wake, now) > most:
        wake = _add(now, most)
    c[K["_C_WAKE"]] = wake
    wait = _sum(_diff(wake, now), 999)
    c[K["_C_WAIT"]] = wait // 1000 if wait > 0 else 0
    c[K["_C_IN_VIEW"]] = 1 if (bs[0] or ring[2] != ring[0]
                               or _diff(_u32(c[K["_C_EXIT"]]), now) > 0) else 0
    return False


def _with_references(det):
    det._edges = lambda n: ref_edges(det, n)
    det._may_see_a_cube = lambda s0, s1: ref_may_see_a_cube(det, s0, s1)
    det._update_ambient = lambda now: ref_update_ambient(det, now)
    det._sample_past = lambda end, now: ref_sample_past(det, end, now)
    det._lower_due = lambda j, now: ref_lower_due(det, j, now)
    det._ready = lambda k, j, now: ref_ready(det, k, j, now)
    det._finish = lambda b0, b1: ref_finish(det, b0, b1)
    det._finish_lower = lambda b0, b1: ref_finish_lower(det, b0, b1)
    det._pair = lambda j, l0, l1: ref_pair(det, j, l0, l1)
    det.step = lambda: ref_step(det)
    return det


_STATE = ("_c", "_bs", "_bt", "_ub", "_lr", "_ring", "_ambient", "_st", "_sv", "_et", "_ev")
_TYPE = {"_sv": "H", "_bs": None, "_ev": None}  # (the rest: "i")


def _state(det):
    """What the functions may change, comparable (bytes)."""
    return [bytes(getattr(det, name)) for name in _STATE] + [det._n]


def _save(det):
    out = []
    for name in _STATE:
        x = getattr(det, name)
        tc = _TYPE.get(name, "i")
        out.append(bytearray(x) if tc is None else array.array(tc, x))
    return out + [det._n]


def _restore(det, saved):
    for name, data in zip(_STATE, saved):
        getattr(det, name)[:] = data
    _set_n(det, saved[-1])


def _set_n(det, n):
    # the samples added: in the ring's own slot where it has one (colour's _ST_N)
    if "_ST_N" in K:
        det._st[K["_ST_N"]] = n
    else:
        det._n = n


# ---- whole throws across the wrap -------------------------------------------------------------
def _own_capture():
    # One capture a process (boards/__init__.py): each board of a pair gets its own arrays,
    # put in place before it runs
    capture._ring = array.array("H", bytes(len(capture._ring) * 2))
    capture.status = array.array("i", bytes(len(capture.status) * 4))


def _pair(start, seed, **kw):
    """The viper detector and the references' on two copies of one simulated throw."""
    out = []
    for reference in (False, True):
        _own_capture()
        board = SimBoard(seed=seed, virtual=True, serial=False, **kw)
        board.own = (capture._ring, capture.status)
        board._now = start
        board._last_read = start
        for beam in (0, 1):  # (the counters' first reading: now, both beams clear)
            board.capture.start(beam, start, board._bc, 0)
        events = []
        det = Detector(board, Classifier(), lambda t, p, e=events: e.append((t, bytes(p))))
        if reference:
            _with_references(det)
        out.append((board, det, events))
    return out


def _lockstep(pair, us):
    # as simtime.drive: a step every ms, a sample every 2.4 ms; both compared after each step
    t = 0
    while t < us:
        t += 200
        for board, _, _ in pair:
            board.advance(200)
        if t % 2400 == 0:
            for board, det, _ in pair:
                if board.read_colour(det._reading):
                    det.add_sample(det._reading)
        if t % 1000 == 0:
            for board, det, _ in pair:
                capture._ring, capture.status = board.own  # (its own counters' readings)
                det.step()
            assert _state(pair[0][1]) == _state(pair[1][1]), t
            assert pair[0][2] == pair[1][2], t


def _colours(events):
    return [(c["colour"], c["block_us"], c["flags"]) for c in
            (P.unpack_cube(p) for t, p in events if t == P.CUBE)]


def test_viper_and_reference_agree_on_whole_throws_across_the_tick_wrap():
    # every state after every step, and every event: dense throws (3 ms gaps), touching pairs,
    # stuck cubes, chatter, drifting light, each starting 0.3 s before the ticks wrap
    for seed, kw in ((5, {"gap_ms": (3.0, 3.0)}),
                     (6, {"gap_ms": (3.0, 8.0), "double_p": 0.2, "stuck_p": 0.1,
                          "chatter_p": 0.2, "drift": 1.0})):
        cubes = []
        for start in (_WRAP - 300 * MS, 5000 * MS):
            pair = _pair(start, seed, **kw)
            _lockstep(pair, 100 * MS)
            for board, _, _ in pair:
                board.release_cubes(bytearray([k % 6 for k in range(40)]))
            _lockstep(pair, 1200 * MS)
            cubes.append(_colours(pair[0][2]))
        assert len(cubes[0]) >= 30, cubes[0]  # (some stay in the tower)
        assert cubes[0] == cubes[1]  # (and the same cubes as the same throw far from the wrap)


# ---- extreme states ---------------------------------------------------------------------------
class _Lcg:
    def __init__(self, seed):
        self.x = seed

    def below(self, n):
        self.x = (self.x * 1103515245 + 12345) & 0x7FFFFFFF
        return (self.x >> 4) % n


def _tick(rng):
    # times at and around the wrap, and anywhere
    pick = rng.below(6)
    if pick == 0:
        return _WRAP - 1 - rng.below(3000)
    if pick == 1:
        return rng.below(3000)
    if pick == 2:
        return (1 << 29) + rng.below(3000) - 1500
    return rng.below(_WRAP)


def _near(rng, t, span):
    return (t + rng.below(2 * span + 1) - span) % _WRAP


def _craft(det, rng):
    now = _tick(rng)
    ub = det._ub
    for k in range(K["_UPPER"]):
        j = K["_F"] * k
        t0 = _near(rng, now, 200000)
        ub[j] = t0
        ub[j + 1] = (t0 + 1000 + rng.below(K["_STUCK_US"])) % _WRAP
        ub[j + K["_ST"]] = rng.below(8)
        ub[j + K["_TW"]] = _near(rng, now, 100000)
        ub[j + K["_V"]] = 6897 + rng.below(12112 - 6897 + 2000)  # Q16, the transits' range
        ub[j + K["_H"]] = rng.below(1 << 14)
    ring = det._ring
    ring[0] = rng.below(3) * (1 << 28) + rng.below(40)  # (block counts, small and large)
    ring[2] = ring[0] - rng.below(min(ring[0], K["_UPPER"]) + 1)
    for i in range(4):
        det._bt[i] = _near(rng, now, 60000)
    det._bs[0] = rng.below(3)
    det._bs[1] = rng.below(3)
    c = det._c
    c[K["_C_LAG"]] = rng.below(K["_TC_MAX_US"] * 2) if rng.below(5) else rng.below(1 << 28)
    c[K["_C_EXIT"]] = _near(rng, now, 100000)
    _set_n(det, rng.below(3) * (1 << 28) + rng.below(200) if rng.below(4) else 0)
    st = det._st
    for i in range(K["_SAMPLES"]):
        s1 = _near(rng, now, 80000)
        st[2 * i] = (s1 - 2400) % _WRAP
        st[2 * i + 1] = s1
    det._c[K["_C_LOWER_LOST"]] = rng.below(5)
    return now


def test_viper_functions_match_their_references_on_extreme_states():
    board = SimBoard(seed=1, virtual=True, serial=False)
    det = Detector(board, Classifier(), lambda t, p: None)
    ref = Detector(board, Classifier(), lambda t, p: None)
    _with_references(ref)
    rng = _Lcg(12345)
    for _ in range(3000):
        now = _craft(det, rng)
        saved = _save(det)
        j = K["_F"] * rng.below(K["_UPPER"])
        k = det._ring[2]
        t = _tick(rng)
        t2 = _near(rng, t, 5000)
        # the viper ones call each other: on `ref` the references call references
        u1 = det._ub[j + 1]
        l0 = _near(rng, (u1 + 12000) % _WRAP, 12000)
        l1 = (l0 + 1000 + rng.below(100000 if rng.below(4) else 20000)) % _WRAP
        b0 = _near(rng, now, 50000)
        b1 = (b0 + rng.below(60000)) % _WRAP
        for name, args in (("_may_see_a_cube", (t, t2)), ("_lower_due", (j, now)),
                           ("_sample_past", (t, now)), ("_ready", (k, j, now)),
                           ("_pair", (j, l0, l1)), ("_finish", (b0, b1)),
                           ("_finish_lower", (b0, b1)), ("_finish_lower", (l0, l1))):
            _restore(det, saved)
            _restore(ref, saved)
            a = getattr(det, name)(*args)
            b = getattr(ref, name)(*args)
            assert a == b, (name, args, a, b)
            assert _state(det) == _state(ref), name


def test_viper_edges_and_ambient_match_their_references_across_the_wrap():
    # random edge streams (both beams, chatter, lost edges) and samples around the wrap
    rng = _Lcg(777)
    for run in range(40):
        dets = []
        for reference in (False, True):
            board = SimBoard(seed=run, virtual=True, serial=False)
            det = Detector(board, Classifier(), lambda t, p: None)
            if reference:
                _with_references(det)
            dets.append(det)
        t = _WRAP - 20000 - rng.below(200000)
        state = _save(dets[0])
        for det in dets:
            _restore(det, state)
        for _ in range(30):
            n = 1 + rng.below(K["_EDGES"])
            times = array.array("i", bytes(4 * K["_EDGES"]))
            values = bytearray(K["_EDGES"])
            for i in range(n):
                t = (t + rng.below(6000)) % _WRAP
                times[i] = t
                values[i] = rng.below(4)
            s1 = (t - rng.below(20000)) % _WRAP
            for det in dets:
                det._et[:] = times
                det._ev[:] = values
                det._edges(n)
                i = det._n & (K["_SAMPLES"] - 1)
                det._st[2 * i] = (s1 - 2400) % _WRAP
                det._st[2 * i + 1] = s1
                for q in range(4):
                    det._sv[4 * i + q] = (s1 >> (q * 3)) & 0xFFFF
                _set_n(det, det._n + 1)
                det._update_ambient(t)
            assert _state(dets[0]) == _state(dets[1])
