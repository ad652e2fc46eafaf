"""How many cubes leave the tower in one throw, exactly, under the tower model (a DP over counts).

The tower model (``shogun_common.tower_model``): the thrown cubes fall one by one (in a random
order: the simulated tower shuffles them); a falling cube passes ledge L with probability
``pass_p[L]`` or lodges there; a cube that passes a ledge knocks loose each cube lodged there with
probability ``knock_p``; knocked-loose cubes fall on from the next ledge, in ledge order, before
the cube that knocked them. Colour plays no part in the fall, so the DP tracks only two kinds of
cube: *thrown* ones (this throw) and *inside* ones (lodged before the throw).

State after each thrown cube: ``(a1, b1, a2, b2)`` = inside/thrown cubes on ledge 1 and ledge 2;
the cubes that left are implied by conservation. Ledge 1 is kept as probabilities; ledge 2 is
kept in the binomial-moment basis (coefficients of ``(x - 1)^r`` of the probability generating
function), where knocking-loose is a diagonal scaling by ``(1 - knock_p)^r`` and lodging a cube a
two-term shift — so each cube costs a few array passes instead of matrix products. At most
m - a1 inside cubes lie on ledge 2, so its moments above that are 0: (a1, r) is packed on one
axis (half the cells). The knocked cubes of one pass are summed with Horner's rule over the
arrival operator. With many cubes inside, moments lose digits when turned back; above
MOMENTS_UP_TO the inside cubes on ledge 2 are kept as counts instead (``_counts_dp``).
Binomial knock counts beyond ``KNOCK_TAIL`` of mass are dropped (reported as ``dropped``).

The DP adds one thrown cube per step, so one run for n cubes gives the law of every throw of
0..n cubes with the same cubes inside: laws are kept as rows (one per count inside and model),
and ``exit_table`` fills the rows of every throw up to 20 x 30 once per tower model, after which
a battle's exit law is a lookup (docs/odds.md, "Speed").
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from dataclasses import dataclass
from functools import lru_cache
from math import comb

import numpy as np

from shogun_tower.games.shogun.odds.model import DEFAULT, TowerParams

KNOCK_TAIL = 1e-15  # Horner stops where every ledge's remaining knock-count mass is below this


@dataclass(frozen=True)
class Exits:
    """Joint law of the cubes that leave: ``p[t, i]`` = P(t thrown and i inside cubes leave)."""

    thrown: int
    inside: int
    p: np.ndarray
    dropped: float  # probability mass lost to the knock-tail truncation (plus rounding)

    def total_out(self) -> np.ndarray:
        """P(k cubes leave in all), k = 0..thrown+inside."""
        n, m = self.thrown, self.inside
        out = np.zeros(n + m + 1)
        for t in range(n + 1):
            out[t:t + m + 1] += self.p[t]
        return out


def split_prior(m: int, params: TowerParams) -> np.ndarray:
    """P(j of the m cubes inside lie on ledge 1), when the tower's history is not used.

    Decision: each cube inside is on ledge 1 independently with the probability that a cube
    which lodges lodges there (``(1-p1) / ((1-p1) + p1 (1-p2))``): the split of a single throw,
    before knocks move cubes down.
    """
    p1, p2 = params.pass_p
    q = (1 - p1) / ((1 - p1) + p1 * (1 - p2))
    return np.array([comb(m, j) * q ** j * (1 - q) ** (m - j) for j in range(m + 1)])


def _binom_rows(nmax: int, k: float) -> np.ndarray:
    """rows[n, i] = P(i of n cubes knocked loose), by Pascal's rule (comb() loops cost ms)."""
    rows = np.zeros((nmax + 1, nmax + 1))
    rows[0, 0] = 1.0
    for n in range(1, nmax + 1):
        rows[n, :n + 1] = (1 - k) * rows[n - 1, :n + 1]
        rows[n, 1:n + 1] += k * rows[n - 1, :n]
    return rows


def _degree(mass: np.ndarray, tails: np.ndarray) -> tuple[int, float]:
    """How many knocked-loose cubes of one ledge to follow: the smallest d whose dropped mass
    (P(more than d knocked), weighted by the probability of each ledge count) < KNOCK_TAIL."""
    size = len(mass)
    lost = mass @ tails[:size, :size]
    for d in range(size):
        if lost[d] < KNOCK_TAIL:
            return d, float(max(lost[d], 0.0))
    return size - 1, 0.0


