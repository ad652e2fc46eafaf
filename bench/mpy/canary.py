# A fixed piece of bytecode work that every bench process times beside what it measures
# (bench_cpu.py: perf_runner.py's benchmark processes, cpu_worst.py's replays). This machine's
# speed drifts by tens of percent within minutes; the canary's least time in a process says how
# fast the machine was for it, so R (measured in one process) and the firmware's steps
# (measured in another, a minute later) can be put on the same footing.
_N = 40000
_RUNS = 7


def _work(n):
    x = 0
    t = [0] * 8
    for i in range(n):
        x = (x * 31 + i) & 0xFFFF
        t[i & 7] += x
    return x + t[3]


def least_us():
    """The least time of a few runs of the work, in us (wall time: the least of several runs
    is one the rest of the machine did not hold up, and time.clock has 1 ms steps)."""
    import time

    best = None
    for _ in range(_RUNS):
        t0 = time.time_ns()
        _work(_N)
        dt = time.time_ns() - t0
        if best is None or dt < best:
            best = dt
    return best / 1000
