"""The Spectral Rails rules engine: ghost trains carry souls home across a map of towns.

A game is 6 rounds in two halves of 3. In a round the players take turns, from the start player
clockwise, until every one has passed. A turn is: board one waiting soul at your train's town
(from your fourth soul on, a card is discarded for it), then move: play one ether card (or two
for a coin), take that many trail pieces, lay them on a route from your train and ride it to
another town; or play cards to take back trail pieces instead of moving; or pay a coin to ride
over other players' trail. Then souls whose town you reached may get off. Every card played goes
to the left end of its owner's row; at the end of a round each player takes back half of the row
(rounded down) from the left. From the second round an auction decides who removes trail and who
starts. The second half swaps the dark souls left on the map for light ones and restarts the
trains at the red start towns. Rulings where the rules are loose are in `rulings.yaml`.

Cards are written as `<colour letter><value>` (G3 is a green 3); a player's cards differ only by
value, so actions name values. Soul tiles are `d-<town>-<n>` (dark) and `l-<town>` (light).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from functools import cached_property, lru_cache
from itertools import combinations_with_replacement, compress, count, repeat
from operator import add, eq, gt, ne
from typing import Any

from verify.engine import Action, Chance, Game, IllegalAction, NotationError, SetupError, State, player_names
from verify.games.spectral_rails.board import Board, MapError
from verify.games.spectral_rails.board import soul_town as _soul_town
from verify.kit import Visibility, Zone, conservation_problems, outcome_from_scores

COLOURS = ("green", "purple", "orange", "grey")
LETTERS = {"green": "G", "purple": "P", "orange": "O", "grey": "K"}
ROUNDS = 6
HALF = 3
COINS = 2
TRAIL = 13
SEATS = 6  # the seats printed on a mat: the default seat limit (see the rulings)
NO_LIMIT = 1 << 30
FREE_SEATS = 3  # boarding a 4th soul or later costs a card
DEFAULT_VALUES = (1, 1, 2, 2, 2, 3, 3, 4, 4)
MOVE_READINGS = ("others", "literal")
KEEP_READINGS = ("choice", "highest")  # which card of a passed bid comes back; the first is the default
CLEAR_READINGS = ("anyone", "own", "others")  # whose trail the auction winner removes
REMOVE_READINGS = ("up-to", "exactly")  # how many pieces "remove X" takes back
SHORT_SUPPLY_READINGS = ("no-move", "remove-then-take")  # a card worth more than the supply
LAY_READINGS = ("route", "reach")  # where taken trail is laid: on the route ridden, or anywhere within reach
MOVE_END_READINGS = ("town", "anywhere")  # where a move may end: another town, or also in place or on the track

START, TURN, AUCTION, CLEAR, OVER = "start", "turn", "auction", "clear", "over"
# steps inside a turn
BEGIN, BOARDED, GO, DROP, DELIVER = "begin", "boarded", "go", "drop", "deliver"


# --- actions -------------------------------------------------------------------------------------

def _cards_text(values: tuple[int, ...]) -> str:
    return "+".join(str(v) for v in values)


@dataclass(frozen=True)
class Start(Action):
    town: str

    def __str__(self) -> str:
        return f"start {self.town}"


@dataclass(frozen=True)
class Pass(Action):
    """Pass for the round, or leave the auction; a bidder who leaves names the card kept (0: none)."""

    keep: int = 0

    def __str__(self) -> str:
        return f"pass keep {self.keep}" if self.keep else "pass"


@dataclass(frozen=True)
class Board_(Action):
    soul: str
    paying: int = 0

    def __str__(self) -> str:
        return f"board {self.soul}" + (f" paying {self.paying}" if self.paying else "")


@dataclass(frozen=True)
class Play(Action):
    cards: tuple[int, ...]

    def __str__(self) -> str:
        return f"play {_cards_text(self.cards)}"


@dataclass(frozen=True)
class Remove(Action):
    cards: tuple[int, ...]

    def __str__(self) -> str:
        return f"remove {_cards_text(self.cards)}"


@dataclass(frozen=True)
class Coin(Action):
    def __str__(self) -> str:
        return "coin"


@dataclass(frozen=True)
class Go(Action):
    path: tuple[str, ...]

    def __str__(self) -> str:
        return "go " + " ".join(self.path)


@dataclass(frozen=True)
class Drop(Action):
    space: str

    def __str__(self) -> str:
        return f"drop {self.space}"


@dataclass(frozen=True)
class Lay(Action):
    """Lay one piece taken this turn on an empty space within reach (where the reading allows it)."""

    space: str

    def __str__(self) -> str:
        return f"lay {self.space}"


@dataclass(frozen=True)
class Stop(Action):
    def __str__(self) -> str:
        return "stop"


@dataclass(frozen=True)
class Stay(Action):
    """End the turn after boarding without moving (where the reading allows it)."""

    def __str__(self) -> str:
        return "stay"


@dataclass(frozen=True)
class Deliver(Action):
    soul: str

    def __str__(self) -> str:
        return f"deliver {self.soul}"


@dataclass(frozen=True)
class End(Action):
    def __str__(self) -> str:
        return "end"


@dataclass(frozen=True)
class Bid(Action):
    cards: tuple[int, ...]

    def __str__(self) -> str:
        return f"bid {_cards_text(self.cards)}"


@dataclass(frozen=True)
class Clear(Action):
    space: str

    def __str__(self) -> str:
        return f"clear {self.space}"


@dataclass(frozen=True)
class Leader(Action):
    player: str

    def __str__(self) -> str:
        return f"leader {self.player}"


PASS, COIN, STOP, END, STAY = Pass(), Coin(), Stop(), End(), Stay()


def _parse_cards(word: str) -> tuple[int, ...]:
    parts = word.split("+")
    if not all(p.isdigit() and len(p) == 1 for p in parts) or not parts:
        raise NotationError(f"{word!r} is not a list of card values such as 3 or 3+2")
    values = tuple(int(p) for p in parts)
    if not all(1 <= v <= 9 for v in values):
        raise NotationError(f"{word!r}: card values are 1 to 4")
    return values


def parse_action(text: str) -> Action:
    words = text.split()
    if not words:
        raise NotationError("empty action")
    verb, rest = words[0].lower(), words[1:]
    simple = {"pass": PASS, "coin": COIN, "stop": STOP, "end": END, "stay": STAY}
    if verb in simple and not rest:
        return simple[verb]
    if verb == "pass" and len(rest) == 2 and rest[0] == "keep":
        value = _parse_cards(rest[1])
        if len(value) != 1:
            raise NotationError("a bidder who passes keeps one card: pass keep <value>")
        return Pass(value[0])
    if verb == "start" and len(rest) == 1:
        return Start(rest[0])
    if verb == "board" and len(rest) == 1:
        return Board_(rest[0])
    if verb == "board" and len(rest) == 3 and rest[1] == "paying":
        value = _parse_cards(rest[2])
        if len(value) != 1:
            raise NotationError("a fourth soul costs one card: board <soul> paying <value>")
        return Board_(rest[0], value[0])
    if verb in ("play", "remove", "bid") and len(rest) == 1:
        cards = _parse_cards(rest[0])
        if verb != "bid" and len(cards) > 2:
            raise NotationError("at most two cards move a train")
        return {"play": Play, "remove": Remove, "bid": Bid}[verb](cards)
    if verb == "go" and rest:
        return Go(tuple(rest))
    if verb == "drop" and len(rest) == 1:
        return Drop(rest[0])
    if verb == "lay" and len(rest) == 1:
        return Lay(rest[0])
    if verb == "clear" and len(rest) == 1:
        return Clear(rest[0])
    if verb == "deliver" and len(rest) == 1:
        return Deliver(rest[0])
    if verb == "leader" and len(rest) == 1:
        return Leader(rest[0])
    raise NotationError(f"cannot read {text!r}; see the notation (start, pass, board, play, remove, coin, go, "
                        "drop, lay, stop, stay, deliver, end, bid, clear, leader)")


# Actions are immutable values: the ones made while listing legal actions are made once and shared.
_play_action = lru_cache(maxsize=None)(Play)
_remove_action = lru_cache(maxsize=None)(Remove)
_go_action = lru_cache(maxsize=None)(Go)
_drop_action = lru_cache(maxsize=None)(Drop)
_deliver_action = lru_cache(maxsize=None)(Deliver)
_board_action = lru_cache(maxsize=None)(Board_)
_clear_action = lru_cache(maxsize=None)(Clear)
_start_action = lru_cache(maxsize=None)(Start)
_pass_action = lru_cache(maxsize=None)(Pass)
_leader_action = lru_cache(maxsize=None)(Leader)


@lru_cache(maxsize=None)
def _card_options(have: tuple[int, ...], coin: bool) -> tuple[tuple[int, ...], ...]:
    """The cards that may move a train, from a hand of these values (sorted): one card, highest
    first, then (with a coin) two."""
    values = sorted(set(have), reverse=True)
    options = [(v,) for v in values]
    if coin:
        for i, v in enumerate(values):
            for w in values[i:]:
                if v != w or have.count(v) >= 2:
                    options.append((v, w))
    return tuple(options)


@lru_cache(maxsize=None)
def _bids(have: tuple[int, ...], mine: int, high: int) -> tuple[Bid, ...]:
    """The bids of up to three cards from a hand of these values (sorted) that raise a bid of
    `mine` above `high` with no card to spare: every card is needed to beat the bid."""
    found = []
    held = {v: have.count(v) for v in have}
    for k in (1, 2, 3):
        for combo in combinations_with_replacement(sorted(held, reverse=True), k):
            if any(map(gt, map(combo.count, combo), map(held.__getitem__, combo))):
                continue
            total = mine + sum(combo)
            if total <= high:
                continue
            if all(total - v <= high for v in combo):
                found.append(Bid(tuple(combo)))
    return tuple(found)


def _without(values: list[int], value: int) -> list[int]:
    """`values` less one card of `value`."""
    rest = list(values)
    rest.remove(value)
    return rest


class _CardValues(dict):
    """card -> value (G3 -> 3), filled on demand."""

    def __missing__(self, card: str) -> int:
        value = self[card] = int(card[1:])
        return value


_CARD_VALUE = _CardValues()


class _Seen:
    """What the last check that found every invariant kept saw: a copy of every zone (in the
    groups of `SpectralRailsState._zone_groups`), a copy of the trail on the map and each player's
    pieces there; and the game's own numbers the check compares with. The next check compares
    the zones with these copies and looks again only at what differs; the copies of what
    differs are then brought up to date."""

    __slots__ = ("zones", "track", "owners", "towns", "pieces", "cards", "seats", "own_souls", "full")

    def __init__(self, state: "SpectralRailsState"):
        n = len(state.players)
        self.zones = [list(map(list, group)) for group in state._zone_groups()]
        self.track = dict(state.track)
        self.owners = _owners(state.track, n)
        self.towns = list(state.board.towns)
        self.pieces = [f"trail-{colour}" for colour in state.colours]  # each player's trail piece
        self.cards = [len(state.game.card_values[colour]) for colour in state.colours]  # each player's
        self.seats = state.game.seats
        self.full = [TRAIL] * n
        bound: dict[str, list] = {town: [] for town in state.board.towns}  # per town, the souls bound for it
        for c in state._component_counts():
            town = _soul_town(c)
            if town in bound:
                bound[town].append(c)
        self.own_souls = [frozenset(souls) for souls in bound.values()]

    def own_pieces_only(self, supply: list[list[str]]) -> bool:
        """Whether each supply holds only its player's pieces."""
        return all(zone.count(piece) == len(zone) for zone, piece in zip(supply, self.pieces))


