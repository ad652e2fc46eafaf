# Colour classification on MicroPython.
from shogun_common.colours import UNKNOWN
from shogun_fw.boards.sim import reflectance
from shogun_fw.colour import DEFAULT_CENTROIDS, Classifier, validate


def test_every_cube_colour_is_recognised():
    c = Classifier()
    for colour, refl in enumerate(reflectance(c) for c in range(6)):
        if colour == 0:
            continue  # (below)
        got, confidence = c.classify(*refl)
        assert got == colour, (colour, got)
        assert confidence > 50


def test_black_is_told_where_its_chromaticity_stands_out_of_the_noise():
    # A centred flat black cube reads about 70 counts: the sensor's read noise moves its
    # chromaticity as far as yellow's, so it is unknown, never yellow; at its brightest poses
    # (1.5x, the window-side wall: hardware/optics.py) it is black.
    c = Classifier()
    black = reflectance(0)
    assert c.classify(*black)[0] in (0, UNKNOWN)
    assert c.classify(*[1.5 * v for v in black])[0] == 0
    # a reading dimmer than any other colour's dimmest pose can only be black
    assert c.classify(*[0.4 * v for v in black])[0] == 0


def test_half_seen_cube_keeps_its_chromaticity():
    c = Classifier()
    r, g, b, cl = reflectance(4)
    # the brightness halves, the chromaticity does not: still blue unless it looks black
    got, _ = c.classify(r * 0.9, g * 0.9, b * 0.9, cl * 0.9)
    assert got == 4


def test_a_mix_of_two_colours_is_unknown_not_guessed():
    c = Classifier()
    # (red and blue would make purple, a real colour: yellow and blue make no cube's colour)
    yellow, blue = reflectance(2), reflectance(4)
    mix = [(yellow[i] + blue[i]) / 2 for i in range(4)]
    assert c.classify(*mix)[0] == UNKNOWN


def test_darkness_is_unknown():
    assert Classifier().classify(0, 0, 0, 0) == (UNKNOWN, 0)


def test_white_light_is_unknown():
    assert Classifier().classify(900, 900, 900, 1023)[0] == UNKNOWN


def test_validate_refuses_bad_centroids():
    assert validate(DEFAULT_CENTROIDS) is None
    assert validate([]) is not None
    assert validate([(1, 1, 1, 1, 1), (1, 2, 2, 2, 2)]) is not None
    assert validate([(9, 1, 1, 1, 1)]) is not None


# ---- viper: Classifier.of_counts and Detector._colour_of against plain-Python
# references that assert every intermediate fits 32 bits (the ESP32's viper ints; 64 here, where
# an overflow would never show), on extreme inputs: the largest readings the detector can pass,
# times at and across the 2^30 tick wrap, the longest views and ramps.
import random  # noqa: E402

from fakes import FakeBoard  # noqa: E402
from viper_ref import K, _add, _diff, _fit, _u32  # noqa: E402

from shogun_common import protocol as P  # noqa: E402
from shogun_fw.detector import Detector  # noqa: E402

_LOST = K["_C_LOWER_LOST"]

_UNIT = 10000
_D_MAX = 20000


class _Rng:
    # (MicroPython's random has no Random class: the module's own generator, seeded)
    def __init__(self, seed):
        random.seed(seed)

    randrange = staticmethod(random.randrange)
    choice = staticmethod(random.choice)
    uniform = staticmethod(random.uniform)
_FAR = 0x3FFFFFFF


