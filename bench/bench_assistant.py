"""The assistant's reaction time: from the end of a throw (the tower's quiet window closed) to
the verdict applied by the rules, shown on the LED strip and drawn on the board page in a real
browser (headless Chromium).

The LEDs are timed as the strip took its frame: the firmware acknowledges the scores in the
step after their command and its score track renders and writes them in the steps after that,
so the acknowledgement is not the light. After each push of new scores a thread of its own asks
the simulated tower (sim_strip_shown) until its strip has taken a frame since the push: the
conductor's own timings are not delayed by it.

One whole bot game on the simulated tower. Target: under 50 ms to the page and the LEDs.
"""

from __future__ import annotations

import io
import pathlib
import queue
import shutil
import statistics
import sys
import tempfile
import threading
import time

from shogun_tower.games.shogun.journal import Journal
from shogun_tower.games.shogun.rules import Game
from shogun_tower.table.conductor import TableGame
from shogun_tower.table.console import Console
from shogun_tower.table.equipment import open_tower
from shogun_tower.table.seats import BotSeat
from shogun_tower.web.server import BoardServer

CHROMIUM = "/usr/bin/chromium"
TARGET_MS = 50.0
# Called by the page whenever it has drawn a view: when, on the wall clock, each version showed.
RECORD_RENDERS = """
window.__renders = {};
new MutationObserver(() => {
  const v = document.body && document.body.dataset.version;
  if (v && !(v in window.__renders)) window.__renders[v] = Date.now();
}).observe(document, {attributes: true, subtree: true, attributeFilter: ["data-version"]});
"""


class StripWatch:
    """When the simulated tower's strip showed each push of new scores: (pushed, shown) wall
    times, shown None when no frame came within two seconds."""

    def __init__(self, link) -> None:
        self.link = link
        self.pushes: queue.Queue[float | None] = queue.Queue()
        self.shown: list[tuple[float, float | None]] = []
        self._thread = threading.Thread(target=self._watch, daemon=True)
        self._thread.start()

    def wrap(self, send):
        def send_and_watch(*args, **kwargs):
            self.pushes.put(time.time())
            return send(*args, **kwargs)

        return send_and_watch

    def close(self) -> None:
        self.pushes.put(None)
        self._thread.join(timeout=5)

    def _watch(self) -> None:
        while (pushed := self.pushes.get()) is not None:
            at = None
            deadline = time.time() + 2.0
            while time.time() < deadline:
                _frames, last = self.link.sim_strip_shown()
                if last >= pushed:
                    at = last
                    break
                time.sleep(0.002)
            self.shown.append((pushed, at))

    def lit_after(self, start: float, end: float) -> float | None:
        """The strip's frame for the push made between these wall times."""
        for pushed, at in self.shown:
            if start <= pushed <= end:
                return at
        return None


def main() -> int:
    players = int(sys.argv[1]) if len(sys.argv) > 1 else 3
    console = Console(out=io.StringIO(), clear_screen=False)
    browser = page_tab = playwright = None
    with tempfile.TemporaryDirectory() as tmp, BoardServer("127.0.0.1", 0) as server:
        if shutil.which(CHROMIUM) or pathlib.Path(CHROMIUM).exists():
            from playwright.sync_api import sync_playwright

            playwright = sync_playwright().start()
            browser = playwright.chromium.launch(
                executable_path=CHROMIUM, headless=True,
                args=["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"])
            page_tab = browser.new_page()
            page_tab.add_init_script(RECORD_RENDERS)
            page_tab.goto(server.url)
        game = Game.create(players, seed=4)
        journal = Journal.new(game, pathlib.Path(tmp) / "bench.jsonl")
        seats = {p: BotSeat("heuristic", i) for i, p in enumerate(game.players)}
        with open_tower("sim", console, seed=4) as kit:
            table = TableGame(journal, seats, kit.tower, console, link=kit.link, page=server,
                              narrate=False)
            watch = StripWatch(kit.link)
            table._send_scores = watch.wrap(table._send_scores)
            started = time.monotonic()
            table.run()
            took = time.monotonic() - started
            watch.close()
        renders: dict[str, int] = {}
        if page_tab is not None:
            time.sleep(0.3)
            renders = page_tab.evaluate("window.__renders")
            browser.close()
            playwright.stop()
    timings = table.record.timings
    # throws that changed scores: pushed between the throw's end and their acknowledgement
    lit = [(t, watch.lit_after(t["end"], t["led"])) for t in timings if t["led"] >= t["end"]]
    to_led = [(at - t["end"]) * 1000 for t, at in lit if at is not None]
    unseen = sum(1 for _t, at in lit if at is None)
    to_page = [(t["published"] - t["end"]) * 1000 for t in timings]
    shown = [renders[str(t["page_version"])] - t["end"] * 1000 for t in timings
             if str(t["page_version"]) in renders]
    applied = [s * 1000 for s in table.record.verdict_s]
    print(f"one {players}-player bot game on the simulated tower: {len(timings)} throws, "
          f"{took:.1f} s")
    print(f"{'from the end of a throw to':44s} {'median':>8s} {'p95':>8s} {'max':>8s} "
          f"{'n':>4s}")
    rows = [("verdict applied, scores acknowledged, page", applied),
            ("LED strip showed it (throws that changed it)", to_led),
            ("page view published", to_page),
            ("page drawn in Chromium (views it drew)", shown)]
    ok = True
    for name, values in rows:
        if not values:
            print(f"{name:44s} {'-':>8s} {'-':>8s} {'-':>8s} {0:4d}  (no browser)")
            continue
        values.sort()
        p95 = values[min(len(values) - 1, int(0.95 * len(values)))]
        print(f"{name:44s} {statistics.median(values):8.1f} {p95:8.1f} {values[-1]:8.1f} "
              f"{len(values):4d}  ms")
        ok = ok and p95 < TARGET_MS
    print("(the end of a throw: the tower's THROW_END event reached the host; a view replaced "
          "before the page drew it is not counted; the strip's frame: the simulated tower's "
          "own clock, to the ms, within half a request's round trip)")
    if unseen:
        print(f"{unseen} push(es) of new scores the strip never showed within 2 s")
        ok = False
    print(f"target: under {TARGET_MS:.0f} ms (p95) -> {'met' if ok else 'NOT met'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
