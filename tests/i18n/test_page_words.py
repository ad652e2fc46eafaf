"""A page speaks the language of the page server's process: its lang attribute, the words
its scripts ask for (_ and ngettext, with the catalogue's plural rule), and the words its HTML
marks data-i18n."""

from __future__ import annotations

import json

import pytest

from shogun_tower import i18n

PROBE = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"></head><body>
<p id="word" data-i18n title="nothing">farmers</p>
<!--INITIAL-->
</body></html>"""


@pytest.fixture
def french():
    i18n.use("fr")
    yield
    i18n.use("en")


def test_the_page_gets_the_catalogue_and_its_plural_rule(board, page, french) -> None:
    board.add_route("/probe", lambda: ("text/html; charset=utf-8",
                                       i18n.localise_page(PROBE).encode()))
    page.goto(board.url + "probe")
    assert page.evaluate("document.documentElement.lang") == "fr"
    assert page.text_content("#word") == "fermiers"
    assert page.get_attribute("#word", "title") == "rien"
    assert page.evaluate("_('red')") == "rouge"
    assert page.evaluate("_('a message nobody wrote')") == "a message nobody wrote"
    assert page.evaluate("fmt(_('{colour} {count}'), {colour: 'x', count: 2})") == "x 2"
    # French elides before a value that starts with a vowel, as the Python side does
    move = "{player}'s military leader moves from {frm} to {to}"
    for frm in ("Etchu", "Mino"):
        assert page.evaluate("([m, v]) => fmt(_(m), v)",
                             [move, {"player": "rouge", "frm": frm, "to": "Iyo"}]) == \
            i18n._(move).format(player="rouge", frm=frm, to="Iyo")
    assert "va d'Etchu à Iyo" in page.evaluate(
        "fmt(_(\"{player}'s military leader moves from {frm} to {to}\"), "
        "{player: 'rouge', frm: 'Etchu', to: 'Iyo'})")
    assert page.evaluate("fmt('bibliothèque {x}, de {y}', {x: 'Iyo', y: 'à Owari'})") == \
        "bibliothèque Iyo, de à Owari"  # a word ending in "que"; "à" elides nothing
    assert page.evaluate("[0, 1, 2].map(n => ngettext('{n} x', '{n} xs', n))") == \
        ["{n} xs", "{n} x", "{n} xs"]  # an unknown message falls back to English's rule


@pytest.mark.parametrize(("lang", "forms"), [("fr", ["0 x", "1 x", "2 xs"]),
                                             ("ja", ["0 x", "1 x", "2 x"])])
def test_plural_forms_follow_the_catalogues_rule(board, page, lang: str, forms: list) -> None:
    rule = i18n.page_words(lang)
    block = json.dumps({**rule, "messages": {"{n} x": ["{n} x", "{n} xs"][:rule["nplurals"]]}})
    probe = PROBE.replace("<!--INITIAL-->", f'<script id="page-words" type="application/json">'
                          f'{block}</script><script src="/i18n.js"></script>')
    board.add_route("/plural", lambda: ("text/html; charset=utf-8", probe.encode()))
    page.goto(board.url + "plural")
    assert page.evaluate("[0, 1, 2].map(n => fmt(ngettext('{n} x', '{n} xs', n), {n}))") == forms
