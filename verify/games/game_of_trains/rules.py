"""The Game of Trains rules engine: each player's train of seven numbered carriages, the face-up
market, the draw and discard piles, locks, the opening draft and the eight card abilities.

Positions count from the locomotive: 1 is the carriage next to it, 7 the far end. Which card has
which ability, and what each ability does, is read from the game's content (`cards.yaml` and the
`key` of each entry in `abilities.yaml`), so the engine holds no card table of its own. The draw
pile is kept with its top card at the end of a list so that drawing is a cheap `pop()`.
"""

from __future__ import annotations

from dataclasses import dataclass
from operator import lt
from typing import Any

from verify.engine import Action, Chance, Game, IllegalAction, NotationError, SetupError, State, player_names
from verify.kit import Visibility, Zone

TRAIN_LENGTH = 7
LOCKABLE = (1, 4, 7)
DRAW_TOP_SHOWN = 3  # how many upcoming cards the `draw_top` field lists

DRAFT, PLAY, REFILL, OVER = "draft", "play", "refill", "over"

# The readings the printed rules leave open, as game parameters: the first value of each is the
# default (the reading the rules' own words favour; see rulings.yaml), the others are playable.
PARAMS = {
    # together: every player chooses a card and a place without seeing anyone else's choice, and
    # the choices are shown at once; in-turn: each player chooses and places in seat order, seeing
    # the placements made before; keep-then-place: everyone keeps a card in seat order first, then
    # everyone places it in seat order, seeing the placements made before.
    "draft": ("together", "in-turn", "keep-then-place"),
    # losers: after an Uncouple only the players who lost a carriage draw; everyone: a player whose
    # carriage was locked draws too, in turn, and places the card as with a draw.
    "refill": ("losers", "everyone"),
    # at-once: the discard pile becomes the draw pile as soon as the last card is drawn;
    # when-needed: only when the next card must be drawn.
    "reshuffle": ("at-once", "when-needed"),
    # after-removals: several carriages reach the market together, then pairs leave (of an odd
    # number alike, the card that arrived first stays); on-arrival: each carriage pairs as it
    # arrives (the last to arrive stays).
    "pairs": ("after-removals", "on-arrival"),
    # refused: an ability that would change nothing cannot be used; allowed: it can, only to take
    # its card out of the market (an Uncouple that removes nothing, a Lock with nowhere to go).
    "no_effect": ("refused", "allowed"),
}

# What an ability does, by its key in abilities.yaml: (kind, parameter).
BEHAVIOURS = {
    "swap-adjacent": ("swap", 1),
    "swap-over-one": ("swap", 2),
    "shift-right": ("move", 2),
    "shift-left": ("move", -2),
    "remove-first": ("uncouple", 1),
    "remove-middle": ("uncouple", 4),
    "remove-last": ("uncouple", 7),
    "lock": ("lock", 0),
}

USAGE = {
    "swap": "use {card} swap <position> <position>",
    "move": "use {card} move <from> <to>",
    "uncouple": "use {card}",
    "lock": "use {card} lock <1, 4 or 7>",
}


# --- actions ------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Draft(Action):
    """Keep one card drawn in the opening draft and put it at a position of your train."""

    card: int
    position: int

    def __str__(self) -> str:
        return f"draft {self.card} at {self.position}"


@dataclass(frozen=True, slots=True)
class Keep(Action):
    """Keep one card drawn in the opening draft, to place it later (draft=keep-then-place)."""

    card: int

    def __str__(self) -> str:
        return f"keep {self.card}"


@dataclass(frozen=True, slots=True)
class DrawPlace(Action):
    """Take the top card of the draw pile and put it at a position of your train."""

    position: int

    def __str__(self) -> str:
        return f"draw place {self.position}"


@dataclass(frozen=True, slots=True)
class Swap(Action):
    """Use a market card of ability 1 or 2: exchange two carriages of your train."""

    card: int
    first: int
    second: int

    def __str__(self) -> str:
        return f"use {self.card} swap {self.first} {self.second}"


@dataclass(frozen=True, slots=True)
class Move(Action):
    """Use a market card of ability 3 or 4: move one carriage two places."""

    card: int
    source: int
    target: int

    def __str__(self) -> str:
        return f"use {self.card} move {self.source} {self.target}"


@dataclass(frozen=True, slots=True)
class Uncouple(Action):
    """Use a market card of ability 5, 6 or 7: every train loses one carriage, then refills."""

    card: int

    def __str__(self) -> str:
        return f"use {self.card}"


@dataclass(frozen=True, slots=True)
class Lock(Action):
    """Use a market card of ability 8: slide it under carriage 1, 4 or 7 of your train."""

    card: int
    position: int

    def __str__(self) -> str:
        return f"use {self.card} lock {self.position}"


NOTATION = "draft <card> at <position>, keep <card>, draw place <position>, use <card>, use <card> swap <a> <b>, use <card> move <from> <to>, use <card> lock <position>"


def _number(word: str, text: str) -> int:
    if not (word.isascii() and word.isdigit()):
        raise NotationError(f"cannot read {text!r}: {word!r} is not a number")
    return int(word)


def parse_action(text: str) -> Action:
    """Read an action from its text form; the inverse of `str(action)`."""
    words = str(text).split()
    if len(words) == 4 and words[0] == "draft" and words[2] == "at":
        return Draft(_number(words[1], text), _number(words[3], text))
    if len(words) == 2 and words[0] == "keep":
        return Keep(_number(words[1], text))
    if len(words) == 3 and words[:2] == ["draw", "place"]:
        return DrawPlace(_number(words[2], text))
    if words and words[0] == "use":
        if len(words) == 2:
            return Uncouple(_number(words[1], text))
        if len(words) == 5 and words[2] == "swap":
            a, b = _number(words[3], text), _number(words[4], text)
            # A swap is the same whichever carriage is named first.
            return Swap(_number(words[1], text), min(a, b), max(a, b))
        if len(words) == 5 and words[2] == "move":
            return Move(_number(words[1], text), _number(words[3], text), _number(words[4], text))
        if len(words) == 4 and words[2] == "lock":
            return Lock(_number(words[1], text), _number(words[3], text))
    raise NotationError(f"cannot read {text!r}; the actions are: {NOTATION}")


def is_ascending(train: list) -> bool:
    """A complete train whose numbers rise from the locomotive outwards."""
    try:
        a, b, c, d, e, f, g = train
        return a < b < c < d < e < f < g
    except ValueError:  # not seven carriages
        return None not in train and all(map(lt, train, train[1:]))
    except TypeError:
        if None in train:  # a gap during a refill
            return False
        raise


# The neighbour pairs (k, k + 1) that a change to the carriages at indices first..last touches.
_TOUCHED = {(first, last): tuple(k for k in range(first - 1, last + 1) if 0 <= k < TRAIN_LENGTH - 1)
            for first in range(TRAIN_LENGTH) for last in range(first, TRAIN_LENGTH)}


def ascending_pairs(train: list) -> int:
    """How many neighbouring carriages rise (a gap during a refill rises with nothing)."""
    try:
        a, b, c, d, e, f, g = train
        return (a < b) + (b < c) + (c < d) + (d < e) + (e < f) + (f < g)
    except (ValueError, TypeError):  # not seven carriages, or a gap
        return sum(1 for a, b in zip(train, train[1:]) if a is not None and b is not None and a < b)


_DRAWS = tuple(DrawPlace(p) for p in range(1, TRAIN_LENGTH + 1))
_USES = frozenset((Swap, Move, Uncouple, Lock))
_ACTION_OF = {"swap": Swap, "move": Move, "uncouple": Uncouple, "lock": Lock}

# The score of a player whose train has n rising neighbour pairs, by the best rival's count: all
# TRAIN_LENGTH - 1 pairs rising is a complete ascending train, and a win.
_VALUE = tuple(tuple(10 * n - rival for n in range(TRAIN_LENGTH - 1)) + (1000,) for rival in range(TRAIN_LENGTH))


