"""The Moscow to Paris rules engine: hands and the cards in front of each player, four city lines
with train cards on either side of their city, the five action cards (the neighbour trade asks
other players to answer in the middle of a turn), claiming cities, the dead-end reset, the end and
the scoring with flag rows, capitals and cities as tie-breaks and the team game.

Which cards exist is data: by default the game's content (`cards.yaml`), or a small data set a
scenario brings in its setup, so a rule can be pinned without the reconstructed deck. Train cards
are plain kind ids (eleven copies of "sleeper" are eleven equal components); an action card's id
is its effect. A line is kept as the cards left of its city (nearest first), the city, and the
cards right of it (nearest first), so a discarded card closes its gap by itself.
"""

from __future__ import annotations

import random
from collections import Counter
from itertools import chain, combinations
from dataclasses import dataclass
from typing import Any, Hashable

from verify.engine import Action, Chance, Game, IllegalAction, NotationError, SetupError, State, player_names
from verify.kit import Outcome, Visibility, Zone, conservation_problems, outcome_from_scores

DECK_TOP_SHOWN = 3  # how many upcoming cards the `deck_top` field lists
HAND_TOTAL = 5  # hand + cards in front of a player, always
FRONT_MAX = 4
LINES = 4
EFFECTS = ("swap", "clear-two", "clear-three", "trade", "close-line")
CLEAR_COUNT = {"clear-two": 2, "clear-three": 3}
CLAIM_MODES = ("cover", "within", "exact")
DEAD_END_READINGS = ("no-progress", "repeat")  # the first is the default; see rulings.yaml
NO_ACTION_READINGS = ("discard", "pass")
QUIET_ROUNDS = 2  # turns each player takes in a row without progress before the reset

ACT, CLAIM, ANSWER, CONTINUE, OVER = "act", "claim", "answer", "continue", "over"
TEAMS = {"P1+P3": ["P1", "P3"], "P2+P4": ["P2", "P4"]}  # partners sit opposite each other


# --- the cards in play ----------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class City:
    id: str
    country: str | None  # None: counts for no flag row (Istanbul)
    points: int
    capital: bool
    line: int  # the most train cards its line may hold


@dataclass(frozen=True)
class CardData:
    """The cards one game is played with: train kinds and action effects with their copies, cities."""

    trains: dict[str, int]
    actions: dict[str, int]
    cities: dict[str, City]

    def components(self) -> dict[str, int]:
        return {**self.trains, **self.actions, **{c: 1 for c in self.cities}}

    def __post_init__(self):
        # Derived once: every playout checks against them and lists actions from them at every step.
        object.__setattr__(self, "train_set", frozenset(self.trains))
        object.__setattr__(self, "kinds", sorted(self.trains))
        object.__setattr__(self, "limits", {c: city.line for c, city in self.cities.items()})
        object.__setattr__(self, "moves", _Moves(self))


def content_data(content, istanbul: bool, homeland: bool, homeland_row: str = "own") -> CardData:
    """The cards of the content; with `homeland_row` naming a country, the Homeland card counts
    in that country's flag row (its owner wrote that country on it)."""
    trains, actions, cities = {}, {}, {}
    for card in content.cards:
        deck = card["deck"]
        if deck == "trains":
            trains[card["id"]] = card.get("copies", 1)
        elif deck == "actions":
            actions[card["effect"]] = actions.get(card["effect"], 0) + card.get("copies", 1)
        elif deck == "cities" or (deck == "special-cities" and {"istanbul": istanbul, "homeland": homeland}[card["special"]]):
            country = card.get("country")
            if card.get("special") == "homeland" and homeland_row != "own":
                country = homeland_row
            cities[card["id"]] = City(card["id"], country, card["points"], card["capital"], card["line"])
    return CardData(trains, actions, cities)


def scenario_data(given) -> CardData:
    """A scenario's own small data set: {trains: {kind: copies}, actions: {effect: copies},
    cities: [{id, country, points, capital, line}]}."""
    if not isinstance(given, dict) or set(given) - {"trains", "actions", "cities"}:
        raise SetupError("data", "must map trains, actions and cities")
    trains = given.get("trains", {})
    actions = given.get("actions", {})
    if not isinstance(trains, dict) or not trains or not all(isinstance(v, int) and v > 0 for v in trains.values()):
        raise SetupError("data.trains", "must map each train card kind to its number of copies")
    if not isinstance(actions, dict) or not all(isinstance(v, int) and v > 0 for v in actions.values()):
        raise SetupError("data.actions", "must map action effects to their number of copies")
    for effect in actions:
        if effect not in EFFECTS:
            raise SetupError("data.actions", f"unknown effect {effect!r}; the effects: {', '.join(EFFECTS)}")
    cities = {}
    raw = given.get("cities", [])
    if not isinstance(raw, list) or len(raw) < LINES:
        raise SetupError("data.cities", f"must list at least {LINES} cities")
    for i, entry in enumerate(raw):
        where = f"data.cities.{i}"
        if not isinstance(entry, dict) or set(entry) - {"id", "country", "points", "capital", "line"} or "id" not in entry:
            raise SetupError(where, "a city has id, country, points, capital and line")
        line = entry.get("line", 4)
        if not isinstance(line, int) or not 1 <= line <= 2 * FRONT_MAX:
            raise SetupError(where, "line must be a whole number from 1 to 8")
        cid = str(entry["id"])
        if cid in cities or cid in trains or cid in actions:
            raise SetupError(where, f"id {cid!r} is used twice")
        cities[cid] = City(cid, entry.get("country"), int(entry.get("points", 1)), bool(entry.get("capital", False)), line)
    overlap = set(trains) & set(actions)
    if overlap:
        raise SetupError("data", f"{sorted(overlap)[0]!r} is both a train kind and an action")
    return CardData(dict(trains), dict(actions), cities)


# --- actions ----------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class PlayLine(Action):
    """Action 1: a train card from the hand to the left or right end of a line."""

    line: int
    side: str
    card: str

    def __str__(self) -> str:
        return f"line {self.line} {self.side} {self.card}"


@dataclass(frozen=True, slots=True)
class PlayFront(Action):
    """Action 3: a train card from the hand to the table in front of the player."""

    card: str

    def __str__(self) -> str:
        return f"front {self.card}"


@dataclass(frozen=True, slots=True)
class TakeBack(Action):
    """Action 4: a card in front of the player back to the hand."""

    card: str

    def __str__(self) -> str:
        return f"back {self.card}"


@dataclass(frozen=True, slots=True)
class Swap(Action):
    """Action card 1. A place is `<line>:<kind>` beside a city or `P<n>:<kind>` in front of a player."""

    first: str
    second: str

    def __str__(self) -> str:
        return f"play swap {self.first} {self.second}"


@dataclass(frozen=True, slots=True)
class Clear(Action):
    """Action cards 2 and 3: one column (L1 = first left of the city, R2 = second right ...), lines."""

    effect: str
    column: str
    lines: tuple[int, ...]

    def __str__(self) -> str:
        return f"play {self.effect} {self.column} {' '.join(map(str, self.lines))}"


@dataclass(frozen=True, slots=True)
class Trade(Action):
    """Action card 4: offer a train card of the hand to the left (next clockwise) or right neighbour.
    With no train card in hand (where that is allowed) nothing is offered: both fields are empty."""

    direction: str
    card: str

    def __str__(self) -> str:
        return f"play trade {self.direction} {self.card}" if self.card else "play trade"


@dataclass(frozen=True, slots=True)
class CloseLine(Action):
    """Action card 5: a city and its train cards leave; the city leaves the game."""

    line: int

    def __str__(self) -> str:
        return f"play close-line {self.line}"


@dataclass(frozen=True, slots=True)
class Give(Action):
    """Accept a trade by giving a train card of the hand back."""

    card: str

    def __str__(self) -> str:
        return f"give {self.card}"


@dataclass(frozen=True, slots=True)
class Offer(Action):
    """Pass the trade on: offer a train card of the hand to the next player the same way round."""

    card: str

    def __str__(self) -> str:
        return f"offer {self.card}"


@dataclass(frozen=True, slots=True)
class Decline(Action):
    """Refuse the trade offered, or refuse to pass it on: the trading stops."""

    def __str__(self) -> str:
        return "decline"


@dataclass(frozen=True, slots=True)
class Claim(Action):
    line: int

    def __str__(self) -> str:
        return f"claim {self.line}"


@dataclass(frozen=True, slots=True)
class Pass(Action):
    """Take no city this turn."""

    def __str__(self) -> str:
        return "pass"


@dataclass(frozen=True, slots=True)
class Discard(Action):
    """Only when no action is possible: discard a card of the hand and draw one."""

    card: str

    def __str__(self) -> str:
        return f"discard {self.card}"


