"""The tower model's parameters as one hashable value (the odds cache results per parameters)."""

from __future__ import annotations

import json
from dataclasses import dataclass

from shogun_common.tower_model import KNOCK_P, LEDGES, PASS_P, PROFILE_FORMAT, profile_params
from shogun_tower.errors import ShogunError


@dataclass(frozen=True)
class TowerParams:
    """Pass probability per ledge (top first) and the knock-loose probability."""

    pass_p: tuple[float, ...] = (PASS_P,) * LEDGES
    knock_p: float = KNOCK_P

    @property
    def ledges(self) -> int:
        return len(self.pass_p)

    def to_profile(self, **extra: object) -> dict:
        return {"format": PROFILE_FORMAT, "ledges": self.ledges, "pass_p": list(self.pass_p),
                "knock_p": self.knock_p, **extra}

    @staticmethod
    def from_profile(profile: dict) -> TowerParams:
        ledges, pass_p, knock_p = profile_params(profile)
        return TowerParams(tuple(pass_p), knock_p)


DEFAULT = TowerParams()


def load_tower_profile(path: str | None) -> TowerParams:
    """``--tower-profile FILE`` for every command: the default model when ``path`` is None."""
    if path is None:
        return DEFAULT
    try:
        with open(path, encoding="utf-8") as f:
            return TowerParams.from_profile(json.load(f))
    except OSError as err:
        raise ShogunError(f"--tower-profile {path}: cannot read it ({err.strerror}); give the "
                          f"file written by 'shogun-tower tower fit'") from None
    except ValueError as err:
        raise ShogunError(f"--tower-profile {path}: {err}") from None


def sim_options(params: TowerParams | None) -> list[str]:
    """The simulated board's options for a tower profile (firmware/sim_main.py --pass-p,
    --knock-p); [] for the default model."""
    if params is None or params == DEFAULT:
        return []
    if len(set(params.pass_p)) != 1:
        raise ShogunError("--tower-profile: the simulated board takes one pass probability for "
                          "every ledge; fit the profile without --per-ledge")
    return ["--pass-p", repr(params.pass_p[0]), "--knock-p", repr(params.knock_p)]
