"""`shogun-tower demo`: the whole path on the simulated tower, throw by throw."""

from __future__ import annotations

import argparse
import json
import pathlib
import time

from shogun_common.colours import CUBE_COLOURS, PLAYER_COLOURS
from shogun_common.rng import Rng
from shogun_tower.errors import ShogunError
from shogun_tower.link import DeviceLink
from shogun_tower.sim_device import SimulatedTower
from shogun_tower.terminal import colour_word, counts_text, led_bar, use_colour
from shogun_tower.tower import DeviceTower

SETUP_ARMIES = 7   # rule S3: 7 armies of each player and 10 farmers
SETUP_FARMERS = 10


def register(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser("demo", help="show the whole path on the simulated tower",
                              description="Starts the simulated tower, makes the set-up throw "
                                          "and battle throws through the real firmware path.")
    p.add_argument("--seed", type=int, default=1, help="seed (same seed, same demo)")
    p.add_argument("--players", type=int, default=4, choices=(3, 4, 5))
    p.add_argument("--battles", type=int, default=5, help="battle throws after the set-up throw")
    p.add_argument("--summary", type=pathlib.Path, help="write a JSON summary to this file")
    p.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    if args.battles < 0:
        raise ShogunError("--battles must be 0 or more")
    if args.summary and not args.summary.parent.is_dir():
        raise ShogunError(f"--summary: there is no folder {args.summary.parent}; create it or "
                          f"give another path")
    colour = use_colour()
    rng = Rng(args.seed)
    players = list(PLAYER_COLOURS[: args.players])
    vp = {p: 0 for p in players}
    in_tower = {c: 0 for c in CUBE_COLOURS}
    tray = {c: 0 for c in CUBE_COLOURS}
    summary: dict = {"throws": [], "in_tower": {}, "frames": 0, "lost_events": 0}

    with SimulatedTower(seed=args.seed) as sim, DeviceLink(sim.port) as link:
        info = link.hello()
        print(f"simulated tower on {sim.port}: firmware {info['firmware']}, board "
              f"{info['board']}, protocol {info['protocol']}")
        tower = DeviceTower(link)

        def throw(title: str, cubes_in: dict[str, int]) -> dict[str, int]:
            out = tower.throw(cubes_in)
            for c in CUBE_COLOURS:
                in_tower[c] += cubes_in.get(c, 0) - out[c]
            summary["throws"].append({"in": _nonzero(cubes_in), "out": _nonzero(out)})
            print(f"\n{title}")
            print(f"  in:           {counts_text(cubes_in, colour)}")
            print(f"  out (device): {counts_text(out, colour)}")
            print(f"  inside tower: {counts_text(in_tower, colour)}")
            return out

        def show_track() -> None:
            link.push_scores([(p, vp[p], 0) for p in players])
            frame = link.read_led_frame()
            summary["frames"] += 1
            print("  score track:  " + led_bar(frame, colour))
            print("                " + "  ".join(f"{colour_word(p, colour)} {vp[p]}"
                                                 for p in players))

        # Rule S3: the set-up throw; what falls out goes back to the supplies.
        setup = {p: SETUP_ARMIES for p in players} | {"green": SETUP_FARMERS}
        throw("Set-up throw (rule S3)", setup)
        show_track()

        for n in range(1, args.battles + 1):
            attacker, defender = _pick_two(players, rng)
            neutral = rng.chance(0.25)
            attack = rng.randint(1, 6)
            cubes_in = {c: tray[c] for c in CUBE_COLOURS}  # rule B1: the tray's cubes go too
            cubes_in[attacker] += attack
            if neutral:
                cubes_in["green"] += 1  # rule B1: a neutral province throws one farmer
                title = f"Battle {n}: {attacker} attacks a neutral province with {attack}"
            else:
                defence = rng.randint(1, 5)
                cubes_in[defender] += defence
                title = (f"Battle {n}: {attacker} attacks {defender} "
                         f"({attack} against {defence})")
            out = throw(title, cubes_in)
            a = out[attacker]
            d = out["green"] + (0 if neutral else out[defender])  # rule B2
            if a > d:  # rule B3: strictly more wins
                verdict = f"{colour_word(attacker, colour)} wins, {a} against {d}"
                vp[attacker] += 1
            elif neutral:
                verdict = f"the province stays neutral, {a} against {d}"  # rule B4
            elif d > a and out[defender]:
                verdict = f"{colour_word(defender, colour)} holds, {d} against {a}"
                vp[defender] += 1
            else:
                verdict = f"undecided, {a} against {d}: the province falls neutral"  # rule B4
            print(f"  verdict:      {verdict}")
            # Counted cubes leave the tray; farmers took part, so green goes back (B5); the other
            # colours stay in the tray for the next battle.
            tray = {c: (0 if c in (attacker, defender, "green") else out[c]) for c in CUBE_COLOURS}
            show_track()
            if a > d or (d > a and out[defender]):
                link.animate_battle(attacker if a > d else defender)

        time.sleep(0.05)
        device_status = link.status()
        summary["in_tower"] = dict(in_tower)
        counted = sum(sum(t["out"].values()) for t in summary["throws"])
        summary["lost_events"] = device_status["cubes"] - counted
        truth = link.sim_tower()
        print(f"\ncubes counted by the device: {device_status['cubes']} "
              f"(hardware counter {device_status['hw_count']}), received: {counted}, "
              f"lost: {summary['lost_events']}")
        agree = "agrees" if truth == in_tower else f"DISAGREES ({truth})"
        print(f"inside the tower: {counts_text(in_tower, colour)} — the tower model {agree}")

    if args.summary:
        try:
            args.summary.write_text(json.dumps(summary, indent=2) + "\n")
        except OSError as err:
            raise ShogunError(f"cannot write the summary to {args.summary}: {err}") from err
        print(f"summary written to {args.summary}")
    return 0 if summary["lost_events"] == 0 and truth == in_tower else 1


def _nonzero(counts: dict[str, int]) -> dict[str, int]:
    return {c: n for c, n in counts.items() if n}


def _pick_two(players: list[str], rng: Rng) -> tuple[str, str]:
    a = rng.choice(players)
    b = rng.choice([p for p in players if p != a])
    return a, b