class _Moves:
    """The action values of one set of cards, each made once: a playout lists the legal actions at
    every decision, and actions are plain values, so one value serves every list."""

    def __init__(self, data: CardData):
        kinds = sorted(data.trains)
        self.line = [{k: (PlayLine(i + 1, "left", k), PlayLine(i + 1, "right", k)) for k in kinds} for i in range(LINES)]
        self.front = {k: PlayFront(k) for k in kinds}
        self.back = {k: TakeBack(k) for k in kinds}
        self.give = {k: Give(k) for k in kinds}
        self.offer = {k: Offer(k) for k in kinds}
        self.trade_left = {k: Trade("left", k) for k in kinds}
        self.trade_right = {k: Trade("right", k) for k in kinds}
        self.claim = [Claim(i + 1) for i in range(LINES)]
        self.close = [CloseLine(i + 1) for i in range(LINES)]
        self.swaps: dict[tuple[str, str], Swap] = {}  # filled as positions ask for them
        self.clears: dict[tuple[str, str, tuple[int, ...]], Clear] = {}

    def swap(self, first: str, second: str) -> Swap:
        key = (first, second)
        action = self.swaps.get(key)
        if action is None:
            action = self.swaps[key] = Swap(first, second)
        return action

    def clear(self, effect: str, column: str, lines: tuple[int, ...]) -> Clear:
        key = (effect, column, lines)
        action = self.clears.get(key)
        if action is None:
            action = self.clears[key] = Clear(effect, column, lines)
        return action


PASS = Pass()
DECLINE = Decline()


NOTATION = ("line <n> left|right <kind>, front <kind>, back <kind>, play swap <place> <place>, "
            "play clear-two <column> <n> <n>, play clear-three <column> <n> <n> <n>, "
            "play trade left|right <kind>, play trade, play close-line <n>, give <kind>, offer <kind>, decline, "
            "claim <n>, pass, discard <card>")


def _line_number(word: str, text: str) -> int:
    if not (word.isascii() and word.isdigit()) or not 1 <= int(word) <= LINES:
        raise NotationError(f"cannot read {text!r}: {word!r} is not a line number (1 to {LINES})")
    return int(word)


def _place(word: str, text: str) -> str:
    owner, sep, kind = word.partition(":")
    if not sep or not kind or not (owner.isdigit() or (owner.startswith("P") and owner[1:].isdigit())):
        raise NotationError(f"cannot read {text!r}: a place is <line>:<kind> or P<n>:<kind>, not {word!r}")
    return word


def _column(word: str, text: str) -> str:
    if len(word) < 2 or word[0] not in "LR" or not word[1:].isdigit() or int(word[1:]) < 1:
        raise NotationError(f"cannot read {text!r}: a column is L1, L2 ... or R1, R2 ..., not {word!r}")
    return word


def parse_action(text: str) -> Action:
    """Read an action from its text form; the inverse of `str(action)`."""
    words = str(text).split()
    n = len(words)
    head = words[0] if words else ""
    if head == "line" and n == 4 and words[2] in ("left", "right"):
        return PlayLine(_line_number(words[1], text), words[2], words[3])
    if head in ("front", "back", "give", "offer", "discard") and n == 2:
        return {"front": PlayFront, "back": TakeBack, "give": Give, "offer": Offer, "discard": Discard}[head](words[1])
    if head == "decline" and n == 1:
        return Decline()
    if head == "pass" and n == 1:
        return Pass()
    if head == "claim" and n == 2:
        return Claim(_line_number(words[1], text))
    if head == "play" and n >= 2:
        effect = words[1]
        if effect == "swap" and n == 4:
            a, b = sorted((_place(words[2], text), _place(words[3], text)))
            return Swap(a, b)
        if effect in CLEAR_COUNT and n == 3 + CLEAR_COUNT[effect]:
            lines = tuple(sorted(_line_number(w, text) for w in words[3:]))
            return Clear(effect, _column(words[2], text), lines)
        if effect == "trade" and n == 4 and words[2] in ("left", "right"):
            return Trade(words[2], words[3])
        if effect == "trade" and n == 2:
            return Trade("", "")
        if effect == "close-line" and n == 3:
            return CloseLine(_line_number(words[2], text))
    raise NotationError(f"cannot read {text!r}; the actions are: {NOTATION}")


def _fits(mode: str, have: set, distinct: bool, cards: set) -> bool:
    """Whether a front (its kinds `have`; `distinct`: no kind twice) matches a line's train cards."""
    if mode == "cover":
        return cards <= have
    if mode == "within":
        return distinct and have <= cards
    return distinct and have == cards


def _any_fits(mode: str, front: list[str], lines: list[list[str]]) -> bool:
    """Whether `front` matches any of `lines` (each a line's train cards; empty when it has none)."""
    if not front:
        return False
    have = set(front)
    distinct = len(have) == len(front)
    return any(cards and _fits(mode, have, distinct, set(cards)) for cards in lines)


def _best_of(have: set, lines: list[list[str]]) -> int:
    """The line part of `score`: the best 3 x (cards in front that a line holds) - its size."""
    best = 0
    for cards in lines:
        if cards:
            value = 3 * len(have.intersection(cards)) - len(cards)
            if value > best:
                best = value
    return best


# --- state ----------------------------------------------------------------------------------------