def _placed_scores(train, card: int, value: tuple) -> list[int]:
    """`value[n]` for the n rising neighbour pairs of a complete train after `card` replaces the
    carriage at each position in turn: only the two pairs around that position change."""
    a, b, c, d, e, f, g = train
    p1, p2, p3, p4, p5, p6 = a < b, b < c, c < d, d < e, e < f, f < g
    own = p1 + p2 + p3 + p4 + p5 + p6
    return [value[own - p1 + (card < b)],
            value[own - p1 - p2 + (a < card) + (card < c)],
            value[own - p2 - p3 + (b < card) + (card < d)],
            value[own - p3 - p4 + (c < card) + (card < e)],
            value[own - p4 - p5 + (d < card) + (card < f)],
            value[own - p5 - p6 + (e < card) + (card < g)],
            value[own - p6 + (f < card)]]


# The abilities that rearrange a train, in the order of the score tuples `_way_scores` makes.
_REARRANGING = (("swap", 1), ("swap", 2), ("move", 2), ("move", -2))


def _way_scores(key: tuple) -> tuple[tuple[int, ...], ...]:
    """The score after each way to use a card of each ability of `_REARRANGING`, for a train whose
    neighbour comparisons and best rival's count are `key`: (p_1 .. p_6, q_1 .. q_5, w_1 .. w_4,
    rival), where p_k says whether carriage k is below carriage k + 1, q_k whether it is below
    k + 2 and w_k below k + 3.

    An action rearranges a few carriages, so the count of rising pairs after it is the count
    before less the pairs it breaks up plus the pairs it makes: swapping k and k + 1 turns p_k
    round and puts k - 1 next to k + 1 (q_{k-1}) and k next to k + 2 (q_k); swapping k and k + 2
    turns p_k and p_{k+1} round and makes w_{k-1} and w_k; moving k two places on makes q_{k-1},
    p_{k+1}, the reverse of q_k and w_k; moving it two places back makes w_{k-3}, the reverse of
    q_{k-2}, p_{k-2} and q_{k-1}. (The numbers on the cards differ, so "not below" is "above".)
    The scores depend on nothing else, so they are made once for each key (`_WAY_SCORES`)."""
    p1, p2, p3, p4, p5, p6, q1, q2, q3, q4, q5, w1, w2, w3, w4, rival = key
    own = p1 + p2 + p3 + p4 + p5 + p6
    value = _VALUE[rival]
    return ((value[own + 1 - 2 * p1 - p2 + q1],
             value[own + 1 - p1 - 2 * p2 - p3 + q1 + q2],
             value[own + 1 - p2 - 2 * p3 - p4 + q2 + q3],
             value[own + 1 - p3 - 2 * p4 - p5 + q3 + q4],
             value[own + 1 - p4 - 2 * p5 - p6 + q4 + q5],
             value[own + 1 - p5 - 2 * p6 + q5]),
            (value[own + 2 - 2 * p1 - 2 * p2 - p3 + w1],
             value[own + 2 - p1 - 2 * p2 - 2 * p3 - p4 + w1 + w2],
             value[own + 2 - p2 - 2 * p3 - 2 * p4 - p5 + w2 + w3],
             value[own + 2 - p3 - 2 * p4 - 2 * p5 - p6 + w3 + w4],
             value[own + 2 - p4 - 2 * p5 - 2 * p6 + w4]),
            (value[own + 1 - p1 - p3 - q1 + w1],
             value[own + 1 - p1 - p2 - p4 + q1 - q2 + w2],
             value[own + 1 - p2 - p3 - p5 + q2 - q3 + w3],
             value[own + 1 - p3 - p4 - p6 + q3 - q4 + w4],
             value[own + 1 - p4 - p5 + q4 - q5]),
            (value[own + 1 - p2 - p3 - q1 + q2],
             value[own + 1 - p1 - p3 - p4 + w1 - q2 + q3],
             value[own + 1 - p2 - p4 - p5 + w2 - q3 + q4],
             value[own + 1 - p3 - p5 - p6 + w3 - q4 + q5],
             value[own + 1 - p4 - p6 + w4 - q5]))


# `_way_scores` by key, made when first needed and shared by every game: a few thousand keys at
# most (the orders of seven carriages, by the rival's count), met again and again in playouts.
_WAY_SCORES: dict[tuple, tuple[tuple[int, ...], ...]] = {}


def _pair_off(market: list[int], cards, ability_of: dict[int, int], on_arrival: bool) -> list[int]:
    """Bring `cards` into `market` in this order and return the cards the pair rule takes out of
    it, in the order they go to the discard pile: as each card arrives (`on_arrival`, and always
    for a single card) it leaves at once with a card of its ability; otherwise the pairs leave once
    all the cards are there (of an odd number alike, the card that arrived first stays)."""
    discarded = []
    if on_arrival or len(cards) < 2:
        for card in cards:
            ability = ability_of[card]
            for other in market:
                if ability_of[other] == ability:
                    market.remove(other)
                    discarded += (other, card)
                    break
            else:
                market.append(card)
        return discarded
    market += cards
    arrived = {ability_of[c] for c in cards}
    kept = []
    seen: dict[int, int] = {}
    for card in market:
        ability = ability_of[card]
        if ability in arrived:
            seen[ability] = seen.get(ability, 0) + 1
    count: dict[int, int] = {}
    for card in market:
        ability = ability_of[card]
        if ability in arrived:
            count[ability] = count.get(ability, 0) + 1
            # Of an odd number alike the earliest stays; everything else leaves in pairs.
            if count[ability] == 1 and seen[ability] % 2 == 1:
                kept.append(card)
            else:
                discarded.append(card)
        else:
            kept.append(card)
    market[:] = kept
    return discarded


# --- state --------------------------------------------------------------------------------------


class _Seen:
    """Private copies of the zones as the last invariant check that found nothing wrong in play
    saw them, for `GameOfTrainsState.check_invariants`."""

    __slots__ = ("trains", "locks", "hands", "market", "pile", "discard")

    def __init__(self, state: "GameOfTrainsState"):
        self.trains = {p: list(train) for p, train in state.trains.items()}
        self.locks = {p: dict(locks) for p, locks in state.locks.items()}
        self.hands = {p: list(hand) for p, hand in state.draft_hands.items()}
        self.market = list(state.market)
        self.pile = list(state.pile)
        self.discard = list(state.discard)


