"""Link benchmark over the pseudo-terminal: latency (cube detected in the firmware -> event on
the host), throughput (cube events per second without loss), and how fast the board takes in
commands (its digest rate against 115200 baud). Targets: median latency under 20 ms; no loss at
the fastest stream of cubes a tower lets out (fastest_stream: about 100 a second).

Throughput is offered as injected pulses on the upper beam at that rate, not faster: closer
pulses are no cubes (a 1.3 ms block is a cube 2 mm tall at the tower's fastest), and the
firmware is built for the cubes' rate: its capture ring holds the readings of about three cubes
(both beams) between two detector steps, which can be 30 ms apart while a cube waits for its
lower block. At 312 pulses a second, 9 in those 30 ms, the ring overflowed and two pulses came
out as one block: 1 to 13 of 3000 lost in six runs, the more the more loaded the machine.
"""

from __future__ import annotations

import math
import queue
import statistics
import struct
import sys
import time

from shogun_common import protocol as P
from shogun_tower.device.link import DeviceLink
from shogun_tower.sim_device import SimulatedTower, repo_root

sys.path.insert(0, str(repo_root() / "hardware"))
import geometry  # noqa: E402 - hardware/geometry.py, the outlet's one model

TICKS_PERIOD_US = 1 << 30  # MicroPython's ticks_us wraps here on the unix port


def _wrap(d: int) -> int:
    d %= TICKS_PERIOD_US
    return d - TICKS_PERIOD_US if d >= TICKS_PERIOD_US // 2 else d


def clock_offset(link: DeviceLink, rounds: int = 30) -> int:
    """Device clock minus host clock (µs), from the ping with the shortest round trip."""
    best = None
    for _ in range(rounds):
        t0 = time.monotonic()
        rtt, device_us = link.ping()
        mid_host_us = int((t0 + rtt / 2) * 1e6)
        if best is None or rtt < best[0]:
            best = (rtt, _wrap(device_us - mid_host_us))
    assert best is not None
    return best[1]


def collect(link: DeviceLink, n: int, timeout: float,
            folded: list[int] | None = None) -> list[tuple[dict, float]]:
    """Cube events until ``n`` came. A summary (the board's outbox was full: a host too slow to
    acknowledge) stands for the cubes it numbers; they go to ``folded``, not to the result."""
    got = []
    deadline = time.monotonic() + timeout
    while len(got) + len(folded or ()) < n and time.monotonic() < deadline:
        try:
            event = link.events.get(timeout=0.5)
        except queue.Empty:
            continue
        if event.kind == "cube":
            got.append((event.data, event.received))
        elif event.kind == "summary" and folded is not None and event.data["first_cube"]:
            folded.extend(range(event.data["first_cube"], event.data["last_cube"] + 1))
    return got


def connect(sim: SimulatedTower) -> DeviceLink:
    link = DeviceLink(sim.port)
    link.handshake()
    return link