class MoscowToParisState(State):
    """Everything that changes during one game of Moscow to Paris."""

    # Every field, kept in slots (see `verify.engine.State`).
    __slots__ = ('_checked', 'chance', 'cities_dealt', 'city_at', 'city_deck', 'current', 'data', 'dead_ends',
                 'dealt', 'deck', 'discard', 'fronts', 'game', 'hands', 'left', 'offers', 'phase', 'players',
                 'progress', 'quiet_turns', 'removed', 'right', 'seen', 'setup', 'taken', 'trade_from',
                 'trade_to', 'trade_way')

    def __init__(self, game: "MoscowToParis", players: int, chance: Chance, data: CardData):
        self.game = game
        self.data = data
        self.players = player_names(players)
        self.chance = chance
        self.deck: list[str] = []  # top first
        self.discard: list[str] = []
        self.hands: dict[str, list[str]] = {p: [] for p in self.players}
        self.fronts: dict[str, list[str]] = {p: [] for p in self.players}
        self.offers: dict[str, list[str]] = {p: [] for p in self.players}
        self.city_at: list[str | None] = [None] * LINES
        self.left: list[list[str]] = [[] for _ in range(LINES)]  # nearest the city first
        self.right: list[list[str]] = [[] for _ in range(LINES)]
        self.city_deck: list[str] = []  # top first
        self.taken: dict[str, list[str]] = {p: [] for p in self.players}
        self.removed: list[str] = []
        self.phase = ACT
        self.current = 0
        self.trade_from: str | None = None  # who offered the card now waiting for an answer
        self.trade_to: str | None = None
        self.trade_way = 0  # +1: to the left (next clockwise), -1: to the right
        self.dead_ends = 0
        self.seen: set = set()
        # What a table sees of a dead end: turns in a row in which no city was taken and no card
        # left a line or a front for the discard pile, and whether the turn under way made progress.
        self.quiet_turns = 0
        self.progress = False
        self.setup: dict | None = None
        self._checked: tuple | None = None  # what the last check found in place: see `_still_holds`

    # --- small helpers --------------------------------------------------------------------------

    def is_train(self, card: str) -> bool:
        return card in self.data.trains

    def line_cards(self, i: int) -> list[str]:
        return self.left[i] + self.right[i]

    def row(self, i: int) -> list[str]:
        """A line as it lies on the table, left to right, its city in the middle."""
        city = [] if self.city_at[i] is None else [self.city_at[i]]
        return self.left[i][::-1] + city + self.right[i]

    def _draw(self, player: str) -> bool:
        if not self.deck:
            if not self.discard:
                return False
            # Reshuffle only when a card is needed, so that everything discarded by then goes in.
            self.deck = self.chance.shuffle("reshuffle", sorted(self.discard))
            self.discard = []
        self.hands[player].append(self.deck.pop(0))
        return True

    def _refill(self, player: str) -> None:
        while len(self.hands[player]) + len(self.fronts[player]) < HAND_TOTAL and self._draw(player):
            pass

    def _empty_line(self, i: int) -> None:
        self.discard.extend(self.left[i])
        self.discard.extend(self.right[i])
        self.left[i] = []
        self.right[i] = []

    def _reveal(self, i: int) -> None:
        """Fill an empty line with the next city; with none left the game ends (three remain)."""
        if self.city_deck:
            self.city_at[i] = self.city_deck.pop(0)
        else:
            self.city_at[i] = None
            self.phase = OVER

    def claimable(self, player: str) -> list[int]:
        """Lines (0-based) whose train cards the cards in front of `player` match. A line never
        holds two alike, so sets compare them."""
        front = self.fronts[player]
        if not front:
            return []
        mode = self.game.claim
        have = set(front)
        distinct = len(have) == len(front)
        cover = mode == "cover"
        result = []
        for i in range(LINES):
            left, right = self.left[i], self.right[i]
            if self.city_at[i] is None or not (left or right):
                continue
            if (have.issuperset(left) and have.issuperset(right)) if cover \
                    else _fits(mode, have, distinct, set(left).union(right)):
                result.append(i)
        return result

    # --- turn flow ------------------------------------------------------------------------------

    def _after_action(self, player: str) -> None:
        if self.phase == OVER:
            return
        if self.claimable(player):
            self.phase = CLAIM
        else:
            self._end_turn()

    def _end_turn(self) -> None:
        self.phase = ACT
        self.quiet_turns = 0 if self.progress else self.quiet_turns + 1
        self.progress = False
        self.current = (self.current + 1) % len(self.players)
        self._check_dead_end()

    def _check_dead_end(self) -> None:
        """The players are going round in a loop: everyone's cards and the lines' train cards are
        discarded and each draws five. By default the loop is what a table sees: every player has
        taken two turns in a row without progress; the other reading waits until a turn begins in
        a position seen before."""
        if self.game.dead_end == "no-progress":
            if self.quiet_turns >= QUIET_ROUNDS * len(self.players):
                self._reset()
            return
        key = self.key()
        if key in self.seen:
            self._reset()
        else:
            self.seen.add(key)

    def _reset(self) -> None:
        self.dead_ends += 1
        self.quiet_turns = 0
        for p in self.players:
            self.discard.extend(self.hands[p])
            self.discard.extend(self.fronts[p])
            self.hands[p] = []
            self.fronts[p] = []
        for i in range(LINES):
            self._empty_line(i)
        start = self.current
        for k in range(len(self.players)):
            p = self.players[(start + k) % len(self.players)]
            for _ in range(HAND_TOTAL):
                self._draw(p)
        # Only the repeated-position reading looks back at the positions seen.
        self.seen = {self.key()} if self.game.dead_end == "repeat" else set()

    # --- the State interface --------------------------------------------------------------------

    def to_move(self) -> list[str]:
        if self.phase == OVER:
            return []
        if self.phase == ANSWER:
            return [self.trade_to]
        if self.phase == CONTINUE:
            return [self.trade_from]
        return [self.players[self.current]]

    def is_terminal(self) -> bool:
        return self.phase == OVER

    def parse_action(self, text: str) -> Action:
        return parse_action(text)

    def legal_actions(self, player: str) -> list[Action]:
        if self.phase == OVER or player not in self.to_move():
            return []
        hand = self.hands[player]
        moves = self.data.moves
        kinds = [k for k in self.data.kinds if k in hand]
        if self.phase == CLAIM:
            return [moves.claim[i] for i in self.claimable(player)] + [PASS]
        if self.phase == ANSWER:
            return [moves.give[k] for k in kinds] + [DECLINE]
        if self.phase == CONTINUE:
            return [moves.offer[k] for k in kinds] + [DECLINE]
        actions = self._turn_actions(player, kinds)
        if not actions:
            actions = [PASS] if self.game.no_action == "pass" else [Discard(c) for c in sorted(set(hand))]
        return actions

    def _turn_actions(self, player: str, kinds: list[str]) -> list[Action]:
        """The four actions open to `player` holding the train `kinds` (sorted), in a fixed order."""
        moves = self.data.moves
        limits = self.data.limits
        actions: list[Action] = []
        add = actions.extend
        for city, left, right, plays in zip(self.city_at, self.left, self.right, moves.line):
            if city is None or len(left) + len(right) >= limits[city]:
                continue
            for k in kinds:
                if k not in left and k not in right:
                    add(plays[k])
        front = self.fronts[player]
        if len(front) < FRONT_MAX:
            add([moves.front[k] for k in kinds])
        back = moves.back
        add([back[k] if k in back else TakeBack(k) for k in sorted(set(front))])
        hand = self.hands[player]
        effects = self.data.actions
        if "swap" in hand and "swap" in effects:
            add(self._swaps())
        for effect in ("clear-two", "clear-three"):
            if effect in hand and effect in effects:
                add(self._clears(effect))
        if "trade" in hand and "trade" in effects:
            add([moves.trade_left[k] for k in kinds])
            add([moves.trade_right[k] for k in kinds])
            if not kinds and self.game.empty_trade:
                actions.append(Trade("", ""))
        if "close-line" in hand and "close-line" in effects:
            add([moves.close[i] for i in range(LINES) if self.city_at[i] is not None])
        return actions

    def _swaps(self) -> list[Action]:
        """Every swap of two cards, lying beside a city or in front of a player, that `_swap_problem`
        allows, found from one list of the places."""
        places = []  # (place, kind, line index or owner)
        lines = []
        for i in range(LINES):
            cards = self.left[i] + self.right[i]
            lines.append(cards)
            places.extend((f"{i + 1}:{card}", card, i) for card in cards)
        for p in self.players:
            places.extend((f"{p}:{card}", card, p) for card in sorted(set(self.fronts[p])))
        swap = self.data.moves.swap
        result = []
        for a, (pa, ka, wa) in enumerate(places):
            for pb, kb, wb in places[a + 1:]:
                if ka == kb:
                    continue
                if wa == wb:
                    if type(wa) is str:
                        continue  # two cards in front of one player
                elif (type(wa) is int and kb in lines[wa]) or (type(wb) is int and ka in lines[wb]):
                    continue
                result.append(swap(pa, pb) if pa < pb else swap(pb, pa))
        return result

    def _clears(self, effect: str) -> list[Action]:
        """Every play of a clear card: a column (the k-th card from the city on one side) and as many
        lines as the card clears, each reaching that far; the left columns first, the nearest
        first. A column reached by fewer lines than that has no play, nor has any column beyond."""
        need = CLEAR_COUNT[effect]
        clear = self.data.moves.clear
        result = []
        for side, lists in (("L", self.left), ("R", self.right)):
            having = [i + 1 for i in range(LINES) if lists[i]]
            k = 0
            while len(having) >= need:
                column = f"{side}{k + 1}"
                for lines in combinations(having, need):
                    result.append(clear(effect, column, lines))
                k += 1
                having = [i for i in having if len(lists[i - 1]) > k]
        return result

    # --- applying -------------------------------------------------------------------------------

    def apply(self, player: str, action: Action) -> None:
        if self.phase == OVER:
            raise IllegalAction("game over", "the game is over")
        movers = self.to_move()
        if player not in movers:
            raise IllegalAction("turn order", f"not your turn: {movers[0]} is to move")
        if self.phase == CLAIM:
            self._apply_claim(player, action)
        elif self.phase == ANSWER:
            self._apply_answer(player, action)
        elif self.phase == CONTINUE:
            self._apply_continue(player, action)
        else:
            self._apply_turn(player, action)

    def _need_in_hand(self, player: str, card: str, rule: str, train: bool = True) -> None:
        if card not in self.hands[player]:
            raise IllegalAction(rule, f"{card!r} is not in your hand")
        if train and not self.is_train(card):
            raise IllegalAction(rule, f"{card!r} is not a train card")

    def _stuck(self, player: str) -> bool:
        """Whether `player` can take none of the four actions."""
        kinds = sorted({c for c in self.hands[player] if self.is_train(c)})
        return not self._turn_actions(player, kinds)

    def _apply_turn(self, player: str, action: Action) -> None:
        hand = self.hands[player]
        kind = type(action)
        if kind is PlayLine:  # by far the most played: first
            self._check_line_play(player, action)
            hand.remove(action.card)
            (self.left if action.side == "left" else self.right)[action.line - 1].append(action.card)
            self._draw(player)
        elif kind is PlayFront:
            self._need_in_hand(player, action.card, "action 3")
            if len(self.fronts[player]) >= FRONT_MAX:
                raise IllegalAction("action 3", f"at most {FRONT_MAX} train cards lie in front of a player")
            hand.remove(action.card)
            self.fronts[player].append(action.card)
        elif kind is TakeBack:
            if action.card not in self.fronts[player]:
                raise IllegalAction("action 4", f"there is no {action.card!r} in front of you")
            self.fronts[player].remove(action.card)
            hand.append(action.card)
        elif kind is Discard:
            if action.card not in hand:
                raise IllegalAction("ruling: no-action-possible", f"{action.card!r} is not in your hand")
            if self.game.no_action == "pass":
                raise IllegalAction("ruling: no-action-pass", "a player who can take none of the four actions passes; nobody discards")
            if not self._stuck(player):
                raise IllegalAction("ruling: no-action-possible", "discarding is only for a player who can take none of the four actions")
            hand.remove(action.card)
            self.discard.append(action.card)
            self._draw(player)
        elif kind in (Swap, Clear, Trade, CloseLine):
            self._apply_card(player, action)
            return
        elif kind is Pass and self.game.no_action == "pass":
            if not self._stuck(player):
                raise IllegalAction("ruling: no-action-pass", "only a player who can take none of the four actions passes")
            self._end_turn()
            return
        elif kind in (Claim, Pass):
            raise IllegalAction("claiming a city", "a city is claimed after an action, not instead of one")
        elif kind in (Give, Offer, Decline):
            raise IllegalAction("action card 4", "no trade is waiting for an answer")
        else:
            raise IllegalAction("notation", f"{action!r} is not a Moscow to Paris action")
        self._after_action(player)

    def _check_line_play(self, player: str, action: PlayLine) -> None:
        self._need_in_hand(player, action.card, "action 1")
        i = action.line - 1
        city = self.city_at[i]
        if city is None:
            raise IllegalAction("action 1", f"line {action.line} has no city")
        cards = self.left[i] + self.right[i]
        if action.card in cards:
            raise IllegalAction("action 1", f"line {action.line} already holds a {action.card}: the cards of a line all differ")
        if len(cards) >= self.data.cities[city].line:
            raise IllegalAction("action 1", f"line {action.line} is full: {city} allows {self.data.cities[city].line} train cards")

    def _effect_card(self, player: str, effect: str) -> None:
        if effect not in self.hands[player]:
            raise IllegalAction(f"action card {EFFECTS.index(effect) + 1}", f"you hold no {effect} card")

    def _apply_card(self, player: str, action: Action) -> None:
        if isinstance(action, Swap):
            self._effect_card(player, "swap")
            problem = self._swap_problem(action.first, action.second)
            if problem:
                raise IllegalAction("action card 1", problem)
            self._do_swap(action.first, action.second)
            effect = "swap"
        elif isinstance(action, Clear):
            effect = action.effect
            self._effect_card(player, effect)
            rule = f"action card {EFFECTS.index(effect) + 1}"
            need = CLEAR_COUNT[effect]
            if len(set(action.lines)) != need:
                raise IllegalAction(rule, f"discards {need} train cards from {need} different lines")
            lists = self.left if action.column[0] == "L" else self.right
            k = int(action.column[1:]) - 1
            for line in action.lines:
                if len(lists[line - 1]) <= k:
                    raise IllegalAction(rule, f"line {line} has no train card in column {action.column}")
            for line in action.lines:
                self.discard.append(lists[line - 1].pop(k))
            self.progress = True
        elif isinstance(action, Trade) and not action.card:
            self._effect_card(player, "trade")
            if not self.game.empty_trade:
                raise IllegalAction("action card 4", "you need a train card in hand to offer in the trade")
            if any(self.is_train(c) for c in self.hands[player]):
                raise IllegalAction("action card 4", "you hold a train card: offer it (play trade left|right <kind>)")
            effect = "trade"  # nothing to offer: the card is spent and you draw
        elif isinstance(action, Trade):
            self._effect_card(player, "trade")
            self._need_in_hand(player, action.card, "action card 4")
            self.hands[player].remove("trade")
            self.discard.append("trade")
            self.trade_way = 1 if action.direction == "left" else -1
            self._offer(player, action.card)
            return
        else:
            self._effect_card(player, "close-line")
            i = action.line - 1
            if self.city_at[i] is None:
                raise IllegalAction("action card 5", f"line {action.line} has no city")
            self._empty_line(i)
            self.removed.append(self.city_at[i])
            self.progress = True
            self.seen = set()  # a city has gone for good: no earlier position can come back
            self.hands[player].remove("close-line")
            self.discard.append("close-line")
            self._reveal(i)
            self._draw(player)
            self._after_action(player)
            return
        self.hands[player].remove(effect)
        self.discard.append(effect)
        self._draw(player)
        self._after_action(player)

    def _locate(self, place: str):
        """('line', i, side list, index) or ('front', player) for a place, or None."""
        owner, _, kind = place.partition(":")
        if owner.isdigit():
            i = int(owner) - 1
            if not 0 <= i < LINES:
                return None
            for lists in (self.left, self.right):
                if kind in lists[i]:
                    return ("line", i, lists[i], lists[i].index(kind))
            return None
        if owner in self.fronts and kind in self.fronts[owner]:
            return ("front", owner)
        return None

    def _swap_problem(self, first: str, second: str) -> str | None:
        a, b = self._locate(first), self._locate(second)
        for place, where in ((first, a), (second, b)):
            if where is None:
                return f"there is no card at {place}"
        ka, kb = first.partition(":")[2], second.partition(":")[2]
        if ka == kb:
            return "the two cards are alike: the swap would change nothing"
        if a[0] == "front" and b[0] == "front" and a[1] == b[1]:
            return "both cards lie in front of the same player: the swap would change nothing"
        if a[0] == "line" and b[0] == "line" and a[1] == b[1]:
            return None
        for where, incoming in ((a, kb), (b, ka)):
            if where[0] == "line" and incoming in self.left[where[1]] + self.right[where[1]]:
                return f"line {where[1] + 1} would hold two {incoming} cards"
        return None

    def _do_swap(self, first: str, second: str) -> None:
        a, b = self._locate(first), self._locate(second)
        ka, kb = first.partition(":")[2], second.partition(":")[2]
        for where, old, new in ((a, ka, kb), (b, kb, ka)):
            if where[0] == "line":
                where[2][where[3]] = new
            else:
                front = self.fronts[where[1]]
                front[front.index(old)] = new

    def _offer(self, player: str, card: str) -> None:
        self.hands[player].remove(card)
        self.offers[player].append(card)
        self.trade_from = player
        self.trade_to = self.next_player(player, self.trade_way)
        self.phase = ANSWER

    def _end_trade(self) -> None:
        active = self.players[self.current]
        self.trade_from = self.trade_to = None
        self.trade_way = 0
        self.phase = ACT
        self._draw(active)
        self._after_action(active)

    def _apply_answer(self, player: str, action: Action) -> None:
        giver = self.trade_from
        if isinstance(action, Decline):
            self.hands[giver].append(self.offers[giver].pop())
            self._end_trade()
            return
        if not isinstance(action, Give):
            raise IllegalAction("action card 4", f"{giver} offers you a trade: answer 'give <kind>' or 'decline'")
        self._need_in_hand(player, action.card, "action card 4")
        self.hands[player].remove(action.card)
        self.hands[player].append(self.offers[giver].pop())
        self.hands[giver].append(action.card)
        active = self.players[self.current]
        if self.next_player(player, self.trade_way) == active:
            self._end_trade()  # both neighbours of the player who began it have traded
            return
        self.trade_from = player
        self.trade_to = None
        self.phase = CONTINUE

    def _apply_continue(self, player: str, action: Action) -> None:
        if isinstance(action, Decline):
            self._end_trade()
            return
        if not isinstance(action, Offer):
            raise IllegalAction("action card 4", "pass the trade on with 'offer <kind>' or stop it with 'decline'")
        self._need_in_hand(player, action.card, "action card 4")
        self._offer(player, action.card)

    def _apply_claim(self, player: str, action: Action) -> None:
        if isinstance(action, Pass):
            self._end_turn()
            return
        if not isinstance(action, Claim):
            raise IllegalAction("claiming a city", "you have acted: claim a city with 'claim <line>' or 'pass'")
        i = action.line - 1
        if i not in self.claimable(player):
            raise IllegalAction("claiming a city", f"the cards in front of you do not match line {action.line}")
        cards = self.left[i] + self.right[i]
        front = self.fronts[player]
        matched = list(cards) if self.game.claim == "cover" else list(front)
        for card in matched:
            front.remove(card)
        self.discard.extend(matched)
        self._empty_line(i)
        self.taken[player].append(self.city_at[i])
        self.progress = True
        self.seen = set()  # a city has gone for good: no earlier position can come back
        self._refill(player)
        self._reveal(i)
        if self.phase != OVER:
            self._end_turn()

    # --- what is where -------------------------------------------------------------------------

    def zones(self) -> list[Zone]:
        zones = [Zone("deck", self.deck, Visibility.NOBODY, ordered=True),
                 Zone("discard", self.discard, Visibility.EVERYONE),
                 Zone("city_deck", self.city_deck, Visibility.NOBODY, ordered=True),
                 Zone("removed", self.removed, Visibility.EVERYONE)]
        for i in range(LINES):
            zones.append(Zone(f"line{i + 1}", self.row(i), Visibility.EVERYONE, ordered=True))
        for p in self.players:
            zones.append(Zone("hand", self.hands[p], Visibility.OWNER, owner=p))
            zones.append(Zone("front", self.fronts[p], Visibility.EVERYONE, owner=p))
            zones.append(Zone("offer", self.offers[p], Visibility.OWNER, owner=p))
            zones.append(Zone("taken", self.taken[p], Visibility.EVERYONE, owner=p))
        return zones

    def components(self) -> dict[str, int]:
        return self.data.components()

    def check_invariants(self) -> list[str]:
        """Every invariant; as this runs after every action of every playout, it is first worked out
        from the last check that found nothing wrong (see `_still_holds`). Only when something is
        wrong are the kit's conservation report and `rule_problems` asked for the sentences."""
        if self._still_holds():
            return []
        self._checked = None
        return conservation_problems(self.zones(), self.components()) + self.rule_problems()

    def _still_holds(self) -> bool:
        """Whether every invariant holds, as `check_invariants` reports them. The last check that
        found nothing wrong keeps a copy of every place; each place is compared card by card with
        its copy, so a change made in any way at all is seen. The cards that left the places that
        changed must be the cards that came to them (of the deck, which loses cards from its top,
        and the discard pile, which gains them at its end, only those cards are weighed). The rules
        are checked again for the lines and players whose cards changed, for every player when what
        their cards are held to changed (a trade under way, the piles running out), and for the
        table as a whole. With no such check to start from, everything is checked."""
        phase = self.phase
        short = self.players[self.current] if phase == ANSWER or phase == CONTINUE else None  # the card offered is away
        offering = self.trade_from if phase == ANSWER else None
        piles = bool(self.deck or self.discard)
        context = (short, offering, piles)
        kept = self._checked
        if kept is None:
            if not self._all_in_place() or self.rule_problems():
                return False
            self._checked = (list(self.deck), list(self.discard), self.city_deck + self.removed, list(self.city_at),
                             [list(cards) for cards in self.left], [list(cards) for cards in self.right],
                             {p: list(cards) for p, cards in self.hands.items()},
                             {p: list(cards) for p, cards in self.fronts.items()},
                             {p: list(cards) for p, cards in self.offers.items()},
                             {p: list(cards) for p, cards in self.taken.items()}, context)
            return True
        # A place that changed gets a new copy in a new tuple: a clone may share the kept copies.
        deck, discard, cities, city_at, left, right, hands, fronts, offers, taken, was = kept
        gone, came = [], []
        now = self.deck
        if now != deck:
            cut = len(deck) - len(now)
            if cut > 0 and now == deck[cut:]:
                gone += deck[:cut]
            else:
                gone += deck
                came += now
            deck = now[:]
        now = self.discard
        if now != discard:
            cut = len(discard)
            if now[:cut] == discard:
                came += now[cut:]
            else:
                gone += discard
                came += now
            discard = now[:]
        now = self.city_deck + self.removed
        if now != cities:
            gone += cities
            came += now
            cities = now
        lines = []
        if self.city_at != city_at:
            gone += [c for c in city_at if c is not None]
            came += [c for c in self.city_at if c is not None]
            city_at = self.city_at[:]
            lines = range(LINES)
        if self.left != left or self.right != right:
            left, right = left[:], right[:]
            for i in range(LINES):
                if self.left[i] != left[i] or self.right[i] != right[i]:
                    gone += left[i]
                    gone += right[i]
                    came += self.left[i]
                    came += self.right[i]
                    left[i], right[i] = self.left[i][:], self.right[i][:]
                    if type(lines) is list:
                        lines.append(i)
        players = self.players if context != was else []
        if self.hands != hands or self.fronts != fronts or self.offers != offers:
            if not self.hands.keys() == self.fronts.keys() == self.offers.keys() == hands.keys():
                return False
            hands, fronts, offers = dict(hands), dict(fronts), dict(offers)
            changed = []
            for p in self.players:
                hand, front, offer = self.hands[p], self.fronts[p], self.offers[p]
                if hand != hands[p] or front != fronts[p] or offer != offers[p]:
                    gone += hands[p]
                    gone += fronts[p]
                    gone += offers[p]
                    came += hand
                    came += front
                    came += offer
                    hands[p], fronts[p], offers[p] = hand[:], front[:], offer[:]
                    changed.append(p)
            players = players or changed
        if self.taken != taken:
            if self.taken.keys() != taken.keys():
                return False
            for p in self.players:
                gone += taken[p]
                came += self.taken[p]
            taken = {p: list(cards) for p, cards in self.taken.items()}
        try:
            if sorted(gone) != sorted(came):
                return False
        except TypeError:  # something other than a card id: the kit's count tells what
            return False
        limits, trains = self.data.limits, self.data.train_set
        for i in lines:
            city, l, r = self.city_at[i], self.left[i], self.right[i]
            if city is None:
                if l or r:
                    return False
                continue
            size = len(l) + len(r)
            if size > limits[city] or len({*l, *r}) != size or not (trains.issuperset(l) and trains.issuperset(r)):
                return False
        for p in players:
            front, offer = self.fronts[p], self.offers[p]
            if piles and len(self.hands[p]) + len(front) + len(offer) != (HAND_TOTAL - 1 if p == short else HAND_TOTAL):
                return False
            if len(front) > FRONT_MAX or not trains.issuperset(front) or len(offer) > (1 if p == offering else 0):
                return False
        cities_out = LINES - self.city_at.count(None)
        if cities_out != (LINES - 1 if phase == OVER else LINES) or (phase == OVER and self.city_deck):
            return False
        self._checked = (deck, discard, cities, city_at, left, right, hands, fronts, offers, taken, context)
        return True

    def _all_in_place(self) -> bool:
        """Whether the places hold every component exactly once, counted card by card."""
        places = chain(self.deck, self.discard, self.city_deck, self.removed, self.city_at, *self.left, *self.right,
                       *self.hands.values(), *self.fronts.values(), *self.offers.values(), *self.taken.values())
        return sorted(c for c in places if c is not None) == sorted(Counter(self.components()).elements())

    def public_fields(self) -> dict[str, Any]:
        trade = None
        if self.phase in (ANSWER, CONTINUE):
            trade = {"from": self.trade_from, "to": self.trade_to,
                     "way": "left" if self.trade_way > 0 else "right"}
        return {"phase": self.phase, "to_move": self.to_move(), "turn": self.players[self.current],
                "trade": trade, "dead_ends": self.dead_ends, "quiet_turns": self.quiet_turns, "score": self.scores(),
                "breakdown": {side: self.breakdown([c for p in members for c in self.taken[p]])
                              for side, members in self.sides().items()},
                "line_cities": list(self.city_at)}

    def fields(self) -> dict[str, Any]:
        """Everything, plus the next cards of the deck and its size, so a scenario need not list a
        whole deck (those are hidden from the players: they are not in any observation)."""
        fields = super().fields()
        fields["deck_top"] = self.deck[:DECK_TOP_SHOWN]
        fields["deck_size"] = len(self.deck)
        return fields

    def key(self) -> Hashable:
        """The position (every card in its place, who is to move, the phase); the same fields the
        zones give, built directly because the dead-end test asks for it every turn."""
        return (self.phase, self.current, self.trade_from, self.trade_to, self.trade_way, self.dead_ends,
                tuple(self.deck), tuple(sorted(self.discard)), tuple(self.city_deck), tuple(sorted(self.removed)),
                tuple(self.city_at), tuple(map(tuple, self.left)), tuple(map(tuple, self.right)),
                tuple(tuple(sorted(self.hands[p])) for p in self.players),
                tuple(tuple(sorted(self.fronts[p])) for p in self.players),
                tuple(tuple(self.offers[p]) for p in self.players),
                tuple(tuple(sorted(self.taken[p])) for p in self.players))

    def rule_problems(self) -> list[str]:
        problems = []
        phase = self.phase
        short = self.players[self.current] if phase in (ANSWER, CONTINUE) else None  # the card offered is missing
        offering = self.trade_from if phase == ANSWER else None
        piles = bool(self.deck or self.discard)
        trains = self.data.train_set
        for p in self.players:
            front, offer = self.fronts[p], self.offers[p]
            total = len(self.hands[p]) + len(front) + len(offer)
            expected = HAND_TOTAL - 1 if p == short else HAND_TOTAL
            if total != expected and piles:
                problems.append(f"{p} holds {total} cards in hand and in front, not {expected}")
            if len(front) > FRONT_MAX:
                problems.append(f"{p} has {len(front)} cards in front, more than {FRONT_MAX}")
            if not trains.issuperset(front):
                problems.append(f"{p} has an action card in front: {front}")
            if len(offer) > (1 if p == offering else 0):
                problems.append(f"{p} has a card offered with no trade waiting")
        cities_out = 0
        limits = self.data.limits
        for i, city, left, right in zip(range(LINES), self.city_at, self.left, self.right):
            if city is None:
                if left or right:
                    problems.append(f"line {i + 1} has train cards but no city")
                continue
            cities_out += 1
            size = len(left) + len(right)
            if len(set(left).union(right)) != size:
                problems.append(f"line {i + 1} holds two alike: {self.row(i)}")
            if size > limits[city]:
                problems.append(f"line {i + 1} holds {size} train cards, more than {city} allows")
            if not (trains.issuperset(left) and trains.issuperset(right)):
                problems.append(f"line {i + 1} holds an action card: {self.row(i)}")
        if phase == OVER:
            if self.city_deck or cities_out != LINES - 1:
                problems.append(f"the game is over with {len(self.city_deck)} cities in the deck and {cities_out} on the table")
        elif cities_out != LINES:
            problems.append(f"only {cities_out} lines have a city while the game goes on")
        return problems

    # --- scoring --------------------------------------------------------------------------------

    def sides(self) -> dict[str, list[str]]:
        """Who scores together: each player alone, or two teams of partners sitting opposite."""
        if self.game.teams and len(self.players) == 4:
            return TEAMS
        return {p: [p] for p in self.players}

    def breakdown(self, cities: list[str]) -> dict[str, int]:
        info = [self.data.cities[c] for c in cities]
        points = sum(c.points for c in info)
        flags = len({c.country for c in info if c.country is not None})
        return {"cities": len(info), "points": points, "flags": flags,
                "capitals": sum(1 for c in info if c.capital), "total": points + flags}

    def scores(self) -> dict[str, int]:
        """Each side's total; the same sum as `breakdown`, kept lean because the greedy policy
        asks for it after every trial."""
        cities = self.data.cities
        result = {}
        for side, members in self.sides().items():
            info = [cities[c] for p in members for c in self.taken[p]]
            result[side] = sum(c.points for c in info) + len({c.country for c in info if c.country is not None})
        return result

    def outcome(self) -> Outcome:
        sides = self.sides()
        parts = {side: self.breakdown([c for p in members for c in self.taken[p]]) for side, members in sides.items()}
        teams = sides if any(len(m) > 1 for m in sides.values()) else None
        return outcome_from_scores(
            {s: b["total"] for s, b in parts.items()}, parts,
            tiebreaks=[("capitals", {s: b["capitals"] for s, b in parts.items()}),
                       ("cities", {s: b["cities"] for s, b in parts.items()})],
            teams=teams)

    def score(self, player: str) -> int:
        """A cheap heuristic for the greedy policy: the score lead, then how near the cards in front
        come to covering a line, less what a line holds that they do not."""
        sides = self.sides()
        mine = next(s for s, m in sides.items() if player in m)
        scores = self.scores()
        lead = scores[mine] - max((v for s, v in scores.items() if s != mine), default=0)
        have = set(self.fronts[player])
        best = 0
        for i in range(LINES):
            size = len(self.left[i]) + len(self.right[i])
            if self.city_at[i] is None or not size:
                continue
            matched = len(have.intersection(self.left[i])) + len(have.intersection(self.right[i]))
            best = max(best, 3 * matched - size)
        return 100 * lead + best

    def _lead(self, player: str, extra: str | None = None) -> int:
        """`player`'s side's score less the best other side's, as `score` counts it; with `extra`,
        as if that city were among `player`'s taken cities too."""
        cities = self.data.cities
        taken = self.taken
        mine = 0
        best_other = None
        teams = self.game.teams and len(self.players) == 4
        for side in (TEAMS.values() if teams else self.players):
            members = side if teams else (side,)
            points = 0
            flags = set()
            for p in members:
                for c in taken[p]:
                    city = cities[c]
                    points += city.points
                    flags.add(city.country)
            if player in members:
                if extra is not None:
                    city = cities[extra]
                    points += city.points
                    flags.add(city.country)
                flags.discard(None)
                mine = points + len(flags)
            else:
                flags.discard(None)
                total = points + len(flags)
                if best_other is None or total > best_other:
                    best_other = total
        return mine - (best_other or 0)

    def _reset_on_end(self, progress: bool, cleared: bool) -> bool | None:
        """Whether ending the turn now resets the table as a dead end, given whether the turn made
        progress and whether it forgot the positions seen (a city left); None when only the whole
        next position can tell (the repeated-position reading)."""
        if self.game.dead_end == "no-progress":
            return not progress and self.quiet_turns + 1 >= QUIET_ROUNDS * len(self.players)
        return False if cleared else None

    def score_actions(self, player: str, actions: list[Action]) -> list[int]:
        """`score(player)` after each of `actions`, worked out from this position without playing
        them: no action changes the cities taken but a claim, nor the fronts and lines but by its
        own cards, and a draw only fills a hand, which the score does not look at. A dead-end reset
        empties every front and line. Where only the whole next position could tell whether the
        table resets (the repeated-position reading), the action is tried on a copy."""
        trial = _Trial(self, player)
        fast = trial.reset is False  # no reset whatever comes: a line play scores at once
        lead, hits, have, sizes, without = trial.lead, trial.hits, trial.have, trial.sizes, trial.without
        scores = []
        for action in actions:
            if fast and type(action) is PlayLine:
                i = action.line - 1
                value = 3 * (hits[i] + (action.card in have)) - sizes[i] - 1
                other = without[i]
                scores.append(lead + (value if value > other else other))
                continue
            score = trial.score(action)
            if score is None:
                copy = self.clone()
                copy.apply(player, action)
                score = copy.score(player)
            scores.append(score)
        return scores

    # --- for playouts and scenarios -------------------------------------------------------------

    def clone(self) -> "MoscowToParisState":
        other = self.shallow_copy()
        other.deck = list(self.deck)
        other.discard = list(self.discard)
        other.hands = {p: list(h) for p, h in self.hands.items()}
        other.fronts = {p: list(h) for p, h in self.fronts.items()}
        other.offers = {p: list(h) for p, h in self.offers.items()}
        other.taken = {p: list(h) for p, h in self.taken.items()}
        other.city_at = list(self.city_at)
        other.left = [list(s) for s in self.left]
        other.right = [list(s) for s in self.right]
        other.city_deck = list(self.city_deck)
        other.removed = list(self.removed)
        other.seen = set(self.seen)
        chance = Chance.__new__(Chance)
        chance.seed = self.chance.seed
        chance.queued = [(k, list(o)) for k, o in self.chance.queued]
        chance.log = list(self.chance.log)
        chance.rng = _SnapshotRandom(self.chance.rng.getstate())
        other.chance = chance
        return other

    def setup_record(self) -> dict | None:
        return self.setup