class GameOfTrainsState(State):
    """Everything that changes during one game of Game of Trains."""

    # Kept in slots, so that reading them is equally quick on every state, clones included (a
    # clone made through the instance dictionary would be read a slower way, and so, for a while
    # after, would every state).
    __slots__ = ("game", "players", "chance", "trains", "locks", "market", "pile", "discard", "draft_hands",
                 "draft_choices", "kept", "refill", "phase", "current", "winner", "turns", "locomotives_out",
                 "_refill_order", "dealt", "setup", "_rising", "_counted", "_offer", "_seen", "_orders")

    def __init__(self, game: "GameOfTrains", players: int, chance: Chance):
        self.game = game
        self.players = player_names(players)
        self.chance = chance
        self.trains: dict[str, list] = {p: [] for p in self.players}
        self.locks: dict[str, dict[int, int]] = {p: {} for p in self.players}  # position -> lock card
        self.market: list[int] = []  # in the order the cards arrived
        self.pile: list[int] = []  # top card last
        self.discard: list[int] = []
        self.draft_hands: dict[str, list[int]] = {p: [] for p in self.players}
        self.draft_choices: dict[str, Draft] = {}  # secret choices while the draft is played together
        self.kept: dict[str, int] = {}  # cards kept so far (draft=keep-then-place)
        self.refill: dict | None = None  # an Uncouple waiting for a player's refill (refill=everyone)
        self.phase = DRAFT
        self.current = 0
        self.winner: str | None = None
        self.turns = 0
        self.locomotives_out = game.locomotives - players
        # Each player's refill order: from them round the table.
        self._refill_order = {p: tuple(self.players[k:] + self.players[:k]) for k, p in enumerate(self.players)}
        self.dealt: list[int] | None = None  # the deal order, top first, when the game began with one
        self.setup: dict | None = None
        # Caches for playouts, none of them part of the game: the rising pairs last counted in each
        # train (and a copy of each train as it was counted), the last legal-action list offered
        # (until the next action), the zones as the last clean invariant check saw them, and the
        # orders of places the next reshuffle would make (the chance, its log length then, and the
        # order for each number of cards).
        self._rising: dict[str, int] = {p: 0 for p in self.players}
        self._counted: dict[str, list] = {p: [] for p in self.players}
        self._offer: tuple | None = None
        self._seen: _Seen | None = None
        self._orders: tuple[Chance, int, dict[int, list[int]]] | None = None

    # --- moving cards -----------------------------------------------------------------------

    def _to_market(self, card: int) -> None:
        """A carriage arrives face up in the market; it is discarded at once with a card of its ability."""
        self.discard += _pair_off(self.market, (card,), self.game.ability_of, True)

    def _arrive(self, cards: list[int]) -> None:
        """Several carriages reach the market in this order; the pair rule follows the `pairs`
        parameter: as each one arrives, or once they are all there."""
        self.discard += _pair_off(self.market, cards, self.game.ability_of, self.game.pairs_on_arrival)

    def _reshuffle(self) -> None:
        order = self.chance.shuffle("reshuffle", sorted(self.discard))
        self.discard = []
        self.pile = order[::-1]

    def _draw(self) -> int:
        if not self.pile:
            self._reshuffle()
        pile = self.pile
        card = pile.pop()
        if not pile and self.game.reshuffle_at_once and self.discard:
            # The pile is exhausted: the discard pile becomes the new one at once, so a card
            # discarded from now on waits for the next time.
            self._reshuffle()
        return card

    def _lose_lock(self, player: str, position: int) -> None:
        card = self.locks[player].pop(position, None)
        if card is not None:
            self.discard.append(card)

    def _finish_turn(self, player: str) -> None:
        if self.phase != OVER:
            self.current = (self.current + 1) % len(self.players)

    def _win(self, player: str) -> None:
        self.winner = player
        self.phase = OVER

    # --- the State interface ----------------------------------------------------------------

    def to_move(self) -> list[str]:
        phase = self.phase
        if phase == PLAY:
            return [self.players[self.current]]
        if phase == OVER:
            return []
        if self.phase == REFILL:
            return [self.refill["queue"][0]]
        if self.phase == DRAFT and self.game.draft_together:
            return [p for p in self.players if p not in self.draft_choices]
        return [self.players[self.current]]

    def is_terminal(self) -> bool:
        return self.phase == OVER

    def parse_action(self, text: str) -> Action:
        return parse_action(text)

    def legal_actions(self, player: str) -> list[Action]:
        """Drawing onto each position, then every way to use each market card, in the order the
        cards reached the market. In play the list is remembered, with how many ways each card
        gave, until the next action: `score_actions` scores it a card at a time."""
        if self.phase != PLAY:
            return self._legal_outside_play(player)
        if player != self.players[self.current]:
            return []
        actions: list[Action] = list(_DRAWS)
        game = self.game
        uses = game.uses
        all_locks = self.locks
        locks = all_locks[player]
        offered = []  # (card, kind, param, how many of its ways are legal, place in `_REARRANGING`)
        for card in self.market:
            kind, param, ways, every_way = uses[card]
            if kind == "uncouple":
                if not game.no_effect_allowed:
                    for p in self.players:
                        if param not in all_locks[p]:
                            break
                    else:
                        continue  # every carriage it would remove is locked: it would do nothing
            elif kind == "lock" and locks:
                if game.no_effect_allowed and len(locks) == len(LOCKABLE):
                    actions.append(ways[0])  # used for nothing: the card is only cleared away
                    offered.append((card, kind, param, 1, None))
                else:
                    free = [way for way in ways if way.position not in locks]
                    actions += free
                    offered.append((card, kind, param, len(free), None))
                continue
            actions += ways
            offered.append(every_way)
        self._offer = (player, actions[:], offered)
        return actions

    def _legal_outside_play(self, player: str) -> list[Action]:
        if player not in self.to_move():
            return []
        if self.phase == DRAFT:
            drafts = self.game.drafts
            if self.game.draft_mode == "keep-then-place" and len(self.kept) < len(self.players):
                return [drafts[card][0] for card in sorted(self.draft_hands[player])]
            return [draft for card in sorted(self.draft_hands[player]) for draft in drafts[card][1]]
        return list(_DRAWS)  # a refill: draw and place

    def apply(self, player: str, action: Action) -> None:
        self._offer = None
        if self.phase != PLAY or player != self.players[self.current]:
            self._apply_any(player, action)
            return
        # The usual turn in play, by the exact action type; anything else takes the general path.
        kind = type(action)
        if kind is DrawPlace:
            if not 1 <= action.position <= TRAIN_LENGTH:
                self._check_position(action.position, "draw")
            self._apply_draw(player, action.position)
        elif kind in _USES:
            self._apply_use(player, action)
        else:
            self._apply_any(player, action)
            return
        self.turns += 1
        if self.phase == PLAY:  # neither over nor waiting for a refill
            self.current = (self.current + 1) % len(self.players)

    def _apply_any(self, player: str, action: Action) -> None:
        """Any action in any phase, with every check in the order the rules make them."""
        if self.phase == OVER:
            raise IllegalAction("game over", f"the game is over: {self.winner} has won")
        movers = self.to_move()
        if player not in movers:
            if self.phase == DRAFT and player in self.draft_choices:
                raise IllegalAction("draft", f"{player} has already chosen a card for the opening draft")
            raise IllegalAction("turn order", f"not your turn: {', '.join(movers)} to move")
        if self.phase == DRAFT:
            if self.game.draft_mode == "keep-then-place" and len(self.kept) < len(self.players):
                if not isinstance(action, Keep):
                    raise IllegalAction("draft", "first everyone keeps one drawn card: 'keep <card>'")
                self._apply_keep(player, action)
                return
            if not isinstance(action, Draft):
                raise IllegalAction("draft", "in the opening draft, place one drawn card: 'draft <card> at <position>'")
            self._apply_draft(player, action)
            return
        if isinstance(action, (Draft, Keep)):
            raise IllegalAction("draft", "the opening draft is over")
        if self.phase == REFILL:
            if not isinstance(action, DrawPlace):
                raise IllegalAction("ruling: refill", "your carriage was locked: draw a card and place it, "
                                                      "'draw place <position>'")
            self._check_position(action.position, "draw")
            self.refill["queue"].pop(0)
            self._apply_draw(player, action.position)
            self._go_on_refilling()
            if self.phase != REFILL:
                self._finish_turn(player)
            return
        if isinstance(action, DrawPlace):
            self._check_position(action.position, "draw")
            self._apply_draw(player, action.position)
        elif isinstance(action, (Swap, Move, Uncouple, Lock)):
            self._apply_use(player, action)
        else:
            raise IllegalAction("notation", f"{action!r} is not a Game of Trains action")
        self.turns += 1
        if self.phase != REFILL:
            self._finish_turn(player)

    def _check_position(self, position: int, rule: str) -> None:
        if not 1 <= position <= TRAIN_LENGTH:
            raise IllegalAction(rule, f"position {position} is not on the train (1 to {TRAIN_LENGTH})")

    def _apply_keep(self, player: str, action: Keep) -> None:
        """Keep one drawn card and discard the others face down; the placing comes once everyone
        has kept a card."""
        hand = self.draft_hands[player]
        if action.card not in hand:
            raise IllegalAction("draft", f"card {action.card} is not among your drawn cards {sorted(hand)}")
        hand.remove(action.card)
        self.discard.extend(sorted(hand))
        hand[:] = [action.card]
        self.kept[player] = action.card
        self.current = (self.current + 1) % len(self.players)

    def _apply_draft(self, player: str, action: Draft) -> None:
        hand = self.draft_hands[player]
        if action.card not in hand:
            raise IllegalAction("draft", f"card {action.card} is not among your drawn cards {sorted(hand)}")
        self._check_position(action.position, "draft")
        if not self.game.draft_together:
            self._to_market_from_draft([player], [self._place_draft(player, action)])
            if self.phase == DRAFT:
                if self.current == len(self.players) - 1:
                    self.phase = PLAY
                    self.current = 0
                else:
                    self.current += 1
            return
        # Played together: the choice stays secret until every player has made theirs.
        self.draft_choices[player] = action
        if len(self.draft_choices) == len(self.players):
            replaced = [self._place_draft(p, self.draft_choices[p]) for p in self.players]
            self.draft_choices = {}
            self._to_market_from_draft(self.players, replaced)
            if self.phase == DRAFT:
                self.phase = PLAY
                self.current = 0

    def _place_draft(self, player: str, action: Draft) -> int:
        """Put the kept card into the train and discard the others; return the replaced carriage."""
        hand = self.draft_hands[player]
        hand.remove(action.card)
        self.discard.extend(sorted(hand))
        hand.clear()
        train = self.trains[player]
        replaced = train[action.position - 1]
        train[action.position - 1] = action.card
        return replaced

    def _to_market_from_draft(self, placed: list[str], replaced: list[int]) -> None:
        self._arrive(replaced)
        for p in placed:
            if is_ascending(self.trains[p]):
                self._win(p)
                return

    def _apply_draw(self, player: str, position: int) -> None:
        card = self._draw()
        train = self.trains[player]
        if self.locks[player]:
            self._lose_lock(player, position)
        replaced = train[position - 1]
        train[position - 1] = card
        self._to_market(replaced)
        if is_ascending(train):
            self._win(player)

    def _ability_refusal(self, card: int, message: str) -> IllegalAction:
        ability = self.game.ability_of[card]
        return IllegalAction(f"ability {ability}", f"{self.game.ability_name[ability]}: {message}")

    def _apply_use(self, player: str, action: Action) -> None:
        card = action.card
        if card not in self.market:
            if not self.market:
                raise IllegalAction("market", f"card {card} is not in the market: the market is empty, you can only draw")
            shown = ", ".join(map(str, sorted(self.market)))
            raise IllegalAction("market", f"card {card} is not in the market ({shown})")
        kind, param, _, _ = self.game.uses[card]
        if not isinstance(action, _ACTION_OF[kind]):
            raise self._ability_refusal(card, f"write '{USAGE[kind].format(card=card)}'")
        train = self.trains[player]
        locks = self.locks[player]
        if kind == "swap":
            a, b = (action.first, action.second) if action.first <= action.second else (action.second, action.first)
            if a < 1 or b > TRAIN_LENGTH or b - a != param:
                gap = "neighbouring carriages" if param == 1 else "two carriages with one between them"
                raise self._ability_refusal(card, f"swaps {gap}, not positions {action.first} and {action.second}")
            self.market.remove(card)
            if locks:
                self._lose_lock(player, a)
                self._lose_lock(player, b)
            train[a - 1], train[b - 1] = train[b - 1], train[a - 1]
            self.discard.append(card)
        elif kind == "move":
            s, t = action.source, action.target
            if not (1 <= s <= TRAIN_LENGTH and 1 <= t <= TRAIN_LENGTH and t - s == param):
                way = "away from" if param > 0 else "towards"
                raise self._ability_refusal(card, f"moves a carriage two places {way} the locomotive, not {s} to {t}")
            self.market.remove(card)
            # Every carriage between source and target changes place, so each loses its lock.
            if locks:
                for p in range(min(s, t), max(s, t) + 1):
                    self._lose_lock(player, p)
            train.insert(t - 1, train.pop(s - 1))
            self.discard.append(card)
        elif kind == "uncouple":
            if any(self.locks.values()) and all(param in self.locks[p] for p in self.players) \
                    and not self.game.no_effect_allowed:
                raise IllegalAction("ruling: no-effect", f"every carriage {param} is locked, so card {card} would do nothing")
            # The card leaves the market before any carriage arrives, so nothing pairs with it, and
            # reaches the discard pile only when its effect is over, so a reshuffle during the
            # refill leaves it out.
            self.market.remove(card)
            self._uncouple(player, param, card)
            return
        else:
            if all(p in locks for p in LOCKABLE):
                if not self.game.no_effect_allowed:
                    raise IllegalAction("ruling: no-effect", "carriages 1, 4 and 7 are all locked already")
                if action.position not in LOCKABLE:
                    raise self._ability_refusal(card, f"a lock goes under carriage 1, 4 or 7, not {action.position}")
                self.market.remove(card)  # used for nothing: the card only leaves the market
                self.discard.append(card)
                return
            if action.position not in LOCKABLE:
                raise self._ability_refusal(card, f"a lock goes under carriage 1, 4 or 7, not {action.position}")
            if action.position in locks:
                raise IllegalAction("ruling: locks-do-not-stack", f"carriage {action.position} is already locked")
            self.market.remove(card)
            locks[action.position] = card
        if self.phase != OVER and is_ascending(train):
            self._win(player)

    def _uncouple(self, player: str, position: int, card: int) -> None:
        order = self._refill_order[player]
        removed, losers = [], []
        for p in order:
            if position not in self.locks[p]:
                train = self.trains[p]
                removed.append(train[position - 1])
                train[position - 1] = None
                losers.append(p)
        self._arrive(removed)
        queue = order if self.game.refill_everyone else losers
        self.refill = {"position": position, "queue": list(queue), "losers": set(losers), "card": card}
        self._go_on_refilling()

    def _go_on_refilling(self) -> None:
        """Refill in turn until the refill is over, the game is won, or a player whose carriage was
        locked must choose where their card goes (refill=everyone)."""
        refill = self.refill
        queue, position = refill["queue"], refill["position"]
        while queue and self.phase != OVER:
            p = queue[0]
            if p not in refill["losers"]:
                self.phase = REFILL
                return
            queue.pop(0)
            train = self.trains[p]
            train[position - 1] = self._draw()
            if is_ascending(train):
                self._win(p)  # the first complete rising train ends the game; nobody after refills
        self.discard.append(refill["card"])
        self.refill = None
        if self.phase == REFILL:
            self.phase = PLAY

    def result(self) -> dict[str, Any]:
        order = [self.winner] if self.winner else []
        order += [p for p in self.players if p != self.winner]
        return {"winner": self.winner, "order": order, "turns": self.turns}

    def _movers_field(self):
        """Who is to move, for `expect:`: a player, a list while several choose together, or null."""
        movers = self.to_move()
        return movers[0] if len(movers) == 1 else (movers or None)

    def fields(self) -> dict[str, Any]:
        fields: dict[str, Any] = {
            "phase": self.phase,
            "to_move": self._movers_field(),
            "winner": self.winner,
            "turns": self.turns,
            "market": sorted(self.market),
            "draw_top": self.pile[::-1][:DRAW_TOP_SHOWN],
            "draw_size": len(self.pile),
            "discard": sorted(self.discard),
            "discard_size": len(self.discard),
        }
        for p in self.players:
            fields[f"train.{p}"] = list(self.trains[p])
            fields[f"locks.{p}"] = sorted(self.locks[p])
            fields[f"draft.{p}"] = sorted(self.draft_hands[p])
        return fields

    def observation(self, player: str) -> dict[str, Any]:
        return {
            "phase": self.phase,
            "to_move": self.to_move(),
            "winner": self.winner,
            "trains": {p: list(t) for p, t in self.trains.items()},
            "locks": {p: sorted(l) for p, l in self.locks.items()},
            "market": sorted(self.market),
            "draw_size": len(self.pile),
            "discard_size": len(self.discard),
            "draft_hand": sorted(self.draft_hands[player]),
            "draft_hand_sizes": {p: len(h) for p, h in self.draft_hands.items()},
        }

    def zones(self) -> list[Zone]:
        """Trains, locks, the market and the discard pile lie face up; the draw pile is face down;
        a draft hand is seen by its owner. Locks are a copy (they are kept by position)."""
        zones = [Zone("market", self.market, Visibility.EVERYONE), Zone("pile", self.pile, Visibility.NOBODY, ordered=True),
                 Zone("discard", self.discard, Visibility.EVERYONE),
                 Zone("in_use", [self.refill["card"]] if self.refill is not None else [], Visibility.EVERYONE)]
        for p in self.players:
            zones.append(Zone("train", self.trains[p], Visibility.EVERYONE, owner=p, ordered=True))
            zones.append(Zone("locks", [self.locks[p][k] for k in sorted(self.locks[p])], Visibility.EVERYONE, owner=p))
            zones.append(Zone("draft", self.draft_hands[p], Visibility.OWNER, owner=p))
        return zones

    def components(self) -> dict[int, int]:
        return {card: 1 for card in self.game.ability_of}

    def check_invariants(self) -> list[str]:
        """Broken invariants as sentences, as `check_all_invariants` finds them, but cheap enough
        to run after every action of every playout: in play only what changed since the last
        check that found nothing wrong is looked at again. Each zone is compared with a private
        copy taken then (`_Seen`); the cards that left the zones that changed must be the cards
        that arrived in them, so every carriage is still in exactly one place, and a train, a
        lock or a market that changed is checked again. (A pile that only lost cards from its
        top, or only gained cards, is compared by those cards alone.) Any suspicion of a broken
        rule, and every phase but play, run the whole check, which also explains what is
        wrong."""
        seen = self._seen
        if seen is None or self.phase != PLAY or self.refill is not None:
            return self._check_everything()
        left: list = []  # the cards that left the zones that changed
        arrived: list = []  # the cards that arrived in them
        pile, kept = self.pile, seen.pile
        if pile != kept:
            if len(pile) < len(kept):  # cards drawn from the top
                left += kept[len(pile):]
                del kept[len(pile):]
            if pile != kept:  # a reshuffle: the whole pile is new
                left += kept
                arrived += pile
                seen.pile = pile[:]
        discard, kept = self.discard, seen.discard
        if discard != kept:
            known = len(kept)
            if len(discard) > known and discard[:known] == kept:  # cards discarded on top
                new = discard[known:]
                arrived += new
                kept += new
            else:  # a reshuffle took the discard pile
                left += kept
                arrived += discard
                seen.discard = discard[:]
        market = self.market
        market_changed = market != seen.market
        if market_changed:
            left += seen.market
            arrived += market
            seen.market = market[:]
        players = self.players
        trains, kept_trains = self.trains, seen.trains
        if trains != kept_trains:  # (the whole check looks at the players' trains only)
            for p in players:
                train, kept = trains[p], kept_trains[p]
                if train != kept:
                    try:
                        a, b, c, d, e, f, g = train
                        rising = a < b < c < d < e < f < g
                    except (ValueError, TypeError):  # not seven carriages, or a gap
                        return self._check_everything()
                    if rising:
                        return self._check_everything()
                    left += kept
                    arrived += train
                    kept_trains[p] = train[:]
        game = self.game
        locks, kept_locks = self.locks, seen.locks
        if locks != kept_locks:
            for p in players:
                held, kept = locks[p], kept_locks[p]
                if held != kept:
                    for position, card in held.items():
                        if position not in LOCKABLE or game.ability_of.get(card) != game.lock_ability:
                            return self._check_everything()
                    left += kept.values()
                    arrived += held.values()
                    kept_locks[p] = dict(held)
        if self.draft_hands != seen.hands:
            return self._check_everything()
        if left != arrived:
            try:
                left.sort()
                arrived.sort()
            except TypeError:
                return self._check_everything()
            if left != arrived:
                return self._check_everything()
        if market_changed and len(set(map(game.ability_of.__getitem__, market))) != len(market):
            return self._check_everything()
        if not (pile or discard) or len(players) + self.locomotives_out != game.locomotives \
                or not 0 <= self.current < len(players):  # (nobody to move)
            return self._check_everything()
        return []

    def _check_everything(self) -> list[str]:
        problems = self.check_all_invariants()
        self._seen = _Seen(self) if not problems and self.phase == PLAY and self.refill is None else None
        return problems

    def check_all_invariants(self) -> list[str]:
        """Every invariant checked on the whole state, as sentences: the card count with one set,
        and only a broken count is explained."""
        problems = []
        game = self.game
        cards = self.market + self.pile + self.discard
        if self.refill is not None:
            cards.append(self.refill["card"])  # the Uncouple card, held until its refill is over
        gaps_allowed = self.phase in (OVER, REFILL)
        ability_of = game.ability_of
        for p in self.players:
            train = self.trains[p]
            if len(train) != TRAIN_LENGTH or (not gaps_allowed and None in train):
                problems.append(f"{p}'s train is not 7 carriages: {train}")
            cards += [c for c in train if c is not None]
            locks = self.locks[p]
            if locks:
                cards += locks.values()
                for position, card in locks.items():
                    if position not in LOCKABLE:
                        problems.append(f"{p} has a lock under carriage {position}")
                    if ability_of.get(card) != game.lock_ability:
                        problems.append(f"{p}'s lock is card {card}, which is no lock")
            cards += self.draft_hands[p]
        if len(cards) != len(ability_of) or set(cards) != game.card_set:
            problems += self._card_places_problems()
        abilities = {ability_of[c] for c in self.market}
        if len(abilities) != len(self.market):
            problems.append(f"the market holds two cards of one ability: {sorted(self.market)}")
        if len(self.players) + self.locomotives_out != game.locomotives:
            problems.append("locomotives are lost or doubled")
        if self.phase == OVER:
            if self.winner is None or not is_ascending(self.trains[self.winner]):
                problems.append(f"the game is over but {self.winner}'s train is not complete and rising")
            return problems
        for p in self.players:
            if is_ascending(self.trains[p]):
                problems.append(f"{p}'s train rises from end to end but the game goes on")
        if not self.pile and not self.discard:
            problems.append("the draw pile and the discard pile are both empty")
        movers = self.to_move()
        if not movers:
            problems.append("the game is not over but nobody is to move")
        for p in movers:
            # Drawing is always open in play and refills; in the draft a player needs a drawn card.
            if self.phase == DRAFT and not self.draft_hands[p]:
                problems.append(f"{p} is to move but has no legal action")
        if self.phase == REFILL and (self.refill is None or self.refill["queue"][0] in self.refill["losers"]):
            problems.append("a refill waits for a player who has no choice to make")
        return problems

    def _card_places_problems(self) -> list[str]:
        """Where the card count went wrong: a card in two places, or cards in no place."""
        problems = []
        places: dict[int, str] = {}

        def put(card, where):
            if card in places:
                problems.append(f"card {card} is both in {places[card]} and in {where}")
            places[card] = where

        for p in self.players:
            for card in self.trains[p]:
                if card is not None:
                    put(card, f"{p}'s train")
            for card in self.locks[p].values():
                put(card, f"{p}'s lock")
            for card in self.draft_hands[p]:
                put(card, f"{p}'s draft hand")
        held = [self.refill["card"]] if self.refill is not None else []
        for zone, cards in (("the market", self.market), ("the draw pile", self.pile), ("the discard pile", self.discard),
                            ("use", held)):
            for card in cards:
                put(card, zone)
        missing = sorted(set(self.game.ability_of) - set(places))
        if missing:
            problems.append(f"cards in no place: {missing}")
        strangers = sorted(set(places) - set(self.game.ability_of))
        if strangers:
            problems.append(f"cards that are not in the game: {strangers}")
        return problems

    # --- for playouts and scenarios ----------------------------------------------------------

    def clone(self) -> "GameOfTrainsState":
        """A copy sharing nothing that changes; much faster than a deep copy."""
        other = self.shallow_copy()
        other.trains = {p: list(t) for p, t in self.trains.items()}
        other.locks = {p: dict(l) for p, l in self.locks.items()}
        other.market = list(self.market)
        other.pile = list(self.pile)
        other.discard = list(self.discard)
        other.draft_hands = {p: list(h) for p, h in self.draft_hands.items()}
        other.draft_choices = dict(self.draft_choices)
        other.kept = dict(self.kept)
        if self.refill is not None:
            other.refill = {**self.refill, "queue": list(self.refill["queue"]), "losers": set(self.refill["losers"])}
        other.chance = self.chance.copy()
        other._rising = dict(self._rising)
        other._counted = dict(self._counted)
        other._offer = None
        other._seen = None
        other._orders = None
        return other

    def score(self, player: str) -> int:
        """How well `player` stands: rising neighbour pairs in their train, less the best rival's."""
        if self.winner is not None:
            return 1000 if self.winner == player else -1000
        pairs = dict(self._all_rising_pairs())
        own = pairs.pop(player)
        return 10 * own - max(pairs.values())

    def _all_rising_pairs(self) -> dict[str, int]:
        """`ascending_pairs` of every player's train, each counted again only when the train has
        changed since it was last counted; the state's own record, to be read only."""
        pairs, counted = self._rising, self._counted
        for p, train in self.trains.items():
            if counted[p] != train:
                counted[p] = train[:]
                pairs[p] = ascending_pairs(train)
        return pairs

    def score_action(self, player: str, action: Action) -> int:
        """`score(player)` after `player` plays the legal `action`, without playing it: computed
        from what the action does to the trains (only the neighbour pairs it touches are looked
        at again). Drawing, and an Uncouple's refill, look at the cards they would draw, as a
        copy of the state would (a reshuffle is made on a copy of the chance, `_reshuffled`); an
        Uncouple whose refill would wait for a locked player's choice, and any action in a paused
        refill, is tried on a copy instead."""
        if self.phase == DRAFT and type(action) is Draft:
            return self._score_draft(player, action)
        if type(action) is Keep:
            return self.score(player)
        if self.phase != PLAY:
            return self._score_on_copy(player, action)
        kind = type(action)
        if kind is Uncouple:
            return self._score_uncouple(player, action.card, self.game.uses[action.card][1])
        pairs = dict(self._all_rising_pairs())
        own = pairs.pop(player)
        rival = max(pairs.values())
        if kind is Lock:
            return 10 * own - rival
        train = self.trains[player]
        new = train[:]
        if kind is DrawPlace:
            card = self._next_draw()
            if card is None:
                return self._score_on_copy(player, action)
            i = action.position - 1
            new[i] = card
            touched = _TOUCHED[(i, i)]
        elif kind is Swap:
            a, b = action.first - 1, action.second - 1
            new[a], new[b] = new[b], new[a]
            touched = _TOUCHED[(a, b)]
        elif kind is Move:
            a, b = action.source - 1, action.target - 1
            new.insert(b, new.pop(a))
            touched = _TOUCHED[(a, b) if a < b else (b, a)]
        else:
            return self._score_on_copy(player, action)
        for k in touched:
            own += (new[k] < new[k + 1]) - (train[k] < train[k + 1])
        return _VALUE[rival][own]

    def score_actions(self, player: str, actions: list[Action]) -> list[int]:
        """`score_action` of each action, in order, with the work they share done once. In play,
        when `actions` is the list `legal_actions` offered for this position, the draws and the
        ways to use each market card are scored a card at a time from the player's train (see
        `_score_offer`); in the draft, every placement is scored from the trains as the draft
        will leave them."""
        phase = self.phase
        if phase == PLAY:
            offer = self._offer
            if offer is not None and offer[0] == player and offer[1] == actions:
                return self._score_offer(player, offer[2])
        elif phase == DRAFT and all(type(action) is Draft for action in actions):
            return self._score_placements(player, actions)
        return [self.score_action(player, action) for action in actions]

    def _score_offer(self, player: str, offered: list[tuple]) -> list[int]:
        """The scores of the legal actions in play, in the order `legal_actions` lists them.

        Each is read from how many neighbour pairs of the player's train rise after the action
        (`_VALUE`); the ways to use each card that swaps or moves carriages are scored by
        `_way_scores`, from the comparisons of neighbours up to three places apart. A Lock
        changes no train; an Uncouple changes every train and is scored as `score_action` scores
        it, from the cards its refill would draw, taken from the draw pile once for every
        Uncouple offered when the pile holds a card for each train."""
        train = self.trains[player]
        pairs = self._all_rising_pairs()
        rival = 0
        for p, count in pairs.items():
            if count > rival and p != player:
                rival = count
        value = _VALUE[rival]
        card = self.pile[-1] if self.pile else self._next_draw()
        if card is not None:
            scores = _placed_scores(train, card, value)
        else:
            scores = [self._score_on_copy(player, way) for way in _DRAWS]
        if not offered:
            return scores
        a, b, c, d, e, f, g = train
        key = (a < b, b < c, c < d, d < e, e < f, f < g, a < c, b < d, c < e, d < f, e < g,
               a < d, b < e, c < f, d < g, rival)
        ways = _WAY_SCORES.get(key)
        if ways is None:
            ways = _WAY_SCORES[key] = _way_scores(key)
        game, locks = self.game, self.locks
        drawn = None  # the cards an Uncouple's refill would draw, once one is met
        for card, kind, param, count, rearranging in offered:
            if rearranging is not None:
                scores += ways[rearranging]
            elif kind == "uncouple":
                if drawn is None:
                    order = self._refill_order[player]
                    # Enough cards for every train: the refill needs no reshuffle, whoever is locked.
                    drawn = self.pile[:-len(order) - 1:-1] if len(self.pile) >= len(order) else ()
                if drawn and not (game.refill_everyone and any(param in locks[p] for p in order)):
                    scores.append(self._refilled_score(order, param, drawn, pairs))
                else:
                    scores.append(self._score_uncouple(player, card, param, pairs))
            else:
                scores += (value[pairs[player]],) * count
        return scores

    def _next_draw(self) -> int | None:
        """The card the next draw takes: the top of the draw pile, or when it is empty the top of
        the pile a reshuffle would make (shuffled by a copy of the chance, as on a copy of the
        state); None when there is nothing to draw."""
        if self.pile:
            return self.pile[-1]
        if not self.discard:
            return None
        return self._reshuffled(self.discard, 1)[0]

    def _reshuffled(self, cards: list[int], count: int) -> list[int]:
        """The top `count` cards, top first, of the draw pile a reshuffle of `cards` would make
        now, as on a copy of the state. A shuffle moves cards from place to place by the
        generator's draws alone, whatever the cards are, so the order of the places is worked out
        once for each number of cards until the chance shuffles again (`_orders`); a reshuffle a
        scenario has queued is taken as it stands."""
        chance = self.chance
        if chance.queued:
            return chance.copy().shuffle("reshuffle", sorted(cards))[:count]
        orders = self._orders
        if orders is None or orders[0] is not chance or orders[1] != len(chance.log):
            orders = self._orders = (chance, len(chance.log), {})
        places = orders[2].get(len(cards))
        if places is None:
            places = orders[2][len(cards)] = chance.copy().shuffle("reshuffle", range(len(cards)))
        ranked = sorted(cards)
        return [ranked[k] for k in places[:count]]

    def _score_uncouple(self, player: str, card: int, position: int, pairs: dict[str, int] | None = None) -> int:
        """The score after `player` uses `card` to uncouple carriage `position`: each train that
        loses its carriage takes the next card of the draw pile in refill order, and the first to
        rise from end to end wins. When the pile runs out during the refill, the discard pile (with
        the pairs the removed carriages make in the market) is reshuffled as it would be
        (`_reshuffled`). A refill that waits for a locked player's choice is tried on a copy.
        `pairs`: the rising pairs of every train, when they are known already."""
        game = self.game
        order = self._refill_order[player]
        locks = self.locks
        if game.refill_everyone and any(position in locks[p] for p in order):
            return self._score_on_copy(player, game.uses[card][2][0])
        trains = self.trains
        i = position - 1
        drawn = self.pile[:-len(order) - 1:-1]  # the next cards, enough for every train in refill order
        losers = [p for p in order if position not in locks[p]] if len(drawn) < len(order) else order
        if len(drawn) < len(losers):
            market = self.market[:]
            market.remove(card)  # (the card leaves the market before its effect)
            removed = [trains[p][i] for p in losers]
            cards = self.discard + _pair_off(market, removed, game.ability_of, game.pairs_on_arrival)
            if len(drawn) + len(cards) < len(losers):
                return self._score_on_copy(player, game.uses[card][2][0])  # not enough cards to refill
            drawn += self._reshuffled(cards, len(losers) - len(drawn))
        return self._refilled_score(order, position, drawn, pairs if pairs is not None else self._all_rising_pairs())

    def _refilled_score(self, order: tuple, position: int, drawn: list[int], pairs: dict[str, int]) -> int:
        """The score of the first player of refill `order` after an Uncouple of carriage
        `position`: each train that loses its carriage takes the next of the `drawn` cards in
        refill order, and the first to rise from end to end wins. `pairs`: the rising pairs of
        every train now."""
        player, trains, locks = order[0], self.trains, self.locks
        i = position - 1
        before, after = i - 1, i + 1  # the neighbours' places, when the train has them
        taken = 0
        own = rival = 0
        for p in order:
            count = pairs[p]
            if position not in locks[p]:  # the train loses its carriage
                new = drawn[taken]
                taken += 1
                train = trains[p]
                old = train[i]
                if i:  # the pair on the locomotive's side
                    neighbour = train[before]
                    count += (neighbour < new) - (neighbour < old)
                if after < TRAIN_LENGTH:  # the pair on the far side
                    neighbour = train[after]
                    count += (new < neighbour) - (old < neighbour)
                if count == TRAIN_LENGTH - 1:
                    return 1000 if p == player else -1000  # the first complete train in refill order wins
            if p == player:
                own = count
            elif count > rival:
                rival = count
        return 10 * own - rival

    def _score_draft(self, player: str, action: Draft) -> int:
        """The draft changes trains only when a placement is made: at once when the draft is
        played in turn, after the last choice when it is played together."""
        return self._score_placements(player, [action])[0]

    def _score_placements(self, player: str, actions: list[Draft]) -> list[int]:
        """The scores of draft choices: the choices of the others that are placed with this one
        are the same for every choice, so their trains are looked at once."""
        players = self.players
        if self.game.draft_together:
            if len(self.draft_choices) + 1 < len(players):
                return [self.score(player)] * len(actions)  # nothing is placed yet
            placing = self.draft_choices
        else:
            placing = {}
        best_rival = 0
        first_winner = len(players)  # the seat of the first other player whose train will rise
        for seat, p in enumerate(players):
            if p == player:
                continue
            train = self.trains[p]
            if p in placing:
                train = train[:]
                train[placing[p].position - 1] = placing[p].card
                if seat < first_winner and is_ascending(train):
                    first_winner = seat
            best_rival = max(best_rival, ascending_pairs(train))
        if first_winner == len(players):
            value = _VALUE[best_rival]
        elif first_winner > players.index(player):  # only a rising train of the player's own wins
            value = (-1000,) * (TRAIN_LENGTH - 1) + (1000,)
        else:
            value = (-1000,) * TRAIN_LENGTH  # another train rises first in seat order
        own_train = self.trains[player]
        placed: dict[int, list[int]] = {}  # the scores of placing a card at each position
        scores = []
        for action in actions:
            if action.card not in placed:
                placed[action.card] = _placed_scores(own_train, action.card, value)
            scores.append(placed[action.card][action.position - 1])
        return scores

    def _score_on_copy(self, player: str, action: Action) -> int:
        trial = self.clone()
        trial.apply(player, action)
        return trial.score(player)

    def setup_record(self) -> dict | None:
        """A scenario `setup:` that starts this same game again."""
        if self.setup is not None:
            return self.setup
        return {"deck": list(self.dealt)} if self.dealt is not None else None


