"""The Flamme Rouge rules engine: a bicycle race on a course of two-lane squares.

Each player steers a rouleur and a sprinteur. A round is an energy phase (every player, in
secret, draws four cards for one rider, keeps one, then does the same for the other), a movement
phase (riders move by their cards from the front of the race to the back) and an end phase
(played cards leave the game, groups slipstream, riders facing open road take exhaustion cards).
The course is a plain string of terrain codes, one per square in race order: S start area,
N normal road, A climb, D descent, F past the finish line. Squares are numbered from 1; lanes are
"right" and "left". Cards are written as their value, an exhaustion card as `x`.

The engine is written for speed as well as for scenarios: positions live in flat lists indexed by
square, terrain lookups are precomputed per course, and actions are interned values, so that
`random_race` can play many full races per second through the same `apply` the scenarios use.
"""

from __future__ import annotations

import copy
import operator
import random
from dataclasses import dataclass
from functools import cached_property
from typing import Any

from verify.kit import Visibility, Zone
from verify.engine import (
    Action, Chance, Game, IllegalAction, NotationError, SetupError, State, player_names,
)

RIDERS = ("rouleur", "sprinteur")
SEAT_COLOURS = ("green", "red", "blue", "black")
LANES = ("right", "left")
HAND_SIZE = 4
CLIMB_CAP = 5
DESCENT_MIN = 5
EXHAUSTION = "x"
NO_CARD = "-"  # a rider with no cards left and an empty exhaustion pile still moves; see rulings
TERRAINS = "SNADF"
EMPTY = -1
SETUP_KEYS = ("riders", "decks", "recycled", "exhaustion_left", "round", "energy")
NO_CLIMB = 1 << 30  # next_climb of a square with no climb ahead

# Readings of open rules, chosen with game parameters (see rulings.yaml); the first is the default.
READINGS = {
    "climb_rule": ("stop", "cap"),
    "climb_slipstream": ("rider", "group"),
    "exhaustion_supply": ("limited", "unlimited"),
    "final_end_phase": (False, True, "riders-behind"),
}


# --- actions -----------------------------------------------------------------------------------

class _Written(Action):
    """An action whose notation is written once, when it is made: most are made once and played
    in many races (see _Interned)."""

    def __post_init__(self) -> None:
        object.__setattr__(self, "_text", self.notation())

    def __str__(self) -> str:
        return self._text

    def notation(self) -> str:
        raise NotImplementedError


@dataclass(frozen=True)
class Start(_Written):
    """Place a rider on a square of the start area before the race."""

    rider: str
    square: int

    def notation(self) -> str:
        return f"start {self.rider} {self.square}"


@dataclass(frozen=True)
class Draw(_Written):
    """Draw four cards from one rider's face-down pile."""

    rider: str

    def notation(self) -> str:
        return f"draw {self.rider}"


@dataclass(frozen=True)
class Keep(_Written):
    """Keep one card of the hand just drawn; the rest go to the rider's recycled pile."""

    card: int | str

    def notation(self) -> str:
        return f"keep {self.card}"


class _Interned(dict):
    """Actions by their arguments, each made the first time it is asked for."""

    def __init__(self, make):
        super().__init__()
        self.make = make

    def __missing__(self, key) -> Action:
        action = self[key] = self.make(key)
        return action


# Interned so that legal_actions allocates nothing but its list in the hot loop of random races.
DRAWS = {rider: Draw(rider) for rider in RIDERS}
keep_action = _Interned(Keep).__getitem__  # by card
# The keeps a hand offers, one per value in the order drawn, by the hand's cards: a few thousand
# hands at most, and working the list out afresh cost more than the rest of legal_actions.
_KEEPS = _Interned(lambda hand: tuple(map(keep_action, dict.fromkeys(hand))))
_STARTS = _Interned(lambda key: Start(*key))  # by (rider, square)
# The draws open to a player, by (rouleur still to choose, sprinteur still to choose).
_DRAW_CHOICES = {(a, b): tuple(DRAWS[r] for r, free in zip(RIDERS, (a, b)) if free)
                 for a in (False, True) for b in (False, True)}


def parse_card(text: str) -> int | str:
    text = text.strip().lower()
    if text == EXHAUSTION:
        return EXHAUSTION
    if text.isdigit():
        return int(text)
    raise NotationError(f"{text!r} is not a card: write its value (e.g. 7) or x for an exhaustion card")


def card_sort_key(card) -> tuple:
    return (1, 0) if card == EXHAUSTION else (0, card) if isinstance(card, int) else (2, 0)


def card_sums(energy: dict) -> tuple[dict, int, list[tuple[int, int]]]:
    """What the card check needs to tell a rider's cards from its deck in one pass: each card's
    weight, the bit where exhaustion cards start, and per rider (in seat order) the sum of its
    energy cards' weights and their number.

    Each energy value is a digit of `bits` bits, so a sum of weights holds the count of every
    value, and exhaustion cards are counted above them all. A digit counts past twice the largest
    deck, and the check wants the deck's number of energy cards as well, so equal sums mean equal
    cards: the check is exact, not a hash."""
    decks = [energy.get((colour, rider), []) for colour in SEAT_COLOURS for rider in RIDERS]
    values = sorted({v for deck in decks for v in deck})
    bits = max(6, (2 * max(map(len, decks), default=1)).bit_length())
    weight: dict[Any, int] = {v: 1 << (bits * i) for i, v in enumerate(values)}
    shift = bits * len(values)
    weight[EXHAUSTION] = 1 << shift
    return weight, shift, [(sum(map(weight.__getitem__, deck)), len(deck)) for deck in decks]


# --- the course --------------------------------------------------------------------------------

class Course:
    """Terrain of one course with the lookups movement needs, all indexed by square (1-based)."""

    def __init__(self, codes: str, mountains: bool = True):
        codes = "".join(codes.split()).upper()
        bad = sorted(set(codes) - set(TERRAINS))
        if bad:
            raise ValueError(f"course: unknown terrain code {bad[0]!r}; use S, N, A, D or F")
        if "F" not in codes:
            raise ValueError("course: no finish squares (F)")
        finish = codes.index("F")
        if finish == 0 or set(codes[finish:]) != {"F"}:
            raise ValueError("course: the F squares must come last, after at least one other square")
        starts = len(codes) - len(codes.lstrip("S"))
        if "S" in codes[starts:]:
            raise ValueError("course: the start area (S) must come first")
        self.codes = codes
        self.mountains = mountains
        self.length = len(codes)
        self.finish = finish + 1  # first square past the line
        self.start_squares = list(range(1, starts + 1))
        terrain = [" "] + [c if mountains or c not in "AD" else "N" for c in codes]
        self.climb = [t == "A" for t in terrain] + [False]
        self.descent = [t == "D" for t in terrain] + [False]
        # next_climb[s]: the first climb square at or after s, NO_CLIMB when none, so "how far is
        # the climb ahead" and "is any of squares a..b a climb" are one comparison. NO_CLIMB lies
        # beyond any move, so the end of the course never counts as a climb.
        self.next_climb = [0] * (self.length + 2)
        nxt = NO_CLIMB
        self.next_climb[self.length + 1] = nxt
        for s in range(self.length, -1, -1):
            if self.climb[s]:
                nxt = s
            self.next_climb[s] = nxt
        # prev_climb[s]: the last climb square at or before s, 0 when none.
        self.prev_climb = [0] * (self.length + 2)
        prev = 0
        for s in range(self.length + 2):
            if self.climb[s]:
                prev = s
            self.prev_climb[s] = prev