class _Trial:
    """A position seen from the player choosing: what each candidate action's score is built from."""

    __slots__ = ("state", "player", "lead", "base", "front", "have", "lines", "sizes", "hits", "without", "reset",
                 "mode")

    def __init__(self, state: MoscowToParisState, player: str):
        self.state = state
        self.player = player
        self.lead = lead = 100 * state._lead(player)
        self.front = front = state.fronts[player]
        self.have = have = set(front)
        left, right, city_at = state.left, state.right, state.city_at
        lines, sizes, hits, values = [], [], [], []
        for i in range(LINES):
            cards = left[i] + right[i] if city_at[i] is not None else []
            hit = len(have.intersection(left[i])) + len(have.intersection(right[i])) if have else 0
            lines.append(cards)
            sizes.append(len(cards))
            hits.append(hit)
            values.append(max(0, 3 * hit - len(cards)) if cards else 0)
        self.lines, self.sizes, self.hits = lines, sizes, hits
        top = max(values)
        self.base = lead + top
        # The best of the other lines: the top value, but for the line holding it the runner-up.
        at = values.index(top)
        runner_up = max(values[:at] + values[at + 1:])
        self.without = [runner_up if i == at else top for i in range(LINES)]
        self.reset = state._reset_on_end(state.progress, False)
        self.mode = state.game.claim

    def _acted(self, kept: int, front: list[str], lines: list[list[str]]) -> int | None:
        """The score once the acting player's turn goes on to claiming or ends: `kept` unless the
        table resets (fronts and lines empty) because nothing can be claimed."""
        if self.reset is False:
            return kept
        if self.reset is None:
            return None
        return kept if _any_fits(self.mode, front, lines) else self.lead

    def _trade_ended(self) -> int | None:
        state = self.state
        if self.reset is False:
            return self.base
        if self.reset is None:
            return None
        return self.base if state.claimable(state.players[state.current]) else self.lead

    def score(self, action: Action) -> int | None:
        """`score(player)` after `action`, or None when a copy must be played to tell."""
        kind = type(action)
        if kind is PlayLine:
            i = action.line - 1
            card = action.card
            value = 3 * (self.hits[i] + (card in self.have)) - len(self.lines[i]) - 1
            kept = self.lead + max(self.without[i], value)
            if self.reset is False:
                return kept
            lines = list(self.lines)
            lines[i] = lines[i] + [card]
            return self._acted(kept, self.front, lines)
        if kind is PlayFront:
            front = self.front + [action.card]
            kept = self.base if action.card in self.have else self.lead + _best_of(set(front), self.lines)
            return self._acted(kept, front, self.lines)
        if kind is TakeBack:
            front = list(self.front)
            front.remove(action.card)
            kept = self.base if action.card in front else self.lead + _best_of(set(front), self.lines)
            return self._acted(kept, front, self.lines)
        if kind is Swap:
            return self._swap(action)
        if kind is Clear:
            return self._clear(action)
        if kind is CloseLine:
            return self.lead + self.without[action.line - 1]
        if kind is Trade:
            if action.card:
                return self.base  # the neighbour answers first
            return self._acted(self.base, self.front, self.lines)
        if kind is Discard:
            return self._acted(self.base, self.front, self.lines)
        if kind is Claim:
            return self._claim(action)
        if kind is Pass:  # ends the turn (after an action, or with no action possible)
            if self.reset is None:
                return None
            return self.lead if self.reset else self.base
        if kind is Offer:
            return self.base
        if kind is Give:
            state = self.state
            if state.next_player(self.player, state.trade_way) != state.players[state.current]:
                return self.base  # the trade goes on
            return self._trade_ended()
        if kind is Decline:
            return self._trade_ended()
        return None

    def _swap(self, action: Swap) -> int | None:
        places = []
        for place in (action.first, action.second):
            owner, _, card = place.partition(":")
            places.append((int(owner) - 1 if owner.isdigit() else owner, card))
        (a, ka), (b, kb) = places
        lines = list(self.lines)
        front = self.front
        if a != b or not isinstance(a, int):  # within one line the same cards stay
            for where, old, new in ((a, ka, kb), (b, kb, ka)):
                if isinstance(where, int):
                    lines[where] = [new if c == old else c for c in lines[where]]
                elif where == self.player:
                    front = list(front)
                    front[front.index(old)] = new
        have = self.have if front is self.front else set(front)
        return self._acted(self.lead + _best_of(have, lines), front, lines)

    def _clear(self, action: Clear) -> int | None:
        if self.reset is None:
            return None  # the position decides, and a clear forgets none
        state = self.state
        near, far = (state.left, state.right) if action.column[0] == "L" else (state.right, state.left)
        k = int(action.column[1:]) - 1
        lines = list(self.lines)
        for line in action.lines:
            rest = list(near[line - 1])
            del rest[k]
            lines[line - 1] = rest + far[line - 1]
        return self.lead + _best_of(self.have, lines)  # progress: no reset

    def _claim(self, action: Claim) -> int:
        state = self.state
        i = action.line - 1
        lead = 100 * state._lead(self.player, state.city_at[i])
        if state.game.claim == "cover":
            front = list(self.front)
            for card in self.lines[i]:
                front.remove(card)
        else:
            front = []
        lines = list(self.lines)
        lines[i] = []
        return lead + _best_of(set(front), lines)  # a city taken is progress: no reset