# --- the game -----------------------------------------------------------------------------------


class GameOfTrains(Game):
    """Game of Trains for 2 to 4 players, configured from its content folder."""

    id = "game-of-trains"

    def __init__(self, content=None, **params):
        if content is None:
            raise ValueError("Game of Trains needs its content (cards and abilities)")
        for key, value in params.items():
            if key not in PARAMS:
                raise ValueError(f"params: unknown parameter {key!r}; Game of Trains has {', '.join(PARAMS)}")
            if value not in PARAMS[key]:
                raise ValueError(f"params.{key}: must be one of {', '.join(PARAMS[key])}, not {value!r}")
        super().__init__(content, **params)
        chosen = {key: params.get(key, values[0]) for key, values in PARAMS.items()}
        self.draft_mode = chosen["draft"]
        self.draft_together = chosen["draft"] == "together"
        self.no_effect_allowed = chosen["no_effect"] == "allowed"
        self.refill_everyone = chosen["refill"] == "everyone"
        self.reshuffle_at_once = chosen["reshuffle"] == "at-once"
        self.pairs_on_arrival = chosen["pairs"] == "on-arrival"
        self.min_players = content.game["players"]["min"]
        self.max_players = content.game["players"]["max"]
        self.behaviour: dict[int, tuple[str, int]] = {}
        self.ability_name: dict[int, str] = {}
        for entry in content.files["abilities"]["abilities"]:
            self.behaviour[entry["id"]] = BEHAVIOURS[entry["key"]]
            self.ability_name[entry["id"]] = entry["name"]["en"]
        self.lock_ability = next(a for a, (kind, _) in self.behaviour.items() if kind == "lock")
        self.ability_of: dict[int, int] = {}
        self.locomotives = 0
        for card in content.physical_cards():
            if card["deck"] == "carriages":
                self.ability_of[card["number"]] = card["ability"]
            else:
                self.locomotives += 1
        self.card_set = frozenset(self.ability_of)
        # Each card's draft actions, made once: keeping it, and placing it at each position.
        self.drafts: dict[int, tuple[Keep, tuple[Draft, ...]]] = {
            card: (Keep(card), tuple(Draft(card, p) for p in range(1, TRAIN_LENGTH + 1))) for card in self.ability_of}
        # Every way to use each card, made once, with the entry `legal_actions` remembers when all
        # of them are offered: a legal-action list is then a few list copies.
        self.uses: dict[int, tuple[str, int, tuple[Action, ...], tuple]] = {}
        for card, ability in self.ability_of.items():
            kind, param = self.behaviour[ability]
            if kind == "swap":
                ways = tuple(Swap(card, i, i + param) for i in range(1, TRAIN_LENGTH + 1 - param))
            elif kind == "move":
                sources = range(1, TRAIN_LENGTH - 1) if param > 0 else range(3, TRAIN_LENGTH + 1)
                ways = tuple(Move(card, s, s + param) for s in sources)
            elif kind == "uncouple":
                ways = (Uncouple(card),)
            else:
                ways = tuple(Lock(card, p) for p in LOCKABLE)
            rearranging = _REARRANGING.index((kind, param)) if (kind, param) in _REARRANGING else None
            self.uses[card] = (kind, param, ways, (card, kind, param, len(ways), rearranging))

    def new_state(self, players: int, seed: int | None = None, setup: dict | None = None) -> GameOfTrainsState:
        setup = self.checked_setup(players, setup, SETUP_KEYS)
        state = GameOfTrainsState(self, players, Chance(seed))
        if "trains" in setup:
            _setup_midgame(self, state, setup)
            state.setup = setup
        else:
            _setup_deal(self, state, setup)
        return state

    def notation_help(self) -> str:
        return NOTATION_HELP