def _to_moments(n: int) -> np.ndarray:
    """M[j, r] = C(j, r): a point mass at j written in the binomial-moment basis."""
    return np.array([[comb(j, r) for r in range(n + 1)] for j in range(n + 1)], dtype=float)


def _from_moments(n: int) -> np.ndarray:
    """Inverse of _to_moments: P(j) = sum_r (-1)^(r-j) C(r, j) c_r."""
    return np.array([[(-1) ** (r - j) * comb(r, j) for r in range(n + 1)]
                     for j in range(n + 1)], dtype=float)


# Above this many cubes inside, the inside cubes on ledge 2 are kept as probabilities (knocking
# loose is then a matrix product): binomial moments of ~30+ cubes lose digits when turned back.
MOMENTS_UP_TO = 36


# The model's table (the table's speed target): every throw of up to TABLE_THROWN cubes with up to
# TABLE_INSIDE inside, one DP per count inside (a DP over n cubes gives the law after each cube).
TABLE_THROWN = 20
TABLE_INSIDE = 30

_ROWS: OrderedDict = OrderedDict()  # (inside, params, split) -> laws for 0, 1, ... cubes thrown
_ROWS_KEPT = 256  # a row of 20 thrown with 30 inside is ~100 kB
_ROWS_LOCK = threading.Lock()


def exit_law(thrown: int, inside: int, params: TowerParams = DEFAULT,
             split: tuple[float, ...] | None = None, stable: bool | None = None) -> Exits:
    """Exact joint law of (thrown cubes out, inside cubes out) for one throw.

    ``split``: P(j inside cubes on ledge 1), j = 0..inside (default: :func:`split_prior`).
    ``stable``: keep ledge 2's inside cubes as probabilities (default: above MOMENTS_UP_TO).
    One DP gives the law of every smaller throw with the same cubes inside: the laws are kept
    (a row per count inside, model and split) and answer later calls.
    """
    n, m = thrown, inside
    if params.ledges != 2:
        raise ValueError("the exact odds support the two-ledge tower model")
    if split is not None and len(split) != m + 1:
        raise ValueError(f"split must give {m + 1} probabilities")
    if inside > MOMENTS_UP_TO if stable is None else stable:
        return _stable_law(n, m, params, split)
    key = (m, params, split)
    with _ROWS_LOCK:  # the page server asks from several threads
        row = _ROWS.get(key)
        if row is not None and len(row) > n:
            _ROWS.move_to_end(key)
            return row[n]
    w = np.asarray(split if split is not None else split_prior(m, params), dtype=float)
    p1, p2 = params.pass_p
    laws = _moments_dp(n, m, p1, p2, params.knock_p, w)
    row = [_exits_from(left, t, m, dropped) for t, (left, dropped) in enumerate(laws)]
    with _ROWS_LOCK:
        if len(_ROWS.get(key, ())) < len(row):
            _ROWS[key] = row
        _ROWS.move_to_end(key)
        while len(_ROWS) > _ROWS_KEPT:
            _ROWS.popitem(last=False)
    return row[n]


def exit_table(params: TowerParams = DEFAULT, thrown: int = TABLE_THROWN,
               inside: int = TABLE_INSIDE) -> None:
    """Compute the law of every throw of up to ``thrown`` cubes with up to ``inside`` inside (one
    DP per count inside): once per tower model, then a battle's exit law is a lookup."""
    for m in range(inside + 1):
        exit_law(thrown, m, params)


def clear_cache() -> None:
    """Forget every exit law computed (the bench's cold runs)."""
    with _ROWS_LOCK:
        _ROWS.clear()
    _stable_law.cache_clear()


@lru_cache(maxsize=256)
def _stable_law(n: int, m: int, params: TowerParams,
                split: tuple[float, ...] | None) -> Exits:
    w = np.asarray(split if split is not None else split_prior(m, params), dtype=float)
    p1, p2 = params.pass_p
    left, dropped = _counts_dp(n, m, p1, p2, params.knock_p, w)
    return _exits_from(left, n, m, dropped)