class _SnapshotRandom:
    """A copy of a random generator that is made only when first used: most copies of a state (a
    greedy player's trials) never shuffle, and restoring a generator costs more than the rest of a
    copy together."""

    __slots__ = ("_state", "_real")

    def __init__(self, state):
        self._state = state
        self._real = None

    def getstate(self):
        if self._real is not None:
            # Freeze again: the next copy then costs nothing until someone shuffles.
            self._state = self._real.getstate()
            self._real = None
        return self._state

    def __getattr__(self, name):
        if name.startswith("_"):
            # Only Random's public methods are forwarded; an unpickled copy asks for its own
            # fields before they exist, which must not recurse.
            raise AttributeError(name)
        if self._real is None:
            # Skipping Random's constructor avoids seeding from the operating system.
            real = random.Random.__new__(random.Random)
            real.setstate(self._state)
            self._real = real
        return getattr(self._real, name)


# --- the game -----------------------------------------------------------------------------------


PARAMS = {"istanbul": bool, "homeland": bool, "teams": bool, "claim": str, "dead_end": str, "no_action": str,
          "empty_trade": bool, "homeland_row": str}
WORD_CHOICES = {"claim": CLAIM_MODES, "dead_end": DEAD_END_READINGS, "no_action": NO_ACTION_READINGS}