SETUP_KEYS = {"deck", "trains", "market", "discard", "locks", "turn", "phase", "rest"}


def _card_list(game: GameOfTrains, value, field: str) -> list[int]:
    if not isinstance(value, list):
        raise SetupError(field, "must be a list of carriage numbers")
    for i, card in enumerate(value):
        if isinstance(card, bool) or card not in game.ability_of:
            raise SetupError(f"{field}.{i}", f"{card!r} is not a carriage number (1 to {len(game.ability_of)})")
    return list(value)


def _setup_deal(game: GameOfTrains, state: GameOfTrainsState, setup: dict) -> None:
    """Shuffle (or take the given order), deal seven each, sort them falling, and draw for the draft."""
    for key in setup:
        if key != "deck":
            raise SetupError(key, "only 'deck' may be given without 'trains'; give 'trains' to start mid-game")
    if "deck" in setup:
        listed = _card_list(game, setup["deck"], "deck")
        _check_unique({"deck": listed})
        order = listed + sorted(set(game.ability_of) - set(listed))
        state.chance.log.append(("deal", list(order)))
    else:
        order = state.chance.shuffle("deal", sorted(game.ability_of))
    state.dealt = list(order)
    cards = list(order)
    for p in state.players:
        hand, cards = cards[:TRAIN_LENGTH], cards[TRAIN_LENGTH:]
        state.trains[p] = sorted(hand, reverse=True)  # highest next to the locomotive
    for seat, p in enumerate(state.players, start=1):
        state.draft_hands[p], cards = cards[:seat], cards[seat:]
    state.pile = cards[::-1]


