"""`play --game shogun2` and `demo --game shogun2`: Ravensburger's Shogun at the table.

The same plumbing as Shogun's assistant: the Console (undo, quit, show, page and help at every
question, Tab completion), the journal (undo, --resume after a crash), the board page server.
Two people take turns at the laptop, or one plays against a bot; the console tells every
piece's new number after each move, so any 8×8 board serves.
"""

from __future__ import annotations

import argparse
import json
import pathlib
import secrets
import sys

from shogun_tower import games
from shogun_tower.errors import ShogunError
from shogun_tower.games.shogun2.board import SIDES
from shogun_tower.games.shogun2.bots import BOTS
from shogun_tower.games.shogun2.coach import coach
from shogun_tower.games.shogun2.dials import TURNS
from shogun_tower.games.shogun2.game import Game, MoveRefused, State
from shogun_tower.games.shogun2.help import move_help
from shogun_tower.games.shogun2.journal import Shogun2Journal
from shogun_tower.games.shogun2.notation import side_word
from shogun_tower.games.shogun2.view import (
    TITLE,
    board_text,
    board_words,
    event_lines,
    page_view,
    result_line,
)
from shogun_tower.i18n import N_, _, ngettext
from shogun_tower.table.coach import attach
from shogun_tower.table.console import Console, QuitRequested, UndoRequested, resume_command
from shogun_tower.table.equipment import fill_page_defaults, page_host, start_page
from shogun_tower.table.terminal import use_colour

FRONT = "shogun2.html"  # the board page's front file for this game
HELP = N_("{move} At any question: moves (the legal moves), undo (take back the last move; "
          "against a bot, back to your own), show (the board again), page (the board page's "
          "address), quit (stop; continue later with play --resume FILE).")
TABLE_DEFAULTS = {"bots": [], "bot": "alphabeta", "page": True, "host": None,
                  "page_port": 8765}


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The game's own options on play and demo."""
    parser.add_argument("--turned", type=int, default=None, choices=TURNS,
                        help=_("with --game shogun2: the board turned clockwise by this many "
                               "degrees, which moves every magnet, as its rulebook suggests "
                               "after several games (default: 0)"))
    parser.add_argument("--first", default=None, choices=sorted(SIDES),
                        help=_("with --game shogun2: the side that begins (default: white)"))


def _bot(kind: str, state: State, side: str) -> object:
    """The bot for this move: seeded from the game and the move number, so a resumed game
    plays on as it would have (the same seeds as bots.play_match)."""
    seed = (state.game.seed * 1_000_003 + state.plies * 7919 + (1 if side == "white" else 2)) \
        & 0xFFFFFFFF
    return BOTS[kind](seed)


