"""`shogun-tower tower fit JOURNAL...`: fit the tower model to your own tower (docs/odds.md)."""

from __future__ import annotations

import argparse
import json
import math
import pathlib

from shogun_tower.errors import ShogunError


def register(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser("tower", help="fit the tower model to the throws of your games",
                              description="The tower model (pass and knock-loose "
                                          "probabilities) fitted to your own tower.")
    sub = p.add_subparsers(dest="tower_command", metavar="COMMAND")
    sub.required = True
    f = sub.add_parser("fit", help="maximum-likelihood fit from game journals",
                       description="Estimate the tower model's parameters by maximum "
                                   "likelihood from every throw in the journals (cubes in, "
                                   "cubes out, cubes inside; device or typed trays) and write a "
                                   "tower profile for --tower-profile.")
    f.add_argument("journals", nargs="+", metavar="JOURNAL", help="game journals (.jsonl)")
    f.add_argument("--out", default="tower-profile.json", metavar="FILE",
                   help="where to write the tower profile (default: tower-profile.json)")
    f.add_argument("--per-ledge", action="store_true",
                   help="also fit one pass probability per ledge and compare (likelihood "
                        "ratio); the profile keeps it only if it fits significantly better")
    f.add_argument("--json", action="store_true", help="print the result as JSON")
    g = sub.add_parser("plot", help="plot a tower profile against the default model (PNG)",
                       description="Exit probability per number of cubes thrown, for a "
                                   "fitted tower profile and the default model.")
    g.add_argument("--tower-profile", required=True, metavar="FILE",
                   help="a profile written by 'shogun-tower tower fit'")
    g.add_argument("--out", default="tower-profile.png", metavar="PNG")
    p.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    if args.tower_command == "plot":
        return _plot(args)
    from shogun_tower.games.shogun.odds.fit import fit, journal_throws

    games = [journal_throws(path) for path in args.journals]
    if not any(kind == "throw" for g in games for kind, _, _ in g):
        raise ShogunError("the journals hold no throw; play a game first")
    base = fit(games)
    chosen, report = base, {"model": base.to_json()}
    lines = [f"{base.throws} throws from {len(games)} journal(s)", _describe(base)]
    lr_base = 2 * (base.loglik - base.loglik_default)
    lines.append(f"  log-likelihood {base.loglik:.2f} vs default model {base.loglik_default:.2f} "
                 f"(likelihood ratio {lr_base:.2f}, 2 parameters)")
    if args.per_ledge:
        rich = fit(games, per_ledge=True)
        lr = max(0.0, 2 * (rich.loglik - base.loglik))
        p_value = math.erfc(math.sqrt(lr / 2))  # chi-square with 1 degree of freedom
        better = p_value < 0.05
        lines += ["per-ledge pass probabilities:", _describe(rich),
                  f"  likelihood ratio vs one pass probability: {lr:.2f} (1 parameter more, "
                  f"p = {p_value:.3g}): " + ("fits better; the profile keeps it" if better
                                             else "no better; the profile keeps one")]
        report["per_ledge"] = dict(rich.to_json(), likelihood_ratio=lr, p_value=p_value)
        chosen = rich if better else base
    profile = chosen.params.to_profile(
        fitted_from=[str(pathlib.Path(j).name) for j in args.journals], throws=base.throws,
        fit=chosen.to_json())
    try:
        pathlib.Path(args.out).write_text(json.dumps(profile, indent=1) + "\n",
                                          encoding="utf-8")
    except OSError as err:
        raise ShogunError(f"--out {args.out}: cannot write the profile ({err.strerror})") \
            from None
    lines.append(f"tower profile written to {args.out}: use it with --tower-profile "
                 f"{args.out}")
    report["profile"] = args.out
    print(json.dumps(report, sort_keys=True) if args.json else "\n".join(lines))
    return 0


def _plot(args: argparse.Namespace) -> int:
    from shogun_tower.games.shogun.odds.model import load_tower_profile
    from shogun_tower.games.shogun.odds.plot import plot_exit_probabilities

    params = load_tower_profile(args.tower_profile)
    try:
        plot_exit_probabilities(params, args.out, label=pathlib.Path(args.tower_profile).stem)
    except OSError as err:
        raise ShogunError(f"--out {args.out}: cannot write the picture ({err.strerror})") \
            from None
    print(f"plot written to {args.out}")
    return 0


def _describe(fitted) -> str:  # noqa: ANN001
    return "\n".join(f"  {name:8} {est:.4f}  (95% interval {lo:.4f} - {hi:.4f})"
                     for name, est, (lo, hi) in zip(fitted.names, fitted.estimates,
                                                    fitted.intervals, strict=True))
