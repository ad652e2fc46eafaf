"""The link's fault campaigns, each printed as a table:

- fuzzed frames per codec on CPython and on MicroPython (bench/fuzz_frames.py): exceptions and
  false accepts must be 0;
- a relay corrupting bytes in both directions (1e-3 and 1e-2 per byte) for 100 throws: every
  cube event exactly once, throws run by the board = throws asked, cubes conserved;
- cable pulls and board resets at random moments in bot games: nothing lost or doubled, and the
  engine's tower equals the simulated one;
- forged and stray frames (ACKs naming events not sent or another boot, commands numbered far
  outside the window or reusing a number, unknown types) and bursts of commands at full speed,
  one a throw: every event once, every throw run once, no reset;
- `led_read` of 60 LEDs on the 64K board run from ROMFS: answered, no reset;
- SIGKILLs of `shogun-tower play` at random moments, each resumed: the journal written before
  the kill replays (`replay --json`) byte for byte the same inside the resumed game's journal.

Full sizes here (`make bench`); `tests/host/test_link_faults.py` runs a short seeded slice of
each. FAULTS_SCALE=0.1 runs a tenth of everything.
"""

from __future__ import annotations

import collections
import json
import os
import pathlib
import random
import signal
import struct
import subprocess
import sys
import tempfile
import threading
import time

from shogun_common import protocol as P
from shogun_tower.device.fault_relay import CorruptingRelay, FaultyLink
from shogun_tower.device.link import DeviceLink, Refused
from shogun_tower.device.throws import collect_throw
from shogun_tower.sim_device import SimulatedTower, micropython_executable, repo_root

HERE = pathlib.Path(__file__).parent
ROOT = repo_root()
FAST_OUTLET = ["--gap-ms", "3", "12"]
_CLI = str(pathlib.Path(sys.executable).parent / "shogun-tower")


# ---- fuzzed frames ------------------------------------------------------------------------------
def fuzz(n: int, seed: int, interpreter: str) -> dict:
    """fuzz_frames.py on one interpreter."""
    env = dict(os.environ)
    if interpreter == "micropython":
        env["MICROPYPATH"] = os.pathsep.join(
            [str(ROOT / "firmware"), str(ROOT / "common"), ".frozen"])
        cmd = [micropython_executable(), "-X", "heapsize=512K"]
    else:
        cmd = [sys.executable]
    t0 = time.monotonic()
    proc = subprocess.run([*cmd, str(HERE / "fuzz_frames.py"), str(n), str(seed)],
                          capture_output=True, text=True, env=env, cwd=ROOT, check=False)
    if proc.returncode != 0:
        raise RuntimeError(f"fuzz_frames.py on {interpreter}: {proc.stderr.strip()}")
    out = json.loads(proc.stdout.strip().splitlines()[-1])
    out["wall_s"] = time.monotonic() - t0
    return out


# ---- the corrupting relay -----------------------------------------------------------------------
def _counts(rng: random.Random) -> dict[str, int]:
    colours = ("black", "red", "yellow", "purple", "blue", "green")
    out: dict[str, int] = collections.Counter()
    for _ in range(1 + rng.randrange(14)):
        out[rng.choice(colours)] += 1
    return dict(out)