class Table:
    """One game at the table: asks the people, moves the bots, keeps the journal and the page
    up to date."""

    def __init__(self, journal: Shogun2Journal, bots: dict[str, str], console: Console,
                 page: object = None, narrate: bool = True, wait_at_end: bool = True) -> None:
        self.journal = journal
        self.bots = bots  # side → bot kind
        self.console = console
        self.page = page
        self.narrate = narrate
        self.wait_at_end = wait_at_end
        console.show = self.show
        self._help()
        attach(console, coach(self), page)  # `help` and `hint`, the help page

    @property
    def state(self) -> State:
        return self.journal.state

    def _help(self) -> None:
        """`help` with examples from the position on the board (a move typed as shown is
        legal, as long as it is the example's side to move)."""
        self.console.help_text = _(HELP).format(move=move_help(self.state))

    def say(self, line: str) -> None:
        if self.narrate:
            self.console.say(line)

    def show(self) -> None:
        for line in board_text(self.state, self.console.colour):
            self.console.say(line)

    def publish(self) -> None:
        if self.page is not None:
            self.page.publish(page_view(self.state, sorted(self.bots)))

    def run(self) -> State:
        if self.narrate:
            self.show()
            if self.state.result:  # a finished game resumed
                self.console.say(result_line(self.state.result))
        self.publish()
        while True:
            if self.state.result:
                if not self.wait_at_end or not self._at_the_end():
                    break
                continue
            side = self.state.to_move
            if side in self.bots:
                move = _bot(self.bots[side], self.state, side).choose(self.state)
                self._apply(str(move), bot=True)
                continue
            self._help()
            try:
                answer = self.console.ask(
                    _("{side} to move (e.g. {example}; 'moves' lists them): ").format(
                        side=side_word(side), example=self.state.example()),
                    words=[str(m) for m in self.state.legal_moves()] + ["moves"])
            except UndoRequested:
                self._undo()
                continue
            if answer.lower() == "moves":
                self.console.say(_("{side} can play: {moves}").format(
                    side=side_word(side),
                    moves=", ".join(str(m) for m in self.state.legal_moves())))
                continue
            if not answer:
                continue
            try:
                self._apply(answer, bot=False)
            except MoveRefused as err:
                self.console.say(_("refused: {error}").format(error=err))
        return self.state

    def _at_the_end(self) -> bool:
        """The game is over: the page stays up until Enter, and a person may take back the move
        that ended it (True: it was taken back). The input's end is Enter; Ctrl-C stops."""
        people = len(self.bots) < 2
        prompt = (_("the game is over: undo takes back the last move, Enter ends: ") if people
                  else _("the game is over: Enter ends: "))
        while True:
            try:
                answer = self.console.ask(prompt)
            except UndoRequested:
                if people and self.journal.commands:
                    self._undo()
                    return True
                self.console.say(_("two bots played this game: there is no move of yours to "
                                   "take back; press Enter to end"))
                continue
            except QuitRequested as why:
                if str(why) == "Ctrl-C":
                    raise
                return False
            if not answer:
                return False
            self.console.say(_("the game is over: type undo to take back the last move, or "
                               "press Enter to end") if people else
                             _("the game is over: press Enter to end"))

    def _apply(self, move: str, bot: bool) -> None:
        events = self.journal.apply({"move": move})
        ended = [e for e in events if e["event"] == "ended"]
        for line in event_lines([e for e in events if e not in ended], bot=bot):
            self.say(line)
        if self.narrate:
            self.show()
        for line in event_lines(ended):  # under the final board, where it stays in view
            self.say(line)
        self.publish()

    def _undo(self) -> None:
        """Take back the last move; against a bot, back to the person's own last move."""
        if not self.journal.commands:
            self.console.say(_("nothing to undo: no move yet"))
            return
        undone = [self.journal.undo()["move"]]
        while self.journal.commands and self.state.to_move in self.bots:
            undone.append(self.journal.undo()["move"])
        self.say(_("undone: {moves}; {side} to move").format(
            moves=", ".join(undone), side=side_word(self.state.to_move)))
        if self.narrate:
            self.show()
        self.publish()


def _sides(text: str | None) -> list[str]:
    if text is None:
        return []
    t = text.strip().lower()
    if t in ("all", "both"):
        return ["red", "white"]
    if t in ("", "none"):
        return []
    sides = sorted({w.strip() for w in t.split(",") if w.strip()})
    bad = [s for s in sides if s not in SIDES]
    if bad:
        raise ShogunError(_("--bots: {sides} is not a side of shogun2; give white, red or "
                            "all").format(sides=", ".join(bad)))
    return sides


def _new_or_saved(args: argparse.Namespace) -> tuple[Shogun2Journal | None, Game,
                                                      pathlib.Path]:
    saved, path = games.open_journal(args, Shogun2Journal, "shogun2")
    if saved is not None:
        g = saved.game
        for flag, given, old in (("--seed", args.seed, g.seed), ("--turned", args.turned, g.turned),
                                 ("--first", args.first, g.first)):
            if given is not None and given != old:
                raise ShogunError(_("--resume {journal}: {flag} {given} conflicts with the "
                                    "saved game ({flag} {saved}); drop {flag}").format(
                    journal=args.resume, flag=flag, given=given, saved=old))
        return saved, g, path
    seed = args.seed if args.seed is not None else secrets.randbelow(1 << 31)
    return None, Game(seed=seed, turned=args.turned or 0, first=args.first or "white"), path


def _table_options(args: argparse.Namespace, saved: Shogun2Journal | None) -> dict:
    given = {"bots": None if args.bots is None else _sides(args.bots), "bot": args.bot,
             "page": args.page, "host": args.host, "page_port": args.page_port}
    return games.table_options(args, given, TABLE_DEFAULTS,
                               saved.table if saved is not None else None)