class MoscowToParis(Game):
    """Moscow to Paris for 2 to 4 players, configured from its content folder.

    Parameters: istanbul, homeland (shuffle the special city in), teams (4 players: P1 and P3
    against P2 and P4), claim (how the cards in front must match a line: cover, within or exact),
    dead_end (no-progress: reset after every player's two turns in a row without progress;
    repeat: when a turn begins in a position seen before), no_action (discard or pass: what a
    player who can take no action does), empty_trade (Trade may be played with no train card in
    hand, for no exchange) and homeland_row (own, or the country whose flag row Homeland joins)."""

    id = "moscow-to-paris"

    def __init__(self, content=None, **params):
        if content is None:
            raise ValueError("Moscow to Paris needs its content (cards.yaml)")
        for name, value in params.items():
            if name not in PARAMS:
                raise ValueError(f"params.{name}: unknown parameter; known: {', '.join(PARAMS)}")
            if not isinstance(value, PARAMS[name]):
                raise ValueError(f"params.{name}: must be {'true or false' if PARAMS[name] is bool else 'a word'}, not {value!r}")
        for name, choices in WORD_CHOICES.items():
            if params.get(name, choices[0]) not in choices:
                raise ValueError(f"params.{name}: must be one of {', '.join(choices)}, not {params[name]!r}")
        countries = [c["id"] for c in content.files.get("countries", {}).get("countries", []) if c["id"] != "homeland"]
        if params.get("homeland_row", "own") not in ("own", *countries):
            raise ValueError(f"params.homeland_row: must be own or a country ({', '.join(countries)}), "
                             f"not {params['homeland_row']!r}")
        super().__init__(content, **params)
        self.min_players = content.game["players"]["min"]
        self.max_players = content.game["players"]["max"]
        self.istanbul = params.get("istanbul", False)
        self.homeland = params.get("homeland", False)
        self.teams = params.get("teams", False)
        self.claim = params.get("claim", "cover")
        self.dead_end = params.get("dead_end", DEAD_END_READINGS[0])
        self.no_action = params.get("no_action", NO_ACTION_READINGS[0])
        self.empty_trade = params.get("empty_trade", False)
        self.data = content_data(content, self.istanbul, self.homeland, params.get("homeland_row", "own"))

    def new_state(self, players: int, seed: int | None = None, setup: dict | None = None) -> MoscowToParisState:
        setup = self.checked_setup(players, setup, SETUP_KEYS)
        if self.teams and players != 4:
            raise ValueError(f"params.teams: the team game is for 4 players (two against two), not {players}")
        data = scenario_data(setup["data"]) if "data" in setup else self.data
        state = MoscowToParisState(self, players, Chance(seed), data)
        if MIDGAME_KEYS & set(setup):
            _setup_midgame(state, setup)
        else:
            _setup_deal(state, setup)
        state.setup = _record(state, setup)
        state.seen = {state.key()}
        state.chance.rng = _SnapshotRandom(state.chance.rng.getstate())
        return state

    def notation_help(self) -> str:
        return NOTATION_HELP


