"""`make bench`: runs every bench/bench_*.py in turn; each prints its own table of results. The
one-line summaries are repeated at the end."""

from __future__ import annotations

import pathlib
import subprocess
import sys

SUMMARY_PREFIXES = ("step counts:",
                    "conservation after every command in",
                    "shogun2 alpha-beta against random:",
                    "exact odds:")


def main() -> int:
    here = pathlib.Path(__file__).parent
    failed = []
    summaries = []
    for script in sorted(here.glob("bench_*.py")):
        print(f"\n== {script.stem} ==", flush=True)
        with subprocess.Popen([sys.executable, str(script)], stdout=subprocess.PIPE,
                              text=True, bufsize=1) as proc:
            assert proc.stdout is not None
            for line in proc.stdout:
                print(line, end="", flush=True)
                if line.startswith(SUMMARY_PREFIXES):
                    summaries.append(line.rstrip("\n"))
        if proc.returncode != 0:
            failed.append(script.name)
    if summaries:
        print("\n== summary ==")
        for line in summaries:
            print(line)
    if failed:
        print(f"\nbenchmarks that failed: {', '.join(failed)}")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
