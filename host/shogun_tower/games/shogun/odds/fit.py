"""Fitting the tower model to a real tower: maximum likelihood from the throws in game journals.

A journal holds, for every throw, the cubes that went in, the tray counts that came out (typed
by the players or counted by the device — the same ``tray`` command) and, by replaying it, the
cubes inside before the throw. Which ledge each cube inside lies on is never observed, so the
likelihood of one game is that of a hidden Markov model: the hidden state is the ledge-1 count
(ledge 2 holds the rest of the cubes inside), each throw moves it by the model (a DP over counts,
colour-blind), and each tray reveals the number of cubes inside afterwards. The forward
algorithm sums over every ledge history exactly. Colours are not used (they could add a little
information about knocked-loose cubes when inside and thrown colours differ).

Estimates are maximised by Nelder-Mead on logit-transformed probabilities; 95% intervals are
Wald intervals from the observed information (a numerical Hessian), on the logit scale.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from functools import lru_cache
from math import comb

import numpy as np

from shogun_tower.errors import ShogunError
from shogun_tower.games.shogun.odds.exits import MOMENTS_UP_TO
from shogun_tower.games.shogun.odds.model import DEFAULT, TowerParams

Game = list[tuple[str, int, int]]  # ("throw", cubes in, cubes out) or ("spill", cubes, 0)


def journal_throws(path: str) -> Game:
    """The throws (and accidental spills, rule B8) of one journal, in order."""
    from shogun_tower.games.shogun.journal import Journal, JournalError
    from shogun_tower.games.shogun.rules import State

    try:
        j = Journal.load(path)
    except (JournalError, OSError) as err:
        raise ShogunError(f"{path}: {err}") from None
    s = State.new(j.game)
    out: Game = []
    for cmd in j.commands:
        st = s.step
        if cmd.get("type") == "tray" and st and st["kind"] == "throw":
            out.append(("throw", sum(st["into_tower"].values()), sum(cmd["counts"].values())))
        elif cmd.get("type") == "spilled":
            out.append(("spill", sum(cmd["counts"].values()), 0))
        s.apply(cmd)
    return out


@lru_cache(maxsize=8)
def _pascal(size: int) -> np.ndarray:
    """C[n, r] = comb(n, r) as floats, for n, r < size."""
    c = np.zeros((size, size))
    c[:, 0] = 1.0
    for n in range(1, size):
        c[n, 1:] = c[n - 1, 1:] + c[n - 1, :-1]
    return c


def _survivors(size: int, k: float) -> np.ndarray:
    """K[c, c'] = P(c' of c lodged cubes stay when each is knocked loose with probability k)."""
    c = np.arange(size)
    kept = np.clip(c[:, None] - c[None, :], 0, None)
    return np.tril(_pascal(size) * (1 - k) ** c[None, :] * k ** kept)


class _Throws:
    """The colour-blind DP of one throw: t[c1, r] holds ledge 1 as counts and ledge 2 in the
    binomial-moment basis (as in :mod:`.exits`), so knocking loose is a diagonal scaling."""

    def __init__(self, params: TowerParams, size: int) -> None:
        self.p1, self.p2 = params.pass_p
        k = params.knock_p
        keep = _survivors(size, k)
        # w[i, c] = P(i of c cubes on ledge 1 knocked loose); tails[c, d] = P(more than d)
        self.w = np.zeros((size, size))
        for i in range(size):
            self.w[i, i:] = keep[np.arange(i, size), np.arange(0, size - i)]
        self.tails = 1.0 - np.cumsum(self.w.T, axis=1)
        self.coef = self.p2 * (1 - k) ** np.arange(size) + (1 - self.p2)
        self.keep = _survivors(size, k)
        pascal = _pascal(size)
        self.to_mom = pascal  # to_mom[j, r] = C(j, r)
        sign = (-1.0) ** (np.arange(size)[:, None] + np.arange(size)[None, :])
        self.from_mom = pascal * sign  # from_mom[r, j] = (-1)^(r-j) C(r, j)

    def _arrive(self, x: np.ndarray) -> np.ndarray:
        if self.stable:  # ledge 2 as counts: knocking loose is a matrix product
            out = self.p2 * (x @ self.keep[:x.shape[1], :x.shape[1]])
            out[:, 1:] += (1 - self.p2) * x[:, :-1]
            return out
        out = x * self.coef[:x.shape[1]]
        out[:, 1:] += (1 - self.p2) * x[:, :-1]
        return out

    def throw(self, t: np.ndarray, n: int) -> np.ndarray:
        """t[c1, c2] (counts) before; returns the law after ``n`` cubes (exits implied)."""
        size = t.shape[0]
        w, tails = self.w[:size, :size], self.tails[:size, :size]
        # binomial moments of many cubes lose digits when turned back (see exits.MOMENTS_UP_TO)
        self.stable = size > MOMENTS_UP_TO + 2
        if not self.stable:
            t = t @ self.to_mom[:size, :size]
        for _ in range(n):
            new = np.zeros_like(t)
            new[1:] += (1 - self.p1) * t[:-1]
            passing = self.p1 * t
            # each ledge-1 count's probability: moment 0 of ledge 2, or the sum of its counts
            lost = (passing.sum(axis=1) if self.stable else passing[:, 0]) @ tails
            degree = int(np.argmax(lost < 1e-13)) if (lost < 1e-13).any() else size - 1
            acc = np.zeros_like(t)
            for i in range(degree, -1, -1):
                if i < degree:
                    acc = self._arrive(acc)
                acc[:size - i] += w[i, i:, None] * passing[i:]
            new += self._arrive(acc)
            t = new
        return np.clip(t if self.stable else t @ self.from_mom[:size, :size], 0.0, None)


def loglik(games: Iterable[Game], params: TowerParams) -> float:
    """Log-likelihood of the observed cubes-out counts of every throw, exactly (forward HMM)."""
    total = 0.0
    for game in games:
        inside, size = 0, 2
        for kind, n, out in game:  # the largest tower a throw of this game can fill
            size = max(size, inside + n + 2) if kind == "throw" else size
            inside += n - out if kind == "throw" else -n
        inside = 0
        dp = _Throws(params, size)
        belief = np.zeros(size)
        belief[0] = 1.0  # a game starts with an empty tower
        for kind, n, out in game:
            if kind == "spill":  # cubes fell out by accident: from random places inside
                belief = _remove(belief, inside, n)
                inside -= n
                continue
            t = np.zeros((inside + n + 2, inside + n + 2))
            t[np.arange(inside + 1), inside - np.arange(inside + 1)] = belief[:inside + 1]
            after = dp.throw(t, n)
            left = inside + n - out
            if left < 0:
                raise ShogunError(f"a throw of {n} cubes with {inside} inside cannot give {out}")
            c1 = np.arange(left + 1)
            diag = after[c1, left - c1] if left + 1 <= after.shape[0] else np.zeros(left + 1)
            like = float(diag.sum())
            if like <= 0:
                return -math.inf
            total += math.log(like)
            belief = np.zeros(size)
            belief[:left + 1] = diag / like
            inside = left
    return total


def _remove(belief: np.ndarray, inside: int, n: int) -> np.ndarray:
    out = np.zeros_like(belief)
    for c1 in range(inside + 1):
        for j in range(max(0, n - (inside - c1)), min(c1, n) + 1):
            w = comb(c1, j) * comb(inside - c1, n - j) / comb(inside, n)
            out[c1 - j] += belief[c1] * w
    return out


# ---- maximum likelihood -------------------------------------------------------------------

def _logit(p: float) -> float:
    return math.log(p / (1 - p))


def _expit(x: float) -> float:
    return 1 / (1 + math.exp(-x))


def _nelder_mead(f: Callable[[np.ndarray], float], x0: np.ndarray, step: float = 0.4,
                 tol: float = 1e-3, max_evals: int = 200) -> np.ndarray:
    """Minimise f (a few parameters; no scipy needed). ``tol`` in log-likelihood: 1e-3 moves
    the estimates by a few hundredths of their standard error and saves a fifth of the
    evaluations."""
    d = len(x0)
    pts = [x0] + [x0 + step * np.eye(d)[i] for i in range(d)]
    vals = [f(p) for p in pts]
    evals = d + 1
    while evals < max_evals:
        order = np.argsort(vals)
        pts = [pts[i] for i in order]
        vals = [vals[i] for i in order]
        if abs(vals[-1] - vals[0]) < tol:
            break
        centre = np.mean(pts[:-1], axis=0)
        refl = centre + (centre - pts[-1])
        fr = f(refl)
        evals += 1
        if fr < vals[0]:
            exp = centre + 2 * (centre - pts[-1])
            fe = f(exp)
            evals += 1
            pts[-1], vals[-1] = (exp, fe) if fe < fr else (refl, fr)
        elif fr < vals[-2]:
            pts[-1], vals[-1] = refl, fr
        else:
            con = centre + 0.5 * (pts[-1] - centre)
            fc = f(con)
            evals += 1
            if fc < vals[-1]:
                pts[-1], vals[-1] = con, fc
            else:
                pts = [pts[0] + 0.5 * (p - pts[0]) for p in pts]
                vals = [vals[0]] + [f(p) for p in pts[1:]]
                evals += d
    return pts[int(np.argmin(vals))]


@dataclass
class Fit:
    """A fitted model: estimates with 95% intervals, and log-likelihoods to compare."""

    params: TowerParams
    names: list[str]
    estimates: list[float]
    intervals: list[tuple[float, float]]
    loglik: float
    loglik_default: float
    throws: int

    def to_json(self) -> dict:
        return {"parameters": {n: {"estimate": e, "interval95": list(i)} for n, e, i in
                               zip(self.names, self.estimates, self.intervals, strict=True)},
                "loglik": self.loglik, "loglik_default": self.loglik_default,
                "throws": self.throws}


def fit(games: list[Game], per_ledge: bool = False) -> Fit:
    """Maximum-likelihood pass and knock probabilities (one pass for both ledges, or one per
    ledge with ``per_ledge``)."""
    names = ["pass_p1", "pass_p2", "knock_p"] if per_ledge else ["pass_p", "knock_p"]

    def params_of(x: np.ndarray) -> TowerParams:
        q = [_expit(v) for v in x]
        return TowerParams((q[0], q[1]), q[2]) if per_ledge else TowerParams((q[0], q[0]), q[1])

    def neg(x: np.ndarray) -> float:
        v = loglik(games, params_of(x))
        return -v if math.isfinite(v) else 1e12

    start = [_logit(DEFAULT.pass_p[0])] * (2 if per_ledge else 1) + [_logit(DEFAULT.knock_p)]
    best = _nelder_mead(neg, np.array(start))
    best_ll = -neg(best)
    hess = _hessian(neg, best, -best_ll)
    try:
        cov = np.linalg.inv(hess)
        se = np.sqrt(np.clip(np.diag(cov), 0, None))
    except np.linalg.LinAlgError:
        se = np.full(len(best), np.inf)
    intervals = [(_expit(b - 1.96 * s), _expit(b + 1.96 * s)) for b, s in zip(best, se,
                                                                             strict=True)]
    return Fit(params_of(best), names, [_expit(b) for b in best], intervals, best_ll,
               loglik(games, DEFAULT), sum(1 for g in games for e in g if e[0] == "throw"))


def _hessian(f: Callable[[np.ndarray], float], x: np.ndarray, f0: float,
             h: float = 0.02) -> np.ndarray:
    d = len(x)
    out = np.zeros((d, d))
    for i in range(d):
        for j in range(i, d):
            ei, ej = h * np.eye(d)[i], h * np.eye(d)[j]
            if i == j:
                out[i, i] = (f(x + ei) - 2 * f0 + f(x - ei)) / h ** 2
            else:
                out[i, j] = out[j, i] = (f(x + ei + ej) - f(x + ei - ej) - f(x - ei + ej)
                                         + f(x - ei - ej)) / (4 * h * h)
    return out
