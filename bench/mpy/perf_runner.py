# MicroPython side of bench/calibrate_r.py: time one benchmark on this interpreter in CPU time.
#   micropython perf_runner.py perf_bench DIR NAME N M MIN_CPU_S
#       a module of MicroPython's tests/perf_bench (extracted from a mirror into DIR, never kept
#       in this repository), with the parameters its own runner would pick for N MHz and M KB;
#   micropython perf_runner.py perf_count DIR NAME N M RUNS
#       the same module run exactly RUNS times, untimed (for an instruction count);
#   micropython perf_runner.py asyncio_rate TASKS RESUMES
#       our own kernel: TASKS tasks that each loop on `await asyncio.sleep_ms(0)` and count.
# time.clock() is the process's CPU time on the unix port (1 ms steps): every run is timed and
# the sums are long (>= MIN_CPU_S), so the rounding of each reading averages out.
import json
import sys
import time


def _params(table, n, m):
    # The parameter set MicroPython's runner picks: the largest (n, m) key that the target's
    # speed (n MHz, with 20 % slack) and heap (m KB) allow.
    best = None
    for nm in table:
        if 10 * nm[0] <= 12 * n and nm[1] <= m and (best is None or nm > best):
            best = nm
    return None if best is None else table[best]


def _load(folder, name, n, m):
    sys.path.insert(0, folder)
    mod = __import__(name)
    return mod, _params(mod.bm_params, n, m)


def perf_bench(folder, name, n, m, min_cpu):
    mod, param = _load(folder, name, n, m)
    if param is None:
        return {"error": "no parameters for N=" + str(n) + " M=" + str(m)}
    total = 0.0
    runs = 0
    norm = None
    result = None
    while total < min_cpu or runs < 3:
        run, get = mod.bm_setup(param)
        t0 = time.clock()
        run()
        total += time.clock() - t0
        runs += 1
        norm, out = get()
        if result is None:
            result = out
        elif out != result:
            return {"error": "results differ between runs"}
    us = total * 1e6 / runs
    return {"runs": runs, "cpu_us": us, "norm": norm, "score": 1e6 * norm / us}


def perf_count(folder, name, n, m, runs):
    # For an instruction count (bench/instructions.py): exactly ``runs`` runs, untimed; the
    # count of 0 runs (the import and this interpreter's start) is taken from it.
    mod, param = _load(folder, name, n, m)
    if param is None:
        return {"error": "no parameters for N=" + str(n) + " M=" + str(m)}
    norm = None
    for _ in range(runs):
        run, get = mod.bm_setup(param)
        run()
        norm = get()[0]
    return {"runs": runs, "norm": norm}


def asyncio_rate(tasks, resumes):
    import asyncio

    state = [0]

    async def minimal():
        while True:
            await asyncio.sleep_ms(0)
            state[0] += 1

    async def main():
        for _ in range(tasks):
            asyncio.create_task(minimal())
        t0 = time.clock()
        while state[0] < resumes:
            await asyncio.sleep_ms(0)
        return time.clock() - t0, state[0]

    cpu, done = asyncio.run(main())
    return {"cpu_us": cpu * 1e6, "resumes": done, "us_per_resume": cpu * 1e6 / done}


def _main(argv):
    if argv[1] == "perf_bench":
        out = perf_bench(argv[2], argv[3], int(argv[4]), int(argv[5]), float(argv[6]))
    elif argv[1] == "perf_count":
        out = perf_count(argv[2], argv[3], int(argv[4]), int(argv[5]), int(argv[6]))
    elif argv[1] == "asyncio_rate":
        out = asyncio_rate(int(argv[2]), int(argv[3]))
    else:
        raise SystemExit("perf_runner: unknown kind " + argv[1])
    print(json.dumps(out))


_main(sys.argv)
