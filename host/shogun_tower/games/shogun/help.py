"""Shogun's help: what every action, card, building and expansion piece does, in players' words,
with the rulebooks' numbers read from the catalogues (the constants, the card catalogue
``rules/core/cards.py``, the provisions table, each expansion's declaration and data file). The
console's `help` and the board page's help page both read this one book (``helpbook.py``).

Also the line about each question (``question_help``): a base decision kind's is here, an
expansion's question brings its own (``Question.help``, ``DecisionKind.help``).
"""

from __future__ import annotations

from shogun_tower.games.shogun.rules import Game
from shogun_tower.games.shogun.rules.core.cards import EVENT_CARDS, SPECIAL_CARDS, special_words
from shogun_tower.games.shogun.rules.core.constants import (
    ACTION_NAMES,
    ARMIES_PER_PLAYER,
    ARMY_GROUPS,
    BUILDING_COST,
    BUILDING_NAMES,
    BUILDING_SUPPLY,
    BUILDINGS,
    CHESTS,
    DEPLOY,
    FARMER_CUBES,
    MAJORITY_VP,
    PLAN_SPACES,
    RICE_TRACK_MAX,
    SETUP_THROW_ARMIES,
    SETUP_THROW_FARMERS,
    START_COINS,
    provisions,
)
from shogun_tower.games.shogun.rules.core.game import Game as CoreGame
from shogun_tower.games.shogun.rules.expansions import EXPANSIONS
from shogun_tower.helpbook import HelpBook, Topic, table_topic
from shogun_tower.i18n import N_, _, and_list
from shogun_tower.words import capital, sentence

# One sentence about each kind of question of the base game (the console's `help` says it),
# translated where it is shown
QUESTION_HELP = {
    "draft": N_("Take one of the face-up province cards or the top card of the pile, and put "
                "one of your army groups on that province."),
    "plan": N_("Lay one card on each space, in secret: a province card does that action in "
               "that province, a chest card does nothing; the bid decides the turn order."),
    "special": N_("The place you choose is your turn in this season's order, and the card on "
                  "it is your special card until the season ends."),
    "march": N_("Battle/Move: move armies into a neighbouring province, at least 1 stays; into "
                "a neutral or another player's province it is a battle in the tower."),
    "move": N_("Deploy/Move 1 lets you move armies into one of your neighbouring provinces (at "
               "least 1 stays), or leave them where they are."),
    "revolt_order": N_("Your provinces revolt one after another in the order you give; each "
                       "revolt is a throw of your armies there against the farmers."),
    "throw": N_("Throw the cubes named into the tower with every cube lying in the tray, then "
                "tell what fell into the tray."),
    "chance": N_("Shuffle and draw the real cards at the table, then tell what came."),
    "choose": N_("Answer with one of the options shown."),
    "over": N_("The game is over."),
}


def question_help(game: CoreGame, st: dict) -> str:
    """The line about the question of step ``st`` in the players' language: its own
    declaration's, else the base's."""
    rules = game.rules
    if st.get("kind") == "choose":
        question = rules.questions.get(st.get("what", ""))
        if question is not None and question.help:
            return _(question.help)
    decision = rules.decisions.get(st.get("kind", ""))
    if decision is not None and decision.help:
        return _(decision.help)
    return _(QUESTION_HELP.get(st.get("kind", ""), QUESTION_HELP["choose"]))


def book(game: Game | None = None) -> HelpBook:
    """Shogun's help book, in the players' language. With ``game``: its expansions are marked
    as in this game and their data files are the game's own (a corrected file shows its
    numbers)."""
    chosen = game.expansions if game is not None else ()
    data = game.expansion_data if game is not None else {}
    topics = [_season(chosen), _actions(), _buildings(), _battles(), _revolts_and_winter(),
              _events(), _specials()]
    declared = {**EXPANSIONS, **{e.name: e for e in game.rules.expansions}} if game else \
        EXPANSIONS  # the catalogue's, and any other a game was built with
    for name, e in declared.items():
        if e.help is None:
            continue
        topics.append(Topic(name, _("{title} (expansion)").format(title=_(e.title)), "",
                            tuple((_(n), _(t)) for n, t in e.help(data.get(name))),
                            in_game=game is None or name in chosen))
    topics.append(table_topic((
        ("odds", _("at a Battle/Move question: the chance to take each target with every army "
                   "count")),
        ("plan", _("while you plan: the planning screen drawn again (Ctrl-L too)")),
        ("phone COLOUR", _("that seat's code for its phone, shown to its player alone (in a "
                           "game with phones)")))))
    return HelpBook("shogun", "Shogun", _("Queen Games, 2006: 3 to 5 players conquer the "
                    "provinces of Japan over two years; battles are thrown through the cube "
                    "tower."), tuple(topics))