# --- the game ----------------------------------------------------------------------------------

class FlammeRouge(Game):
    """Parameters: stage (a stage id of the content), course (terrain codes, instead of a stage),
    mountains (False treats climbs and descents as normal road), handicap ({player: extra
    exhaustion cards in each of that player's two decks}), and the readings of open rules:
    climb_rule (stop: a rider whose 6th or later step would enter a climb stops before it; cap:
    any 6+ card whose move touches a climb counts 5), climb_slipstream (rider: a rider on a climb
    neither takes nor gives slipstream; group: no climb square anywhere in the moving group, the
    gap or the rear of the group in front), exhaustion_supply (limited: an empty pile gives no
    card; unlimited: the pile never runs out) and final_end_phase (false: the race ends with the
    movement in which a rider crosses the line; true: that round's end phase is played first;
    riders-behind: it is played by the riders still behind the line only)."""

    id = "flamme-rouge"
    min_players = 2
    max_players = 4
    PARAMS = ("stage", "course", "mountains", "handicap", *READINGS)

    def __init__(self, content=None, **params):
        super().__init__(content, **params)
        unknown = sorted(set(params) - set(self.PARAMS))
        if unknown:
            raise ValueError(f"params: unknown parameter {unknown[0]!r}; expected one of {', '.join(self.PARAMS)}")
        for key, values in READINGS.items():
            value = params.get(key, values[0])
            if value not in values or type(value) not in {type(v) for v in values}:
                shown = " or ".join(str(v).lower() for v in values)
                raise ValueError(f"params.{key}: must be {shown}, not {value!r}")
        self.stop_before_climb = params.get("climb_rule", "stop") == "stop"
        self.rider_slipstream = params.get("climb_slipstream", "rider") == "rider"
        self.unlimited_exhaustion = params.get("exhaustion_supply", "limited") == "unlimited"
        self.final_end_phase = params.get("final_end_phase", False)

    # Cached: a Game is fixed, and random races create thousands of states from one.
    @cached_property
    def course(self) -> Course:
        mountains = self.params.get("mountains", True)
        if not isinstance(mountains, bool):
            raise ValueError("params.mountains: must be true or false")
        codes = self.params.get("course")
        if codes is not None:
            if not isinstance(codes, str):
                raise ValueError("params.course: must be a text of terrain codes such as 'SSSNNNAAFF'")
            return Course(codes, mountains)
        from cardgen.games.flamme_rouge.course import stage_squares  # the content side; only needed for real stages

        stage = self.params.get("stage")
        if stage is None:
            stages = self.stage_ids()
            if not stages:
                raise ValueError("params: give a stage or a course; the content has no stages")
            stage = stages[0]
        if stage not in self.stage_ids():
            raise ValueError(f"params.stage: unknown stage {stage!r}; known: {', '.join(self.stage_ids())}")
        return Course("".join(stage_squares(self.content, stage)), mountains)

    def stage_ids(self) -> list[str]:
        stages = (self.content.files.get("stages") or {}).get("stages", []) if self.content else []
        return [s["id"] for s in stages]

    @cached_property
    def cards(self) -> tuple[dict, dict, dict]:
        """(energy values by (colour, rider), exhaustion pile size by rider, value of each card)."""
        energy: dict[tuple[str, str], list[int]] = {}
        piles = {rider: 0 for rider in RIDERS}
        exhaustion_values = set()
        for card in self.content.cards:
            deck = card["deck"]
            kind, _, deck_rider = deck.partition("-")
            rider = card.get("rider", deck_rider)
            if kind == "energy":
                energy.setdefault((card["colour"], rider), []).extend([card["value"]] * card.get("copies", 1))
            elif kind == "exhaustion":
                piles[rider] += card.get("copies", 1)
                exhaustion_values.add(card["value"])
        if len(exhaustion_values) != 1:
            raise ValueError(f"cards: expected one exhaustion card value, found {sorted(exhaustion_values)}")
        value = exhaustion_values.pop()
        value_of: dict[Any, int] = {EXHAUSTION: value, NO_CARD: value}
        for values in energy.values():
            for v in values:
                value_of[v] = v
        return {k: sorted(v) for k, v in energy.items()}, piles, value_of

    @cached_property
    def reach(self) -> list[list[int]]:
        """reach[s][v]: the square a rider on square s reaches with a card worth v when no rider
        is in the way, for every square of the course and every card value: worked out once per
        course, as the movement phase asks for it for every rider of every round."""
        values = range(max(9, *self.cards[2].values()) + 1)
        return [[self.open_road(s, v) for v in values] for s in range(self.course.length + 1)]

    def open_road(self, s: int, value: int) -> int:
        """The square a rider on square s reaches with a card worth `value` when no rider is in
        the way: at least 5 squares from a descent; at most 5 when the move touches a climb, or, by
        default, a move of 6 or more stops before the climb it would enter on its 6th or later step
        (see the rulings); never past the end of the course."""
        course = self.course
        if course.descent[s] and value < DESCENT_MIN:
            value = DESCENT_MIN
        if value > CLIMB_CAP:
            # ahead: 0 on a climb, else the step that would enter the first climb ahead
            ahead = course.next_climb[s] - s
            if ahead <= CLIMB_CAP:
                value = CLIMB_CAP  # on a climb, or entering one within the first 5 steps
            elif ahead <= value:
                value = ahead - 1 if self.stop_before_climb else CLIMB_CAP
        return min(s + value, course.length)

    @cached_property
    def card_sums(self) -> tuple[dict, int, list[tuple[int, int]]]:
        return card_sums(self.cards[0])

    def handicap(self, players: list[str]) -> dict[str, int]:
        handicap = self.params.get("handicap") or {}
        if not isinstance(handicap, dict):
            raise ValueError("params.handicap: must map players to a number of cards, e.g. {P1: 1}")
        for player, extra in handicap.items():
            if player not in players:
                raise ValueError(f"params.handicap: unknown player {player!r}")
            if not isinstance(extra, int) or isinstance(extra, bool) or extra < 0:
                raise ValueError(f"params.handicap.{player}: must be a whole number of cards")
        return handicap

    def new_state(self, players: int, seed: int | None = None, setup: dict | None = None) -> "FlammeRougeState":
        if not self.min_players <= players <= self.max_players:
            raise SetupError("players", f"Flamme Rouge takes {self.min_players}-{self.max_players} players, not {players}")
        state = FlammeRougeState(self, players, Chance(seed))
        state.deal(setup or {})
        return state

    def notation_help(self) -> str:
        return NOTATION_HELP