def relay_campaign(throws: int, p: float, seed: int) -> dict:
    """``throws`` simulated throws through a relay that corrupts each byte with probability
    ``p`` both ways."""
    rng = random.Random(seed)
    with SimulatedTower(seed=seed, options=FAST_OUTLET) as sim, \
            CorruptingRelay(sim.port, p, p, seed=seed) as relay:
        link = DeviceLink(relay.port, timeout=0.3, retries=12)
        try:
            link.handshake(10)
            run0 = link.sim_throws_run()
            before = link.sim_tower()
            thrown: collections.Counter[str] = collections.Counter()
            numbers: list[int] = []
            out: collections.Counter[str] = collections.Counter()
            t0 = time.monotonic()
            for _ in range(throws):
                counts = _counts(rng)
                link.sim_throw(counts)
                thrown.update(counts)
                throw = collect_throw(link, quiet_s=1.0, first_cube_timeout=2.0)
                numbers += [c["cube_no"] for c in throw.cubes]
                out.update(c["colour"] for c in throw.cubes)
            elapsed = time.monotonic() - t0
            time.sleep(1.0)  # stragglers
            while not link.events.empty():
                ev = link.events.get_nowait()
                if ev.kind == "cube":
                    numbers.append(ev.data["cube_no"])
                    out[ev.data["colour"]] += 1
            runs = link.sim_throws_run() - run0
            after = link.sim_tower()
            device_cubes = link.status()["cubes"]
        finally:
            link.close()
    conserved = all(before[c] + thrown[c] == after[c] + out[c] for c in before)
    return {"p": p, "throws_asked": throws, "throws_run": runs, "cubes": len(numbers),
            "device_cubes": device_cubes,
            "exactly_once": numbers == list(range(1, device_cubes + 1)),
            "unknown": out["unknown"], "conserved": conserved or out["unknown"] > 0,
            "corrupted_bytes": relay.corrupted["up"] + relay.corrupted["down"],
            "late_replies": link.late_replies, "bad_events": link.bad_events,
            "elapsed_s": elapsed}


# ---- forged and stray frames, far numbers, bursts ---------------------------------------------
def _refusal(link: FaultyLink, mtype: int, payload: bytes, seq: int) -> int:
    """The code of the board's refusal of one frame numbered ``seq``; 0 when it was not."""
    try:
        link._exchange(mtype, payload, None, 1.0, seq, 3)
    except Refused as err:
        return err.code
    return 0


