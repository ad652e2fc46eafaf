"""What a person sees on the board page, read out of the browser in one call per question."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator

# Per province: the hooks (data-*) and what is drawn: the armies number, the building letters,
# the revolt dots, the token's colour, its opacity, and the region shape under its centre.
PROVINCES_JS = """() => {
  const out = {};
  for (const g of document.querySelectorAll('#provinces-layer .province')) {
    const name = g.id.replace('province-', '');
    const body = g.querySelector('circle.body');
    const box = body.getBoundingClientRect();
    const cx = box.x + box.width / 2, cy = box.y + box.height / 2;
    const under = document.elementsFromPoint(cx, cy)
      .map(e => e.closest('.region-fill') && e.closest('.region'))
      .find(Boolean);
    const armies = g.querySelector('.armies');
    out[name] = {
      owner: g.dataset.owner, armies: g.dataset.armies, buildings: g.dataset.buildings,
      revolt: g.dataset.revolt, excluded: g.dataset.excluded,
      armies_text: armies ? armies.textContent : '',
      letters: [...g.querySelectorAll('.building text')].map(t => t.textContent).join(''),
      dots: g.querySelectorAll('.revolt-dot').length,
      fill: getComputedStyle(body).fill,
      opacity: getComputedStyle(g).opacity,
      region_under: under ? under.dataset.region : null,
      visible: box.width > 10 && box.height > 10,
    };
  }
  return out;
}"""

SWATCHES_JS = """() => Object.fromEntries([...document.querySelectorAll('#players tbody tr')]
  .map(tr => [tr.dataset.colour, getComputedStyle(tr.querySelector('.swatch')).backgroundColor]))"""

# Walk along the line between two province centres and name, at each step, the region shape a
# person sees there: a region's tint, a rim (outline) or open sea.
WALK_JS = """([a, b]) => {
  const centre = (n) => {
    const r = document.querySelector(`#province-${n} circle.body`).getBoundingClientRect();
    return [r.x + r.width / 2, r.y + r.height / 2];
  };
  const [p, q] = [centre(a), centre(b)];
  const seen = [];
  for (let i = 0; i <= 80; i++) {
    const x = p[0] + (q[0] - p[0]) * i / 80, y = p[1] + (q[1] - p[1]) * i / 80;
    const hit = document.elementsFromPoint(x, y).find(e => e.closest('.region-fill, .region-rim'));
    let what = 'sea';
    if (hit) {
      const kind = hit.closest('.region-fill') ? 'fill:' : 'rim:';
      what = kind + hit.closest('.region').dataset.region;
    }
    if (seen[seen.length - 1] !== what) seen.push(what);
  }
  return seen;
}"""


def provinces(page) -> dict:
    return page.evaluate(PROVINCES_JS)


def swatches(page) -> dict:
    return page.evaluate(SWATCHES_JS)


def walk(page, a: str, b: str) -> list[str]:
    return page.evaluate(WALK_JS, [a, b])


def cubes(page, selector: str) -> dict[str, int]:
    return page.evaluate("""(sel) => Object.fromEntries([...document.querySelectorAll(
        sel + ' .cube-count')].map(e => [e.dataset.colour, Number(e.dataset.count)]))""",
                         selector)


@contextlib.contextmanager
def page_at(browser, width: int, height: int = 900) -> Iterator[object]:
    """A fresh page in a window ``width`` CSS pixels wide (a phone's 390, a laptop's 1280)."""
    context = browser.new_context(viewport={"width": width, "height": height})
    try:
        yield context.new_page()
    finally:
        context.close()


def open_board(page, server, version: int) -> None:
    page.goto(server.url)
    wait_version(page, version)


def wait_version(page, version: int) -> None:
    page.wait_for_selector(f"body[data-version='{version}']", state="attached")