NOTATION_HELP = """\
Actions (Pn: <action>):
  start <rider> <square>   place a rider before the race (rider: rouleur or sprinteur; square: 1 is
                           the rearmost square of the start area); right lane if free, else left
  draw <rider>             energy phase: draw 4 cards of that rider's deck
  keep <card>              keep one card of the hand (its value, or x for an exhaustion card)
Params: stage, course (terrain codes S N A D F), mountains (true/false), handicap ({P1: 1}),
  climb_rule (stop, cap), climb_slipstream (rider, group), exhaustion_supply (limited, unlimited),
  final_end_phase (false, true, riders-behind): the readings of open rules, first the default
  (see the rulings)
Setup: riders {P1: {rouleur: [square, right|left]}}, decks {P1: {rouleur: [top card first]}},
  energy {rouleur: [values 1-9]} (a test deck for every rider of that kind, instead of the cards),
  recycled {P1: {rouleur: [...]}}, exhaustion_left {rouleur: n}, round
  (energy cards a setup leaves out of decks and recycled piles count as already played)
Chance kinds: shuffle.<player>.<rider> (the start shuffle and every reshuffle of recycled cards)
Expect fields: phase (start, energy, over), round, to_move, order, rider.P1.rouleur [square, lane],
  hand.P1, kept.P1.rouleur, deck.P1.rouleur (cards face down), recycled.P1.rouleur (sorted),
  played.P1.rouleur (cards out of the game), exhaustion_left.rouleur
End fields: winner, order (every rider, first to last, e.g. "P2 sprinteur"), rounds"""


# --- the state ---------------------------------------------------------------------------------