def stray_campaign(rounds: int, seed: int) -> dict:
    """``rounds`` simulated throws, each met by one stray or forged frame picked by ``seed``:
    an ACK naming events not sent (up to 30000 ahead) while the throw's events are held back,
    an ACK of another boot, a command numbered far ahead or far behind the session's window, a
    number used again for another command, unknown types with random numbers, and a burst of
    64 pings written at once at full speed (115200 baud delivers 11.5 KB/s; a pty more). After
    each: every event exactly once, every throw run once, the board not reset, the next
    command answered."""
    rng = random.Random(seed)
    cases = ("ack_ahead", "ack_sent", "ack_other_boot", "far_ahead", "far_behind", "reused",
             "unknown", "burst")
    done: collections.Counter[str] = collections.Counter()
    problems: list[str] = []
    with SimulatedTower(seed=seed, options=FAST_OUTLET) as sim:
        link = FaultyLink(sim.port, timeout=0.5, retries=6)
        try:
            link.handshake(10)
            boot = link.boot_id
            run0 = link.sim_throws_run()
            numbers: list[int] = []
            lost: list[tuple[int, int]] = []  # events the host said were lost (first, last)
            start = link.status()["cubes"]
            for k in range(rounds):
                case = cases[k % len(cases)] if k < len(cases) else rng.choice(cases)
                counts = _counts(rng)
                said_before = len(lost)
                hw_before = link.status()["hw_count"]
                if case in ("ack_ahead", "ack_sent"):
                    assert link.inbox is not None
                    expected = link.inbox.expected
                    link.drop_incoming_events = 10 ** 6  # the throw's events held back
                    link.sim_throw(counts)
                    time.sleep(0.4)
                    # beyond every event sent (a throw is at most 15): refused, nothing lost;
                    # or events sent and never received: dropped, their loss said by the host
                    ahead = rng.choice((31, 200, 30000) if case == "ack_ahead" else (0, 1, 3))
                    link._send(P.ACK, P.pack_ack((expected + ahead) & 0xFFFF, link.boot_id))
                    time.sleep(0.2)
                    link.drop_incoming_events = 0
                elif case == "ack_other_boot":
                    link._send(P.ACK, P.pack_ack(rng.randrange(1 << 16),
                                                 (link.boot_id or 0) ^ 0x5A5A5A5A))
                    link.sim_throw(counts)
                else:
                    top = link._seq
                    if case == "far_ahead":
                        code = _refusal(link, P.SIM_LOAD, bytes(6),
                                        (top + rng.randrange(257, 32768)) & 0xFFFF)
                        ok = code == P.E_AHEAD
                    elif case == "far_behind":
                        code = _refusal(link, P.SIM_LOAD, bytes(6),
                                        (top - rng.randrange(256, 32769)) & 0xFFFF)
                        ok = code == P.E_STALE
                    elif case == "reused":
                        code = _refusal(link, P.SIM_THROW, bytes((0, 0, 0, 0, 0, 1)), top)
                        ok = code in (P.E_REUSED, P.E_STALE)  # (top: the last, maybe unkept)
                    elif case == "unknown":
                        code = _refusal(link, rng.randrange(0x24, 0x80), bytes(
                            rng.randrange(256) for _ in range(rng.randrange(8))),
                            rng.randrange(1 << 16))
                        ok = code in (P.E_UNKNOWN_TYPE, P.E_AHEAD, P.E_STALE)
                    else:  # burst
                        first = (top + 1) & 0xFFFF
                        link._seq = (first + 63) & 0xFFFF
                        with link._write_lock:
                            link.port.write(b"".join(P.encode_frame(
                                P.PING, (first + i) & 0xFFFF, struct.pack("<I", i))
                                for i in range(64)))
                        time.sleep(1.0)
                        code, ok = 0, True
                    if not ok:
                        problems.append(f"round {k} {case}: refusal code {code}")
                    link.sim_throw(counts)
                done[case] += 1
                throw = collect_throw(link, quiet_s=2.0, first_cube_timeout=3.0)
                numbers += [c["cube_no"] for c in throw.cubes]
                lost += [e["lost"] for e in throw.errors if "lost" in e]
                # (a throw from which no cube fell has no end: the hardware count says so)
                fell = link.status()["hw_count"] != hw_before
                if fell and not throw.device_throw_ends and len(lost) == said_before:
                    problems.append(f"round {k} {case}: the throw's end never came, unsaid")
                if len(lost) > said_before and case != "ack_sent":
                    problems.append(f"round {k} {case}: events lost {lost[said_before:]}")
            time.sleep(0.5)
            while not link.events.empty():
                ev = link.events.get_nowait()
                if ev.kind == "cube":
                    numbers.append(ev.data["cube_no"])
                elif ev.kind == "error" and "lost" in ev.data:
                    lost.append(ev.data["lost"])
                elif ev.kind == "error":
                    problems.append(f"error event: {ev.data}")
            runs = link.sim_throws_run() - run0
            device = link.status()["cubes"]
            if runs != rounds:
                problems.append(f"throws asked {rounds}, run {runs}")
            # every cube once, in order; those missing only where the host said events were
            # lost (a forged ACK of events sent and not received: no board can tell)
            said = sum((b - a) % 65536 + 1 for a, b in lost)
            missing = (device - start) - len(set(numbers))
            if numbers != sorted(set(numbers)) or not 0 <= missing <= said or (
                    missing and not done["ack_sent"]):
                problems.append(f"cube events: {len(numbers)} of {device - start}, "
                                f"{said} events said lost")
            if link.boot_id != boot or sim.resets:
                problems.append("the board restarted")
        finally:
            link.close()
    return {"rounds": rounds, "cases": dict(done), "cubes": len(numbers), "runs": runs,
            "missing": missing, "said_lost": said, "problems": problems}


def led_read_64k(requests: int, seed: int) -> dict:
    """``requests`` rounds of led_read of 60 LEDs (the documented maximum, what
    read_led_frame asks) and status on the 64K board run from ROMFS, as a real one runs."""
    from shogun_tower.device.romfs import build_image
    from shogun_tower.sim_device import firmware_dir

    source = firmware_dir()
    with tempfile.TemporaryDirectory() as tmp:
        image = build_image(pathlib.Path(tmp) / "fw.romfs", source, source.parent / "common")
        with SimulatedTower(seed=seed, heapsize="64K", romfs=image,
                            options=["--faithful", "--late-p", "0", *FAST_OUTLET]) as sim:
            link = DeviceLink(sim.port)
            answered = 0
            try:
                link.handshake(20)
                boot = link.boot_id
                for _ in range(requests):
                    if len(link.request(P.LED_READ, struct.pack("<HH", 0, 60),
                                        expect=P.LED_DATA)) == 184:
                        answered += 1
                    link.status()
                same_boot = link.boot_id == boot
            finally:
                link.close()
            resets = sim.resets
    return {"requests": requests, "answered": answered, "resets": resets,
            "same_boot": same_boot}


