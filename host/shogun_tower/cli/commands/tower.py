"""`shogun-tower tower fit JOURNAL...`: fit the tower model to your own tower (docs/odds.md)."""

from __future__ import annotations

import argparse
import json
import math
import pathlib

from shogun_tower.errors import ShogunError
from shogun_tower.i18n import _, ngettext


def register(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser("tower", help=_("fit the tower model to the throws of your games"),
                              description=_("The tower model (pass and knock-loose "
                                            "probabilities) fitted to your own tower."))
    sub = p.add_subparsers(dest="tower_command", metavar="COMMAND")
    sub.required = True
    f = sub.add_parser("fit", help=_("maximum-likelihood fit from game journals"),
                       description=_("Estimate the tower model's parameters by maximum "
                                     "likelihood from every throw in the journals (cubes in, "
                                     "cubes out, cubes inside; device or typed trays) and write a "
                                     "tower profile for --tower-profile."))
    f.add_argument("journals", nargs="+", metavar="JOURNAL", help=_("game journals (.jsonl)"))
    f.add_argument("--out", default="tower-profile.json", metavar="FILE",
                   help=_("where to write the tower profile (default: tower-profile.json)"))
    f.add_argument("--per-ledge", action="store_true",
                   help=_("also fit one pass probability per ledge and compare (likelihood "
                          "ratio); the profile keeps it only if it fits significantly better"))
    f.add_argument("--json", action="store_true", help=_("print the result as JSON"))
    g = sub.add_parser("plot", help=_("plot a tower profile against the default model (PNG)"),
                       description=_("Exit probability per number of cubes thrown, for a "
                                     "fitted tower profile and the default model."))
    g.add_argument("--tower-profile", required=True, metavar="FILE",
                   help=_("a profile written by 'shogun-tower tower fit'"))
    g.add_argument("--out", default="tower-profile.png", metavar="PNG")
    p.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    if args.tower_command == "plot":
        return _plot(args)
    from shogun_tower.games.shogun.odds.fit import fit, journal_throws

    games = [journal_throws(path) for path in args.journals]
    if not any(step[0] == "throw" for g in games for step in g):
        raise ShogunError(_("the journals hold no throw; play a game first"))
    base = fit(games)
    chosen, report = base, {"model": base.to_json()}
    lines = [ngettext("{throws} throws from {n} journal", "{throws} throws from {n} journals",
                      len(games)).format(throws=base.throws, n=len(games)), _describe(base)]
    lr_base = 2 * (base.loglik - base.loglik_default)
    lines.append("  " + _("log-likelihood {loglik} vs default model {default} (likelihood ratio "
                          "{ratio}, 2 parameters)").format(
                              loglik=f"{base.loglik:.2f}", default=f"{base.loglik_default:.2f}",
                              ratio=f"{lr_base:.2f}"))
    if args.per_ledge:
        rich = fit(games, per_ledge=True)
        lr = max(0.0, 2 * (rich.loglik - base.loglik))
        p_value = math.erfc(math.sqrt(lr / 2))  # chi-square with 1 degree of freedom
        better = p_value < 0.05
        ratio = {"ratio": f"{lr:.2f}", "p": f"{p_value:.3g}"}
        lines += [_("per-ledge pass probabilities:"), _describe(rich),
                  "  " + (_("likelihood ratio vs one pass probability: {ratio} (1 parameter "
                            "more, p = {p}): fits better; the profile keeps it") if better else
                          _("likelihood ratio vs one pass probability: {ratio} (1 parameter "
                            "more, p = {p}): no better; the profile keeps one")).format(**ratio)]
        report["per_ledge"] = dict(rich.to_json(), likelihood_ratio=lr, p_value=p_value)
        chosen = rich if better else base
    profile = chosen.params.to_profile(
        fitted_from=[str(pathlib.Path(j).name) for j in args.journals], throws=base.throws,
        fit=chosen.to_json())
    try:
        pathlib.Path(args.out).write_text(json.dumps(profile, indent=1) + "\n",
                                          encoding="utf-8")
    except OSError as err:
        raise ShogunError(_("--out {path}: cannot write the profile ({error})").format(
            path=args.out, error=err.strerror)) from None
    lines.append(_("tower profile written to {path}: use it with --tower-profile {path}").format(
        path=args.out))
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
        raise ShogunError(_("--out {path}: cannot write the picture ({error})").format(
            path=args.out, error=err.strerror)) from None
    print(_("plot written to {path}").format(path=args.out))
    return 0


def _describe(fitted) -> str:  # noqa: ANN001
    return "\n".join(f"  {name:8} {est:.4f}  " + _("({percent} interval {low} - {high})").format(
        percent="95%", low=f"{lo:.4f}", high=f"{hi:.4f}")
        for name, est, (lo, hi) in zip(fitted.names, fitted.estimates, fitted.intervals,
                                       strict=True))
