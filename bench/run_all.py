"""`make bench`: runs every bench/bench_*.py in turn; each prints its own table of results."""

from __future__ import annotations

import pathlib
import subprocess
import sys


def main() -> int:
    here = pathlib.Path(__file__).parent
    failed = []
    for script in sorted(here.glob("bench_*.py")):
        print(f"\n== {script.stem} ==", flush=True)
        if subprocess.run([sys.executable, str(script)]).returncode != 0:
            failed.append(script.name)
    if failed:
        print(f"\nbenchmarks that failed: {', '.join(failed)}")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