def run_play(args: argparse.Namespace) -> int:
    """`play --game shogun2`: two people, or a person against a bot (--bots red)."""
    console = Console(colour=use_colour(), clear_screen=False)
    saved, game, path = _new_or_saved(args)
    table_options = _table_options(args, saved)
    bots = {side: table_options["bot"] for side in table_options["bots"]}
    page = None
    try:
        if table_options["page"]:
            page = start_page(page_host(table_options["host"], False),
                              table_options["page_port"], console, front=FRONT)
            console.page_url = page.url
        journal = saved or Shogun2Journal.new(game, path, table=table_options)
        resume = resume_command(journal.path)
        if saved is not None:
            n = len(journal.commands)
            console.say(ngettext("resumed {path}: {n} move replayed",
                                 "resumed {path}: {n} moves replayed", n).format(
                path=journal.path, n=n))

        def who(side: str) -> str:
            return (_("{side} (bot)") if side in bots else _("{side} (a person)")).format(
                side=side_word(side))

        console.say(_("{title}, {board} (--seed {seed}): {white} against {red}").format(
            title=_(TITLE), board=board_words(game.seed, game.turned), seed=game.seed,
            white=who("white"), red=who("red")))
        if page is not None:
            console.say(_("the board page: {url}").format(url=page.url))
        console.say(_("the journal: {path} (continue later with `{command}`)").format(
            path=journal.path, command=resume))
        console.say(_("type a move as from-to (e.g. {example}), or moves, undo, show, page, "
                      "quit").format(example=journal.state.example()))
        state, code = games.play_until_stopped(Table(journal, bots, console, page=page).run,
                                               console, journal.path)
        if state is None:
            return code
    finally:
        if page is not None:
            page.stop()
    turn = (game.turned + 90) % 360
    again = f"shogun-tower play --game shogun2 --seed {game.seed}" + (
        f" --turned {game.turned}" if game.turned else "")
    console.say(_("the same board again: {command}; turned a quarter further, as the rulebook "
                  "suggests after several games: --turned {turn}").format(command=again,
                                                                          turn=turn))
    return 0


def run_demo(args: argparse.Namespace) -> int:
    """`demo --game shogun2`: whole games between bots (default: alpha-beta for both)."""
    if args.games < 1:
        raise ShogunError(_("--games must be 1 or more"))
    games.check_output_folders(args)
    fill_page_defaults(args)
    kind = args.bot or "alphabeta"
    console = Console(clear_screen=False)
    detail = not args.quiet and args.games == 1
    page = start_page(page_host(args.host, False), args.page_port, console, front=FRONT) \
        if args.page else None
    results = []
    try:
        if page is not None:
            console.say(_("the board page: {url}").format(url=page.url))
        for n in range(1, args.games + 1):
            seed = args.seed + n - 1
            game = Game(seed=seed, turned=args.turned or 0, first=args.first or "white")
            path = args.journals / f"game-{n}.jsonl" if args.journals else None
            if path and path.exists():
                raise ShogunError(_("{path} exists; choose an empty --journals folder").format(
                    path=path))
            journal = Shogun2Journal.new(game, path, table={"bots": ["red", "white"],
                                                            "bot": kind, "page": False})
            table = Table(journal, {"white": kind, "red": kind}, console, page=page,
                          narrate=detail, wait_at_end=False)
            try:
                state = table.run()
            except KeyboardInterrupt:
                raise ShogunError(_("game {n} stopped by Ctrl-C").format(n=n)) from None
            result = state.result or {}
            results.append({"game": n, "seed": seed, "winner": result.get("winner"),
                            "reason": result.get("reason"), "moves": state.plies,
                            "journal": str(path) if path else None})
            console.say(ngettext("Game {n} (board {seed}): {result} after {moves} move",
                                 "Game {n} (board {seed}): {result} after {moves} moves",
                                 state.plies).format(n=n, seed=seed, result=result_line(result),
                                                     moves=state.plies))
    finally:
        if page is not None:
            page.stop()
    if args.summary:
        try:
            args.summary.write_text(json.dumps({"game": "shogun2", "bot": kind,
                                                "games": results}, indent=2) + "\n")
        except OSError as err:
            raise ShogunError(_("cannot write the summary to {path}: {error}").format(
                path=args.summary, error=err)) from err
        console.say(_("summary written to {path}").format(path=args.summary))
    sys.stdout.flush()
    return 0
