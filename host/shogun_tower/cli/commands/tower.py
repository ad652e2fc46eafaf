"""`shogun-tower tower fit JOURNAL...`: fit the tower model to your own tower (docs/odds.md).
`shogun-tower tower status`: what the tower says of itself, the power source of its strip first;
`shogun-tower tower supply in|out`: plug the simulated tower's 5 V supply in or pull it out."""

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
    s = sub.add_parser("status", help=_("the tower's status: which power source feeds its "
                                        "strip, its current, its counts"),
                       description=_("Asks the tower for its status and says which power "
                                     "source feeds the LED strip (USB, or the 5 V supply in the "
                                     "barrel jack), the strip's budget and current, and its "
                                     "counts."))
    _port_options(s)
    s.add_argument("--supply-5v", action="store_true",
                   help=_("with --sim: the simulated tower's 5 V supply plugged in"))
    s.add_argument("--json", action="store_true", help=_("print the status as JSON"))
    u = sub.add_parser("supply", help=_("plug the simulated tower's 5 V supply in or pull it "
                                        "out"),
                       description=_("The simulated tower (`shogun-tower sim`) only: plug its "
                                     "5 V supply into the barrel jack (in) or pull it out (out); "
                                     "the strip's budget follows, as on a real tower."))
    u.add_argument("state", choices=("in", "out"))
    u.add_argument("--port", required=True, help=_("the simulated tower's port (from "
                                                   "`shogun-tower sim`)"))
    p.set_defaults(handler=run)


def _port_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("--port", help=_("serial port of the tower, e.g. /dev/ttyUSB0"))
    p.add_argument("--sim", action="store_true", help=_("a simulated tower of its own"))


def run(args: argparse.Namespace) -> int:
    if args.tower_command == "plot":
        return _plot(args)
    if args.tower_command == "status":
        return _status(args)
    if args.tower_command == "supply":
        return _supply(args)
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


def strip_power(status: dict) -> str:
    """Which power source feeds the strip, in a line, from a STATUS."""
    budget = status["budget_ma"]
    if "supply" not in status:
        return _("not told by this firmware (budget {budget} mA): update it (make "
                 "deploy)").format(budget=budget)
    if status["supply"]:
        return _("the 5 V supply (budget {budget} mA)").format(budget=budget)
    return _("USB (budget {budget} mA; no 5 V supply plugged in)").format(budget=budget)


def status_lines(info: dict, status: dict) -> list[str]:
    strip = (_("strip: {ma} mA now, dimmed to keep within the budget, brightness {brightness}")
             if status["dimmed"] else _("strip: {ma} mA now, brightness {brightness}"))
    return [_("tower: firmware {firmware}, board {board}").format(
                firmware=info.get("firmware", "?"), board=info.get("board", "?")),
            _("strip power: {power}").format(power=strip_power(status)),
            strip.format(ma=status["frame_ma"], brightness=status["brightness"]),
            ngettext("cubes: {cubes} counted, hardware count {hw}, {n} mismatch",
                     "cubes: {cubes} counted, hardware count {hw}, {n} mismatches",
                     status["mismatches"]).format(cubes=status["cubes"], hw=status["hw_count"],
                                                  n=status["mismatches"])]


def _status(args: argparse.Namespace) -> int:
    from shogun_tower.device.link import DeviceLink
    from shogun_tower.sim_device import SimulatedTower

    if bool(args.port) == bool(args.sim):
        raise ShogunError(_("tower status needs the tower: give --port PORT (e.g. "
                            "/dev/ttyUSB0) or --sim for a simulated tower"))
    if args.supply_5v and not args.sim:
        raise ShogunError(_("--supply-5v is for --sim; on a real tower plug the supply in"))

    def show(link: DeviceLink) -> int:
        info = link.handshake(wait_s=5)
        status = link.status()
        print(json.dumps({"tower": info, "status": status}, sort_keys=True) if args.json
              else "\n".join(status_lines(info, status)))
        return 0

    if args.sim:
        options = ["--supply-5v"] if args.supply_5v else []
        with SimulatedTower(seed=1, options=options) as sim, DeviceLink(sim.port) as link:
            # (the supply's budget comes after its hand-over, as on a real tower)
            link.handshake(wait_s=5)
            if args.supply_5v:
                _wait_for_supply(link)
            return show(link)
    with DeviceLink(args.port) as link:
        return show(link)


def _wait_for_supply(link, wait_s: float = 3.0) -> None:  # noqa: ANN001 - a DeviceLink
    import time

    deadline = time.monotonic() + wait_s
    while not link.status().get("supply") and time.monotonic() < deadline:
        time.sleep(0.05)


def _supply(args: argparse.Namespace) -> int:
    from shogun_tower.device.link import DeviceLink, LinkError

    with DeviceLink(args.port) as link:
        link.handshake(wait_s=5)
        try:
            link.sim_supply(args.state == "in")
        except LinkError as err:
            raise ShogunError(_("tower supply: {error} (a real tower's supply is plugged by "
                                "hand)").format(error=err)) from None
        if args.state == "in":
            _wait_for_supply(link)
        print(_("strip power: {power}").format(power=strip_power(link.status())))
    return 0


def _describe(fitted) -> str:  # noqa: ANN001
    return "\n".join(f"  {name:8} {est:.4f}  " + _("({percent} interval {low} - {high})").format(
        percent="95%", low=f"{lo:.4f}", high=f"{hi:.4f}")
        for name, est, (lo, hi) in zip(fitted.names, fitted.estimates, fitted.intervals,
                                       strict=True))
