"""Knizia's Samurai (rulebook 004): the referee and the scoring console. The board's hex map is not
in the seed, so the console does not model it: it adjudicates captures, keeps who took what,
says when the game ends and who wins, and lights the tower's LED strip.

- ``catalogue``: the box (figure types, tiles, figures per player count), from samurai.json;
- ``capture``: who takes a surrounded figure; ``ranking``: the winner and the full ranking;
- ``state``: the game as a journaled state (``SamuraiJournal``): pure, no I/O;
- ``strip``: the LED bands; ``view``: the page's view; ``console``: ``play``/``demo``.
"""