SETUP_KEYS = {"data", "deck", "city_deck", "hands", "fronts", "lines", "discard", "taken", "removed", "turn",
              "rest", "city_rest"}
MIDGAME_KEYS = {"hands", "fronts", "lines", "taken", "removed", "discard", "turn"}


def _record(state: MoscowToParisState, setup: dict) -> dict:
    """A setup that starts the same game again: the given one, or the deal's two shuffles."""
    if MIDGAME_KEYS & set(setup):
        return setup
    record = {"data": setup["data"]} if "data" in setup else {}
    record["deck"] = list(state.dealt)
    record["city_deck"] = list(state.cities_dealt)
    return record


def _travel_cards(data: CardData) -> list[str]:
    return sorted(c for pool in (data.trains, data.actions) for c, n in pool.items() for _ in range(n))


def _cards(state: MoscowToParisState, value, field: str, pool: Counter) -> list[str]:
    """A list of card ids taken out of `pool` (what is still unplaced); refuses unknown or too many."""
    if not isinstance(value, list):
        raise SetupError(field, "must be a list of card ids")
    for i, card in enumerate(value):
        if not isinstance(card, str) or card not in state.data.components():
            raise SetupError(f"{field}.{i}", f"{card!r} is no card of this game")
        if pool[card] <= 0:
            raise SetupError(f"{field}.{i}", f"no {card!r} is left to put here (all copies are placed already)")
        pool[card] -= 1
    return list(value)