def _owners(track: dict, players: int) -> list[int]:
    """Each player's trail pieces on the map."""
    return list(map(list(track.values()).count, range(players)))


# --- the game ------------------------------------------------------------------------------------

class SpectralRails(Game):
    """Parameters: move ('others': a train rides this turn's trail and other players' trail;
    'literal': only this turn's trail), light (points for a delivered light soul: 1 or 2),
    auction_keep ('choice': a bidder who passes names the card taken back; 'highest': the highest
    comes back), auction_clear (anyone, own or others: whose trail the auction winner removes),
    remove_count ('up-to': fewer pieces may come back than the card's value; 'exactly'), seats (a
    number, or 'none'), board_stay (true: a train may take a soul aboard and stay), short_supply
    ('remove-then-take': a card worth more than the supply takes back the pieces missing first),
    move_end ('anywhere': a train may take trail and stay, or end its move on a track space), lay
    ('reach': taken pieces may be laid on any empty space within reach before the move), map (a whole map instead of the board; a scenario's `setup: map` does the same)."""

    id = "spectral-rails"
    min_players = 3
    max_players = 4
    PARAMS = ("move", "light", "map", "auction_keep", "auction_clear", "remove_count", "seats", "board_stay",
              "short_supply", "move_end", "lay")

    def __init__(self, content=None, **params):
        super().__init__(content, **params)
        unknown = sorted(set(params) - set(self.PARAMS))
        if unknown:
            raise ValueError(f"params: unknown parameter {unknown[0]!r}; expected one of {', '.join(self.PARAMS)}")
        self.move_reading = params.get("move", "others")
        if self.move_reading not in MOVE_READINGS:
            raise ValueError(f"params.move: must be one of {', '.join(MOVE_READINGS)}, not {self.move_reading!r}")
        self.auction_keep = params.get("auction_keep", KEEP_READINGS[0])
        if self.auction_keep not in KEEP_READINGS:
            raise ValueError(f"params.auction_keep: must be one of {', '.join(KEEP_READINGS)}, not {self.auction_keep!r}")
        for name, choices in (("auction_clear", CLEAR_READINGS), ("remove_count", REMOVE_READINGS)):
            if params.get(name, choices[0]) not in choices:
                raise ValueError(f"params.{name}: must be one of {', '.join(choices)}, not {params[name]!r}")
        self.auction_clear = params.get("auction_clear", CLEAR_READINGS[0])
        self.remove_exactly = params.get("remove_count", REMOVE_READINGS[0]) == "exactly"
        seats = params.get("seats", SEATS)
        if seats != "none" and (isinstance(seats, bool) or not isinstance(seats, int) or not 1 <= seats <= 54):
            raise ValueError(f"params.seats: must be a number of seats from 1 to 54, or none, not {seats!r}")
        self.seats = NO_LIMIT if seats == "none" else seats
        if params.get("short_supply", SHORT_SUPPLY_READINGS[0]) not in SHORT_SUPPLY_READINGS:
            raise ValueError(f"params.short_supply: must be one of {', '.join(SHORT_SUPPLY_READINGS)}, not {params['short_supply']!r}")
        self.remove_then_take = params.get("short_supply") == "remove-then-take"
        if params.get("move_end", MOVE_END_READINGS[0]) not in MOVE_END_READINGS:
            raise ValueError(f"params.move_end: must be one of {', '.join(MOVE_END_READINGS)}, not {params['move_end']!r}")
        self.end_anywhere = params.get("move_end") == "anywhere"
        if params.get("lay", LAY_READINGS[0]) not in LAY_READINGS:
            raise ValueError(f"params.lay: must be one of {', '.join(LAY_READINGS)}, not {params['lay']!r}")
        self.lay_within_reach = params.get("lay") == "reach"
        self.board_stay = params.get("board_stay", False)
        if not isinstance(self.board_stay, bool):
            raise ValueError(f"params.board_stay: must be true or false, not {self.board_stay!r}")
        self.light_points = params.get("light", 1)
        if self.light_points not in (1, 2):
            raise ValueError("params.light: a light soul scores 1 or 2")
        self._boards: dict = {}

    @cached_property
    def map_data(self) -> dict:
        if "map" in self.params:
            return self.params["map"]
        if self.content is None:
            raise ValueError("Spectral Rails needs its content (map.yaml) or a map parameter")
        return self.content.files["map"]

    @cached_property
    def card_values(self) -> dict[str, tuple[int, ...]]:
        values: dict[str, list[int]] = {c: [] for c in COLOURS}
        if self.content is not None:
            for card in self.content.cards:
                if card["deck"] == "ether":
                    values[card["colour"]] += [card["value"]] * card.get("copies", 1)
        return {c: tuple(sorted(v)) if v else DEFAULT_VALUES for c, v in values.items()}

    def board(self, players: int, data: dict | None = None) -> Board:
        if data is not None:
            return Board(data, players=players)
        if players not in self._boards:
            self._boards[players] = Board(self.map_data, players=players)
        return self._boards[players]

    def new_state(self, players: int, seed: int | None = None, setup: dict | None = None) -> "SpectralRailsState":
        setup = self.checked_setup(players, setup, SETUP_KEYS)
        try:
            board = self.board(players, setup.get("map"))
        except MapError as exc:
            raise SetupError("map" if "map" in setup else "", exc.message) from None
        state = SpectralRailsState(self, board, players, Chance(seed))
        state.setup = setup or None
        _apply_setup(state, setup)
        state._changed()
        return state

    def notation_help(self) -> str:
        return NOTATION_HELP


NOTATION_HELP = """\
Actions (values name your own cards, e.g. 3 or 3+2; spaces are s1, s2, ...; towns by id):
  start <town>              place your train on a free start town (blue in round 1, red in round 4)
  pass                      stop for this round (or leave the auction before bidding)
  pass keep <v>             leave the auction after bidding, taking back the card <v> of your bid
                            (with auction_keep=highest: plain pass, the highest comes back)
  board <soul> [paying <v>] board a soul waiting at your train's town; from the 4th soul on, pay a card
  play <v>[+<w>]            move: take that many trail pieces (a second card costs a coin)
  remove <v>[+<w>]          take back up to that many of your trail pieces instead of moving
  coin                      move by paying a coin: ride only over other players' trail
  go <node> ... <town>      the route, from the space next to your train to the town it stops at;
                            empty spaces on it get your trail pieces (any route is accepted; the
                            legal actions list the cheapest route to each town)
  drop <space>              take back one of your pieces (after remove); stop when you may
  stay                      with board_stay=true: after boarding, end the turn without moving;
                            with move_end=anywhere: after taking trail, leave the train in place
  deliver <soul>            let a soul off at its town; end finishes the turn
  bid <v>[+<w>...]          add cards to your bid so it beats the highest (any cards that do; the
                            legal actions list only the smallest raises, with no card to spare)
  clear <space>             auction winner: remove a piece (it goes back to its owner)
  leader <player>           auction winner: give the spirit-leader marker; that player starts
Params (the first value is the default): move (others | literal), light (1 | 2), auction_keep
  (choice | highest), auction_clear (anyone | own | others: whose trail the auction winner removes),
  remove_count (up-to | exactly), seats (6, another number, or none), board_stay (false | true),
  lay (route | reach: before the move, lay <space> puts a piece taken on any empty space within
  your train's reach, and the train may ride it this turn),
  short_supply (no-move | remove-then-take: a card worth more than your supply first takes back
  the pieces missing, drop <space> each, then moves), move_end (town | anywhere: a move may also
  end on a track space, go ... <space>, or not move at all, stay; trains {P1: s3} then sets a
  train on the track), map
Setup: map, round, leader, turn, passed, trains {P1: town}, hands {P1: [values]}, rows {P1: [values,
  leftmost first]}, coins {P1: n}, trail {s3: P1}, aboard {P1: [souls]}, delivered {P1: {one: [...],
  two: [...]}}, waiting {town: [souls]}, phase (start | turn | auction), dark_order (tiles as drawn),
  bids {P1: [values laid]} (an auction under way: passed lists who left it, turn who bids next)
Chance: souls.dark (the dark tiles in the order they are laid out), souls.light
Expect: phase, round, half, step, turn, leader, passed, trains, track, taken, high_bid, hand.P1,
  row.P1 (leftmost first), bid.P1, coins.P1, supply.P1, aboard.P1, delivered_one.P1,
  delivered_two.P1, at.<town>, bag, light_pile, box, round_track, score, pieces.P1, breakdown.P1
End: winner, winners, scores, breakdown"""

SETUP_KEYS = {"map", "round", "leader", "turn", "passed", "trains", "hands", "rows", "coins", "trail",
              "aboard", "delivered", "waiting", "phase", "dark_order", "bids"}


