"""`shogun-tower tower fit JOURNAL...`: fit the tower model to your own tower (docs/odds.md).
`shogun-tower tower status`: what the tower says of itself, the power source of its strip first;
`shogun-tower tower supply in|out`: plug the simulated tower's 5 V supply in or pull it out."""

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
    s = sub.add_parser("status", help="the tower's status: which power source feeds its strip, "
                                      "its current, its counts",
                       description="Asks the tower for its status and says which power "
                                   "source feeds the LED strip (USB, or the 5 V supply in the "
                                   "barrel jack), the strip's budget and current, and its "
                                   "counts.")
    _port_options(s)
    s.add_argument("--supply-5v", action="store_true",
                   help="with --sim: the simulated tower's 5 V supply plugged in")
    s.add_argument("--json", action="store_true", help="print the status as JSON")
    u = sub.add_parser("supply", help="plug the simulated tower's 5 V supply in or pull it out",
                       description="The simulated tower (`shogun-tower sim`) only: plug its "
                                   "5 V supply into the barrel jack (in) or pull it out (out); "
                                   "the strip's budget follows, as on a real tower.")
    u.add_argument("state", choices=("in", "out"))
    u.add_argument("--port", required=True, help="the simulated tower's port (from "
                                                 "`shogun-tower sim`)")
    p.set_defaults(handler=run)


def _port_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("--port", help="serial port of the tower, e.g. /dev/ttyUSB0")
    p.add_argument("--sim", action="store_true", help="a simulated tower of its own")


def run(args: argparse.Namespace) -> int:
    if args.tower_command == "plot":
        return _plot(args)
    if args.tower_command == "status":
        return _status(args)
    if args.tower_command == "supply":
        return _supply(args)
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


def strip_power(status: dict) -> str:
    """Which power source feeds the strip, in a line, from a STATUS."""
    budget = f"budget {status['budget_ma']} mA"
    if "supply" not in status:
        return f"not told by this firmware ({budget}): update it (make deploy)"
    if status["supply"]:
        return f"the 5 V supply ({budget})"
    return f"USB ({budget}; no 5 V supply plugged in)"


def status_lines(info: dict, status: dict) -> list[str]:
    dimmed = ", dimmed to keep within the budget" if status["dimmed"] else ""
    return [f"tower: firmware {info.get('firmware', '?')}, board {info.get('board', '?')}",
            f"strip power: {strip_power(status)}",
            f"strip: {status['frame_ma']} mA now{dimmed}, brightness {status['brightness']}",
            f"cubes: {status['cubes']} counted, hardware count {status['hw_count']}, "
            f"{status['mismatches']} mismatches"]


def _status(args: argparse.Namespace) -> int:
    from shogun_tower.device.link import DeviceLink
    from shogun_tower.sim_device import SimulatedTower

    if bool(args.port) == bool(args.sim):
        raise ShogunError("tower status needs the tower: give --port PORT (e.g. /dev/ttyUSB0) "
                          "or --sim for a simulated tower")
    if args.supply_5v and not args.sim:
        raise ShogunError("--supply-5v is for --sim; on a real tower plug the supply in")

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
            raise ShogunError(f"tower supply: {err} (a real tower's supply is plugged by "
                              "hand)") from None
        if args.state == "in":
            _wait_for_supply(link)
        print(f"strip power: {strip_power(link.status())}")
    return 0


def _describe(fitted) -> str:  # noqa: ANN001
    return "\n".join(f"  {name:8} {est:.4f}  (95% interval {lo:.4f} - {hi:.4f})"
                     for name, est, (lo, hi) in zip(fitted.names, fitted.estimates,
                                                    fitted.intervals, strict=True))