# ---- cable pulls and board resets in bot games -------------------------------------------------
class _Enough(Exception):
    pass


def disruption_campaign(pulls: int, resets: int, seed: int,
                        throws_per_game: int | None = None) -> dict:
    """Bot games on the simulated tower, the cable pulled and the board reset at random moments
    (during throws and between them) until ``pulls`` and ``resets`` happened. With
    ``throws_per_game`` a game is checked and left after that many throws (a short slice)."""
    import io

    from shogun_tower.device.tower import DeviceTower
    from shogun_tower.games.shogun.journal import Journal
    from shogun_tower.games.shogun.rules import Game
    from shogun_tower.table.conductor import TableGame
    from shogun_tower.table.console import Console
    from shogun_tower.table.seats import BotSeat

    rng = random.Random(seed)
    done = {"pulls": 0, "resets": 0}
    games = throws = cubes = 0
    problems: list[str] = []
    while done["pulls"] < pulls or done["resets"] < resets:
        game_seed = rng.randrange(1 << 30)
        with SimulatedTower(seed=game_seed, options=FAST_OUTLET) as sim:
            link = DeviceLink(sim.port)
            link.handshake(10)
            tower = DeviceTower(link)
            game = Game.create(3, seed=game_seed)
            seats = {pl: BotSeat("heuristic", i) for i, pl in enumerate(game.players)}
            table = TableGame(Journal.new(game), seats, tower, Console(out=io.StringIO()),
                              link=link)
            real_throw = tower.throw

            in_throw = threading.Event()
            strikes: list[threading.Thread] = []
            struck: set[int] = set()  # throws already struck: their re-throw runs in peace

            def disrupted_throw(cubes_in: dict[str, int], sim: SimulatedTower = sim,
                                link: DeviceLink = link, real=real_throw,
                                in_throw: threading.Event = in_throw,
                                strikes: list[threading.Thread] = strikes,
                                struck: set[int] = struck,
                                table: TableGame = table) -> dict[str, int]:
                # (the conductor throws again after a reset: up to 3 times, then it gives up)
                fresh = len(table.record.throws) not in struck
                want_pull = fresh and done["pulls"] < pulls and rng.random() < 0.5
                want_reset = fresh and done["resets"] < resets and rng.random() < 0.5
                if want_pull or want_reset:
                    struck.add(len(table.record.throws))
                delay = rng.uniform(0.0, 0.8)

                def strike() -> None:
                    time.sleep(delay)
                    if not in_throw.is_set():
                        return  # the throw is over: only moments inside a throw count
                    if want_pull:
                        try:
                            link.port.close()
                        except (TypeError, OSError):
                            pass  # the link's reader closed it at that moment: pulled all the same
                        done["pulls"] += 1
                    elif want_reset:
                        sim.reset()
                        done["resets"] += 1

                if want_pull or want_reset:
                    strikes.append(threading.Thread(target=strike, daemon=True))
                    strikes[-1].start()
                in_throw.set()
                try:
                    return real(cubes_in)
                finally:
                    in_throw.clear()

            def enough(t: TableGame) -> None:
                if throws_per_game is not None and len(t.record.throws) >= throws_per_game:
                    raise _Enough

            tower.throw = disrupted_throw
            table.on_progress = enough
            try:
                state = table.run()
            except _Enough:
                state = None
            except Exception as err:  # noqa: BLE001 - a campaign counts, it does not stop
                problems.append(f"game {game_seed}: {type(err).__name__}: {err}")
                link.close()
                continue
            finally:
                for thread in strikes:
                    thread.join()
            time.sleep(0.3)
            games += 1
            throws += len(table.record.throws)
            cubes += table.record.cubes_applied
            if state is not None and state.result is None:
                problems.append(f"game {game_seed}: no result")
            if table.tower_agrees() is not True:
                problems.append(f"game {game_seed}: the engine's tower is not the simulated one")
            if tower.cubes_counted != table.record.cubes_applied:
                problems.append(f"game {game_seed}: {tower.cubes_counted} cubes counted, "
                                f"{table.record.cubes_applied} applied")
            link.close()
    return {"games": games, "throws": throws, "cubes": cubes, **done, "problems": problems}