def _season(chosen: tuple[str, ...]) -> Topic:
    groups = "; ".join(_("{n} players: {groups}").format(n=n, groups=", ".join(map(str, g)))
                       for n, g in ARMY_GROUPS.items())
    coins = and_list([_("{coins} with {n} players").format(coins=c, n=n)
                      for n, c in START_COINS.items()])
    return Topic("season", _("A season"), _("A game lasts two years. Each year has spring, "
                 "summer and autumn, then winter."), (
        (_("Setting up"), _("Each player has {armies} armies, and coins to start: {coins}. "
                            "His army groups go onto his starting provinces ({groups}). Then "
                            "{thrown} armies of each player and {farmers} farmers are thrown "
                            "into the empty tower: what falls out goes back, what stays inside "
                            "stays until the game ends.").format(
            armies=ARMIES_PER_PLAYER, coins=coins, groups=groups, thrown=SETUP_THROW_ARMIES,
            farmers=SETUP_THROW_FARMERS)),
        (_("Planning"), _("All players plan at once and in secret: one card on each of the "
                          "{spaces} action spaces and one on the bid, each card once. A "
                          "province card does that action in that province; a chest card "
                          "({low} to {high}) does nothing there. The expansions may add "
                          "spaces.").format(spaces=PLAN_SPACES - 1, low=min(CHESTS),
                                            high=max(CHESTS))),
        (_("The bid"), _("Bid a chest card (you pay its coins) or a province card (free, but "
                         "that province does no action this season). Chest bids from 4 down to "
                         "1 choose their place first, then province bids, then bids of 0; "
                         "equal bids are drawn.")),
        (_("Turn order"), _("In that order each player takes one of the five places: its "
                            "number is his turn this season and the card on it his special "
                            "card.")),
        (_("The event card"), _("After planning one of this year's face-up event cards is "
                                "drawn; it changes the season for everyone.")),
        (_("Actions"), _("The ten action cards are done in their order on the track, each by "
                         "every player in turn order. A planned action that cannot be done "
                         "fully is skipped; one that can must be done.")),
    ))


_ACTION_HELP = {
    "castle": N_("Pay {cost} coins and build a castle in the province."),
    "temple": N_("Pay {cost} coins and build a temple in the province."),
    "theatre": N_("Pay {cost} coin and build a Nō theatre in the province."),
    "rice": N_("Gain the rice printed on the province card. Then the province revolts if it "
               "holds a revolt marker; if not, or once the revolt is put down, it gets one "
               "more marker."),
    "tax": N_("Take the coins printed on the province card; then revolt or revolt marker as "
              "for Rice."),
    "deploy5": N_("Pay {cost} coins and put {armies} armies from your supply into the "
                  "province."),
    "deploy3": N_("Pay {cost} coins and put {armies} armies from your supply into the "
                  "province."),
    "deploy1": N_("Pay {cost} coin and put {armies} army into the province; then you may move "
                  "armies from it into one of your neighbouring provinces, at least 1 "
                  "staying."),
    "battle_a": N_("Move armies from the province into a neighbouring one, at least 1 staying. "
                   "Into your own province it is a move; into a neutral or another player's "
                   "province it is a battle in the tower. It must be done if it can."),
    "battle_b": N_("The same as Battle/Move A, at its own place in the order."),
}


def _actions() -> Topic:
    entries = []
    for action, name in ACTION_NAMES.items():
        cost, armies = DEPLOY.get(action, (BUILDING_COST.get(action, 0), 0))
        entries.append((_(name), _(_ACTION_HELP[action]).format(cost=cost, armies=armies)))
    return Topic("actions", _("The ten action cards"), _("Each card is done in every province "
                 "planned on it; five lie face up when you plan, the others are turned up as "
                 "play reaches them."), tuple(entries))


def _buildings() -> Topic:
    entries = tuple(
        (capital(_(BUILDING_NAMES[b])),
         _("The {action} action builds it for {cost}; {supply} in the box. In winter the "
           "player with most of them in a region scores {vp} VP ({tied} each when tied).")
         .format(action=_(ACTION_NAMES[b]), cost=BUILDING_COST[b], supply=BUILDING_SUPPLY[b],
                 vp=MAJORITY_VP[b], tied=MAJORITY_VP[b] - 1))
        for b in BUILDINGS)
    return Topic("buildings", _("Buildings"), _("A province holds as many buildings as the "
                 "slots on its card (1 to 3), never two of one kind. Each building scores 1 VP "
                 "for its owner every winter; a province lost loses them only if it turns "
                 "neutral."), entries)