def _counts_dp(n: int, m: int, p1: float, p2: float, k: float,
               w: np.ndarray) -> tuple[np.ndarray, float]:
    """The DP for a full tower: T[a1, b1, a2, s] with ledge 2's inside cubes as counts
    (knocked loose by a matrix product) and its thrown cubes as moments."""
    t = np.zeros((m + 1, n + 1, m + 1, n + 1))
    for m1 in range(m + 1):
        t[m1, 0, m - m1, 0] = w[m1]
    thin_s = (1 - k) ** np.arange(n + 2)
    brow = _binom_rows(max(n, m), k)
    keep = _binom_rows(m, 1 - k)  # keep[c, j] = P(j of c lodged cubes stay)
    tails = 1.0 - np.cumsum(brow, axis=1)  # tails[a, d] = P(Bin(a, k) > d)
    dropped = 0.0

    def arrive(x: np.ndarray, axis: int) -> np.ndarray:
        return _arrive_stable(x, axis, p2, keep, thin_s[:x.shape[3]])

    for step in range(n):
        hi = step + 1  # thrown cubes so far bound b1 and s
        cur = t[:, :hi, :, :hi]
        new = np.zeros_like(t[:, :hi + 1, :, :hi + 1])
        new[:, 1:hi + 1, :, :hi] += (1 - p1) * cur  # lodges on ledge 1
        passing = p1 * cur
        # knocked-loose inside cubes of ledge 1 fall first (Horner over their number i)
        deg_in, lost = _degree(passing[:, :, :, 0].sum(axis=2).sum(axis=1), tails)
        acc = np.zeros_like(passing)
        for i in range(deg_in, -1, -1):
            if i < deg_in:
                acc = arrive(acc, 2)
            acc[:m + 1 - i] += brow[i:m + 1, i][:, None, None, None] * passing[i:]
        # then the knocked-loose thrown cubes of ledge 1 (Horner over j)
        deg_th, lost2 = _degree(acc[:, :, :, 0].sum(axis=2).sum(axis=0), tails)
        dropped += lost + lost2
        acc2 = np.zeros_like(acc)
        for j in range(deg_th, -1, -1):
            if j < deg_th:
                acc2 = arrive(acc2, 3)
            acc2[:, :hi - j] += brow[j:hi, j][None, :, None, None] * acc[:, j:]
        new[:, :hi, :, :hi + 1] += arrive(_pad_s(acc2), 3)
        t[:, :hi + 1, :, :hi + 1] = new
    probs = np.tensordot(t, _from_moments(n), axes=(3, 1))  # [a1, b1, a2, b2]
    left = np.zeros((m + 1, n + 1))  # [inside left, thrown left]
    for a1 in range(m + 1):
        for b1 in range(n + 1):
            left[a1:, b1:] += probs[a1, b1, :m + 1 - a1, :n + 1 - b1]
    return left, dropped


def _exits_from(left: np.ndarray, n: int, m: int, dropped: float) -> Exits:
    """``left[inside left, thrown left]`` to the law of cubes out."""
    out = left[::-1, ::-1].T.copy()  # [thrown out, inside out]
    out = np.clip(out, 0.0, None)
    total = float(out.sum())
    return Exits(n, m, out / total, dropped=dropped + abs(1.0 - dropped - total))