# ---- host kills --------------------------------------------------------------------------------
def _replay(journal: pathlib.Path) -> str:
    proc = subprocess.run([_CLI, "replay", "--json",
                           str(journal)], capture_output=True, text=True, check=False)
    if proc.returncode != 0:
        raise RuntimeError(f"replay --json {journal}: {proc.stderr.strip()}")
    return proc.stdout


def kill_campaign(kills: int, seed: int, players: int = 3) -> dict:
    """`shogun-tower play` (bots, simulated tower) killed with SIGKILL at random moments and
    resumed each time. After each kill the journal's replay is kept; the resumed game's journal
    must start with the same lines and replay them to the same bytes."""
    rng = random.Random(seed)
    work = pathlib.Path(tempfile.mkdtemp(prefix="shogun-kills-"))
    checked = identical = games = 0
    problems: list[str] = []
    snapshots: list[tuple[int, str]] = []
    journal = work / "game.jsonl"
    base = [_CLI, "play"]
    fresh = [*base, "--players", str(players), "--bots", "all", "--seed", str(seed),
             "--journal", str(journal), "--no-page", "--no-clear"]
    resume = [*base, "--resume", str(journal), "--no-page", "--no-clear"]
    done = 0
    while done < kills:
        cmd = fresh if not journal.exists() else resume
        proc = subprocess.Popen(cmd, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                stderr=subprocess.PIPE, start_new_session=True)
        try:
            proc.wait(timeout=rng.uniform(1.5, 6.0))
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)  # the host and its simulated board with it
            proc.wait()
            done += 1
            if journal.exists():
                lines = journal.read_bytes().split(b"\n")
                whole = [ln for ln in lines[:-1]]  # a torn last line is not part of the game
                part = work / f"kill{done}.jsonl"
                part.write_bytes(b"\n".join(whole) + b"\n")
                try:
                    snapshots.append((len(whole), _replay(part)))
                except RuntimeError as err:
                    problems.append(f"kill {done}: {err}")
            continue
        err = proc.stderr.read().decode(errors="replace") if proc.stderr else ""
        if proc.returncode != 0:
            problems.append(f"play exited {proc.returncode}: {err.strip()[-300:]}")
            break
        # the game ended: check every snapshot against the finished journal, start another
        games += 1
        final = journal.read_bytes().split(b"\n")
        checked += len(snapshots)
        identical += _replays_identical(final, snapshots, work, problems)
        snapshots = []
        journal.rename(work / f"game{games}.jsonl")
    # the game in progress: its snapshots against the journal so far
    if journal.exists():
        final = journal.read_bytes().split(b"\n")
        checked += len(snapshots)
        identical += _replays_identical(final, snapshots, work, problems)
    return {"kills": done, "games_finished": games, "snapshots_checked": checked,
            "identical": identical, "problems": problems}


def _replays_identical(final: list[bytes], snapshots: list, work: pathlib.Path,
                       problems: list[str]) -> int:
    """How many of the snapshots (lines kept, `replay --json` seen after the resume) the
    journal's first lines replay to byte for byte; the others go into ``problems``."""
    identical = 0
    for n, replayed in snapshots:
        part = work / "prefix.jsonl"
        part.write_bytes(b"\n".join(final[:n]) + b"\n")
        if _replay(part) == replayed:
            identical += 1
        else:
            problems.append(f"the first {n} lines replay differently after the resume")
    return identical


# ---- the table ---------------------------------------------------------------------------------
def _table(title: str, rows: list[tuple[str, str, str]]) -> None:
    width = max(len(r[0]) for r in rows)
    print(f"\n{title}")
    print(f"{'measure':<{width}}  {'value':>14}  target")
    for name, value, target in rows:
        print(f"{name:<{width}}  {value:>14}  {target}")