def _check_unique(lists: dict[str, list[int]]) -> None:
    seen: dict[int, str] = {}
    for field, cards in lists.items():
        for card in cards:
            if card in seen:
                raise SetupError(field, f"card {card} is also in {seen[card]}")
            seen[card] = field


def _setup_midgame(game: GameOfTrains, state: GameOfTrainsState, setup: dict) -> None:
    """Start from given trains, market, piles and locks; unnamed cards go under the deck (or to the
    discard pile with `rest: discard`) in rising order, so a scenario never depends on a shuffle."""
    trains = setup["trains"]
    if not isinstance(trains, dict) or sorted(trains) != sorted(state.players):
        raise SetupError("trains", f"must give the train of each of {', '.join(state.players)}")
    lists: dict[str, list[int]] = {}
    for p in state.players:
        train = _card_list(game, trains[p], f"trains.{p}")
        if len(train) != TRAIN_LENGTH:
            raise SetupError(f"trains.{p}", f"a train has {TRAIN_LENGTH} carriages, not {len(train)}")
        lists[f"trains.{p}"] = train
        state.trains[p] = list(train)
    for key in ("market", "discard", "deck"):
        if key in setup:
            lists[key] = _card_list(game, setup[key], key)
    locks = setup.get("locks", {})
    if not isinstance(locks, dict) or not set(locks) <= set(state.players):
        raise SetupError("locks", "must map players to {position: lock card}")
    for p, given in locks.items():
        if not isinstance(given, dict):
            raise SetupError(f"locks.{p}", "must map a position (1, 4 or 7) to the lock card under it")
        for position, card in given.items():
            if position not in LOCKABLE:
                raise SetupError(f"locks.{p}", f"a lock goes under carriage 1, 4 or 7, not {position!r}")
            _card_list(game, [card], f"locks.{p}")
            if game.ability_of[card] != game.lock_ability:
                raise SetupError(f"locks.{p}", f"card {card} is not a lock (ability {game.lock_ability})")
            lists[f"locks.{p}.{position}"] = [card]
            state.locks[p][position] = card
    _check_unique(lists)
    market = lists.get("market", [])
    for i, card in enumerate(market):
        for other in market[:i]:
            if game.ability_of[card] == game.ability_of[other]:
                raise SetupError("market", f"cards {other} and {card} share ability {game.ability_of[card]}; "
                                           "the market never holds a pair")
    state.market = list(market)
    named = {card for cards in lists.values() for card in cards}
    rest = sorted(set(game.ability_of) - named)
    where = setup.get("rest", "pile")
    if where not in ("pile", "discard"):
        raise SetupError("rest", f"must be 'pile' or 'discard', not {where!r}")
    deck = lists.get("deck", []) + (rest if where == "pile" else [])
    state.discard = lists.get("discard", []) + (rest if where == "discard" else [])
    state.pile = deck[::-1]
    phase = setup.get("phase", PLAY)
    if phase not in (DRAFT, PLAY):
        raise SetupError("phase", f"must be 'draft' or 'play', not {phase!r}")
    state.phase = phase
    if phase == DRAFT and any(state.locks.values()):
        # No Lock card can have been used before the first turn, and a draft placement onto a
        # locked carriage would be a case the rules never meet.
        raise SetupError("locks", "there are no locks during the opening draft")
    if phase == DRAFT:
        for seat, p in enumerate(state.players, start=1):
            state.draft_hands[p] = [state._draw() for _ in range(seat)]
    turn = setup.get("turn", state.players[0])
    if turn not in state.players:
        raise SetupError("turn", f"must be one of {', '.join(state.players)}, not {turn!r}")
    state.current = state.players.index(turn)
    for p in state.players:
        if phase == PLAY and is_ascending(state.trains[p]):
            raise SetupError(f"trains.{p}", "this train already rises from end to end: the game would be over")