def ref_ratio(p, s):
    q0 = p // s
    if q0 < -1 or q0 > 1:
        return _FAR
    rem = _fit(p - _fit(q0 * s))
    t = _fit(200 * rem)
    q1 = t // s
    x = _fit(_fit(2 * _UNIT * q0) + _fit(100 * q1)
             + _fit(_fit(200 * _fit(t - _fit(q1 * s))) + s) // _fit(2 * s))
    assert x == (4 * _UNIT * p + s) // (2 * s)  # classify's rounding, exactly
    return x


def ref_isqrt(n):
    if n <= 0:
        return 0
    x = n
    y = (x + 1) >> 1
    while y < x:
        x = y
        y = _fit(x + n // x) >> 1
    return x


def ref_of_counts(cl, r, g, b, c, share):
    s = _fit(_fit(r + g) + b)
    if s <= 0:
        return UNKNOWN
    x = ref_ratio(r, s)
    y = ref_ratio(g, s)
    if x == _FAR or y == _FAR:
        return UNKNOWN
    z = _fit(_fit(_UNIT * c) + 512) // 1024
    z = min(z, 20000)
    if z <= 0:
        return UNKNOWN
    share = min(max(share, 256), 32 * 1024)
    noise = _fit(_fit(4000000 // z) * 32) // ref_isqrt(share)
    best = second = _FAR
    colour = allow = rare = rarest = rare2 = 0
    f = cl._f
    for i in range(0, len(f), 5):
        zc = f[i + 3]
        if _fit(1000 * (z + 400)) < _fit(zc * 165) or _fit(1000 * z) > _fit(zc * 2500):
            continue
        odd = _fit(1000 * z) < _fit(zc * 370)
        odder = _fit(1000 * z) < _fit(zc * 200)
        d2 = (x - f[i + 1], y - f[i + 2])
        if max(abs(q) for q in d2) > _D_MAX:
            d = _FAR
        else:
            d = 0
            for q in d2:
                d = _fit(d + _fit(q * q))
        if d < best:
            second, rare2, best, rare, rarest, colour, allow = (
                best, rarest, d, odd, odder, f[i], _fit(f[i + 4] + _fit(150 * zc) // z))
        elif d < second:
            second, rare2 = d, odder
    allow = min(_fit(allow + noise), 10000)
    if best > _fit(allow * allow) or best > _fit(_fit(second // 400 * 121)
                                                 + _fit(second % 400 * 121) // 400):
        return UNKNOWN
    near = ref_isqrt(best)
    margin = noise if rare else (0 if rare2 else noise // 2)
    if second < _FAR and ref_isqrt(second) - near < margin:
        return UNKNOWN
    return colour | _fit(100 - _fit(100 * near) // allow) << 8


def _readings(rng, n):
    """The detector's integers: R, G, B x4 counts (|x| < 2^19), C counts (|c| < 2^17); the
    cubes' own, scaled and noisy, and extremes."""
    big = (1 << 19) - 1
    edge = (0, 1, -1, 2, big, -big, 1 << 18, -(1 << 18))
    for refl in (reflectance(c) for c in range(6)):
        yield tuple(4 * v for v in refl[:3]) + (refl[3],)
    for _ in range(n):
        kind = rng.randrange(4)
        if kind == 0:
            refl = reflectance(rng.randrange(6))
            k = rng.uniform(0.3, 40.0)
            yield tuple(int(4 * v * k * rng.uniform(0.8, 1.2)) for v in refl[:3]) + (
                int(refl[3] * k * rng.uniform(0.8, 1.2)),)
        elif kind == 1:
            yield (rng.choice(edge), rng.choice(edge), rng.choice(edge),
                   rng.choice((0, -1, (1 << 17) - 1, -(1 << 17) + 1, 1024, 2048)))
        else:
            yield (rng.randrange(-big, big), rng.randrange(-big, big),
                   rng.randrange(-big, big), rng.randrange(-(1 << 17) + 1, 1 << 17))


def test_of_counts_is_classify_in_32_bits():
    rng = _Rng(13)
    threshold_max = [tuple(c[:4]) + (5000,) for c in DEFAULT_CENTROIDS]  # validate's largest
    corners = [(0, 0, 0, 0, 5000), (1, 10000, 10000, 20000, 5000), (2, 10000, 0, 0, 1),
               (3, 0, 10000, 20000, 5000)]
    for centroids in (None, threshold_max, corners):
        cl = Classifier(centroids)
        for r, g, b, c in _readings(rng, 3000):
            # (the shares' squares summed: one integration the cube filled, the detector's
            # least and most, beyond them both ways, any)
            share = rng.choice((1024, 1024, 256, 255, 1, 3000, (1 << 15) - 1, 40000,
                                rng.randrange(256, 1 << 15)))
            got = cl.of_counts(r, g, b, c, share)
            assert got == ref_of_counts(cl, r, g, b, c, share), (r, g, b, c, share)
            # the plain form: arbitrary precision
            colour, confidence = cl.classify(r, g, b, c, share)
            assert got == (colour | confidence << 8 if colour != UNKNOWN else UNKNOWN), (
                r, g, b, c, share, got, colour, confidence)


def test_validate_keeps_of_counts_within_32_bits():
    ok = list(DEFAULT_CENTROIDS)
    assert validate(ok[:5] + [(5, 2085, 5560, 5205, 5000)]) is None
    assert "threshold" in validate(ok[:5] + [(5, 2085, 5560, 5205, 5001)])
    assert "out of range" in validate(ok[:5] + [(5, 10001, 5560, 5205, 800)])
    assert "out of range" in validate(ok[:5] + [(5, 2085, 5560, 20001, 800)])


def ref_views(det, own):
    ub = det._ub
    out = []
    rn = _u32(det._ring[0])
    k = rn - K["_NEAR"] if rn > K["_NEAR"] else 0
    while k < rn:
        if k != own:
            j = K["_F"] * (k & (K["_UPPER"] - 1))
            st = ub[j + K["_ST"]] & (K["_PAIRED"] | K["_STUCK"])
            tw = _u32(ub[j + K["_TW"]])
            if st == K["_PAIRED"]:
                h = min(_u32(ub[j + K["_H"]]), K["_H_MAX_CU"])
                half = _fit(_fit(h + K["_BAND_CU"]) << 15) // _u32(ub[j + K["_V"]])
                out.append((_add(tw, -half), _add(tw, half)))
            elif st == K["_STUCK"] | K["_PAIRED"]:
                half = _fit(_u32(ub[j + K["_V"]]) + _fit(2 * _u32(ub[j + K["_H"]])))
                out.append((_add(tw, -half), _add(tw, half)))
            else:
                out.append((_add(_u32(ub[j]), K["_ENTRY_MIN_US"]), _add(
                    _u32(ub[j + 1]), K["_STUCK_TC_MAX_US"] if st else K["_EXIT_MAX_US"])))
        k += 1
    return out


def ref_seen(t, a, r):
    # the share of the band the cube fills, integrated up to t (us from its centre)
    if t <= _fit(-a - r):
        return 0
    if t <= -a:
        x = _fit(_fit(t + a) + r)
        return _fit(x * x) // _fit(2 * r)
    if t <= a:
        return _fit(_fit((r >> 1) + t) + a)
    if t <= _fit(a + r):
        x = _fit(_fit(a + r) - t)
        return _fit(_fit(_fit(r >> 1) + _fit(2 * a)) + (r >> 1)) - _fit(x * x) // _fit(2 * r)
    return _fit(2 * a + r)


def ref_colour_of(det, k, c, half, ramp, x0, x1):
    """(colour, [R, G, B, C, confidence, flags, sample, share]) as _colour_of leaves them."""
    st, ub, bt = det._st, det._ub, det._bt
    half = min(half, K["_HALF_MAX_US"])
    r = min(ramp, K["_RAMP_MAX_US"])
    busy = det._bs[0] and bt[0] != ub[K["_F"] * (k & (K["_UPPER"] - 1))]
    lo = _add(c, -_fit(half + r))
    hi = _add(c, _fit(half + r))
    n = _u32(det._st[K["_ST_N"]])
    stop = n - K["_SAMPLES"] if n > K["_SAMPLES"] else 0
    best, best_f, views = -1, K["_MIN_F"], None
    sums, ff, c_clipped, clip_i, clip_f, clipped = [0, 0, 0, 0], 0, False, -1, 0, False
    sh = K["_AMBIENT_SHIFT"]
    a = det._ambient
    sv = det._sv
    kk = n
    while kk > stop:
        kk -= 1
        i = kk & (K["_SAMPLES"] - 1)
        s0, s1 = _u32(st[2 * i]), _u32(st[2 * i + 1])
        if _diff(s1, lo) <= 0:
            break
        span = _diff(s1, s0)
        if span <= 0 or _diff(s0, hi) >= 0:
            continue
        q = _fit(ref_seen(_diff(s1, c), half, r) - ref_seen(_diff(s0, c), half, r))
        f = _fit(q << 10) // span
        if f < K["_SUM_F"]:
            continue
        # (widened by the board's error on the sensor's clock: a straddling sample serves none)
        s0, s1 = _add(s0, -K["_CLOCK_ERR_US"]), _add(s1, K["_CLOCK_ERR_US"])
        if x0 != x1 and _diff(s0, x1) < 0 and _diff(x0, s1) < 0:
            continue
        if busy and _diff(s1, _u32(bt[0])) > K["_ENTRY_MIN_US"]:
            continue
        if views is None:
            views = ref_views(det, k)
        if any(_diff(s0, v1) < 0 and _diff(v0, s1) < 0 for v0, v1 in views):
            continue
        raw = [sv[4 * i + K[name]] for name in ("_SV_R", "_SV_G", "_SV_B", "_SV_C")]
        over = sum(v >= det.board.saturation for v in raw[:3])
        if over:  # a colour channel clipped: left out
            clipped = True
            if over == 1 and f > clip_f:
                clip_i, clip_f = i, f
            continue
        c_clipped = c_clipped or raw[3] >= det.board.saturation
        x = [_fit(raw[q] << sh) - (a[q] if a[0] >= 0 else 0) for q in range(4)]
        sums = [_fit(sums[q] + (_fit(x[q] * f) >> 5)) for q in range(4)]
        ff = _fit(ff + (_fit(f * f) >> 10))
        if f > best_f or (best < 0 and f == best_f):
            best, best_f = i, f
    flags = 0
    if best < 0 and clip_i >= 0:  # every sample clipped a colour channel: the best-filled
        raw = [sv[4 * clip_i + K[name]] for name in ("_SV_R", "_SV_G", "_SV_B")]
        x = [_fit(raw[q] << sh) - (a[q] if a[0] >= 0 else 0) for q in range(3)]
        sums = [_fit(x[q] * clip_f) >> 5 for q in range(3)] + [sums[3]]
        ff = _fit(clip_f * clip_f) >> 10
        best, best_f, c_clipped, flags = clip_i, clip_f, True, P.FLAG_SATURATED
    if best < 0:
        flag = P.FLAG_SATURATED if clipped else P.FLAG_NO_SAMPLE
        return UNKNOWN, [0, 0, 0, 0, 0, flag, -1, best_f]
    assert 256 <= ff < 1 << 15 and all(abs(v) < 1 << 30 for v in sums), (ff, sums)

    def per(s, m):
        q = s // ff
        return _fit(_fit(m * q) + _fit(_fit(m * _fit(s - _fit(q * ff))) + (ff >> 1)) // ff)

    x = [per(sums[0], 8), per(sums[1], 8), per(sums[2], 8), per(sums[3], 2)]
    if c_clipped:  # the clear channel clipped: the brightness from R + G + B
        x[3] = _fit(_fit(_fit(x[0] + x[1]) + x[2]) + 2) >> 2
    out = [_fit(x[0] + 2) >> 2, _fit(x[1] + 2) >> 2, _fit(x[2] + 2) >> 2, x[3], 0, flags,
           best, best_f]
    colour, out[4] = det.classifier.classify(*x, ff)  # (the plain form)
    return colour, out


def _extreme_state(det, rng):
    """The detector's rings as they can be at their limits: times anywhere (the wrap near),
    the slowest and longest cubes, readings up to 16 bits, the ambient up to 2^20."""
    mask = K["_MASK"]
    t = rng.choice((0, mask - 30000, mask - 3000, mask, rng.randrange(mask + 1)))
    rn = rng.choice((1, 3, 8, 9, 100, (1 << 30) + 5))
    det._ring[0] = rn
    ub = det._ub
    for k in range(rn - 8 if rn > 8 else 0, rn):
        j = K["_F"] * (k & 7)
        b0 = (t - rng.randrange(0, 90000)) & mask
        ub[j] = b0
        ub[j + 1] = (b0 + rng.randrange(1000, 40000)) & mask
        st = rng.choice((0, 1, 1, 5, 4, 2, 3))
        ub[j + K["_ST"]] = st
        ub[j + K["_TW"]] = (b0 + rng.randrange(0, 30000)) & mask
        if st & 2:
            ub[j + K["_V"]] = rng.choice((0, 1, 8700, rng.randrange(9000)))
            ub[j + K["_H"]] = rng.choice((0, 14600, rng.randrange(15000)))
        else:
            ub[j + K["_V"]] = rng.choice((6897, 8599, 13000, rng.randrange(6897, 20000)))
            ub[j + K["_H"]] = rng.choice((0, 457, 1000, 2000, 16383, 1 << 15, (1 << 31) - 1,
                                          rng.randrange(3000)))
    n = rng.choice((0, 1, 5, 31, 32, 33, 200, (1 << 30) - 1))
    det._st[K["_ST_N"]] = n
    end = (t + rng.randrange(-5000, 40000)) & mask
    for kk in range(n - 1, n - 33 if n > 32 else -1, -1):
        i = kk & 31
        span = rng.choice((2400, 2400, 2400, 4800, 48000, 0, 1, rng.randrange(1 << 20)))
        det._st[2 * i + 1] = end
        det._st[2 * i] = (end - span) & mask
        end = (end - rng.choice((2400, 2400, 2300, 2500, 48000, 0))) & mask
        for q in range(4):
            det._sv[4 * i + q] = rng.choice((0, 40, 300, 1022, 1023, 65535, rng.randrange(1024)))
    a = det._ambient
    if rng.randrange(4) == 0:
        a[0] = -1
    else:
        for q in range(4):
            a[q] = rng.choice((0, 700, (1 << 20) - 1, rng.randrange(1 << 20)))
    det._bs[0] = rng.randrange(2)
    det._bt[0] = (t - rng.randrange(-10000, 10000)) & mask
    det._ov[K["_OV_FOR"]] = 0
    return t


def test_colour_of_matches_its_32_bit_reference_on_extreme_states():
    rng = _Rng(1313)
    det = Detector(FakeBoard(), Classifier(), lambda mtype, payload: None)
    mask = K["_MASK"]
    picked = 0
    for _ in range(3000):
        t = _extreme_state(det, rng)
        rn = det._ring[0]
        k = rn - 1 - rng.randrange(min(rn, 8))
        c = (t + rng.randrange(-20000, 20000)) & mask
        half = rng.choice((0, 1, 2000, 9000, 78000, 131072, 200000, rng.randrange(20000)))
        ramp = rng.choice((0, 1, 460, 4343, 14600, 30000, 40000, rng.randrange(5000)))
        x0 = x1 = 0
        if rng.randrange(2):
            x0 = (c - rng.randrange(20000)) & mask
            x1 = (x0 + rng.randrange(1, 30000)) & mask
        want = ref_colour_of(det, k, c, half, ramp, x0, x1)
        det._ov[K["_OV_FOR"]] = 0
        got = det._colour_of(k, c, half, ramp, x0, x1)
        assert (got, list(det._rgbc)) == want, (got, list(det._rgbc), want)
        picked += want[1][6] >= 0
    assert picked > 300, picked  # (most states have some sample to take)


def ref_emit_block(det, k):
    """The cubes _emit_block emits for block k: (t, c, half, ramp, length, flags, x0, x1) each,
    every intermediate asserted to fit 32 bits."""
    ub = det._ub
    j = K["_F"] * (k & (K["_UPPER"] - 1))
    t0 = _u32(ub[j])
    length = _diff(_u32(ub[j + 1]), t0)
    st = ub[j + K["_ST"]]
    tw = _u32(ub[j + K["_TW"]])
    if st & K["_STUCK"]:
        return [(t0, tw, ub[j + K["_V"]], ub[j + K["_H"]], length, P.FLAG_STUCK, t0, t0)]
    v = _u32(ub[j + K["_V"]])
    h = min(_u32(ub[j + K["_H"]]), K["_H_MAX_CU"])
    band = K["_BAND_CU"]
    ramp = _fit(band << 16) // v
    if not st & K["_DOUBLE"]:
        half = _fit(_fit(h - band) << 15) // v if h > band else 0
        return [(t0, tw, half, ramp, length, 0, t0, t0)]
    e = h >> 1
    off = _fit(e << 15) // v
    half = _fit(_fit(e - band) << 15) // v if e > band else 0
    view = _fit(half + ramp)
    c1 = _add(tw, -off)
    c2 = _add(tw, off)
    return [(t0, c1, half, ramp, length >> 1, 0, _add(c2, -view), _add(c2, view)),
            (_add(t0, _fit(off << 1)), c2, half, ramp, _fit(length - (length >> 1)),
             P.FLAG_DOUBLE, _add(c1, -view), _add(c1, view))]


def test_emit_block_matches_its_32_bit_reference_on_extreme_states():
    # each cube's events (in calibration mode: its CUBE and its CAL_READING) as the references
    # make them: ref_emit_block's cubes, each read by ref_colour_of
    rng = _Rng(131)
    events = []
    det = Detector(FakeBoard(), Classifier(), lambda t, p: events.append((t, bytes(p))))
    det.calibration_colour = 3
    for _ in range(1500):
        _extreme_state(det, rng)
        rn = det._ring[0]
        k = rn - 1 - rng.randrange(min(rn, 8))
        st = det._ub[K["_F"] * (k & 7) + K["_ST"]]
        det._c[_LOST] = rng.choice((0, 2, 1000))
        paired, unpaired, lost = det.paired, det.unpaired, det._c[_LOST]
        want = []
        no = det.cubes
        for t, c, half, ramp, length, flags, x0, x1 in ref_emit_block(det, k):
            colour, v = ref_colour_of(det, k, c, half, ramp, x0, x1)
            no += 1
            flags |= v[5]
            want.append((P.CUBE, P.pack_cube(no, t, colour, v[4], length, flags)))
            want.append((P.CAL_READING, P.pack_cal_reading(no, 3, v[0], v[1], v[2], v[3],
                                                           flags)))
        del events[:]
        det._emit_block(k)
        assert events == want, (events, want)
        assert det.cubes == no
        if st & K["_STUCK"]:
            assert (det.paired, det.unpaired, det._c[_LOST]) == (paired, unpaired, lost)
        elif st & K["_PAIRED"]:
            assert (det.paired, det.unpaired, det._c[_LOST]) == (paired + 1, unpaired, 0)
        else:
            assert (det.paired, det.unpaired, det._c[_LOST]) == (paired, unpaired + 1,
                                                                  lost + 1)


def test_put_sample_writes_the_ring_as_the_boards_callback_does():
    # the ring's layout at its extremes: ticks at the 2^30 wrap, 16-bit readings, the count's
    # ring wrap and its largest value (C first, as the sensor's burst)
    det = Detector(FakeBoard(), Classifier(), lambda mtype, payload: None)
    n_at = K["_ST_N"]
    for start in (0, 31, (1 << 30) - 2):
        det._st[n_at] = start
        for k in range(3):
            t1 = ((1 << 30) - 1 - k) if k < 2 else 5
            reading = [(t1 - 2400) & K["_MASK"], t1, 65535 - k, k, 1023, 65535]
            det.add_sample(reading)
            n = start + k
            i = n & 31
            assert det._st[n_at] == n + 1
            assert (det._st[2 * i], det._st[2 * i + 1]) == (reading[0], reading[1])
            assert [det._sv[4 * i + K[q]] for q in ("_SV_R", "_SV_G", "_SV_B", "_SV_C")] == (
                reading[2:])
            assert det._sv[4 * i] == reading[5]  # (C, the burst's first word)


def test_a_packed_emit_gets_the_same_cube_bytes_in_the_links_scratch():
    # Detector(..., packed=True), as the app wires it to the link: each CUBE is packed into
    # P.SCRATCH (nothing allocated) and emit gets its length; the bytes are pack_cube's
    got = []

    def emit(mtype, payload):
        if mtype == P.CUBE:
            got.append(bytes(P.SCRATCH[3:3 + payload]) if det._packed else bytes(payload))

    det = Detector(FakeBoard(), Classifier(), emit)
    rng = _Rng(7)
    cubes = 0
    for _ in range(200):
        seed = rng.randrange(1 << 20)
        for packed in (False, True):  # the same state, the same cube number, both ways
            det._packed = packed
            det._c[K["_C_CUBES"]] = cubes
            _extreme_state(det, _Rng(seed))
            det._emit_block(det._ring[0] - 1)
        cubes = det.cubes
        half = len(got) // 2
        assert got[:half] == got[half:], (got, seed)
        del got[:]
    assert cubes >= 200, cubes