def main() -> int:
    scale = float(os.environ.get("FAULTS_SCALE", "1"))
    ok = True
    frames = int(1_000_000 * scale)
    for interp in ("cpython", "micropython"):
        f = fuzz(frames, 11, interp)
        ok &= f["exceptions"] == 0 and f["false_accepts"] == 0 and f["reader_ok_after"]
        _table(f"fuzzed frames on {interp}", [
            ("frames", f"{f['frames']}", "10^6"),
            ("damaged on the way", f"{f['damaged']}", ""),
            ("delivered whole", f"{f['delivered']}", ""),
            ("false accepts", f"{f['false_accepts']}", "0"),
            ("exceptions", f"{f['exceptions']}", "0"),
            ("answered by the receiver", f"{f['answered']}", ""),
            ("wall time", f"{f['wall_s']:.0f} s", ""),
        ])
    throws = max(1, int(100 * scale))
    for p in (1e-3, 1e-2):
        r = relay_campaign(throws, p, seed=5)
        ok &= (r["throws_run"] == r["throws_asked"] and r["exactly_once"] and r["conserved"])
        _table(f"corrupting relay, {p:g} per byte both ways", [
            ("throws asked / run", f"{r['throws_asked']} / {r['throws_run']}", "equal"),
            ("cube events received", f"{r['cubes']}", f"= {r['device_cubes']} (board)"),
            ("each exactly once, in order", str(r["exactly_once"]), "True"),
            ("cubes conserved per colour", str(r["conserved"]), "True"),
            ("bytes corrupted", f"{r['corrupted_bytes']}", ""),
            ("late replies dropped", f"{r['late_replies']}", ""),
            ("time", f"{r['elapsed_s']:.0f} s", ""),
        ])
    rounds = max(7, int(100 * scale))
    st = stray_campaign(rounds, seed=13)
    ok &= not st["problems"]
    _table("forged and stray frames, far numbers, bursts (one a throw)", [
        ("throws, each met by one", f"{st['rounds']}", ""),
        *((f"  {case}", f"{n}", "") for case, n in sorted(st["cases"].items())),
        ("throws run by the board", f"{st['runs']}", f"{st['rounds']}"),
        ("cube events, each once, in order", f"{st['cubes']}", ""),
        ("cubes missing / events said lost (ack_sent)", f"{st['missing']} / {st['said_lost']}",
         "missing <= said"),
        ("problems", f"{len(st['problems'])}", "0"),
    ])
    for problem in st["problems"][:5]:
        print("  ", problem)
    reads = max(10, int(200 * scale))
    lr = led_read_64k(reads, seed=5)
    ok &= lr["answered"] == reads and lr["resets"] == 0 and lr["same_boot"]
    _table("led_read of 60 LEDs on the 64K ROMFS board", [
        ("requests (and a status each)", f"{lr['requests']}", ""),
        ("answered with 60 LEDs", f"{lr['answered']}", f"{reads}"),
        ("board resets", f"{lr['resets']}", "0"),
    ])
    n = max(1, int(100 * scale))
    d = disruption_campaign(n, n, seed=3)
    ok &= not d["problems"]
    _table("cable pulls and board resets in bot games", [
        ("cable pulls", f"{d['pulls']}", f">= {n}"),
        ("board resets", f"{d['resets']}", f">= {n}"),
        ("games / throws / cubes", f"{d['games']} / {d['throws']} / {d['cubes']}", ""),
        ("games with a problem", f"{len(d['problems'])}", "0"),
    ])
    for problem in d["problems"][:5]:
        print("  ", problem)
    k = kill_campaign(n, seed=7)
    ok &= not k["problems"] and k["identical"] == k["snapshots_checked"]
    _table("host SIGKILLs, each resumed", [
        ("kills", f"{k['kills']}", f"{n}"),
        ("games finished", f"{k['games_finished']}", ""),
        ("replays byte-identical", f"{k['identical']} / {k['snapshots_checked']}", "all"),
        ("problems", f"{len(k['problems'])}", "0"),
    ])
    for problem in k["problems"][:5]:
        print("  ", problem)
    print("targets met" if ok else "TARGETS MISSED")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