def latency(n: int = 300, chunk: int = 30) -> dict:
    """From the beam clearing to the cube's event on the host. Most of it is the detector's own
    wait, not the link's: it emits a cube once a colour sample has ended past the cube's view of
    the window (docs/firmware.md, Detection): for these 7 ms pulses, a median 14.8 ms of one
    run's 18.3, the link 3.6 (the emit time logged in the firmware, that once).

    The simulated board's clock does not live the time its process is held up beyond 10 ms
    (boards/sim.py, _STALL_US): after such a stall the host's clock offset no longer holds, and
    every latency after it comes out high by the time lost (seconds on a loaded machine). So
    the pulses go ``chunk`` at a time, the offset taken before and after each, and a chunk
    whose offset moved by more than a millisecond is left out and counted."""
    lat_ms: list[float] = []
    slipped = 0
    with SimulatedTower(seed=1) as sim:
        link = connect(sim)
        offset = clock_offset(link)
        for _ in range(n // chunk):
            link.inject(chunk, block_us=7000, gap_us=15000)
            events = collect(link, chunk, timeout=30)
            before, offset = offset, clock_offset(link)
            if abs(before - offset) > 1000:
                slipped += len(events)
                continue
            for data, received in events:
                detected_device_us = data["t_us"] + data["block_us"]  # the beam clears: a cube
                received_device_us = int(received * 1e6) + before
                lat_ms.append(_wrap(received_device_us - detected_device_us) / 1000)
        link.close()
    if not lat_ms:
        return {"cubes": 0, "slipped": slipped, "median_ms": math.inf, "p95_ms": math.inf,
                "max_ms": math.inf}
    return {"cubes": len(lat_ms), "slipped": slipped, "median_ms": statistics.median(lat_ms),
            "p95_ms": sorted(lat_ms)[int(0.95 * len(lat_ms)) - 1], "max_ms": max(lat_ms)}


def fastest_stream() -> tuple[int, int]:
    """(block us, gap us) of the fastest stream of cubes the outlet lets out, as the upper
    beam's receiver shows it: the smallest flat cube (edge less tolerance) at the top of the
    exit speed range, in free fall past the beam, each one the shortest gap (cube_gap_min)
    behind the one before; the receiver lengthens a block by its rise delay less its fall delay
    (the least of it: the shortest block) and shortens the gap by as much. All from
    hardware/geometry.json through hardware/geometry.py's free fall."""
    geo = geometry.load()
    upper = geo.num("beam_upper_drop")
    extent = geo.num("cube_edge") - geo.num("cube_tolerance")
    v0 = geo.range("exit_speed")[1]
    dark_s = geometry.fall_time(geo, upper + extent, v0) - geometry.fall_time(geo, upper, v0)
    lag_ms = geo.range("receiver_rise_delay")[0] - geo.range("receiver_fall_delay")[1]
    block_us = round((dark_s * 1000 + lag_ms) * 1000)
    gap_us = round((geo.num("cube_gap_min") - lag_ms) * 1000)
    return block_us, gap_us


def throughput(n: int = 3000, stream: tuple[int, int] | None = None) -> dict:
    block_us, gap_us = stream or fastest_stream()
    with SimulatedTower(seed=2) as sim:
        link = connect(sim)
        before = link.status()["cubes"]
        t0 = time.monotonic()
        link.inject(n, block_us=block_us, gap_us=gap_us)
        folded: list[int] = []
        events = collect(link, n, timeout=60, folded=folded)
        elapsed = events[-1][1] - t0 if events else float("inf")
        arrived = [d["cube_no"] for d, _ in events]
        numbers = sorted(arrived + folded)
        time.sleep(0.6)
        status = link.status()
        link.close()
    offered = 1e6 / (block_us + gap_us)
    lost = n - len(set(numbers))
    return {"offered_per_s": offered, "block_us": block_us, "gap_us": gap_us,
            "received": len(numbers), "lost": lost,
            "folded": len(folded),
            "duplicates": len(numbers) - len(set(numbers)),
            "in_order": numbers == list(range(before + 1, before + 1 + len(numbers)))
            and all(a < b for a, b in zip(arrived, arrived[1:], strict=False)),
            "rate_per_s": len(numbers) / elapsed, "hw_count": status["hw_count"]}


def digest(frames: int = 400) -> dict:
    """How fast the board takes in commands: ``frames`` command frames written at once (a pty
    has no baud rate: the board's own pace is measured), every reply awaited. Pings (14-byte
    frames) and the longest `segments` (110 bytes), in bytes of frames a second; the ESP32's
    115200 baud delivers 11 520 B/s. (What the host's one command in flight makes of it:
    ``stop_and_wait``, requests a second through DeviceLink.)"""
    out: dict = {}
    with SimulatedTower(seed=3) as sim:
        link = connect(sim)
        port = link.port
        runs = [(P.PING, lambda i: struct.pack("<I", i)),
                (P.SEGMENTS, lambda i: P.pack_segments([(3 * k, 3, (i + k) % 8)
                                                        for k in range(25)]))]
        for mtype, payload in runs:
            seq = link._new_seq()  # (numbers of the link's session: in its window)
            link._forget(seq)
            first = (seq + 1) & 0xFFFF
            wire = b"".join(P.encode_frame(mtype, (first + i) & 0xFFFF, payload(i))
                            for i in range(frames))
            link._seq = (first + frames - 1) & 0xFFFF
            with link._reply_cv:
                link._awaiting.update((first + i) & 0xFFFF for i in range(frames))
            t0 = time.monotonic()
            with link._write_lock:
                port.write(wire)
            deadline = t0 + 60
            with link._reply_cv:
                while len(link._replies) < frames and time.monotonic() < deadline:
                    link._reply_cv.wait(0.1)
                elapsed = time.monotonic() - t0
                answered = len(link._replies)
                link._replies.clear()
                link._awaiting.clear()
            out[P.NAMES[mtype]] = {"frames": answered, "frame_bytes": len(wire) // frames,
                                   "bytes_per_s": answered * len(wire) / frames / elapsed}
        t0 = time.monotonic()
        for _ in range(200):
            link.ping()
        out["stop_and_wait_per_s"] = 200 / (time.monotonic() - t0)
        link.close()
    return out


def main() -> int:
    lat = latency()
    thr = throughput()
    dig = digest()
    rows = [
        ("latency: cubes measured", f"{lat['cubes']}", ">= 150 of 300"),
        ("latency: median (beam clears -> host)", f"{lat['median_ms']:.1f} ms", "< 20 ms"),
        ("latency: 95th percentile", f"{lat['p95_ms']:.1f} ms", ""),
        ("latency: max", f"{lat['max_ms']:.1f} ms", ""),
        ("latency: cubes left out (this machine stalled the board)", f"{lat['slipped']}", ""),
        ("throughput: offered (pulses: block / gap)",
         f"{thr['block_us'] / 1000:.2f} / {thr['gap_us'] / 1000:.2f} ms", ""),
        ("throughput: offered", f"{thr['offered_per_s']:.0f} cubes/s",
         "the tower's fastest (hardware/geometry.json)"),
        ("throughput: delivered", f"{thr['rate_per_s']:.0f} cubes/s", ""),
        ("throughput: events received", f"{thr['received']}", "3000"),
        ("throughput: lost / duplicated", f"{thr['lost']} / {thr['duplicates']}", "0 / 0"),
        ("throughput: counted in summaries", f"{thr['folded']}", "0 (host kept up)"),
        ("throughput: in order", str(thr["in_order"]), "True"),
        ("throughput: hardware count", f"{thr['hw_count']}", "3000"),
        *((f"digest: {name} ({d['frame_bytes']}-byte frames, {d['frames']} at once)",
           f"{d['bytes_per_s']:.0f} B/s", "115200 baud: 11520 B/s")
          for name, d in dig.items() if isinstance(d, dict)),
        ("digest: one command in flight (pings)", f"{dig['stop_and_wait_per_s']:.0f} /s", ""),
    ]
    width = max(len(r[0]) for r in rows)
    print(f"{'measure':<{width}}  {'value':>16}  target")
    for name, value, target in rows:
        print(f"{name:<{width}}  {value:>16}  {target}")
    ok = (lat["cubes"] >= 150 and lat["median_ms"] < 20 and thr["lost"] == 0
          and thr["duplicates"] == 0 and thr["in_order"])
    print("targets met" if ok else "TARGETS MISSED")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
