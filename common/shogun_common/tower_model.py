# The physical battle tower as a chance model, used by the simulated board (on MicroPython) and by
# the bots' games on the host. Two ledges inside the tower catch cubes: a falling cube passes each
# ledge with probability PASS_P, and every cube that passes a ledge knocks loose each cube lodged
# there with probability KNOCK_P. Knocked-loose cubes keep falling (and may lodge on a lower ledge).

try:
    from micropython import const

    # MicroPython (the simulated board): a compile-time 0, so the `if _HOST:` parts (tower
    # profiles: only the host reads them) are not even compiled into the board's 64K heap.
    _HOST = const(0)
except ImportError:  # CPython: the host
    globals()["_HOST"] = 1  # (an assignment would be a syntax error to MicroPython's const())

PASS_P = 0.85
KNOCK_P = 1.0 / 40.0
LEDGES = 2

if _HOST:
    # A tower profile (written by `shogun-tower tower fit`) replaces these numbers with a fitted
    # tower: one pass probability per ledge ("pass_p" a list) or one for all (a number).
    PROFILE_FORMAT = "shogun-tower-profile/1"

    def profile_params(profile):
        """(ledges, pass_p list, knock_p) from a profile dict; ValueError names the bad field."""
        if not isinstance(profile, dict) or profile.get("format") != PROFILE_FORMAT:
            raise ValueError("a tower profile is a JSON object with format " + PROFILE_FORMAT)
        ledges = profile.get("ledges", LEDGES)
        pass_p = profile.get("pass_p", PASS_P)
        if isinstance(pass_p, (int, float)):
            pass_p = [pass_p] * ledges
        knock_p = profile.get("knock_p", KNOCK_P)
        if not isinstance(ledges, int) or ledges < 1 or not isinstance(pass_p, list) \
                or len(pass_p) != ledges:
            raise ValueError("tower profile: 'ledges' must be a whole number >= 1 and 'pass_p' "
                             "give one probability per ledge")
        for v in pass_p + [knock_p]:
            if not isinstance(v, (int, float)) or not 0.0 <= v <= 1.0:
                raise ValueError("tower profile: probabilities must lie in 0..1, got " + repr(v))
        return ledges, [float(v) for v in pass_p], float(knock_p)

    def load_profile(path):
        """Read a tower profile file (JSON)."""
        import json

        with open(path) as f:
            return json.load(f)


class TowerModel:
    """Cubes inside the tower, ledge by ledge. Each cube is its colour code (an int)."""

    def __init__(self, ledges=LEDGES, pass_p=PASS_P, knock_p=KNOCK_P):
        # pass_p: one probability for every ledge, or a list with one per ledge
        if isinstance(pass_p, (int, float)):
            pass_p = [pass_p] * ledges
        self.pass_p = list(pass_p)
        self.knock_p = knock_p
        self.ledges = [[] for _ in range(ledges)]

    if _HOST:
        @classmethod
        def from_profile(cls, profile):
            ledges, pass_p, knock_p = profile_params(profile)
            return cls(ledges, pass_p, knock_p)

    def inside(self):
        """All cubes lodged in the tower, as a list of colour codes."""
        out = []
        for ledge in self.ledges:
            out.extend(ledge)
        return out

    def throw(self, cubes, rng, falling_out=None):
        """Drop ``cubes`` (colour codes, in throwing order) in at the top.

        Returns the cubes that leave at the bottom, in the order they fall out: appended to
        ``falling_out`` when given (the simulated board passes a bytearray), else a new list.
        """
        if falling_out is None:
            falling_out = []
        for cube in cubes:
            self._fall(cube, 0, rng, falling_out)
        return falling_out

    def _fall(self, cube, level, rng, falling_out):
        # Iterative over ledges; recursion only for knocked-loose cubes (bounded by cubes lodged).
        while level < len(self.ledges):
            ledge = self.ledges[level]
            if rng.random() >= self.pass_p[level]:
                ledge.append(cube)
                return
            # Each cube lodged here (in order) may be knocked loose; the loose ones fall on in
            # that order once all are drawn. The rest kept in place (a list, or the simulated
            # board's bytearray): no new list per cube.
            loose = None
            kept = 0
            for lodged in ledge:
                if rng.random() < self.knock_p:
                    if loose is None:
                        loose = []
                    loose.append(lodged)
                else:
                    ledge[kept] = lodged  # (at or behind the one just read)
                    kept += 1
            if loose:
                ledge[kept:] = ledge[:0]  # (a bytearray has no slice deletion)
                for lodged in loose:
                    self._fall(lodged, level + 1, rng, falling_out)
            level += 1
        falling_out.append(cube)

    if _HOST:
        def state(self):
            return [list(ledge) for ledge in self.ledges]

        def restore(self, ledges):
            self.ledges = [list(ledge) for ledge in ledges]