# --- the state -----------------------------------------------------------------------------------

class SpectralRailsState(State):
    __slots__ = ("game", "board", "players", "index", "chance", "colours", "letters", "hands", "rows", "bids", "coins",
                 "bank", "supply", "track", "trains", "aboard", "delivered1", "delivered2", "waiting", "bag", "light",
                 "box", "round_track", "wrecks_off", "phase", "round", "leader", "current", "passed", "step", "taken",
                 "by_coin", "drop_left", "drop_free", "dropped", "take_after", "laid", "start_order", "high",
                 "high_player", "out", "kept", "clear_left", "setup", "_all_souls", "_winner_pending", "_legal",
                 "_counts", "_seen", "_memo", "_delivery_points")

    def __init__(self, game: SpectralRails, board: Board, players: int, chance: Chance):
        self.game = game
        self.board = board
        self.players = player_names(players)
        self.index = {p: i for i, p in enumerate(self.players)}
        self.chance = chance
        self.colours = COLOURS[:players]
        self.letters = [LETTERS[c] for c in self.colours]
        n = players
        self.hands: list[list[str]] = [[] for _ in range(n)]
        self.rows: list[list[str]] = [[] for _ in range(n)]  # index 0 is the left end
        self.bids: list[list[str]] = [[] for _ in range(n)]
        self.coins: list[list[str]] = [["coin"] * COINS for _ in range(n)]
        self.bank: list[str] = ["coin"] * (2 * len(COLOURS) - COINS * n)
        self.supply: list[list[str]] = [[f"trail-{c}"] * TRAIL for c in self.colours]
        self.track: dict[str, int] = {}
        self.trains: list[str | None] = [None] * n
        self.aboard: list[list[str]] = [[] for _ in range(n)]
        self.delivered1: list[list[str]] = [[] for _ in range(n)]
        self.delivered2: list[list[str]] = [[] for _ in range(n)]
        self.waiting: dict[str, list[str]] = {t: [] for t in board.towns}
        self.bag: list[str] = []
        self.light: list[str] = []
        self.box: list[str] = []
        self.round_track: list[str] = ["wreck-blue"] * HALF + ["wreck-red"] * HALF
        self.wrecks_off: list[str] = []
        self.phase = START
        self.round = 1
        self.leader = 0
        self.current = 0
        self.passed = [False] * n
        self.step = BEGIN
        self.taken = 0
        self.by_coin = False
        self.drop_left = 0
        self.drop_free = False
        self.dropped = 0
        self.take_after = 0  # remove-then-take: the pieces to take once the removal is done
        self.laid: frozenset = frozenset()  # lay=reach: your pieces laid this turn before the move
        self.start_order: list[int] = []
        self.high = 0
        self.high_player: int | None = None
        self.out = [False] * n
        self.kept = [0] * n  # the card value each bidder who passed takes back (0: the highest)
        self.clear_left = 0
        self.setup: dict | None = None
        self._all_souls: dict[str, int] = {}
        self._winner_pending = False
        self._legal: tuple | None = None
        self._counts: Counter | None = None  # fixed once the setup has named every soul tile
        self._seen: _Seen | None = None  # what the last check that found nothing amiss saw
        # Routes and removable pieces worked out for the trains and trail as they stand; emptied
        # whenever a train, a piece of trail or the turn changes.
        self._memo: dict = {}
        # (souls delivered for one point, for two) -> their points: shared by copies of a state
        self._delivery_points: dict[tuple, tuple[int, int, int]] = {}

    # --- components -------------------------------------------------------------------------------
    @staticmethod
    def soul_town(soul: str) -> str:
        return _soul_town(soul)

    @staticmethod
    def is_dark(soul: str) -> bool:
        return soul.startswith("d-")

    def check_invariants(self) -> list[str]:
        """Broken invariants, as sentences: the answer of `full_check`, found fast. After a check
        that found nothing, every zone is compared (in C) with a copy kept from then; the
        components that left the zones that differ must be the ones that came in, and the rules'
        limits are looked at again where zones differ. Whenever that cannot show that everything
        holds, the full check runs and names what is amiss."""
        if self._seen is not None and self._kept_since_seen():
            return []
        problems = self.full_check()
        self._seen = None
        if not problems:
            seen = _Seen(self)
            if seen.own_pieces_only(self.supply) and list(self.waiting) == seen.towns:  # what the fast check builds on
                self._seen = seen
        return problems

    def full_check(self) -> list[str]:
        """The invariants checked the slow, plain way: the kit's conservation check over every
        zone, then the rules' own."""
        return conservation_problems(self.zones(), self.components()) + self.rule_problems()

    def _zone_groups(self) -> list[list[list]]:
        """Every zone but the trail on the map, in groups: one per kind of a player's zone (hands,
        rows, bids, coins, supplies, souls aboard, delivered for one point, for two), the souls
        waiting at each town (in the order of `waiting`: map order), then the shared zones (bank,
        bag, light pile, box, round track, wrecks taken off)."""
        return [self.hands, self.rows, self.bids, self.coins, self.supply, self.aboard, self.delivered1,
                self.delivered2, list(self.waiting.values()),
                [self.bank, self.bag, self.light, self.box, self.round_track, self.wrecks_off]]

    def _kept_since_seen(self) -> bool:
        """Whether every invariant holds, given that all held at the last check (`self._seen`).
        The trail pieces are counted apart: every supply holds only its player's pieces, and
        with those on the map each player has all of them. Every other component that left the
        zones that changed since must be one that came in, and the rules' limits must hold for
        the players and towns whose zones changed. False is no verdict: the full check decides."""
        seen = self._seen
        if list(self.waiting) != seen.towns:
            return False  # souls wait somewhere that is no town of the map, or in another order
        groups, copies = self._zone_groups(), seen.zones
        supplies = []  # the players whose supply changed
        if groups != copies:
            gone: list = []
            came: list = []
            for i in compress(count(), map(ne, groups, copies)):
                group, before = groups[i], copies[i]
                if len(group) != len(before):
                    return False
                for k in compress(count(), map(ne, group, before)):
                    now = group[k]
                    if i == 4:
                        supplies.append(k)
                    else:
                        gone += before[k]
                        came += now
                        if i < 3:
                            if len(self.hands[k]) + len(self.rows[k]) + len(self.bids[k]) != seen.cards[k]:
                                return False
                        elif i == 3:
                            if len(now) > COINS:
                                return False
                        elif i == 5:
                            if len(now) > seen.seats:
                                return False
                        elif i == 8 and not seen.own_souls[k].isdisjoint(now):
                            return False  # a soul waits at its own town
                    before[k] = now[:]
            if gone != came:
                try:
                    if sorted(gone) != sorted(came):
                        return False
                except TypeError:  # something that is no component
                    return False
        track = self.track
        moved = track != seen.track
        if moved:
            owners = _owners(track, len(self.players))
            if sum(owners) != len(track):
                return False  # a piece of nobody's
            seen.track, seen.owners = dict(track), owners
        if moved or supplies:
            supply = self.supply
            if list(map(add, seen.owners, map(len, supply))) != seen.full:
                return False
            for p in supplies:
                if supply[p].count(seen.pieces[p]) != len(supply[p]):
                    return False
        if (self.round > ROUNDS or self.phase == OVER and (self.round != ROUNDS or self.round_track)
                or self.phase == TURN and None in self.trains):
            return False
        return self.phase == OVER or bool(self.legal_actions(self.players[self.current]))

    def _component_counts(self) -> Counter:
        if self._counts is None:
            self._counts = Counter({k: v for k, v in self.components().items() if v})
        return self._counts

    def components(self) -> dict:
        comps: dict[Any, int] = {"coin": 2 * len(COLOURS)}
        for p, colour in enumerate(self.colours):
            for v in self.game.card_values[colour]:
                key = f"{self.letters[p]}{v}"
                comps[key] = comps.get(key, 0) + 1
            comps[f"trail-{colour}"] = TRAIL
        comps["wreck-blue"] = HALF
        comps["wreck-red"] = HALF
        comps.update(self._all_souls)
        return comps

    def zones(self) -> list[Zone]:
        E, O, N = Visibility.EVERYONE, Visibility.OWNER, Visibility.NOBODY
        zones = []
        for p, player in enumerate(self.players):
            zones += [Zone("hand", self.hands[p], O, player),
                      Zone("row", self.rows[p], E, player, ordered=True),
                      Zone("bid", self.bids[p], E, player, ordered=True),
                      Zone("coins", self.coins[p], E, player),
                      Zone("supply", self.supply[p], E, player),
                      Zone("aboard", self.aboard[p], E, player, ordered=True),
                      Zone("delivered_one", self.delivered1[p], E, player),
                      Zone("delivered_two", self.delivered2[p], E, player)]
        zones.append(Zone("bank", self.bank, E))
        zones.append(Zone("trail_on_board", [f"trail-{self.colours[o]}" for _, o in sorted(self.track.items())], E))
        for town in self.board.towns:
            zones.append(Zone(f"at.{town}", self.waiting[town], E))
        zones += [Zone("bag", self.bag, N), Zone("light_pile", self.light, N), Zone("box", self.box, E),
                  Zone("round_track", self.round_track, E, ordered=True), Zone("wrecks_off", self.wrecks_off, E)]
        return zones

    def public_fields(self) -> dict[str, Any]:
        return {
            "phase": self.phase, "round": self.round, "half": 1 if self.round <= HALF else 2,
            "step": self.step if self.phase == TURN else None,
            "turn": self.players[self.current] if self.phase != OVER else None,
            "leader": self.players[self.leader],
            "passed": [p for i, p in enumerate(self.players) if self.passed[i]],
            "trains": {p: self.trains[i] for i, p in enumerate(self.players)},
            "track": {s: self.players[o] for s, o in sorted(self.track.items(), key=lambda kv: int(kv[0][1:]))},
            "taken": self.taken,
            "high_bid": self.high,
            "score": {p: self.final_score(i)[0] for i, p in enumerate(self.players)},
        }

    def fields(self) -> dict[str, Any]:
        """Everything, plus each player's zones under `<zone>.<player>`, the number of trail pieces
        left in each supply as `pieces.<player>` and the score so far, part by part, as
        `breakdown.<player>`, so a scenario can name one of them."""
        fields = super().fields()
        for name, value in list(fields.items()):
            if isinstance(value, dict) and set(value) == set(self.players) and name not in ("trains", "score"):
                for player, own in value.items():
                    fields[f"{name}.{player}"] = own
        for p, player in enumerate(self.players):
            fields[f"pieces.{player}"] = len(self.supply[p])
            fields[f"breakdown.{player}"] = self.final_score(p)[1]
        return fields

    # --- turn order -------------------------------------------------------------------------------
    def to_move(self) -> list[str]:
        if self.phase == OVER:
            return []
        return [self.players[self.current]]

    def is_terminal(self) -> bool:
        return self.phase == OVER

    def parse_action(self, text: str) -> Action:
        return parse_action(text)

    # --- helpers ----------------------------------------------------------------------------------
    def _values(self, p: int) -> list[int]:
        return list(map(_CARD_VALUE.__getitem__, self.hands[p]))

    def _has_cards(self, p: int, values) -> bool:
        have = self._values(p)
        for v in values:
            if v in have:
                have.remove(v)
            else:
                return False
        return True

    def _spend(self, p: int, values, to_row: bool = True) -> list[str]:
        cards = []
        for v in values:
            card = f"{self.letters[p]}{v}"
            self.hands[p].remove(card)
            cards.append(card)
        if to_row:
            for card in cards:
                self.rows[p].insert(0, card)  # laid one by one to the left
        return cards

    def _reach(self, p: int, by_coin: bool, first_only: bool = False, limit: int | None = None) -> dict:
        """The cheapest routes for `p`'s train (see Board.cheapest); those costing more than
        `limit` pieces are left out. Remembered until a train, the trail or the turn changes."""
        key = ("reach", p, by_coin, first_only, limit)
        found = self._memo.get(key)
        if found is None:
            others = self.game.move_reading == "others" or by_coin
            spaces = self.game.end_anywhere  # a coin move too may stop on the trail it rides
            found = self._memo[key] = self.board.cheapest(self.trains[p], self.track, p, others, not by_coin,
                                                          first_only, spaces, self.laid, limit)
        return found

    def _changed(self) -> None:
        """A train, a piece of trail or the turn changed: forget the routes worked out."""
        self._memo = {}

    def _min_move_cost(self, p: int) -> int | None:
        if self.game.end_anywhere:
            return 0  # the train may take trail and stay
        key = ("least", p)
        if key not in self._memo:
            if not self.laid:  # the cheapest route out of the train's town
                others = self.game.move_reading == "others"
                legs = self.board.first_legs(self.trains[p], self.track, p, others, True)
                self._memo[key] = min(legs, default=None)
                if others:  # a route out that costs nothing is all other players' trail: a coin rides it
                    self._memo["coin", p] = 0 in legs
            else:
                reach = self._reach(p, False, first_only=True)
                self._memo[key] = min((c for c, _ in reach.values()), default=None)
        return self._memo[key]

    def _coin_move_possible(self, p: int) -> bool:
        """Whether a coin move reaches somewhere: over other players' trail only."""
        key = ("coin", p)
        if key not in self._memo:
            if not self.laid and not self.game.end_anywhere:  # a whole route out of the town of others' trail
                self._memo[key] = bool(self.board.first_legs(self.trains[p], self.track, p, True, False))
            else:
                self._memo[key] = bool(self._reach(p, True, first_only=True))
        return self._memo[key]

    def _connected(self, p: int) -> set[str]:
        """Your pieces joined to your train by your own trail (a town breaks the chain)."""
        train = self.trains[p]
        found: set[str] = set()
        if train is None:
            return found
        routes = self.board.town_routes.get(train)
        if routes is not None:  # a train in a town: the unbroken run of your pieces from it on each route
            owner_of = self.track.get
            for spaces in routes:
                for s in spaces:
                    if owner_of(s) != p:
                        break
                    found.add(s)
            return found
        todo = [s for s in self.board.adj[train] if self.track.get(s) == p]
        if self.track.get(train) == p:
            todo.append(train)  # a train standing on its own piece of trail
        while todo:
            s = todo.pop()
            if s in found:
                continue
            found.add(s)
            for nxt in self.board.adj[s]:
                if self.track.get(nxt) == p and nxt not in found:
                    todo.append(nxt)
        return found

    def _removable(self, p: int) -> tuple[tuple[str, ...], bool]:
        """(pieces you may take back, whether you may choose how many)."""
        key = ("removable", p)
        found = self._memo.get(key)
        if found is None:
            mine = list(compress(self.track, map(eq, self.track.values(), repeat(p))))
            connected = self._connected(p)
            found = self._memo[key] = ((tuple(mine), True) if not connected
                                       else (tuple(s for s in mine if s not in connected), False))
        return found


    def _move_options(self, p: int, have: list[int] | None = None) -> list[Action]:
        """Every way to do step B now (play, remove or coin), as actions; with `have`, for a hand
        of those card values instead of the hand held."""
        have = tuple(sorted(self._values(p) if have is None else have))
        key = ("moves", p, have, len(self.coins[p]), len(self.supply[p]))
        found = self._memo.get(key)
        if found is not None:
            return list(found)
        actions: list[Action] = []
        options = _card_options(have, bool(self.coins[p]))
        if options:
            min_cost = self._min_move_cost(p)
            supply = len(self.supply[p])
            removable = len(self._removable(p)[0])
            # remove-then-take: a card worth more than the supply is played when removal makes up the rest
            reach = supply + (removable if self.game.remove_then_take else 0)
            if min_cost is not None:
                for cards in options:
                    total = sum(cards)
                    if total <= reach and min_cost <= total:
                        actions.append(_play_action(cards))
            if removable and not self.game.remove_exactly:
                actions += map(_remove_action, options)
            elif removable:
                actions += [_remove_action(cards) for cards in options if sum(cards) <= removable]
        if self.coins[p] and self._coin_move_possible(p):
            actions.append(COIN)
        self._memo[key] = tuple(actions)
        return actions

    # --- legal actions ----------------------------------------------------------------------------
    def legal_actions(self, player: str) -> list[Action]:
        cached = self._legal
        if cached is not None and cached[0] == player:
            return list(cached[1])
        actions = self._legal_actions(player)
        self._legal = (player, tuple(actions))
        return actions

    def _legal_actions(self, player: str) -> list[Action]:
        p = self.index.get(player)
        if p is None or self.phase == OVER or p != self.current:
            return []
        if self.phase == START:
            taken = set(self.trains)
            return [_start_action(t) for t in self._starts() if t not in taken]
        if self.phase == AUCTION:
            return self._auction_passes(p) + self._bid_options(p)
        if self.phase == CLEAR:
            acts: list[Action] = []
            if self.clear_left:
                track = self.track
                spaces = sorted(track, key=self.board.space_number.__getitem__)
                if self.game.auction_clear == "anyone":
                    acts += [_clear_action(s) for s in spaces if track[s] is not None]
                else:
                    acts += [_clear_action(s) for s in spaces if self._may_clear(p, s)]
            return acts + list(map(_leader_action, self.players))
        step = self.step
        if step == BEGIN:
            moves = self._move_options(p)
            acts = [PASS]
            if moves or self.game.board_stay:
                acts += self._board_options(p)
            return acts + moves
        if step == BOARDED:
            return self._move_options(p) + ([STAY] if self.game.board_stay else [])
        if step == GO:
            moves = self._go_options(p)
            if self.game.lay_within_reach and not self.by_coin:
                moves += [Lay(s) for s in self._lay_spaces(p)]
            return moves
        if step == DROP:
            removable, free = self._removable(p)
            acts = [_drop_action(s) for s in sorted(removable, key=self.board.space_number.__getitem__)]
            if free and self.dropped and not self.game.remove_exactly and not self.take_after:
                acts.append(STOP)
            return acts
        if step == DELIVER:
            town = self.trains[p]
            return [_deliver_action(s) for s in self.aboard[p] if _soul_town(s) == town] + [END]
        return []

    def _starts(self) -> list[str]:
        return self.board.blue_starts if self.round <= HALF else self.board.red_starts

    def _board_options(self, p: int) -> list[Action]:
        town = self.trains[p]
        souls = self.waiting.get(town, [])
        if not souls or len(self.aboard[p]) >= self.game.seats:
            return []
        if len(self.aboard[p]) < FREE_SEATS:
            return [_board_action(s) for s in dict.fromkeys(souls)]
        acts = []
        have = self._values(p)
        for v in sorted(set(have)):
            if self.game.board_stay or self._move_options(p, _without(have, v)):
                acts += [_board_action(s, v) for s in dict.fromkeys(souls)]
        return acts

    def _auction_passes(self, p: int) -> list[Action]:
        """Leaving the auction: with cards bid, naming the one taken back where the passer chooses."""
        if self.bids[p] and self.game.auction_keep == "choice":
            return [_pass_action(v) for v in sorted({int(c[1:]) for c in self.bids[p]}, reverse=True)]
        return [PASS]

    def _bid_options(self, p: int) -> list[Action]:
        have = tuple(sorted(self._values(p)))
        return list(_bids(have, sum(int(c[1:]) for c in self.bids[p]), self.high))

    # --- apply ------------------------------------------------------------------------------------
    def apply(self, player: str, action: Action) -> None:
        self._legal = None  # a refused action leaves the state as it was; the cache is rebuilt
        p = self.index.get(player)
        if p is None:
            raise IllegalAction("players", f"unknown player {player!r}; the players are {', '.join(self.players)}")
        if self.phase == OVER:
            raise IllegalAction("end of the game", "the game is over")
        if p != self.current:
            raise IllegalAction("turn order", f"not your turn: {self.players[self.current]} is to move")
        kind = type(action)
        if self.phase == START:
            if kind is not Start:
                raise IllegalAction("start towns", f"{player} must first place the train: start <town>")
            return self._start(p, action.town)
        if self.phase == AUCTION:
            if kind is Pass:
                return self._auction_pass(p, action.keep)
            if kind is Bid:
                return self._bid(p, action.cards)
            raise IllegalAction("auction", "during the auction you bid or pass")
        if self.phase == CLEAR:
            if kind is Clear:
                return self._clear(p, action.space)
            if kind is Leader:
                return self._give_leader(p, action.player)
            raise IllegalAction("auction", "the auction winner clears trail (clear <space>) and names the start player (leader <player>)")
        step = self.step
        if kind is Pass:
            if action.keep:
                raise IllegalAction("passing", "a card is kept only by a bidder leaving the auction")
            if step != BEGIN:
                raise IllegalAction("passing", "you may pass only instead of a whole turn, not in the middle of one")
            self.passed[p] = True
            return self._next_turn()
        if kind is Board_:
            return self._board(p, action)
        if kind in (Play, Remove, Coin):
            if step not in (BEGIN, BOARDED):
                raise IllegalAction("turn order", "you have already played for this turn's move")
            if kind is Coin:
                return self._coin(p)
            return self._play(p, action.cards, kind is Remove)
        if kind is Go:
            return self._go(p, action.path)
        if kind in (Drop, Stop):
            return self._drop(p, action)
        if kind is Lay:
            if step != GO or self.by_coin or not self.game.lay_within_reach:
                raise IllegalAction("laying trail", "trail is laid on the route the train rides (go <route>)")
            if action.space not in self._lay_spaces(p):
                raise IllegalAction("laying trail", f"{action.space} is not an empty space within your train's reach "
                                                    "that leaves a move possible")
            return self._lay(p, action.space)
        if kind in (Deliver, End):
            return self._deliver(p, action)
        if kind is Stay and step == GO and self.game.end_anywhere and not self.by_coin:
            self.taken = 0  # the pieces taken go back to the supply unused
            return self._to_deliver(p)
        if kind is Stay:
            if not self.game.board_stay:
                raise IllegalAction("moving", "after boarding a soul the train must move")
            if step != BOARDED:
                raise IllegalAction("moving", "the train stays only after a soul has boarded, instead of its move")
            return self._next_turn()
        if kind is Start:
            raise IllegalAction("start towns", "trains are placed only at the start of a half")
        raise IllegalAction("turn order", f"{action} is not possible now (step: {step})")

    def _start(self, p: int, town: str) -> None:
        starts = self._starts()
        colour = "blue" if self.round <= HALF else "red"
        if town not in starts:
            raise IllegalAction("start towns", f"{town!r} is not a {colour} start town ({', '.join(starts)})")
        if town in self.trains:
            raise IllegalAction("start towns", f"another train already starts at {town}")
        self.trains[p] = town
        self._changed()
        self.start_order.pop(0)
        if self.start_order:
            self.current = self.start_order[0]
        elif self._winner_pending:
            self.phase = CLEAR
            self.current = self.high_player
        else:
            self._begin_round()

    def _board(self, p: int, action: Board_) -> None:
        if self.step != BEGIN:
            raise IllegalAction("boarding", "a soul boards only at the start of your turn, before the train moves")
        town = self.trains[p]
        if action.soul not in self.waiting.get(town, []):
            raise IllegalAction("boarding", f"{action.soul} is not waiting at {town}, where your train stands")
        if len(self.aboard[p]) >= self.game.seats:
            raise IllegalAction("seats", f"your train has {self.game.seats} seats and they are all taken")
        if len(self.aboard[p]) >= FREE_SEATS:
            if not action.paying:
                raise IllegalAction("fourth soul", "from the 4th soul on, boarding costs a card: board <soul> paying <value>")
            if not self._has_cards(p, [action.paying]):
                raise IllegalAction("fourth soul", f"you have no {action.paying} to discard")
        elif action.paying:
            raise IllegalAction("fourth soul", "only the 4th soul and later cost a card")
        if not self.game.board_stay:
            have = self._values(p)
            if not self._move_options(p, _without(have, action.paying) if action.paying else have):
                raise IllegalAction("moving", "after boarding you must move, and you would have no way to")
        if action.paying:
            self._spend(p, [action.paying])
        self.waiting[town].remove(action.soul)
        self.aboard[p].append(action.soul)
        self.step = BOARDED

    def _play(self, p: int, cards: tuple[int, ...], remove: bool) -> None:
        if len(cards) == 2 and not self.coins[p]:
            raise IllegalAction("second card", "a second card costs a coin and you have none")
        if not self._has_cards(p, cards):
            raise IllegalAction("cards", f"you do not hold {_cards_text(cards)}")
        total = sum(cards)
        if remove:
            removable, free = self._removable(p)
            if not removable:
                raise IllegalAction("removing trail", "you have no trail piece you may take back (only pieces not joined to your train)")
            if self.game.remove_exactly and len(removable) < total:
                raise IllegalAction("removing trail", f"you must take back exactly {total} pieces and only {len(removable)} may go")
        else:
            short = total - len(self.supply[p])
            if short > 0 and not self.game.remove_then_take:
                raise IllegalAction("taking trail", f"you cannot take {total} pieces: {len(self.supply[p])} left in your supply")
            if short > 0 and short > len(self._removable(p)[0]):
                raise IllegalAction("taking trail", f"you cannot take {total} pieces: {len(self.supply[p])} left in your "
                                                    f"supply and only {len(self._removable(p)[0])} may be taken back first")
            min_cost = self._min_move_cost(p)
            if min_cost is None or min_cost > total:
                raise IllegalAction("moving", f"no town can be reached with {total} pieces")
        if len(cards) == 2:
            self.bank.append(self.coins[p].pop())
        self._spend(p, cards)
        if remove:
            self.step = DROP
            self.drop_left = total
            self.drop_free = free
            self.dropped = 0
            self._maybe_end_drop(p)
        elif total > len(self.supply[p]):
            # Take back the pieces the supply lacks (not joined to the train), then take and move.
            self.step = DROP
            self.drop_left = total - len(self.supply[p])
            self.drop_free = False
            self.dropped = 0
            self.take_after = total
        else:
            self.step = GO
            self.taken = total
            self.by_coin = False

    def _coin(self, p: int) -> None:
        if not self.coins[p]:
            raise IllegalAction("coin move", "you have no coin")
        if not self._coin_move_possible(p):
            raise IllegalAction("coin move", "no town can be reached over other players' trail")
        self.bank.append(self.coins[p].pop())
        self.step = GO
        self.taken = 0
        self.by_coin = True

    def _go_options(self, p: int) -> list[Action]:
        """The moves that end step B: the cheapest route to each place within the pieces taken."""
        reach = self._reach(p, self.by_coin, limit=self.taken)
        moves: list[Action] = [_go_action(path) for _, path in reach.values()]
        # the pieces each route places (its cost), for scoring the moves
        self._memo["placed", p] = {path: cost for cost, path in reach.values()}
        if self.game.end_anywhere and not self.by_coin:
            moves.append(STAY)
        return moves

    def _lay_spaces(self, p: int) -> list[str]:
        """lay=reach: the empty spaces a piece may go on now: next to what the train can reach over
        towns, other players' trail and this turn's pieces, keeping a move possible afterwards."""
        if not self.taken:
            return []
        board, track, laid = self.board, self.track, self.laid
        seen, todo, found = {self.trains[p]}, [self.trains[p]], []
        while todo:
            node = todo.pop()
            for nxt in board.adj[node]:
                if nxt in seen:
                    continue
                seen.add(nxt)
                owner = track.get(nxt)
                if board.is_town[nxt] or nxt in laid or (owner is not None and owner != p):
                    todo.append(nxt)
                elif owner is None:
                    found.append(nxt)
        spaces = []
        for space in sorted(found, key=lambda s: int(s[1:])):
            trial = self.clone()
            trial._lay(p, space)
            if trial._go_options(p):
                spaces.append(space)
        return spaces

    def _lay(self, p: int, space: str) -> None:
        self._changed()
        self.track[space] = p
        self.supply[p].pop()
        self.taken -= 1
        self.laid = self.laid | {space}

    def _go(self, p: int, path: tuple[str, ...]) -> None:
        if self.step != GO:
            raise IllegalAction("moving", "play a card (or a coin) before moving the train")
        board, track = self.board, self.track
        here = self.trains[p]
        seen = {here}
        places = []
        others = self.game.move_reading == "others" or self.by_coin
        for node in path:
            if node not in board.adj:
                raise IllegalAction("route", f"{node!r} is no town or space of the map")
            if node not in board.adj[here]:
                raise IllegalAction("route", f"{node} does not join {here}")
            if node in seen:
                raise IllegalAction("route", f"the route passes {node} twice")
            seen.add(node)
            if node in board.space_route:
                owner = track.get(node)
                if node in self.laid:
                    pass  # laid this turn: ridden like the pieces the route itself gets
                elif owner == p:
                    raise IllegalAction("own trail", f"{node} holds your own trail from an earlier turn: you may not ride it again")
                elif owner is None:
                    if self.by_coin:
                        raise IllegalAction("coin move", f"{node} is empty: a coin move rides only on other players' trail")
                    places.append(node)
                elif not others:
                    raise IllegalAction("trail of this turn", f"{node} holds {self.players[owner]}'s trail: the train rides only on trail laid this turn")
            here = node
        if not path or not (board.is_town[here] or self.game.end_anywhere):
            raise IllegalAction("route", "a route ends at a town")
        if here == self.trains[p]:
            raise IllegalAction("moving", "the train must leave its town")
        if len(places) > self.taken:
            raise IllegalAction("taking trail", f"the route needs {len(places)} pieces; you took {self.taken}")
        for s in places:
            track[s] = p
            self.supply[p].pop()
        self.taken = 0
        self.by_coin = False
        self.trains[p] = here
        self._changed()
        self._to_deliver(p)

    def _maybe_end_drop(self, p: int) -> None:
        if self.take_after:
            if self.drop_left == 0:
                self.step, self.taken, self.take_after, self.by_coin = GO, self.take_after, 0, False
            return
        removable, free = self._removable(p)
        if self.drop_left == 0 or not removable:
            self._to_deliver(p)

    def _drop(self, p: int, action) -> None:
        if self.step != DROP:
            raise IllegalAction("removing trail", "take back pieces only after playing remove")
        removable, free = self._removable(p)
        if type(action) is Stop:
            if self.take_after:
                raise IllegalAction("taking trail", f"take back {self.drop_left} more pieces before taking {self.take_after}")
            if self.game.remove_exactly:
                raise IllegalAction("removing trail", f"you take back exactly the card's value: {self.drop_left} more to go")
            if not (free and self.dropped):
                raise IllegalAction("removing trail", "your train touches your trail: every piece not joined to it must go, up to the card's value")
            return self._to_deliver(p)
        if self.track.get(action.space) != p:
            raise IllegalAction("removing trail", f"{action.space} holds none of your trail")
        if action.space not in removable:
            raise IllegalAction("removing trail", f"{action.space} is joined to your train and cannot be taken back")
        del self.track[action.space]
        self._changed()
        self.supply[p].append(f"trail-{self.colours[p]}")
        self.drop_left -= 1
        self.dropped += 1
        self._maybe_end_drop(p)

    def _to_deliver(self, p: int) -> None:
        town = self.trains[p]
        if town in map(_soul_town, self.aboard[p]):
            self.step = DELIVER
        else:
            self._next_turn()

    def _deliver(self, p: int, action) -> None:
        if self.step != DELIVER:
            raise IllegalAction("delivering", "souls get off after the train has moved")
        if type(action) is End:
            return self._next_turn()
        soul = action.soul
        if soul not in self.aboard[p]:
            raise IllegalAction("delivering", f"{soul} is not aboard your train")
        if self.soul_town(soul) != self.trains[p]:
            raise IllegalAction("delivering", f"{soul} is bound for {self.soul_town(soul)}, not {self.trains[p]}")
        self.aboard[p].remove(soul)  # the seats behind move up
        two = (self.round > HALF and self.is_dark(soul)) or (not self.is_dark(soul) and self.game.light_points == 2)
        (self.delivered2 if two else self.delivered1)[p].append(soul)
        if not any(self.soul_town(s) == self.trains[p] for s in self.aboard[p]):
            self._next_turn()

    def _next_turn(self) -> None:
        self.step = BEGIN
        self.taken = 0
        self.laid = frozenset()
        self._changed()
        n = len(self.players)
        for k in range(1, n + 1):
            q = (self.current + k) % n
            if not self.passed[q]:
                self.current = q
                return
        self._end_round()

    # --- round end, auction, second half -------------------------------------------------------------
    def _end_round(self) -> None:
        for p in range(len(self.players)):
            back = len(self.rows[p]) // 2
            self.hands[p] += self.rows[p][:back]
            del self.rows[p][:back]
            while len(self.coins[p]) < COINS and self.bank:
                self.coins[p].append(self.bank.pop())
        self.wrecks_off.append(self.round_track.pop(0))
        if self.round == ROUNDS:
            self.phase = OVER
            self.step = BEGIN
            return
        self.round += 1
        self.passed = [False] * len(self.players)
        if self.round == HALF + 1:
            self._second_half()
        self._begin_auction()

    def _second_half(self) -> None:
        for town in self.board.towns:
            self.bag += [s for s in self.waiting[town] if self.is_dark(s)]
            self.waiting[town] = [s for s in self.waiting[town] if not self.is_dark(s)]
        self.trains = [None] * len(self.players)
        self._changed()
        tiles = [s for s in self.light if self.soul_town(s) in self.board.town_region]
        self.light[:] = [s for s in self.light if s not in tiles]
        self._lay_out(tiles, "souls.light", 1)

    def _begin_auction(self) -> None:
        self.phase = AUCTION
        self.step = BEGIN
        self.high = 0
        self.high_player = None
        self._winner_pending = False
        self.out = [False] * len(self.players)
        self.kept = [0] * len(self.players)
        self.current = self.leader
        self._auction_skip()

    def _auction_skip(self) -> None:
        """Move to the next bidder still in; finish when one bidder is left or nobody bid."""
        n = len(self.players)
        ins = [q for q in range(n) if not self.out[q]]
        if self.high_player is not None and ins == [self.high_player]:
            return self._auction_done()
        if not ins:
            return self._auction_done()
        for k in range(n):
            q = (self.current + k) % n
            if not self.out[q]:
                self.current = q
                return

    def _bid(self, p: int, cards: tuple[int, ...]) -> None:
        if not self._has_cards(p, cards):
            raise IllegalAction("auction", f"you do not hold {_cards_text(cards)}")
        total = sum(int(c[1:]) for c in self.bids[p]) + sum(cards)
        if total <= self.high:
            raise IllegalAction("auction", f"a bid of {total} does not beat the highest bid, {self.high}")
        spare = [v for v in cards if total - v > self.high]
        if spare:  # see the ruling on bids: cards are added until the bid beats the highest, no more
            raise IllegalAction("auction", f"a bid of {total - spare[0]} beats the highest bid, {self.high}, "
                                           f"without the {spare[0]}: add cards only until your bid beats it")
        self.bids[p] += self._spend(p, cards, to_row=False)
        self.high = total
        self.high_player = p
        self.current = (p + 1) % len(self.players)
        self._auction_skip()

    def _auction_pass(self, p: int, keep: int) -> None:
        bid = [int(c[1:]) for c in self.bids[p]]
        if self.game.auction_keep == "highest":
            if keep:
                raise IllegalAction("auction", "the highest card of your bid comes back: pass without naming one")
        elif bid and not keep:
            raise IllegalAction("auction", f"name the card of your bid you take back: pass keep <value> ({_cards_text(tuple(bid))})")
        elif keep and keep not in bid:
            raise IllegalAction("auction", f"your bid holds no {keep}" if bid else "you have no bid to take a card back from")
        self.kept[p] = keep
        self.out[p] = True
        self.current = (p + 1) % len(self.players)
        self._auction_skip()

    def _auction_done(self) -> None:
        winner = self.high_player
        for q in range(len(self.players)):
            bid = self.bids[q]
            if not bid:
                continue
            if q != winner:
                keep = self.kept[q]
                back = f"{self.letters[q]}{keep}" if keep else max(bid, key=lambda c: int(c[1:]))
                bid.remove(back)
                self.hands[q].append(back)
            for card in bid:
                self.rows[q].insert(0, card)
            bid.clear()
        self._winner_pending = winner is not None
        self.clear_left = self.high if winner is not None else 0
        first = winner if winner is not None else self.leader
        if self.round == HALF + 1:
            self.phase = START
            n = len(self.players)
            self.start_order = [(first + k) % n for k in range(n)]
            self.current = first
            return
        if winner is not None:
            self.phase = CLEAR
            self.current = winner
        else:
            self._begin_round()

    def _may_clear(self, p: int, space: str) -> bool:
        """Whether the auction winner `p` may remove the piece on `space`, by the reading."""
        owner = self.track.get(space)
        reading = self.game.auction_clear
        return owner is not None and (reading == "anyone" or (owner == p) == (reading == "own"))

    def _clear(self, p: int, space: str) -> None:
        if not self.clear_left:
            raise IllegalAction("auction", f"you may remove no more trail (your bid was {self.high})")
        owner = self.track.get(space)
        if owner is None:
            raise IllegalAction("auction", f"{space} holds no trail")
        if not self._may_clear(p, space):
            whose = "your own" if self.game.auction_clear == "own" else "other players'"
            raise IllegalAction("auction", f"{space} holds {self.players[owner]}'s trail: you remove only {whose} trail")
        del self.track[space]
        self._changed()
        self.supply[owner].append(f"trail-{self.colours[owner]}")
        self.clear_left -= 1

    def _give_leader(self, p: int, player: str) -> None:
        if player not in self.index:
            raise IllegalAction("auction", f"unknown player {player!r}")
        self.leader = self.index[player]
        self.clear_left = 0
        self._winner_pending = False
        self._begin_round()

    def _begin_round(self) -> None:
        self.phase = TURN
        self.step = BEGIN
        self.high = 0
        self.high_player = None
        self.current = self.leader

    # --- souls on the map -------------------------------------------------------------------------
    def _lay_out(self, tiles: list[str], kind: str, per_town: int) -> None:
        """Shuffle `tiles` and lay them out town by town, `per_town` each, never at the town a soul
        is bound for; tiles left over go to the bag."""
        for _ in range(50):
            order = self.chance.shuffle(kind, tiles)
            placed = self._assign(order, per_town)
            if placed is not None:
                break
        else:  # pragma: no cover - 50 shuffles that all fail do not happen with real maps
            raise SetupError("waiting", "the soul tiles cannot be laid out away from their own towns")
        for town, souls in placed.items():
            self.waiting[town] += souls
        used = {s for souls in placed.values() for s in souls}
        self.bag += [s for s in order if s not in used]

    def _assign(self, order: list[str], per_town: int) -> dict[str, list[str]] | None:
        rest = list(order)
        placed: dict[str, list[str]] = {}
        for town in self.board.towns:
            placed[town] = []
            for _ in range(per_town):
                for i, soul in enumerate(rest):
                    if self.soul_town(soul) != town and soul not in placed[town]:
                        placed[town].append(rest.pop(i))
                        break
                else:
                    if rest:  # only tiles bound for this very town are left: lay out again
                        return None
        return placed

    # --- scoring ----------------------------------------------------------------------------------
    def final_score(self, p: int) -> tuple[int, dict]:
        base, every, full, aboard, total = self._points(self.delivered1[p], self.delivered2[p], len(self.aboard[p]))
        return total, {"souls": base, "every_region": every, "whole_regions": full, "aboard": aboard, "total": total}

    def _points(self, one: list[str], two: list[str], aboard: int) -> tuple[int, int, int, int, int]:
        """(souls, every region, whole regions, souls aboard, total) for souls delivered for one
        point (`one`) and for two, with `aboard` souls left on the train."""
        key = (tuple(one), tuple(two))
        found = self._delivery_points.get(key)
        if found is None:
            board = self.board
            towns = set(map(_soul_town, one))
            towns.update(map(_soul_town, two))
            regions = set(map(board.town_region.get, towns))
            base = len(one) + 2 * len(two)
            every = 6 if regions.issuperset(board.regions) else 0
            full = 3 * sum(1 for region in board.region_town_sets if region <= towns)
            found = self._delivery_points[key] = (base, every, full)
        base, every, full = found
        return base, every, full, -aboard, base + every + full - aboard

    def outcome(self):
        scores, breakdown = {}, {}
        for p, player in enumerate(self.players):
            scores[player], breakdown[player] = self.final_score(p)
        return outcome_from_scores(scores, breakdown)

    def rule_problems(self) -> list[str]:
        problems = []
        owners = Counter(self.track.values())
        for p, player in enumerate(self.players):
            on_board = owners[p]
            if on_board + len(self.supply[p]) != TRAIL:
                problems.append(f"{player}: {on_board} trail pieces on the map and {len(self.supply[p])} in supply, not {TRAIL}")
            cards = len(self.hands[p]) + len(self.rows[p]) + len(self.bids[p])
            if cards != len(self.game.card_values[self.colours[p]]):
                problems.append(f"{player}: {cards} ether cards between hand, row and bid")
            if len(self.aboard[p]) > self.game.seats:
                problems.append(f"{player} carries {len(self.aboard[p])} souls")
            if len(self.coins[p]) > COINS:
                problems.append(f"{player} holds {len(self.coins[p])} coins")
        if self.round > ROUNDS:
            problems.append(f"round {self.round}: the game ends after round {ROUNDS}")
        if self.phase == OVER and (self.round != ROUNDS or self.round_track):
            problems.append("the game ended before the sixth round was played")
        if self.phase == TURN:
            for p, t in enumerate(self.trains):
                if t is None:
                    problems.append(f"{self.players[p]}'s train is not on the map during a round")
        for town, souls in self.waiting.items():
            for s in souls:
                if self.soul_town(s) == town:
                    problems.append(f"{s} waits at its own town")
        if self.phase != OVER and not self.legal_actions(self.players[self.current]):
            problems.append(f"{self.players[self.current]} is to move but has no legal action")
        return problems

    # --- copies, heuristics, records --------------------------------------------------------------
    def clone(self) -> "SpectralRailsState":
        other = self.shallow_copy()
        for name in ("hands", "rows", "bids", "coins", "supply", "aboard", "delivered1", "delivered2"):
            setattr(other, name, [list(x) for x in getattr(self, name)])
        for name in ("bank", "bag", "light", "box", "round_track", "wrecks_off", "trains", "passed", "out",
                     "start_order", "kept"):
            setattr(other, name, list(getattr(self, name)))
        other.track = dict(self.track)
        other.waiting = {t: list(s) for t, s in self.waiting.items()}
        other.chance = self.chance.copy()
        other._memo = dict(self._memo)
        other._seen = None
        return other

    def score(self, player: str) -> float:
        """How well `player` stands: points so far, souls aboard as promise (a debt in the last
        round), a soul about to get off, cards kept in hand."""
        p = self.index[player]
        aboard = self.aboard[p]
        total = self._points(self.delivered1[p], self.delivered2[p], len(aboard))[4]
        return self._value(total, aboard, self.round, self.trains[p], len(self.hands[p]), len(self.supply[p]),
                           self.phase == TURN and self.passed[p] and bool(self.hands[p]))

    def _value(self, total: int, aboard: list[str], round_: int, town: str | None, hand: int, supply: int,
               idle: bool) -> float:
        """`score` from its parts: points, the souls aboard, the round, the train's place, the
        numbers of cards in hand and of pieces in supply, and whether the player has passed with
        cards in hand during a round. The one formula, so that a score worked out without
        playing an action equals the score after playing it, to the last bit."""
        value = total + len(aboard) * (1.3 if round_ < ROUNDS else 0.0)
        value += self._nearness_at(town, aboard)
        value += 0.05 * hand + 0.02 * supply
        if idle:
            value -= 0.5  # passing with cards in hand gives up the rest of the round
        return value

    def _nearness(self, p: int, town: str | None, souls=None) -> float:
        return self._nearness_at(town, self.aboard[p] if souls is None else souls)

    def _nearness_at(self, town: str | None, souls) -> float:
        if town is None:
            return 0.0
        return sum(map(self.board.near_weights[town].__getitem__, souls))

    def score_action(self, player: str, action: Action) -> float:
        """`score(player)` after `action`, worked out without playing it where the change is
        simple (a card spent, a soul boarded, a route ridden, a piece taken back); other actions
        are tried on a copy. Equal to the copy's score in every case (a test checks it)."""
        p = self.index[player]
        kind = type(action)
        simple = self.phase == TURN and kind in (Play, Remove, Coin, Drop, Stop, Go, Board_)
        if kind is Pass and self.phase == TURN:
            simple = sum(self.passed) < len(self.players) - 1  # not the pass that ends the round
        if not simple:
            trial = self.clone()
            trial.apply(player, action)
            return trial.score(player)
        base = self.score(player)
        if kind in (Play, Remove):
            return base - 0.05 * len(action.cards)
        if kind is Drop:
            return base + 0.02
        if kind is Pass:
            return base - (0.5 if self.hands[p] else 0.0)
        if kind is Board_:
            weight = 1.3 if self.round < ROUNDS else 0.0
            return (base - 1 + weight + self._nearness(p, self.trains[p], [action.soul])
                    - (0.05 if action.paying else 0.0))
        if kind is Go:
            placed = sum(1 for node in action.path if node in self.board.space_route and node not in self.track)
            return (base - 0.02 * placed - self._nearness(p, self.trains[p])
                    + self._nearness(p, action.path[-1]))
        return base

    def score_actions(self, player: str, actions: list[Action]) -> list[float]:
        """`score_action(player, action)` for each of `actions`, equal to it to the last bit, with
        the work the actions share done once: the score as it stands, and the score after the
        actions `score_action` tries on a copy (a start, a delivery, a bid, the pass that ends a
        round...) worked out from the parts `score` reads. A copy is tried only for what is left
        (laying a piece, staying, and a delivery or end of turn by a player who has passed)."""
        p = self.index[player]
        aboard, hand, supply, town = self.aboard[p], len(self.hands[p]), len(self.supply[p]), self.trains[p]
        total = self._points(self.delivered1[p], self.delivered2[p], len(aboard))[4]
        if self.phase != TURN:
            return [self._score_between_rounds(player, p, action, total) for action in actions]
        passed = self.passed[p]
        base = self._value(total, aboard, self.round, town, hand, supply, passed and hand > 0)
        near_here = placed_on = None
        scores: list[float] = []
        append = scores.append
        for action in actions:
            kind = type(action)
            if kind is Play or kind is Remove:
                append(base - 0.05 * len(action.cards))
            elif kind is Go:
                if near_here is None:
                    near_here = self._nearness_at(town, aboard)
                    placed_on = self._memo.get(("placed", p), {})
                placed = placed_on.get(action.path)
                if placed is None:  # a route of its own: its empty spaces
                    track, space_route = self.track, self.board.space_route
                    placed = sum(1 for node in action.path if node in space_route and node not in track)
                append(base - 0.02 * placed - near_here + self._nearness_at(action.path[-1], aboard))
            elif kind is Drop:
                append(base + 0.02)
            elif kind is Board_:
                weight = 1.3 if self.round < ROUNDS else 0.0
                append(base - 1 + weight + self._nearness_at(town, [action.soul]) - (0.05 if action.paying else 0.0))
            elif kind is Coin or kind is Stop or kind is End and not passed:
                append(base)  # nothing `score` reads changes (an end of turn never ends the round)
            elif kind is Pass and sum(self.passed) >= len(self.players) - 1:
                # the pass that ends the round: half the row comes back, and the next round (or the
                # end) begins with an auction; the second half lifts the trains
                round_ = self.round if self.round == ROUNDS else self.round + 1
                append(self._value(total, aboard, round_, None if round_ == HALF + 1 else town,
                                   hand + len(self.rows[p]) // 2, supply, False))
            elif kind is Pass:
                append(base - (0.5 if hand else 0.0))
            elif kind is Deliver and not passed and action.soul in aboard:
                left = list(aboard)
                left.remove(action.soul)
                one, two = self.delivered1[p], self.delivered2[p]
                dark = self.is_dark(action.soul)
                if (self.round > HALF and dark) or (not dark and self.game.light_points == 2):
                    two = two + [action.soul]
                else:
                    one = one + [action.soul]
                append(self._value(self._points(one, two, len(left))[4], left, self.round, town, hand, supply, False))
            else:
                append(self.score_action(player, action))
        return scores

    def _score_between_rounds(self, player: str, p: int, action: Action, total: int) -> float:
        """`score_action` for a start, a bid or pass in the auction, or the auction winner's
        clearing and choice of leader, worked out without a copy."""
        phase, kind = self.phase, type(action)
        aboard, hand, supply = self.aboard[p], len(self.hands[p]), len(self.supply[p])
        if phase == START and kind is Start:
            # the train is placed; the round begins once every train is (auction clearing first)
            after = TURN if len(self.start_order) == 1 and not self._winner_pending else START
            return self._value(total, aboard, self.round, action.town, hand, supply,
                               after == TURN and self.passed[p] and hand > 0)
        if phase == AUCTION and kind in (Pass, Bid):
            return self._auction_score(p, action, total)
        if phase == CLEAR and kind is Clear:
            back = 1 if self.track.get(action.space) == p else 0
            return self._value(total, aboard, self.round, self.trains[p], hand, supply + back, False)
        if phase == CLEAR and kind is Leader:
            return self._value(total, aboard, self.round, self.trains[p], hand, supply, self.passed[p] and hand > 0)
        return self.score_action(player, action)

    def _auction_score(self, p: int, action: Action, total: int) -> float:
        """`score` after a bid or a pass in the auction: cards bid leave the hand; when the
        auction ends, a bidder who left takes one card back and the round (or the half) begins."""
        hand = len(self.hands[p])
        if type(action) is Bid:
            hand -= len(action.cards)
            ins = [q for q in range(len(self.players)) if not self.out[q]]
            done, winner = ins == [p], p
        else:
            ins = [q for q in range(len(self.players)) if not self.out[q] and q != p]
            winner = self.high_player
            done = not ins or (winner is not None and ins == [winner])
            if done and self.bids[p] and p != winner:
                hand += 1
        after = AUCTION
        if done:
            after = START if self.round == HALF + 1 else CLEAR if winner is not None else TURN
        return self._value(total, self.aboard[p], self.round, self.trains[p], hand, len(self.supply[p]),
                           after == TURN and self.passed[p] and hand > 0)

    def setup_record(self) -> dict | None:
        return self.setup


# --- setting up ----------------------------------------------------------------------------------

def _all_soul_ids(state: SpectralRailsState, data: dict) -> tuple[list[str], list[str], list[str]]:
    """(dark tiles in play, light tiles in play, tiles left in the box: those naming towns of the
    other side of the board)."""
    every_town = [t["id"] for t in data.get("towns", [])]
    dark_all = [f"d-{t}-{k}" for t in every_town for k in (1, 2)]
    light_all = [f"l-{t}" for t in every_town]
    here = state.board.town_region
    dark = [s for s in dark_all if state.soul_town(s) in here]
    light = [s for s in light_all if state.soul_town(s) in here]
    box = [s for s in dark_all + light_all if state.soul_town(s) not in here]
    return dark, light, box


def _player_map(state, setup, key) -> dict[int, Any]:
    given = setup.get(key, {})
    if not isinstance(given, dict):
        raise SetupError(key, "must map players (P1, P2, ...) to values")
    out = {}
    for player, value in given.items():
        if player not in state.index:
            raise SetupError(f"{key}.{player}", f"unknown player; the players are {', '.join(state.players)}")
        out[state.index[player]] = value
    return out


def _setup_bids(state: SpectralRailsState, setup: dict, passed: list[str]) -> None:
    """An auction under way: the cards each bidder has laid ({P1: [2, 3]}, taken from the hand),
    the players who have left it (`passed`, with no bid standing) and whose turn it is."""
    totals = {}
    for p, values in _player_map(state, setup, "bids").items():
        where = f"bids.{state.players[p]}"
        if not isinstance(values, list) or not values or not all(isinstance(v, int) for v in values):
            raise SetupError(where, "must be a list of the card values laid")
        if not state._has_cards(p, values):
            raise SetupError(where, f"{state.players[p]} holds no cards {_cards_text(tuple(values))} in hand")
        if state.players[p] in passed:
            raise SetupError(where, "a player who has left the auction has no bid standing")
        state.bids[p] = state._spend(p, values, to_row=False)
        totals[p] = sum(values)
    if totals:
        best = max(totals.values())
        leaders = [p for p, total in totals.items() if total == best]
        if len(leaders) > 1:
            raise SetupError("bids", "every bid beats the one before it: two bids cannot stand at the same total")
        state.high, state.high_player = best, leaders[0]
    for q in passed:
        state.out[state.index[q]] = True
        state.passed[state.index[q]] = False
    if "turn" in setup:
        turn = setup["turn"]
        if turn not in state.index or state.out[state.index[turn]] or state.index[turn] == state.high_player:
            raise SetupError("turn", f"must be a player still in the auction who does not hold the highest bid, not {turn!r}")
        state.current = state.index[turn]
    state._auction_skip()


def _apply_setup(state: SpectralRailsState, setup: dict) -> None:
    game, board = state.game, state.board
    data = setup.get("map") or game.map_data
    dark, light, box = _all_soul_ids(state, data)
    state._all_souls = {s: 1 for s in dark + light + box}
    state.box = box
    n = len(state.players)
    for p, colour in enumerate(state.colours):
        state.hands[p] = [f"{state.letters[p]}{v}" for v in game.card_values[colour]]
    if "leader" in setup:
        if setup["leader"] not in state.index:
            raise SetupError("leader", f"must be one of {', '.join(state.players)}")
        state.leader = state.index[setup["leader"]]
    if "round" in setup:
        r = setup["round"]
        if not isinstance(r, int) or isinstance(r, bool) or not 1 <= r <= ROUNDS:
            raise SetupError("round", f"must be a round from 1 to {ROUNDS}")
        state.round = r
        for _ in range(r - 1):
            state.wrecks_off.append(state.round_track.pop(0))
    named: set[str] = set()

    def souls(value, where) -> list[str]:
        if not isinstance(value, list):
            raise SetupError(where, "must be a list of soul tiles")
        for s in value:
            if s not in state._all_souls or s in box:
                raise SetupError(where, f"{s!r} is no soul tile of this map side")
            if s in named:
                raise SetupError(where, f"{s} is named twice")
            named.add(s)
        return list(value)

    for p, value in _player_map(state, setup, "aboard").items():
        state.aboard[p] = souls(value, f"aboard.{state.players[p]}")
        if len(state.aboard[p]) > game.seats:
            raise SetupError(f"aboard.{state.players[p]}", f"a train has {game.seats} seats")
    for p, value in _player_map(state, setup, "delivered").items():
        if not isinstance(value, dict) or not set(value) <= {"one", "two"}:
            raise SetupError(f"delivered.{state.players[p]}", "must be {one: [...], two: [...]}")
        state.delivered1[p] = souls(value.get("one", []), f"delivered.{state.players[p]}.one")
        state.delivered2[p] = souls(value.get("two", []), f"delivered.{state.players[p]}.two")
    waiting = setup.get("waiting")
    if waiting is not None:
        if not isinstance(waiting, dict):
            raise SetupError("waiting", "must map towns to soul tiles")
        for town, value in waiting.items():
            if town not in state.waiting:
                raise SetupError(f"waiting.{town}", "unknown town")
            state.waiting[town] = souls(value, f"waiting.{town}")
            for s in state.waiting[town]:
                if state.soul_town(s) == town:
                    raise SetupError(f"waiting.{town}", f"{s} may not wait at its own town")
    # hands and rows: a player's cards not named in either lie in the row, right end
    hands = _player_map(state, setup, "hands")
    rows = _player_map(state, setup, "rows")
    for p in range(n):
        if p not in hands and p not in rows:
            continue
        full = [int(c[1:]) for c in state.hands[p]]
        got_hand = hands.get(p, None)
        got_row = rows.get(p, [])
        for key, value in (("hands", got_hand or []), ("rows", got_row)):
            if not isinstance(value, list) or not all(isinstance(v, int) for v in value):
                raise SetupError(f"{key}.{state.players[p]}", "must be a list of card values")
        rest = list(full)
        for v in (got_hand or []) + got_row:
            if v not in rest:
                raise SetupError(f"hands.{state.players[p]}", f"{state.players[p]} has no more cards of value {v}")
            rest.remove(v)
        letter = state.letters[p]
        if got_hand is None:  # only the row is given: the rest is in hand
            state.hands[p] = [f"{letter}{v}" for v in rest]
            state.rows[p] = [f"{letter}{v}" for v in got_row]
        else:
            state.hands[p] = [f"{letter}{v}" for v in got_hand]
            state.rows[p] = [f"{letter}{v}" for v in got_row + rest]
    for p, value in _player_map(state, setup, "coins").items():
        if not isinstance(value, int) or not 0 <= value <= COINS:
            raise SetupError(f"coins.{state.players[p]}", f"must be 0 to {COINS}")
        state.bank += state.coins[p][value:]
        state.coins[p] = state.coins[p][:value]
    trail = setup.get("trail", {})
    if not isinstance(trail, dict):
        raise SetupError("trail", "must map spaces to players")
    for space, player in trail.items():
        if not board.is_space(space):
            raise SetupError(f"trail.{space}", "no such track space on this map")
        if player not in state.index:
            raise SetupError(f"trail.{space}", f"unknown player {player!r}")
        p = state.index[player]
        if not state.supply[p]:
            raise SetupError(f"trail.{space}", f"{player} has only {TRAIL} trail pieces")
        state.supply[p].pop()
        state.track[space] = p
    trains = _player_map(state, setup, "trains")
    for p, town in trains.items():
        if town not in board.town_region and not (game.end_anywhere and board.is_space(town)):
            raise SetupError(f"trains.{state.players[p]}", f"unknown town {town!r}"
                             + (" (a train stands on a track space only when a move may end there)" if board.is_space(town) else ""))
        state.trains[p] = town
    # the rest of the soul tiles
    rest_dark = [s for s in dark if s not in named]
    rest_light = [s for s in light if s not in named]
    phase = setup.get("phase", TURN if trains else START)
    if phase not in (START, TURN, AUCTION):
        raise SetupError("phase", "must be start, turn or auction")
    if "dark_order" in setup:
        order = setup["dark_order"]
        if not isinstance(order, list) or sorted(order) != sorted(rest_dark):
            raise SetupError("dark_order", f"must list the {len(rest_dark)} dark tiles not named elsewhere, in the order drawn")
        state.chance.queue("souls.dark", order)
    if waiting is None and state.round <= HALF:
        state._lay_out(rest_dark, "souls.dark", 2)
        state.light = rest_light
    elif waiting is None:
        state.bag = rest_dark
        state._lay_out(rest_light, "souls.light", 1)
    else:
        state.bag = rest_dark
        state.light = rest_light if state.round <= HALF else []
        if state.round > HALF:
            state.bag += rest_light
    passed = setup.get("passed", [])
    if not isinstance(passed, list) or not all(q in state.index for q in passed):
        raise SetupError("passed", "must be a list of players")
    for q in passed:
        state.passed[state.index[q]] = True
    if "bids" in setup and phase != AUCTION:
        raise SetupError("bids", "bids stand only during an auction (phase: auction)")
    state.phase = phase
    state._winner_pending = False
    if phase == START:
        if trains:
            raise SetupError("trains", "trains are given, so the game is past choosing start towns")
        state.start_order = [(state.leader + k) % n for k in range(n)]
        state.current = state.leader
        if len(state._starts()) < n:
            raise SetupError("map", f"the map has {len(state._starts())} start towns for this half, fewer than {n} players")
    elif phase == AUCTION:
        state._begin_auction()
        _setup_bids(state, setup, passed)
    else:
        missing = [state.players[p] for p in range(n) if state.trains[p] is None]
        if missing:
            raise SetupError("trains", f"every train must be on the map: {', '.join(missing)} missing")
        turn = setup.get("turn", state.players[state.leader])
        if turn not in state.index:
            raise SetupError("turn", f"must be one of {', '.join(state.players)}")
        state.current = state.index[turn]
        if state.passed[state.current]:
            raise SetupError("turn", f"{turn} has passed")