@lru_cache(maxsize=64)
def _triangle(m: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The (a1, r) pairs with r <= m - a1, packed: (offset of each a1, a1 of each, r of each).
    A ledge-2 moment r of the inside cubes is 0 above m - a1 (at most m - a1 lie there)."""
    offset = np.array([a * (m + 1) - a * (a - 1) // 2 for a in range(m + 1)])
    a1_of = np.repeat(np.arange(m + 1), m + 1 - np.arange(m + 1))
    r_of = np.concatenate([np.arange(m + 1 - a) for a in range(m + 1)])
    return offset, a1_of, r_of


@lru_cache(maxsize=64)
def _inside_back(m: int) -> np.ndarray:
    """G[A, (a1, r)]: from ledge 1's inside count and ledge 2's inside moments (packed) to the
    number A of inside cubes left in the tower (P(a2 = j) = sum_r (-1)^(r-j) C(r, j) c_r)."""
    _, a1_of, r_of = _triangle(m)
    g = np.zeros((m + 1, len(a1_of)))
    for col, (a1, r) in enumerate(zip(a1_of, r_of, strict=True)):
        for j in range(r + 1):
            g[a1 + j, col] = (-1) ** (r - j) * comb(r, j)
    return g


@lru_cache(maxsize=64)
def _thrown_back(hi: int) -> np.ndarray:
    """H[(b1, s), B]: from ledge 1's thrown count and ledge 2's thrown moments to the number B of
    thrown cubes left, for a throw of ``hi`` cubes."""
    h = np.zeros(((hi + 1) * (hi + 1), hi + 1))
    for b1 in range(hi + 1):
        for s in range(hi + 1):
            for j in range(min(s, hi - b1) + 1):
                h[b1 * (hi + 1) + s, b1 + j] = (-1) ** (s - j) * comb(s, j)
    return h


def _knock_gathers(m: int, k: float) -> list[tuple[np.ndarray, np.ndarray]]:
    """For i cubes knocked loose from ledge 1: the packed cell each cell (a1, r) draws from,
    (a1 + i, r), or the zero column ``size`` where there is none, and its weight P(i of a1 + i)."""
    offset, a1_of, r_of = _triangle(m)
    size = len(a1_of)
    brow = _binom_rows(2 * m + 1, k)
    out = []
    for i in range(m + 1):
        ok = a1_of + i + r_of <= m
        src = np.where(ok, offset[np.minimum(a1_of + i, m)] + r_of, size)
        out.append((src, np.where(ok, brow[np.minimum(a1_of + i, m), i], 0.0)))
    return out


@lru_cache(maxsize=64)
def _thrown_cells(hi: int) -> tuple[np.ndarray, np.ndarray]:
    """The (b1, s) pairs that can hold mass before cube ``hi`` falls: b1 + s < hi."""
    pairs = [(b1, s) for b1 in range(hi) for s in range(hi - b1)]
    return np.array([b for b, _ in pairs]), np.array([s for _, s in pairs])


def _moments_dp(n: int, m: int, p1: float, p2: float, k: float,
                w: np.ndarray) -> list[tuple[np.ndarray, float]]:
    """The DP with ledge 1's inside count and ledge 2's inside moments packed on one axis
    (the triangle r <= m - a1: half the cells), the last and contiguous one: T[b1, s, (a1, r)].
    Returns, after each thrown cube (0..n), left[inside cubes left, thrown cubes left] and the
    knock-tail mass dropped so far.

    Every step works in buffers allocated once (a fresh temporary of a few MB costs page
    faults each time) and gathers knocked cells with ``np.take`` (fancy-index adds are 4x
    slower)."""
    offset, a1_of, r_of = _triangle(m)
    size = len(a1_of)
    to_mom = _to_moments(max(n, m))
    t = np.zeros((n + 1, n + 2, size))  # [b1, s, (a1, r)]
    for m1 in range(m + 1):
        t[0, 0, offset[m1]:offset[m1] + m + 1 - m1] = w[m1] * to_mom[m - m1, :m + 1 - m1]
    # a cube passing ledge 2 scales moment (r, s) by (1-k)^(r+s); one lodging there shifts it
    coef = p2 * (1 - k) ** (np.arange(n + 2)[:, None] + r_of[None, :]) + (1 - p2)  # [s, (a1,r)]
    lodge = 1 - p2
    brow = _binom_rows(max(n, m), k)
    tails = 1.0 - np.cumsum(brow, axis=1)
    gathers = _knock_gathers(m, k)
    g_back = _inside_back(m)
    dropped = 0.0
    cells = n * (n + 1) * size
    pool = [np.empty(cells) for _ in range(7)]
    ext = np.empty(n * n * (size + 1))

    def left_of(hi: int) -> tuple[np.ndarray, float]:
        flat = t[:hi + 1, :hi + 1].reshape(-1, size)
        return g_back @ (flat.T @ _thrown_back(hi)), dropped

    def arrive_thrown(x: np.ndarray, out: np.ndarray, tmp: np.ndarray) -> np.ndarray:
        # a thrown cube reaches ledge 2: passes (knocking loose: diagonal in the moments) or
        # lodges (the thrown moment s shifts up)
        np.multiply(x, coef[:x.shape[1]], out=out)
        np.multiply(x[:, :-1], lodge, out=tmp[:, :-1])
        out[:, 1:] += tmp[:, :-1]
        return out

    def view(buf: np.ndarray, b1: int, s: int) -> np.ndarray:
        return buf[:b1 * s * size].reshape(b1, s, size)

    laws = [left_of(0)]
    for step in range(n):
        hi = step + 1  # thrown cubes so far bound b1 and s
        cur = t[:hi, :hi]
        # the cube passes ledge 1. Knocking inside cubes loose moves neither b1 nor s, so that
        # part works on the cells that can hold mass only (b1 + s < hi: half the square),
        # packed as passing[(b1, s), cell], with a zero cell at the end
        qb, qs = _thrown_cells(hi)
        passing = ext[:len(qb) * (size + 1)].reshape(len(qb), size + 1)
        np.multiply(t[qb, qs], p1, out=passing[:, :size])
        passing[:, size] = 0.0
        # knocked-loose inside cubes of ledge 1 fall first (Horner over their number i)
        deg_in, lost = _degree(passing[qs == 0][:, offset].sum(axis=0), tails)
        coef_q = coef[qs]
        acc, spare, tmp = (b[:len(qb) * size].reshape(len(qb), size) for b in pool[:3])
        for i in range(deg_in, -1, -1):
            src, wts = gathers[i]
            if i < deg_in:
                # an inside cube reaches ledge 2: passes (scales the moments) or lodges (r
                # shifts up along the packed axis: the last r of each a1 is 0 here, since
                # that cube came down from ledge 1)
                np.multiply(acc, coef_q, out=spare)
                np.multiply(acc[:, :-1], lodge, out=tmp[:, :-1])
                spare[:, 1:] += tmp[:, :-1]
                acc, spare = spare, acc
                np.take(passing, src, axis=1, out=tmp, mode="clip")
                tmp *= wts
                acc += tmp
            else:
                np.take(passing, src, axis=1, out=acc, mode="clip")
                acc *= wts
        knocked = view(pool[6], hi, hi)
        knocked.fill(0.0)
        knocked[qb, qs] = acc
        # then the knocked-loose thrown cubes of ledge 1 (Horner over j), then the cube itself
        deg_th, lost2 = _degree(knocked[:, 0, offset].sum(axis=1), tails)
        dropped += lost + lost2
        acc2, spare2, tmp2 = (view(b, hi, hi + 1) for b in pool[3:6])
        acc2.fill(0.0)
        for j in range(deg_th, -1, -1):
            if j < deg_th:
                acc2, spare2 = arrive_thrown(acc2, spare2, tmp2), acc2
            part = tmp2[:hi - j, :hi]
            np.multiply(knocked[j:], brow[j:hi, j][:, None, None], out=part)
            acc2[:hi - j, :hi] += part
        lodged = view(pool[0], hi, hi)  # the cube lodges on ledge 1
        np.multiply(cur, 1 - p1, out=lodged)
        t[:hi, :hi + 1] = arrive_thrown(acc2, spare2, tmp2)
        t[1:hi + 1, :hi] += lodged
        laws.append(left_of(hi))
    return laws


def _arrive_stable(x: np.ndarray, axis: int, p2: float, keep: np.ndarray,
                   thin_s: np.ndarray) -> np.ndarray:
    """The arrival at ledge 2 with its inside cubes as probabilities (axis 2)."""
    passed = np.matmul(x.transpose(0, 1, 3, 2), keep).transpose(0, 1, 3, 2) * thin_s
    out = p2 * passed
    if axis == 2:  # an inside cube lodges: one more on ledge 2
        out[:, :, 1:, :] += (1 - p2) * x[:, :, :-1, :]
    else:  # a thrown cube lodges: times (1 + u) in the moment basis
        out += (1 - p2) * x
        out[:, :, :, 1:] += (1 - p2) * x[:, :, :, :-1]
    return out


def _pad_s(x: np.ndarray) -> np.ndarray:
    """One more thrown-moment column, so a thrown cube lodging on ledge 2 has room."""
    return np.concatenate([x, np.zeros(x.shape[:3] + (1,))], axis=3)
