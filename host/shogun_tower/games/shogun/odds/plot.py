"""A picture of a tower model: the chance that a thrown cube comes out, per number of cubes
thrown, for the default model and a fitted one (matplotlib, written as PNG)."""

from __future__ import annotations

import numpy as np

from shogun_tower.games.shogun.odds.exits import exit_law
from shogun_tower.games.shogun.odds.model import DEFAULT, TowerParams


def exit_share(params: TowerParams, thrown: int, inside: int) -> float:
    """Expected share of the thrown cubes that leave the tower (exact)."""
    law = exit_law(thrown, inside, params)
    return float((law.p.sum(axis=1) * np.arange(thrown + 1)).sum()) / thrown


def plot_exit_probabilities(fitted: TowerParams, path: str, label: str = "fitted",
                            most: int = 20) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    counts = np.arange(1, most + 1)
    fig, axes = plt.subplots(1, 2, figsize=(10, 4), sharey=True)
    for ax, inside in zip(axes, (0, 20), strict=True):
        for params, name, style in ((DEFAULT, "default model", "o--"), (fitted, label, "s-")):
            share = [exit_share(params, int(n), inside) for n in counts]
            pars = f"pass {params.pass_p[0]:.2f}" + (
                f"/{params.pass_p[1]:.2f}" if params.pass_p[1] != params.pass_p[0] else "")
            ax.plot(counts, share, style, ms=3, label=f"{name} ({pars}, knock "
                                                       f"{params.knock_p:.3f})")
        ax.set_title(f"{inside} cubes inside before the throw")
        ax.set_xlabel("cubes thrown")
        ax.grid(alpha=0.3)
    axes[0].set_ylabel("P(a thrown cube comes out)")
    axes[0].legend(fontsize=8)
    fig.suptitle("Exit probability per cube count: fitted vs default tower model")
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