NOTATION_HELP = """\
Actions (positions count from the locomotive, 1 to 7):
  draft <card> at <position>   opening draft: keep one drawn card, put it at a position (with
                               draft=together every player chooses at once: to_move lists them)
  keep <card>                  with draft=keep-then-place: keep a drawn card, place it later
  draw place <position>        take the top card of the draw pile, put it at a position
  use <card> swap <a> <b>      ability 1 (neighbours) or 2 (one carriage between them)
  use <card> move <from> <to>  ability 3 (two places away from the locomotive) or 4 (towards it)
  use <card>                   ability 5, 6 or 7: every train loses carriage 1, 4 or 7
  use <card> lock <position>   ability 8: lock carriage 1, 4 or 7 of your own train
Setup: deck (top first; dealt seven to P1, seven to P2, ..., then the draft cards: P1 one, P2
two, ...), or trains {P1: [7 numbers], ...} with market, discard, deck, locks {P1: {4: card}},
turn, phase (draft or play) and rest (pile or discard: where unnamed cards go, in rising order).
Chance: deal (the first shuffle), reshuffle (a new draw pile from the discard pile, top first).
Fields for expect: phase, to_move, winner, turns, train.P1 (numbers from the locomotive; null is
a gap during a refill), locks.P1 (locked positions), draft.P1 (cards drawn for the draft), market
(sorted), draw_top (the next three cards), draw_size, discard (sorted), discard_size.
Result fields for end: winner, order (winner first, then the others by seat), turns.
Parameters (--param, or params: in a scenario; the first value is the default):
  refill=losers|everyone (with everyone, a player whose carriage was
  locked answers an Uncouple with 'draw place <position>' in phase refill),
  reshuffle=at-once|when-needed, pairs=after-removals|on-arrival, no_effect=refused|allowed,
  draft=together|in-turn|keep-then-place.
"""