def _battles() -> Topic:
    return Topic("battles", _("Battles in the tower"), "", (
        (_("What goes in"), _("The attacking armies, the defender's armies in the province (a "
                              "neutral province throws 1 farmer), and every cube lying in the "
                              "tray.")),
        (_("Counting"), _("In the tray, the attacker's colour counts for him and the "
                          "defender's for the defender; the farmers count for the defender if "
                          "the province holds no revolt marker. Other colours stay in the tray "
                          "for the next throw.")),
        (_("Who wins"), _("More counted cubes wins. The loser's counted cubes go back to his "
                          "supply; the winner loses as many as the loser counted, and the rest "
                          "of his counted cubes go into the province.")),
        (_("Undecided"), _("A tie, or a defender who wins with farmers only, leaves the "
                           "province neutral: its armies, buildings and revolt markers are "
                           "gone.")),
        (_("The tower"), _("Cubes that stay inside the tower fall out in later throws. The "
                           "{farmers} farmers are shared by everyone. The odds and the hint "
                           "count what is known to be inside.").format(farmers=FARMER_CUBES)),
    ))


def _provisions_row(first: int, last: int, revolts: int, farmers: int, most: bool) -> str:
    values = {"first": first, "last": last, "revolts": revolts, "farmers": farmers}
    if most:
        return _("shortage {first} or more: revolts {revolts}, extra farmers in each "
                 "{farmers}").format(**values)
    if first == last:
        return _("shortage {first}: revolts {revolts}, extra farmers in each {farmers}").format(
            **values)
    return _("shortage {first}-{last}: revolts {revolts}, extra farmers in each {farmers}"
             ).format(**values)


def _revolts_and_winter() -> Topic:
    rows: list[list] = []  # [first shortage, last shortage, (revolts, extra farmers)]
    for shortage in range(1, 10):
        got = provisions(shortage)
        if rows and rows[-1][2] == got:
            rows[-1][1] = shortage
        else:
            rows.append([shortage, shortage, got])
    table = "; ".join(_provisions_row(a, b, r, f, i == len(rows) - 1)
                      for i, (a, b, (r, f)) in enumerate(rows))
    return Topic("winter", _("Revolts and winter"), "", (
        (_("A revolt"), _("Collecting Rice or Tax where a revolt marker lies starts a revolt: "
                          "your armies there against one farmer for each marker. If the "
                          "farmers win or tie, the province turns neutral.")),
        (_("Rice lost"), _("In winter each player loses the rice shown on the year's fourth "
                           "event card, the one not drawn for a season.")),
        (_("Provisions"), _("Each province you own needs 1 rice (the rice track goes up to "
                            "{most}). A shortage makes provinces revolt, drawn from your cards "
                            "by your left neighbour: {table}.").format(most=RICE_TRACK_MAX,
                                                                      table=table)),
        (_("Scoring"), _("Every winter: 1 VP for each province and each building, and the "
                         "region majorities of castles, temples and Nō theatres.")),
        (_("After the first winter"), _("Four new event cards are turned up, rice goes back "
                                        "to 0 and every revolt marker leaves the map.")),
        (_("The end"), _("The game ends after the second winter. Most VP wins; a tie goes to "
                         "the player with most coins.")),
    ))


def _events() -> Topic:
    by_text: dict[str, list[int]] = {}
    for info in EVENT_CARDS.values():
        by_text.setdefault(info["text"], []).append(info["rice_loss"])
    entries = tuple(
        (capital(_(text)),
         sentence(len(losses), "{n} card, winter rice loss {losses}.",
                  "{n} cards, winter rice loss {losses}.",
                  losses=and_list([str(n) for n in losses])))
        for text, losses in by_text.items())
    return Topic("events", _("Event cards"), _("{n} cards. Four are turned up each year: three "
                 "change a season each, the fourth sets the winter's rice loss.").format(
                     n=len(EVENT_CARDS)), entries)


def _specials() -> Topic:
    return Topic("specials", _("Special cards"), _("{n} cards, laid on the five places of the "
                 "turn order; each holder may use his card this season. The extra armies come "
                 "from his supply, and +1 attacking or defending army only in a battle between "
                 "two players.").format(n=len(SPECIAL_CARDS)),
                 tuple((capital(special_words(card)), "") for card in SPECIAL_CARDS))