class FlammeRougeState(State):
    """One race. Rider r belongs to player r // 2; r % 2 is 0 for the rouleur, 1 for the sprinteur."""

    # Every field, kept in slots (see `verify.engine.State`).
    __slots__ = ('_dirty', '_energy_sums', '_full', '_left_seen', '_made_seen', '_moved',
                 '_piles', '_result', '_seen_played', '_seen_recycled', '_seen_top', '_weight', '_x_count', '_x_shift', 'chance', 'choosing',
                 'course', 'deck', 'exhaustion_aside', 'exhaustion_left', 'exhaustion_made', 'game', 'hand',
                 'hand_rider', 'kept', 'lane', 'occ', 'phase', 'place_turn', 'played', 'player_index',
                 'players', 'recycled', 'round', 'seen_squares', 'shuffle_kind', 'square', 'value_of',
                 'waiting')

    def __init__(self, game: FlammeRouge, players: int, chance: Chance):
        self.game = game
        self.course = game.course
        self.players = player_names(players)
        self.player_index = {p: i for i, p in enumerate(self.players)}
        self.shuffle_kind = [f"shuffle.{p}.{rider}" for p in self.players for rider in RIDERS]  # chance kinds by rider
        self.chance = chance
        riders = 2 * players
        self.square = [0] * riders
        self.lane = [0] * riders
        # occ[2 * square + lane] is the rider there or EMPTY; one slot of slack past the last square
        self.occ = [EMPTY] * (2 * (self.course.length + 2))
        self.deck: list[list] = [[] for _ in range(riders)]  # face down, top card first
        self.recycled: list[list] = [[] for _ in range(riders)]  # face up, under the deck
        self.played: list[list] = [[] for _ in range(riders)]  # out of the game
        self.kept: list = [None] * riders
        self.hand: list[list | None] = [None] * players
        self.hand_rider = [0] * players
        self.waiting = 0  # players still choosing in this energy phase
        self.choosing: list[str] = []  # those players, in seat order
        self.phase = "start"
        self.round = 0
        self.place_turn = 0
        self.exhaustion_left = [0, 0]
        self.exhaustion_aside = [0, 0]  # pile cards a scenario setup took out of play
        self.exhaustion_made = [0, 0]  # cards added to an empty pile that never runs out
        self.seen_squares: list[int] | None = None
        self._result: dict | None = None
        # Incremental invariant checks: the riders whose cards changed since the last check, whether
        # the next check looks at everything, whether anyone moved, and each rider's exhaustion
        # cards at that check.
        self._dirty: set[int] = set()
        self._full = True
        self._moved = True
        self._x_count = [0] * riders
        self._left_seen: list[int] = []
        self._made_seen: list[int] = []
        # Each rider's cards as last found right (see check_invariants): hand and face-down pile,
        # played and kept cards, recycled cards; None until counted.
        self._seen_top: list[list | None] = [None] * riders
        self._seen_played: list[list | None] = [None] * riders
        self._seen_recycled: list[list | None] = [None] * riders
        self._piles = game.cards[1]
        self.value_of = game.cards[2]
        self._count_energy(game.cards[0])

    def _count_energy(self, energy: dict) -> None:
        """The energy cards each rider owns, summed once for the conservation check."""
        if energy is self.game.cards[0]:
            weight, shift, sums = self.game.card_sums
        else:
            weight, shift, sums = card_sums(energy)
        self._weight, self._x_shift = weight.__getitem__, shift
        self._energy_sums = sums[:len(self.square)]

    # --- setting up ---------------------------------------------------------------------------
    def deal(self, setup: dict) -> None:
        game = self.game
        energy, piles, _ = game.cards
        for key in setup:
            if key not in SETUP_KEYS:
                raise SetupError(key, f"unknown setup field; expected one of {', '.join(SETUP_KEYS)}")
        if "energy" in setup:
            energy = self._test_energy(setup["energy"], energy)
        handicap = game.handicap(self.players)
        self.exhaustion_left = [piles[rider] for rider in RIDERS]
        decks = self._per_rider(setup, "decks")
        recycled = self._per_rider(setup, "recycled")
        for p, player in enumerate(self.players):
            colour = SEAT_COLOURS[p]
            for k, rider in enumerate(RIDERS):
                r = 2 * p + k
                full = energy.get((colour, rider))
                if not full:
                    raise SetupError("players", f"the cards have no {colour} {rider} deck for {player}")
                if (player, rider) in decks or (player, rider) in recycled:
                    self._deal_given(r, full, decks.get((player, rider), []), recycled.get((player, rider), []))
                else:
                    extra = handicap.get(player, 0)
                    if extra > self.exhaustion_left[k]:
                        raise ValueError(f"params.handicap.{player}: only {self.exhaustion_left[k]} {rider} exhaustion cards are left")
                    self.exhaustion_left[k] -= extra
                    self.deck[r] = self.chance.shuffle(self.shuffle_kind[r], full + [EXHAUSTION] * extra)
        if "exhaustion_left" in setup:
            self._set_exhaustion_left(setup["exhaustion_left"])
        if "riders" in setup:
            self._place_given(setup["riders"])
            self.phase = "energy"
            self.round = 1
            self.waiting = len(self.players)
            self.choosing = self.players[:]
        elif len(self.course.start_squares) < len(self.players):
            raise SetupError("riders", f"the start area has {len(self.course.start_squares)} squares, too few for {len(self.players)} players")
        if "round" in setup:
            if not isinstance(setup["round"], int) or setup["round"] < 1:
                raise SetupError("round", "must be a whole number from 1")
            self.round = setup["round"]
        self.seen_squares = self.square[:]

    def _test_energy(self, given, energy: dict) -> dict:
        """A test deck for every player's rider of a kind: {rouleur: [values]} replaces the
        printed energy cards of that kind (any values from 1 to 9, e.g. a 1 or an 8 the real
        decks lack), so a rule can be pinned on a card no deck holds."""
        if not isinstance(given, dict) or not given:
            raise SetupError("energy", "must map rouleur and/or sprinteur to a list of card values")
        energy = dict(energy)
        value_of = dict(self.value_of)
        for rider, values in given.items():
            if rider not in RIDERS:
                raise SetupError(f"energy.{rider}", "unknown rider; use rouleur or sprinteur")
            if (not isinstance(values, list) or not values
                    or not all(isinstance(v, int) and not isinstance(v, bool) and 1 <= v <= 9 for v in values)):
                raise SetupError(f"energy.{rider}", "must be a list of card values from 1 to 9")
            for colour in SEAT_COLOURS:
                energy[(colour, rider)] = sorted(values)
            value_of.update({v: v for v in values})
        self.value_of = value_of
        self._count_energy(energy)
        return energy

    def _per_rider(self, setup: dict, key: str) -> dict[tuple[str, str], list]:
        given = setup.get(key, {})
        if not isinstance(given, dict):
            raise SetupError(key, "must map players to {rouleur: [...], sprinteur: [...]}")
        result = {}
        for player, piles in given.items():
            if player not in self.player_index:
                raise SetupError(f"{key}.{player}", f"unknown player; the players are {', '.join(self.players)}")
            if not isinstance(piles, dict):
                raise SetupError(f"{key}.{player}", "must map rouleur and/or sprinteur to a list of cards")
            for rider, cards in piles.items():
                if rider not in RIDERS:
                    raise SetupError(f"{key}.{player}.{rider}", "unknown rider; use rouleur or sprinteur")
                if not isinstance(cards, list):
                    raise SetupError(f"{key}.{player}.{rider}", "must be a list of cards")
                try:
                    result[(player, rider)] = [c if isinstance(c, int) else parse_card(str(c)) for c in cards]
                except NotationError as exc:
                    raise SetupError(f"{key}.{player}.{rider}", str(exc)) from None
        return result

    def _deal_given(self, r: int, full: list[int], deck: list, recycled: list) -> None:
        """Deal exactly the named piles; energy cards left unnamed have been played already, and
        named exhaustion cards come out of the pile, so every card is still in one place."""
        player, rider = self.players[r // 2], RIDERS[r % 2]
        rest = list(full)
        for card in deck + recycled:
            if card == EXHAUSTION:
                if self.exhaustion_left[r % 2] == 0:
                    raise SetupError(f"decks.{player}.{rider}", "more exhaustion cards than the pile holds")
                self.exhaustion_left[r % 2] -= 1
            elif card in rest:
                rest.remove(card)
            else:
                raise SetupError(f"decks.{player}.{rider}", f"card {card} is not (or no longer) in the {rider} deck {full}")
        self.deck[r] = list(deck)
        self.recycled[r] = list(recycled)
        self.played[r] = rest

    def _set_exhaustion_left(self, given) -> None:
        if not isinstance(given, dict):
            raise SetupError("exhaustion_left", "must map rouleur and/or sprinteur to a number of cards")
        for rider, count in given.items():
            if rider not in RIDERS:
                raise SetupError(f"exhaustion_left.{rider}", "unknown rider; use rouleur or sprinteur")
            k = RIDERS.index(rider)
            if not isinstance(count, int) or isinstance(count, bool) or not 0 <= count <= self.exhaustion_left[k]:
                raise SetupError(f"exhaustion_left.{rider}", f"must be a whole number from 0 to {self.exhaustion_left[k]}")
            self.exhaustion_aside[k] = self.exhaustion_left[k] - count
            self.exhaustion_left[k] = count

    def _place_given(self, given) -> None:
        if not isinstance(given, dict):
            raise SetupError("riders", "must map players to {rouleur: [square, lane], sprinteur: [square, lane]}")
        for p, player in enumerate(self.players):
            mine = given.get(player)
            if not isinstance(mine, dict):
                raise SetupError(f"riders.{player}", "missing: give both riders' squares")
            for k, rider in enumerate(RIDERS):
                where = f"riders.{player}.{rider}"
                spot = mine.get(rider)
                if isinstance(spot, int):
                    spot = [spot]
                if not isinstance(spot, list) or not 1 <= len(spot) <= 2 or not isinstance(spot[0], int):
                    raise SetupError(where, "must be [square] or [square, right|left]")
                square, lane_name = spot[0], (spot[1] if len(spot) == 2 else "right")
                if not 1 <= square < self.course.finish:
                    raise SetupError(where, f"square must be from 1 to {self.course.finish - 1} (before the finish line)")
                if lane_name not in LANES:
                    raise SetupError(where, "lane must be right or left")
                lane = LANES.index(lane_name)
                if self.occ[2 * square + lane] != EMPTY:
                    raise SetupError(where, f"square {square} {lane_name} lane is taken")
                self._put(2 * p + k, square, lane)
            extra = sorted(set(mine) - set(RIDERS))
            if extra:
                raise SetupError(f"riders.{player}.{extra[0]}", "unknown rider; use rouleur or sprinteur")
        for r in range(len(self.square)):
            if self.lane[r] == 1 and self.occ[2 * self.square[r]] == EMPTY:
                raise SetupError("riders", f"a rider alone on square {self.square[r]} stands in the right lane, not the left")

    # --- positions ----------------------------------------------------------------------------
    def _put(self, r: int, square: int, lane: int) -> None:
        self.square[r] = square
        self.lane[r] = lane
        self.occ[2 * square + lane] = r

    def _lift(self, r: int) -> None:
        """Take a rider off its square; a rider left alone in the left lane moves to the right."""
        i = 2 * self.square[r]
        occ = self.occ
        if self.lane[r] == 0:
            other = occ[i + 1]
            occ[i + 1] = EMPTY
            occ[i] = other
            if other != EMPTY:
                self.lane[other] = 0
        else:
            occ[i + 1] = EMPTY

    def _front_to_back(self) -> list[int]:
        # Sorted by lane - 2 * square: the furthest square first, on a square the right lane first.
        square = self.square
        keys = list(map(operator.sub, self.lane, map(operator.add, square, square)))
        return sorted(range(len(square)), key=keys.__getitem__)

    def rider_name(self, r: int) -> str:
        return f"{self.players[r // 2]} {RIDERS[r % 2]}"

    # --- turns --------------------------------------------------------------------------------
    def to_move(self) -> list[str]:
        if self.phase == "energy":
            return self.choosing[:]
        if self.phase == "start":
            return [self.players[self.place_turn % len(self.players)]]
        return []

    def legal_actions(self, player: str) -> list[Action]:
        p = self.player_index[player]
        if self.phase == "energy":
            hand = self.hand[p]
            if hand is not None:
                return list(_KEEPS[tuple(hand)])
            return list(_DRAW_CHOICES[self.kept[2 * p] is None, self.kept[2 * p + 1] is None])
        if self.phase == "start" and self.to_move() == [player]:
            actions = []
            for k, rider in enumerate(RIDERS):
                if self.square[2 * p + k] == 0:
                    actions += [_STARTS[rider, s] for s in self.course.start_squares if self.occ[2 * s + 1] == EMPTY]
            return actions
        return []

    def parse_action(self, text: str) -> Action:
        words = text.split()
        verb = words[0].lower() if words else ""
        if verb == "start" and len(words) == 3:
            rider = self._parse_rider(words[1])
            if not words[2].isdigit():
                raise NotationError(f"{words[2]!r} is not a square number")
            return Start(rider, int(words[2]))
        if verb == "draw" and len(words) == 2:
            return DRAWS[self._parse_rider(words[1])]
        if verb == "keep" and len(words) == 2:
            return keep_action(parse_card(words[1]))
        raise NotationError(f"cannot read {text!r}; expected 'start <rider> <square>', 'draw <rider>' or 'keep <card>'")

    @staticmethod
    def _parse_rider(word: str) -> str:
        rider = word.lower()
        if rider not in RIDERS:
            raise NotationError(f"{word!r} is not a rider; use rouleur or sprinteur")
        return rider

    def apply(self, player: str, action: Action) -> None:
        # Keep and draw are written out here rather than in helpers: a race is some two hundred of
        # them, and this is the path every playout and scenario step takes. Whatever they refuse,
        # `_refusal` explains, in the order the rules ask.
        p = self.player_index.get(player)
        kind = type(action)
        if p is not None and self.phase == "energy":
            if kind is Keep:
                hand = self.hand[p]
                card = action.card
                if hand is not None and card in hand:
                    r = self.hand_rider[p]
                    self._dirty.add(r)
                    hand.remove(card)
                    kept = self.kept
                    kept[r] = card
                    self.recycled[r].extend(hand)
                    self.hand[p] = None
                    if kept[r ^ 1] is not None:
                        self._chosen(p)
                    return
            elif kind is Draw:
                r = 2 * p if action.rider == "rouleur" else 2 * p + 1
                if self.hand[p] is None and self.kept[r] is None:
                    self._dirty.add(r)
                    deck = self.deck[r]
                    if len(deck) >= HAND_SIZE:
                        self.hand[p] = deck[:HAND_SIZE]
                        del deck[:HAND_SIZE]
                        self.hand_rider[p] = r
                    else:
                        self._draw_short(p, r)
                    return
        elif kind is Start and p is not None and self.phase != "over":
            self._moved = True
            self._start(p, action)
            return
        raise self._refusal(player, action)

    def _refusal(self, player: str, action: Action) -> IllegalAction:
        """Why `apply` refuses `action`: the first rule it breaks."""
        p = self.player_index.get(player)
        if p is None:
            return IllegalAction("players", f"unknown player {player!r}; the players are {', '.join(self.players)}")
        if self.phase == "over":
            return IllegalAction("finish", "the race is over")
        kind = type(action)
        hand = self.hand[p]
        if kind is Keep:
            if self.phase != "energy":
                return IllegalAction("energy phase", "cards are kept only in the energy phase")
            if hand is None:
                return IllegalAction("energy phase", f"{player} has no hand: draw rouleur or draw sprinteur first")
            return IllegalAction("keep", f"{action.card} is not in {player}'s hand {hand}")
        if kind is Draw:
            if self.phase != "energy":
                return IllegalAction("energy phase", "cards are drawn only in the energy phase, after every rider is placed")
            if hand is not None:
                return IllegalAction("energy phase", f"{player} must first keep one of {hand}")
            return IllegalAction("energy phase", f"{player} has already chosen the {action.rider}'s card this round")
        return IllegalAction("notation", f"{action!r} is not a Flamme Rouge action")

    def _start(self, p: int, action: Start) -> None:
        player = self.players[p]
        if self.phase != "start":
            raise IllegalAction("placement", "riders are placed only before the race starts")
        if self.to_move() != [player]:
            raise IllegalAction("placement", f"not your turn: {self.to_move()[0]} places a rider next")
        r = 2 * p + RIDERS.index(action.rider)
        if self.square[r]:
            raise IllegalAction("placement", f"{player}'s {action.rider} is already on square {self.square[r]}")
        starts = self.course.start_squares
        if action.square not in starts:
            raise IllegalAction("placement", f"square {action.square} is not behind the start line (start squares {starts[0]}-{starts[-1]})")
        s = action.square
        if self.occ[2 * s + 1] != EMPTY:
            raise IllegalAction("placement", f"square {s} is full")
        self._put(r, s, 0 if self.occ[2 * s] == EMPTY else 1)
        self.place_turn += 1
        if self.place_turn == len(self.square):
            self.phase = "energy"
            self.round = 1
            self.waiting = len(self.players)
            self.choosing = self.players[:]
            self.seen_squares = self.square[:]

    def _draw_short(self, p: int, r: int) -> None:
        """Draw with fewer than four cards face down: the recycled cards are shuffled into a new
        pile; with no cards at all, the rider plays an exhaustion card straight from the pile."""
        hand = self.deck[r]
        recycled = self.recycled[r]
        if recycled:
            fresh = self.chance.shuffle(self.shuffle_kind[r], recycled)
            recycled.clear()
            need = HAND_SIZE - len(hand)
            hand += fresh[:need]
            self.deck[r] = fresh[need:]
        else:
            self.deck[r] = []
        if hand:
            self.hand[p] = hand
            self.hand_rider[p] = r
            return
        k = r & 1
        if self.exhaustion_left[k]:
            self.exhaustion_left[k] -= 1
            self.kept[r] = EXHAUSTION
        elif self.game.unlimited_exhaustion:
            self.exhaustion_made[k] += 1
            self.kept[r] = EXHAUSTION
        else:
            self.kept[r] = NO_CARD
        self._chosen(p)

    def _chosen(self, p: int) -> None:
        kept = self.kept
        if kept[2 * p] is not None and kept[2 * p + 1] is not None:
            self.waiting -= 1
            self.choosing.remove(self.players[p])
            if not self.waiting:
                self._play_round()

    # --- movement and end phase ---------------------------------------------------------------
    def _play_round(self) -> None:
        # Every rider's cards and place change: the next check looks at everything.
        self._full = self._moved = True
        course = self.course
        occ, square, kept, played = self.occ, self.square, self.kept, self.played
        value_of, lane, reach = self.value_of, self.lane, self.game.reach
        for r in self._front_to_back():
            card = kept[r]
            if card != NO_CARD:
                played[r].append(card)  # played cards leave the race
            s = square[r]
            target = reach[s][value_of[card]]
            while target > s and occ[2 * target + 1] != EMPTY:
                target -= 1
            if target != s:
                # Off its square (a rider left alone in the left lane moves to the right), onto
                # the target's free lane, the right one first.
                i = 2 * s
                if lane[r] == 0:
                    other = occ[i] = occ[i + 1]
                    if other != EMPTY:
                        lane[other] = 0
                occ[i + 1] = EMPTY
                square[r] = target
                i = 2 * target
                if occ[i] == EMPTY:
                    lane[r] = 0
                    occ[i] = r
                else:
                    lane[r] = 1
                    occ[i + 1] = r
        kept[:] = [None] * len(kept)
        if max(square) >= course.finish:
            # By default the race ends with this movement phase: no slipstream, no exhaustion
            # (see the rulings); the other reading plays the end phase first.
            if self.game.final_end_phase is True:
                self._slipstream()
                self._exhaust()
            elif self.game.final_end_phase == "riders-behind":
                # Riders past the line take no part: they neither give slipstream nor shelter.
                self._slipstream(course.finish)
                self._exhaust(course.finish)
            self.phase = "over"
            order = self._front_to_back()
            self._result = {
                "winner": self.players[order[0] // 2],
                "order": [self.rider_name(r) for r in order],
                "rounds": self.round,
            }
            return
        self._slipstream()
        self._exhaust()
        self.round += 1
        self.waiting = len(self.players)
        self.choosing = self.players[:]

    def _slipstream(self, line: int = NO_CLIMB) -> None:
        """From the rear group forward, a group one empty square behind the next moves up to it.

        Near climbs (see the rulings): by default a rider on a climb square neither takes nor gives
        slipstream, so the riders at the rear of the group in front must be off the climb, and of
        the moving group only its front part up to the first rider on a climb moves; the empty
        square may be a climb. The other reading wants no climb square anywhere from the back of
        the moving group to the rear of the group in front. Only riders before square `line` take part."""
        occupied = sorted(set(self.square) if line == NO_CLIMB else {s for s in self.square if s < line})
        if not occupied:
            return
        course = self.course
        rider_reading = self.game.rider_slipstream
        next_climb, prev_climb, climb = course.next_climb, course.prev_climb, course.climb
        occ, square = self.occ, self.square
        # The occupied squares from the back, as groups: [lo, hi] is the group being walked, and a
        # square past hi + 1 starts the group in front of it.
        lo = hi = occupied[0]
        for front in occupied:
            if front <= hi + 1:
                hi = front
                continue
            if front - hi != 2:
                move_from = 0
            elif rider_reading:
                move_from = 0 if climb[front] else max(lo, prev_climb[hi] + 1)
            else:
                move_from = lo if next_climb[lo] > front else 0
            if move_from and move_from <= hi:
                # Squares move_from..hi move up one into the empty square, both lanes at once.
                i, j = 2 * move_from, 2 * hi + 2
                occ[i + 2:j + 2] = occ[i:j]
                occ[i] = occ[i + 1] = EMPTY
                for r in occ[i + 2:j + 2]:
                    if r != EMPTY:
                        square[r] += 1
                lo = move_from + 1
            else:
                lo = front
            hi = front

    def _exhaust(self, line: int = NO_CLIMB) -> None:
        """Riders with an empty square in front take an exhaustion card, front to back, while the
        pile lasts (see the ruling on an empty exhaustion pile). Only riders before square `line`
        take part, and a square from `line` on counts as empty."""
        occ, left, recycled = self.occ, self.exhaustion_left, self.recycled
        unlimited = self.game.unlimited_exhaustion
        # Front to back and the right lane first: the riders of each occupied square in turn.
        occupied = set(self.square) if line == NO_CLIMB else {s for s in self.square if s < line}
        for s in sorted(occupied, reverse=True):
            if s + 1 >= line or occ[2 * s + 2] == EMPTY:
                for r in (occ[2 * s], occ[2 * s + 1]):
                    if r == EMPTY:
                        continue
                    k = r & 1
                    if left[k]:
                        left[k] -= 1
                        recycled[r].append(EXHAUSTION)
                    elif unlimited:
                        self.exhaustion_made[k] += 1
                        recycled[r].append(EXHAUSTION)

    # --- reading the state --------------------------------------------------------------------
    def is_terminal(self) -> bool:
        return self.phase == "over"

    def result(self) -> dict[str, Any]:
        if self._result is None:
            return {"winner": None, "order": [self.rider_name(r) for r in self._front_to_back()], "rounds": self.round}
        return dict(self._result)

    def fields(self) -> dict[str, Any]:
        fields: dict[str, Any] = {
            "phase": self.phase,
            "round": self.round,
            "to_move": self.to_move(),
            "order": [self.rider_name(r) for r in self._front_to_back()],
        }
        for k, rider in enumerate(RIDERS):
            fields[f"exhaustion_left.{rider}"] = self.exhaustion_left[k]
        for p, player in enumerate(self.players):
            fields[f"hand.{player}"] = list(self.hand[p] or [])
            for k, rider in enumerate(RIDERS):
                r = 2 * p + k
                where = f"{player}.{rider}"
                fields[f"rider.{where}"] = [self.square[r], LANES[self.lane[r]]] if self.square[r] else None
                fields[f"kept.{where}"] = self.kept[r]
                fields[f"deck.{where}"] = len(self.deck[r])
                fields[f"recycled.{where}"] = sorted(self.recycled[r], key=card_sort_key)
                fields[f"played.{where}"] = list(self.played[r])
        return fields

    def observation(self, player: str) -> dict[str, Any]:
        """Positions and pile sizes are public; a player sees only its own hand, kept cards and
        recycled cards, and of the others only whether they have chosen."""
        me = self.player_index[player]
        seen: dict[str, Any] = {
            "phase": self.phase, "round": self.round,
            "exhaustion_left": dict(zip(RIDERS, self.exhaustion_left)),
            "riders": {}, "hand": list(self.hand[me] or []),
        }
        for r in range(len(self.square)):
            mine = r // 2 == me
            seen["riders"][self.rider_name(r)] = {
                "square": self.square[r], "lane": LANES[self.lane[r]],
                "deck": len(self.deck[r]),
                "recycled": sorted(self.recycled[r], key=card_sort_key) if mine else len(self.recycled[r]),
                "kept": self.kept[r] if mine else self.kept[r] is not None,
            }
        return seen

    def zones(self) -> list[Zone]:
        """Per rider: its draw deck (face down), its recycled cards (its owner's), the cards played
        (face up, out of the race) and the card kept for this round (its owner's); per player the
        hand being chosen from. Cards are values, so the zones hold values, not card ids."""
        zones = []
        for r in range(len(self.square)):
            owner = self.players[r // 2]
            rider = RIDERS[r % 2]
            zones.append(Zone(f"deck.{rider}", self.deck[r], Visibility.NOBODY, owner=owner, ordered=True))
            zones.append(Zone(f"recycled.{rider}", self.recycled[r], Visibility.OWNER, owner=owner))
            zones.append(Zone(f"played.{rider}", self.played[r], Visibility.EVERYONE, owner=owner, ordered=True))
            kept = [] if self.kept[r] in (None, NO_CARD) else [self.kept[r]]
            zones.append(Zone(f"kept.{rider}", kept, Visibility.OWNER, owner=owner))
        for p, player in enumerate(self.players):
            zones.append(Zone("hand", self.hand[p] if self.hand[p] is not None else [], Visibility.OWNER, owner=player))
        return zones

    def check_invariants(self, full: bool = False) -> list[str]:
        """Every invariant of the parts that changed since the last check: each rider the last
        action touched, and every rider and square after a movement phase (which touches them all),
        so each part of the state is checked whenever it changes and all of it at least once a
        round. With `full`, every rider's cards are counted from scratch.

        Checked: each rider's energy cards are exactly its deck's, once each, across its face-down
        pile, recycled cards, played cards, kept card and hand; a hand holds four cards (fewer only
        when the rider's cards ran out) for a rider with no card kept yet; the players still to
        choose are those with a rider to choose for; every exhaustion card is in one place (pile, a
        rider's cards, set aside by a setup, or added to a pile that never runs out) and the pile
        never goes below zero; every rider stands on the course where the squares say, and no lone
        rider is in the left lane; no rider ever moves back; the race ends in time.

        A rider's cards are counted once; after that the check remembers them as three lists: the
        hand and face-down pile (a draw moves cards from one to the other and leaves the list as it
        was), the played cards and kept card (a movement phase moves the kept card to the played
        ones and leaves it as it was), and the recycled cards. Cards found as they were, or moved
        exactly as a keep moves them (the hand's cards to the kept card and the end of the recycled
        ones), or joined by exhaustion cards at the end of the recycled ones, are the cards already
        found right; any other change is counted again in full."""
        problems: list[str] = []
        if full or self._full:
            self._full = False
            riders = range(len(self.square))
            recount = self._moved = True
        else:
            riders = self._dirty
            recount = False
        energy = self.phase == "energy"
        kept = self.kept
        for r in riders:
            p = r >> 1
            card = kept[r]
            deck, played, recycled = self.deck[r], self.played[r], self.recycled[r]
            held = self.hand[p]
            if held is not None and self.hand_rider[p] == r:
                # A hand drawn: its cards and the face-down pile are the pile as it was.
                top = held + deck
                if card is not None or len(held) != HAND_SIZE and (
                        not held or len(held) > HAND_SIZE or deck or recycled):
                    problems.append(self._hand_problem(r))
                own = played if card is None or card == NO_CARD else played + [card]
                if (full or top != self._seen_top[r] or own != self._seen_played[r]
                        or recycled != self._seen_recycled[r]):
                    recount |= self._count_cards(r, top, own, recycled, problems)
            elif card is None or card == NO_CARD:
                # No card kept: the cards as they were, or exhaustion cards joined the recycled ones.
                if full or deck != self._seen_top[r] or played != self._seen_played[r]:
                    recount |= self._count_cards(r, deck, played, recycled, problems)
                elif recycled != self._seen_recycled[r]:
                    recount |= self._exhausted(r, deck, played, recycled, problems)
            elif full or not self._kept_from_hand(r, card, deck, played, recycled):
                recount |= self._count_cards(r, deck, played + [card], recycled, problems)
            if energy and (card is None or kept[r ^ 1] is None) != (self.players[p] in self.choosing):
                problems.append(self._choosing_problem(p))
        self._dirty.clear()
        if recount or self.exhaustion_left != self._left_seen or self.exhaustion_made != self._made_seen:
            # Exhaustion cards moved: count them all again (per-rider counts are kept up to date).
            self._left_seen, self._made_seen = self.exhaustion_left[:], self.exhaustion_made[:]
            problems += self._exhaustion_problems()
        if self._moved:
            self._moved = False
            problems += self._position_problems()
        if energy and len(self.choosing) != self.waiting:
            problems.append(f"{len(self.choosing)} players are choosing, but {self.waiting} are waited for")
        if self.round > self.course.length:
            problems.append(f"round {self.round}: the race should have ended (the leader gains 2+ squares a round)")
        # Both riders of a player can find the same fault with the player's choosing: told once.
        return list(dict.fromkeys(problems)) if problems else problems

    def _choosing_problem(self, p: int) -> str:
        player, kept = self.players[p], self.kept[2 * p: 2 * p + 2]
        return (f"{player} is {'' if player in self.choosing else 'not '}among the players choosing, "
                f"with {'a rider' if None in kept else 'no rider'} to choose for")

    def _kept_from_hand(self, r: int, card, deck: list, played: list, recycled: list) -> bool:
        """Whether rider r's cards are those last found right, moved as a keep moves them: the
        face-down pile is the end of the old hand and pile, the played cards are as they were, the
        kept card `card` was in the hand, and the hand's other cards follow the old recycled cards
        in their order. The remembered lists then become the new ones."""
        old = self._seen_top[r]
        if old is None:
            return False
        cut = len(old) - len(deck)
        gone = old[:cut]
        if cut <= 0 or card not in gone or played != self._seen_played[r]:
            return False
        rest = old[cut:]
        gone.remove(card)
        now = self._seen_recycled[r] + gone
        if rest != deck or now != recycled:
            return False
        self._seen_top[r], self._seen_played[r], self._seen_recycled[r] = rest, played + [card], now
        return True

    def _exhausted(self, r: int, top: list, own: list, recycled: list, problems: list[str]) -> bool:
        """The card check of a rider whose recycled cards are all that changed: exhaustion cards
        added at their end (as the end phase adds them) are counted as such, anything else is
        counted in full. Returns whether the rider's number of exhaustion cards changed."""
        old = self._seen_recycled[r]
        added = len(recycled) - len(old)
        if added > 0:
            now = old + [EXHAUSTION] * added
            if now == recycled:
                self._seen_recycled[r] = now
                self._x_count[r] += added
                return True
        return self._count_cards(r, top, own, recycled, problems)

    def _count_cards(self, r: int, top: list, own: list, recycled: list, problems: list[str]) -> bool:
        """The card check of rider r in full, from its hand and face-down pile (`top`), its played
        and kept cards (`own`) and its recycled cards; remembers them when right. Returns whether
        the rider's number of exhaustion cards changed."""
        cards = top + own + recycled
        try:
            total = sum(map(self._weight, cards))
        except KeyError:  # a card no deck holds
            total = None
        # Exactly the deck's energy cards, each value as often as in the deck, and nothing else:
        # the same sum of weights and the same number of cards (see card_sums).
        mine, size = self._energy_sums[r]
        xs = -1 if total is None else total >> self._x_shift
        if total is not None and total - (xs << self._x_shift) == mine and len(cards) - xs == size:
            self._seen_top[r], self._seen_played[r], self._seen_recycled[r] = top[:], own[:], recycled[:]
        else:
            self._seen_top[r] = self._seen_played[r] = self._seen_recycled[r] = None  # counted again next time
            xs = cards.count(EXHAUSTION)
            mine = sorted(c for c in cards if c != EXHAUSTION)
            problems.append(f"{self.rider_name(r)}: energy cards {mine} differ from the deck")
        if xs != self._x_count[r]:
            self._x_count[r] = xs
            return True
        return False

    def _hand_problem(self, r: int) -> str:
        p, rider, held = r >> 1, RIDERS[r & 1], self.hand[r >> 1]
        if self.kept[r] is not None:
            return f"{self.players[p]} holds a hand for the {rider}, whose card this round is already kept"
        return (f"{self.players[p]}'s hand for the {rider} holds {len(held)} cards: a draw takes {HAND_SIZE}, "
                f"fewer only when the rider's cards run out")

    def _exhaustion_problems(self) -> list[str]:
        problems = []
        x_count, left, piles = self._x_count, self.exhaustion_left, self._piles
        for k, rider in enumerate(RIDERS):
            total = sum(x_count[k::2]) + left[k] + self.exhaustion_aside[k]
            made = self.exhaustion_made[k]
            if total != piles[rider] + made:
                problems.append(f"{rider} exhaustion cards: {total} accounted for, {piles[rider] + made} exist")
            if made and (left[k] or not self.game.unlimited_exhaustion):
                problems.append(f"{rider} exhaustion cards were added while the pile held {left[k]}")
            if left[k] < 0:
                problems.append(f"the {rider} exhaustion pile holds {left[k]} cards")
        return problems

    def _position_problems(self) -> list[str]:
        occ, square, lane = self.occ, self.square, self.lane
        course = self.course
        # Before the race riders stand in the start area; during it, on the course short of the
        # line (a rider crossing it ends the race); at the end, anywhere on the course.
        if self.phase == "start":
            last = len(course.start_squares)
        elif self.phase == "over":
            last = course.length
        else:
            last = course.finish - 1
        seen = self.seen_squares
        # First in one pass: every rider on a square in range, no further than before, where the
        # squares say, with a rider in the right lane of its square (nobody alone in the left
        # lane), and no other rider named on the squares.
        if self.phase != "start" and seen is not None and len(occ) - occ.count(EMPTY) == len(square):
            for r, s in enumerate(square):
                if not (0 < s <= last and s >= seen[r] and occ[s + s + lane[r]] == r and occ[s + s] != EMPTY):
                    break
            else:
                self.seen_squares = square[:]
                return []
        problems = []
        placed = 0
        for r, s in enumerate(square):
            if s == 0:
                if self.phase != "start":
                    problems.append(f"{self.rider_name(r)} is not on the course")
                continue
            if not 0 < s <= last:
                problems.append(f"{self.rider_name(r)} stands on square {s}, outside squares 1-{last} "
                                f"where it may be {'before' if self.phase == 'start' else 'during'} the race"
                                if self.phase != "over" else
                                f"{self.rider_name(r)} stands on square {s}, off the course of {last} squares")
                if not 0 < s <= course.length:
                    continue  # no such square to look at
            placed += 1
            if occ[2 * s + lane[r]] != r:
                problems.append(f"{self.rider_name(r)}: square {s} does not hold it")
            if lane[r] == 1 and occ[2 * s] == EMPTY:
                problems.append(f"square {s}: a lone rider in the left lane")
        # Every rider stands where the squares say (above) and the squares name no other rider.
        if len(occ) - occ.count(EMPTY) != placed:
            for i, r in enumerate(occ):
                if r == EMPTY:
                    continue
                if not 0 <= r < len(square):
                    problems.append(f"square {i // 2} lane {LANES[i % 2]} names rider {r}, and there is no such rider")
                elif square[r] != i // 2 or lane[r] != i % 2:
                    problems.append(f"square {i // 2} lane {LANES[i % 2]} names {self.rider_name(r)}, which is elsewhere")
        if seen is not None:
            for r, (before, now) in enumerate(zip(seen, square)):
                if now < before:
                    problems.append(f"{self.rider_name(r)} moved back from square {before} to {now}")
            # Remembered here so the next check can tell whether anyone went backwards since.
            self.seen_squares = square[:]
        return problems

    def clone(self) -> "FlammeRougeState":
        """An independent copy; the game, course and card values are shared, never copied."""
        other = self.shallow_copy()
        other.chance = self.chance.copy()
        for name in ("square", "lane", "occ", "kept", "exhaustion_left", "exhaustion_aside", "exhaustion_made",
                     "hand_rider", "_x_count", "_left_seen", "_made_seen", "choosing", "_seen_top", "_seen_played",
                     "_seen_recycled"):
            setattr(other, name, getattr(self, name)[:])
        for name in ("deck", "recycled", "played"):
            setattr(other, name, [pile[:] for pile in getattr(self, name)])
        other.hand = [None if h is None else h[:] for h in self.hand]
        other.seen_squares = None if self.seen_squares is None else self.seen_squares[:]
        other._dirty = set(self._dirty)
        other._result = None if self._result is None else copy.deepcopy(self._result)
        return other


def random_race(game: FlammeRouge, players: int, rng: random.Random) -> FlammeRougeState:
    """Play one whole race with random placements and card choices, through `apply`."""
    state = game.new_state(players, seed=rng.getrandbits(32))
    choice = rng.choice
    while state.phase != "over":
        for player in state.to_move():
            state.apply(player, choice(state.legal_actions(player)))
    return state