def _setup_deal(state: MoscowToParisState, setup: dict) -> None:
    """Shuffle (or take the given order), deal five to each player, reveal four cities."""
    for key in setup:
        if key not in ("data", "deck", "city_deck"):
            raise SetupError(key, "only 'deck' and 'city_deck' may be given without hands and lines")
    data = state.data
    travel = _travel_cards(data)
    if "deck" in setup:
        pool = Counter(travel)
        listed = _cards(state, setup["deck"], "deck", pool)
        if any(c in data.cities for c in listed):
            raise SetupError("deck", "city cards have their own deck (city_deck)")
        order = listed + sorted(pool.elements())
        state.chance.log.append(("deal", list(order)))
    else:
        order = state.chance.shuffle("deal", travel)
    cities = sorted(data.cities)
    if "city_deck" in setup:
        pool = Counter(cities)
        listed = _cards(state, setup["city_deck"], "city_deck", pool)
        if any(c not in data.cities for c in listed):
            raise SetupError("city_deck", "only city cards go in the city deck")
        city_order = listed + sorted(pool.elements())
        state.chance.log.append(("cities", list(city_order)))
    else:
        city_order = state.chance.shuffle("cities", cities)
    if len(order) < HAND_TOTAL * len(state.players):
        raise SetupError("data", "too few train and action cards to deal five to each player")
    state.dealt = list(order)
    state.cities_dealt = list(city_order)
    state.deck = list(order)
    for p in state.players:
        state.hands[p], state.deck = state.deck[:HAND_TOTAL], state.deck[HAND_TOTAL:]
    if len(city_order) < LINES:
        raise SetupError("city_deck", f"at least {LINES} cities are needed")
    state.city_at = city_order[:LINES]
    state.city_deck = city_order[LINES:]


def _setup_midgame(state: MoscowToParisState, setup: dict) -> None:
    """Start from given hands, fronts, lines, piles and taken cities. Unnamed train and action cards
    go under the deck (or to the discard pile with `rest: discard`), unnamed cities under the city
    deck (or out of the game with `city_rest: removed`), in sorted order, so no shuffle is needed."""
    data = state.data
    pool = Counter(data.components())
    players = state.players
    for key in ("hands", "fronts", "taken"):
        given = setup.get(key, {})
        if not isinstance(given, dict) or not set(given) <= set(players):
            raise SetupError(key, f"must map players ({', '.join(players)}) to lists of cards")
    lines = setup.get("lines")
    if not isinstance(lines, list) or len(lines) != LINES:
        raise SetupError("lines", f"must list the {LINES} lines, each as it lies: left cards, the city, right cards")
    for i, row in enumerate(lines):
        cards = _cards(state, row, f"lines.{i}", pool)
        cities = [k for k, c in enumerate(cards) if c in data.cities]
        if len(cities) > 1 or (not cities and cards):
            raise SetupError(f"lines.{i}", "a line holds one city with its train cards around it")
        if any(c in data.actions for c in cards):
            raise SetupError(f"lines.{i}", "only train cards go beside a city")
        if cities:
            k = cities[0]
            state.city_at[i] = cards[k]
            state.left[i] = cards[:k][::-1]
            state.right[i] = cards[k + 1:]
            trains = cards[:k] + cards[k + 1:]
            if len(set(trains)) != len(trains):
                raise SetupError(f"lines.{i}", "the train cards of a line all differ")
            if len(trains) > data.cities[cards[k]].line:
                raise SetupError(f"lines.{i}", f"{cards[k]} allows {data.cities[cards[k]].line} train cards")
    for p in players:
        state.hands[p] = _cards(state, setup.get("hands", {}).get(p, []), f"hands.{p}", pool)
        state.fronts[p] = _cards(state, setup.get("fronts", {}).get(p, []), f"fronts.{p}", pool)
        state.taken[p] = _cards(state, setup.get("taken", {}).get(p, []), f"taken.{p}", pool)
        if any(c in data.cities for c in state.hands[p] + state.fronts[p]):
            raise SetupError(f"hands.{p}", "city cards are never in a hand or in front of a player")
        if any(not state.is_train(c) for c in state.fronts[p]):
            raise SetupError(f"fronts.{p}", "only train cards lie in front of a player")
        if len(state.fronts[p]) > FRONT_MAX:
            raise SetupError(f"fronts.{p}", f"at most {FRONT_MAX} cards lie in front of a player")
        if len(state.hands[p]) + len(state.fronts[p]) != HAND_TOTAL:
            raise SetupError(f"hands.{p}", f"hand and front hold {HAND_TOTAL} cards together, not "
                                           f"{len(state.hands[p]) + len(state.fronts[p])}")
        if any(c not in data.cities for c in state.taken[p]):
            raise SetupError(f"taken.{p}", "only city cards are taken")
    for key in ("deck", "discard", "city_deck", "removed"):
        if key in setup:
            listed = _cards(state, setup[key], key, pool)
            cities_wanted = key in ("city_deck", "removed")
            if any((c in data.cities) != cities_wanted for c in listed):
                raise SetupError(key, "only city cards go here" if cities_wanted else "city cards have their own deck")
            setattr(state, key, listed)
    rest = sorted(c for c in pool.elements() if c not in data.cities)
    where = setup.get("rest", "deck")
    if where not in ("deck", "discard"):
        raise SetupError("rest", f"must be 'deck' or 'discard', not {where!r}")
    if where == "deck":
        state.deck = state.deck + rest
    else:
        state.discard = state.discard + rest
    city_rest = sorted(c for c in pool.elements() if c in data.cities)
    where = setup.get("city_rest", "deck")
    if where not in ("deck", "removed"):
        raise SetupError("city_rest", f"must be 'deck' or 'removed', not {where!r}")
    if where == "deck":
        state.city_deck = state.city_deck + city_rest
    else:
        state.removed = state.removed + city_rest
    if any(c is None for c in state.city_at):
        raise SetupError("lines", "every line has a city while the game goes on")
    turn = setup.get("turn", players[0])
    if turn not in players:
        raise SetupError("turn", f"must be one of {', '.join(players)}, not {turn!r}")
    state.current = players.index(turn)


NOTATION_HELP = """\
Actions (lines are numbered 1 to 4 from the top; left = the next player clockwise):
  line <n> left|right <kind>   action 1: a train card from your hand beside city <n>, draw
  front <kind>                 action 3: a train card from your hand in front of you
  back <kind>                  action 4: a card in front of you back to your hand
  play swap <place> <place>    action card 1; a place is <line>:<kind> or P<n>:<kind>
  play clear-two <col> <n> <n> action card 2; a column is L1 (next left of the city), L2,
                               ..., R1, R2 ...
  play clear-three <col> <n> <n> <n>  action card 3
  play trade left|right <kind> action card 4: offer a train card of your hand
  give <kind> | decline        the player asked: trade a train card back, or refuse
  offer <kind> | decline       after trading: pass the trade on the same way, or stop
  play close-line <n>          action card 5: city <n> and its cards leave
  claim <n> | pass             after an action, when your front matches line <n>
  discard <card>               only when none of the four actions is possible
  pass                         instead, with no_action=pass
  play trade                   with empty_trade=true and no train card in hand: spend the
                               Trade card for no exchange, draw
Setup: deck and city_deck (top first; five cards dealt to P1, then P2 ...); or hands and
fronts {P1: [...]}, lines (four rows as they lie, e.g. [sleeper, moscow, mail]), discard,
taken, removed, turn, rest (deck or discard), city_rest (deck or removed); data: {trains:
{kind: copies}, actions: {effect: copies}, cities: [{id, country, points, capital, line}]}
replaces the cards.
Chance: deal, cities (the first shuffles), reshuffle (a new deck from the discard pile).
Fields for expect: phase (act, claim, answer, continue, over), to_move, turn, trade,
dead_ends, quiet_turns (turns in a row without progress), score, breakdown (cities, points, flags, capitals, total per side),
line_cities, deck, deck_top (the next three), deck_size, discard,
city_deck, removed, line1 ... line4, and per player hand, front, offer, taken.
Result fields for end: winner, winners, shared, order, ranks, scores, breakdown, tiebreaks,
teams.
Parameters (--param, or params: in a scenario): istanbul=true, homeland=true (the special
city is shuffled in), teams=true (4 players only: P1 and P3 against P2 and P4), claim=cover
(default), within or exact (how the front must match a line), dead_end=no-progress (default:
reset once every player has taken two turns in a row in which no city was taken or closed and
no card left a line or a front for the discard pile) or repeat (when a turn begins in a position
seen before), no_action=discard (default) or pass, empty_trade=false (default) or true,
homeland_row=own (default) or a country id such as france (Homeland joins that flag row).
"""
