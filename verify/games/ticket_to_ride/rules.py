"""The Ticket to Ride: The Card Game rules engine: hands of train cards, the face-up row, each
player's rail yard (one column per colour, face up) and tracks pile (face down, unseen even by its
owner), destination tickets, the end of the train deck and the scoring by best allocation.

A turn has two phases. Phase 1 is automatic: the top card of each colour column of the player's
rail yard moves to their tracks pile. Phase 2 is one action: draw train cards (`draw`, `take
<colour>`, and `stop` after one card), play cards to the rail yard (`play ...`), or draw four
tickets (`tickets`, then `keep ...`). Train cards are written as their colour, a locomotive as
`loco`; tickets by their number. Draw piles keep their top card at the end of a list so that a
draw is a cheap `pop()`. Which colours exist, every ticket and every big city come from the content.
"""

from __future__ import annotations

import textwrap

from collections import Counter
from dataclasses import dataclass
from itertools import accumulate, combinations, compress, count
from operator import ne
from sys import intern
from typing import Any

from verify.engine import Action, Chance, Game, IllegalAction, NotationError, SetupError, State, player_names
from verify.games.ticket_to_ride.scoring import WILD, Ticket, best_allocation
from verify.kit import Visibility, Zone, outcome_from_scores

LOCO = WILD
HAND_DEAL = 7
FACE_UP = 5
TICKET_DEAL = 6
TICKET_DRAW = 4
REDEAL = 4  # train cards each player gets for the second deck of the four-player game
TWO_DECKS_AT = 4  # players from which the game plays the train deck twice
MEMO_SIZE = 20000  # entries a game keeps of actions and scores it has worked out, before starting afresh

CHOOSE, PLAY, OVER = "choose", "play", "over"
START, DRAW2, KEEP = "start", "draw2", "keep"  # steps within a turn

# Readings of open rules, chosen with game parameters (see rulings.yaml); the first is the default.
READINGS = {
    "beginners": (False, True),      # may a player look at their own tracks pile?
    "bump_count": ("all", "colour"),  # what a column counts when a colour is taken over
    "last_face_up": ("closed", "open"),  # may face-up cards be taken once the deck is empty?
    "last_round": ("everyone", "others"),  # does the player who triggers the end play once more?
    # Four players, the second deal: one card at a time from the player who starts the second
    # deck, or four at a time in that order (the difference shows when fewer than 16 cards remain).
    "second_deal": ("one-at-a-time", "four-at-a-time"),
    # A second deck down to its last card (or none) by the deal: the final round starts at once,
    # or only after the first player's turn (who then plays twice).
    "short_second_deck": ("at-once", "after-first-turn"),
}


# --- actions ------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Keep(Action):
    """Keep these tickets of those just dealt or drawn; the others go back."""

    tickets: tuple[int, ...]

    def __str__(self) -> str:
        return "keep " + (" ".join(map(str, self.tickets)) if self.tickets else "none")


@dataclass(frozen=True, slots=True)
class DrawBlind(Action):
    """Take the top card of the train deck."""

    def __str__(self) -> str:
        return "draw"


@dataclass(frozen=True, slots=True)
class Take(Action):
    """Take a face-up card of this colour (or a face-up locomotive)."""

    colour: str

    def __str__(self) -> str:
        return f"take {self.colour}"


@dataclass(frozen=True, slots=True)
class Stop(Action):
    """End a draw after one card."""

    def __str__(self) -> str:
        return "stop"


@dataclass(frozen=True, slots=True)
class Play(Action):
    """Play cards from hand to the rail yard: a set of one colour (locomotives last) or three colours."""

    cards: tuple[str, ...]

    def __str__(self) -> str:
        return "play " + " ".join(self.cards)


@dataclass(frozen=True, slots=True)
class DrawTickets(Action):
    """Draw four destination tickets."""

    def __str__(self) -> str:
        return "tickets"


@dataclass(frozen=True, slots=True)
class Pass(Action):
    """Do nothing: allowed only when no action is possible."""

    def __str__(self) -> str:
        return "pass"


DRAW, STOP, TICKETS, PASS = DrawBlind(), Stop(), DrawTickets(), Pass()  # one each will do: they hold nothing

NOTATION = "keep <ticket numbers> | keep none, draw, take <colour>, stop, play <cards>, tickets, pass"


# --- state --------------------------------------------------------------------------------------


class TicketToRideState(State):
    """Everything that changes during one game of Ticket to Ride: The Card Game."""

    # Every field, kept in slots (see `verify.engine.State`).
    __slots__ = ('_lacks', '_deck_weights', '_offer', '_outcome', '_piles_seen', '_scores', '_tickets_seen', 'chance',
                 'cities', 'current', 'deck', 'deck_number', 'discard', 'done', 'faceup', 'final', 'first_deal', 'game', 'hands',
                 'pending', 'phase', 'players', 'setup', 'step', 'ticket_deck', 'tickets', 'tracks', 'trigger',
                 'turns', 'yards')

    def __init__(self, game: "TicketToRide", players: int, chance: Chance):
        self.game = game
        self.players = player_names(players)
        self.chance = chance
        self.deck: list[str] = []  # top card last
        self.faceup: list[str] = []
        self.discard: list[str] = []
        self.hands: dict[str, list[str]] = {p: [] for p in self.players}
        self.yards: dict[str, dict[str, list[str]]] = {p: {} for p in self.players}  # colour -> bottom..top
        self.tracks: dict[str, list[str]] = {p: [] for p in self.players}
        self.tickets: dict[str, list[int]] = {p: [] for p in self.players}
        self.pending: dict[str, list[int]] = {p: [] for p in self.players}
        self.done: dict[str, list[int]] = {p: [] for p in self.players}  # completed after the first deck
        self.ticket_deck: list[int] = []  # top ticket last
        self.cities: list[str] = list(game.city_points)
        self.phase = CHOOSE
        self.step = START
        self.current = 0
        self.deck_number = 1
        self.final: int | None = None  # turns left once the deck is down to its last card
        self.trigger: str | None = None
        self.turns = 0
        self.first_deal: dict | None = None
        self.setup: dict | None = None
        self._outcome = None
        self._scores: dict | None = None
        self._offer: tuple | None = None  # the last actions offered with what scores them fast
        # What each player's tickets lack beyond the cards laid, once worked out; forgotten when
        # their tickets or the cards they have laid change.
        self._lacks: dict[str, tuple] = {}
        self._tickets_seen: tuple = ()  # every pile of tickets, as check_invariants last found them
        # Every pile of train cards but the deck as check_invariants weighed them, with their
        # weights and sizes (see there).
        self._piles_seen: tuple[list, list, list] = [], [], []
        self._deck_weights: tuple = [], [0]  # a train deck and the weight of each bottom part (see _deck_weight)

    # --- helpers ----------------------------------------------------------------------------

    @property
    def mover(self) -> str:
        return self.players[self.current]

    def _refill(self) -> None:
        while len(self.faceup) < FACE_UP and self.deck:
            self.faceup.append(self.deck.pop())

    def _can_take_faceup(self) -> bool:
        return bool(self.faceup) and (bool(self.deck) or self.game.last_face_up == "open")

    def _begin_turn(self) -> None:
        """Phase 1: the top card of each colour column of the mover's rail yard goes face down
        onto their tracks pile."""
        self.step = START
        player = self.players[self.current]
        yard = self.yards[player]
        if yard:
            tracks = self.tracks[player]
            for colour, column in list(yard.items()):
                tracks.append(column.pop())
                if not column:
                    del yard[colour]

    def _end_turn(self) -> None:
        self.turns += 1
        if self.final is not None:
            self.final -= 1
        elif len(self.deck) <= 1:
            # The mover's turn left the deck at its last card (or none): everyone, the mover
            # included, has one more turn.
            self.final = len(self.players) - (1 if self.game.last_round == "others" else 0)
            self.trigger = self.mover
        if self.final == 0:
            self._end_deck()
            return
        self.current = (self.current + 1) % len(self.players)
        self._begin_turn()

    def _end_deck(self) -> None:
        last = self.current
        if len(self.players) >= TWO_DECKS_AT and self.deck_number == 1:
            self._second_deck(last)
        else:
            self.phase = OVER
            self.step = START

    def _second_deck(self, last: int) -> None:
        """Four players: tickets are checked, completed ones set aside; every train card not in a
        hand is shuffled, four dealt to each player, five turned up; the player after the last to
        play starts."""
        for p in self.players:
            allocation = self.game.allocate(self.tracks[p], self.tickets[p])
            self.done[p].extend(allocation.completed)
            self.tickets[p] = [t for t in self.tickets[p] if t not in allocation.completed]
        gathered = list(self.deck) + self.faceup + self.discard
        for p in self.players:
            gathered += self.tracks[p]
            for column in self.yards[p].values():
                gathered += column
            self.tracks[p] = []
            self.yards[p] = {}
        self._lacks.clear()
        self.deck, self.faceup, self.discard = [], [], []
        order = self.chance.shuffle("redeal", sorted(gathered))
        self.deck = order[::-1]
        n = len(self.players)
        starter = (last + 1) % n
        seats = [self.players[(starter + k) % n] for k in range(n)]
        if self.game.second_deal == "one-at-a-time":
            receivers = [p for _ in range(REDEAL) for p in seats]
        else:
            receivers = [p for p in seats for _ in range(REDEAL)]
        for p in receivers:
            if self.deck:
                self.hands[p].append(self.deck.pop())
        self._refill()
        self.deck_number = 2
        self.final = None
        self.trigger = None
        self.current = starter
        if len(self.deck) <= 1 and self.game.short_second_deck == "at-once":
            # The deal itself brought the deck down: every player, the first included, has one turn.
            self.final = n
        self._begin_turn()

    # --- the State interface ----------------------------------------------------------------

    def to_move(self) -> list[str]:
        return [] if self.phase == OVER else [self.players[self.current]]

    def is_terminal(self) -> bool:
        return self.phase == OVER

    def parse_action(self, text: str) -> Action:
        return self.game.parse_action(text)

    def legal_actions(self, player: str) -> list[Action]:
        self._offer = None
        if self.phase == OVER or player != self.players[self.current]:
            return []
        game = self.game
        if self.phase == CHOOSE or self.step == KEEP:
            offered = sorted(self.pending[player])
            least = 1 if self.phase == CHOOSE else 0
            keeps = [Keep(combo) for k in range(least, len(offered) + 1) for combo in combinations(offered, k)]
            self._offer = (player, list(keeps), KEEP)  # for score_actions: every choice, in the order of `combinations`
            return keeps
        second = self.step == DRAW2
        actions: list[Action] = [STOP] if second else []
        draw = bool(self.deck)
        if draw:
            actions.append(DRAW)
        takes: tuple[str, ...] = ()
        if self.faceup and (draw or game.last_face_up == "open"):  # a face-up card may be taken
            takes, shown = game.takes_of(self.faceup, second)
            actions += shown
        groups: list[tuple] = []
        rival: dict[str, int] = {}
        free: tuple[str, ...] = ()
        tickets = False
        if not second:
            groups, rival = self._play_groups(player)
            sets = game.play_sets
            for group in groups:
                plays = sets.get(group)
                actions += plays if plays is not None else game.plays_of(*group)
            free = tuple([group[0] for group in groups if not group[3]])
            if len(free) >= 3:
                plays = sets.get(free)
                actions += plays if plays is not None else game.trios_of(free)
            tickets = bool(self.ticket_deck)
            if tickets:
                actions.append(TICKETS)
            if not actions:
                return [PASS]
        # What the actions are, for score_actions to score them a kind at a time (see there).
        self._offer = (player, list(actions), second, draw, takes, groups, rival, free, tickets)
        return actions

    def _play_groups(self, player: str) -> tuple[list[tuple[str, int, int, int]], dict[str, int]]:
        """Per colour held, in colour order: (colour, cards of it held, locomotives held, the
        strength of the column an opponent shows in it, 0 for none): all a set of it depends on.
        And the cards the opponents show per colour (see `_rivals`), counted on the way."""
        held: dict[str, int] = {}
        for card in self.hands[player]:
            held[card] = held.get(card, 0) + 1
        locos = held.get(LOCO, 0)
        beat: dict[str, int] = {}
        rival: dict[str, int] = {}
        colour_only = self.game.bump_count == "colour"
        for other in self.players:
            if other == player:
                continue
            for colour, column in self.yards[other].items():
                shown = len(column)
                rival[colour] = rival.get(colour, 0) + shown
                strength = shown - column.count(LOCO) if colour_only else shown
                if strength > beat.get(colour, 0):
                    beat[colour] = strength
        return [(colour, held[colour], locos, beat.get(colour, 0)) for colour in self.game.colours if colour in held], rival

    def _column_strength(self, player: str, colour: str) -> int:
        column = self.yards[player].get(colour)
        if not column:
            return 0
        if self.game.bump_count == "colour":
            return sum(1 for c in column if c != LOCO)
        return len(column)

    def apply(self, player: str, action: Action) -> None:
        self._offer = None  # what score_actions knows of the actions offered holds for this position only
        if self.phase == OVER:
            raise IllegalAction("game over", "the game is over")
        if player != self.players[self.current]:
            raise IllegalAction("turn order", f"not your turn: {self.mover} is to move")
        if self.phase == CHOOSE:
            if not isinstance(action, Keep):
                raise IllegalAction("setup", "first keep at least one of the six tickets dealt: 'keep <numbers>'")
            self._keep(player, action, least=1)
            return
        if self.step == KEEP:
            if not isinstance(action, Keep):
                raise IllegalAction("draw tickets", "keep any of the tickets drawn first: 'keep <numbers>' or 'keep none'")
            self._keep(player, action, least=0)
            return
        if isinstance(action, Keep):
            raise IllegalAction("draw tickets", "there are no tickets to keep: draw tickets first with 'tickets'")
        if self.step == DRAW2:
            self._second_card(player, action)
            return
        if isinstance(action, DrawBlind):
            if not self.deck:
                raise IllegalAction("draw train cards", "the train deck is empty")
            self.hands[player].append(self.deck.pop())
            self._after_first_card()
        elif isinstance(action, Take):
            self._check_take(action, first=True)
            self._take(player, action.colour)
            if action.colour == LOCO:
                self._end_turn()  # a face-up locomotive counts as both cards
            else:
                self._after_first_card()
        elif isinstance(action, Play):
            self._play(player, action)
            self._end_turn()
        elif isinstance(action, DrawTickets):
            if not self.ticket_deck:
                raise IllegalAction("draw tickets", "the ticket deck is empty")
            for _ in range(min(TICKET_DRAW, len(self.ticket_deck))):
                self.pending[player].append(self.ticket_deck.pop())
            self.step = KEEP
        elif isinstance(action, Stop):
            raise IllegalAction("draw train cards", "'stop' ends a draw after its first card; no card has been drawn")
        elif isinstance(action, Pass):
            if self.legal_actions(player) != [PASS]:
                raise IllegalAction("ruling: pass", "a player may pass only when no action is possible")
            self._end_turn()
        else:
            raise IllegalAction("notation", f"{action!r} is not an action of this game")

    def _after_first_card(self) -> None:
        if self.deck or self._can_take_faceup():
            self.step = DRAW2
        else:
            self._end_turn()  # nothing is left to draw: the draw ends with one card

    def _check_take(self, action: Take, first: bool) -> None:
        if not self._can_take_faceup():
            if self.faceup and not self.deck:
                raise IllegalAction("ruling: empty-deck", "the train deck is empty: no train card may be drawn")
            raise IllegalAction("draw train cards", "there is no face-up card")
        if action.colour not in self.faceup:
            shown = ", ".join(sorted(self.faceup))
            raise IllegalAction("draw train cards", f"no face-up {action.colour} card (face up: {shown})")
        if action.colour == LOCO and not first:
            raise IllegalAction("face-up locomotive", "a face-up locomotive counts as two cards: take it only as your first card")

    def _take(self, player: str, colour: str) -> None:
        self.faceup.remove(colour)
        self.hands[player].append(colour)
        self._refill()

    def _second_card(self, player: str, action: Action) -> None:
        if isinstance(action, Stop):
            self._end_turn()
        elif isinstance(action, DrawBlind):
            if not self.deck:
                raise IllegalAction("ruling: empty-deck", "the train deck is empty: no train card may be drawn")
            self.hands[player].append(self.deck.pop())
            self._end_turn()
        elif isinstance(action, Take):
            self._check_take(action, first=False)
            self._take(player, action.colour)
            self._end_turn()
        else:
            raise IllegalAction("draw train cards", "you are drawing train cards: take a second card ('draw' or 'take <colour>') or 'stop'")

    def _keep(self, player: str, action: Keep, least: int) -> None:
        offered = self.pending[player]
        for t in action.tickets:
            if t not in offered:
                raise IllegalAction("draw tickets" if least == 0 else "setup",
                                    f"ticket {t} is not among those offered ({', '.join(map(str, sorted(offered)))})")
        if len(set(action.tickets)) != len(action.tickets):
            raise IllegalAction("notation", "a ticket is named twice")
        if len(action.tickets) < least:
            raise IllegalAction("setup", "keep at least one of the six tickets dealt")
        kept = set(action.tickets)
        returned = sorted(t for t in offered if t not in kept)
        self.tickets[player].extend(sorted(kept))
        self._lacks.pop(player, None)
        self.pending[player] = []
        if self.phase == CHOOSE:
            self.ticket_deck[:0] = returned  # under the deck for now; shuffled in when all have chosen
            if self.current == len(self.players) - 1:
                self.ticket_deck = self.chance.shuffle("tickets", sorted(self.ticket_deck))[::-1]
                self.phase = PLAY
                self.current = 0
                self._begin_turn()
            else:
                self.current += 1
            return
        # Tickets put back go under the deck, in number order.
        self.ticket_deck[:0] = returned[::-1]
        self._end_turn()

    def _play(self, player: str, action: Play) -> None:
        cards: dict[str, int] = {}
        for card in action.cards:
            cards[card] = cards.get(card, 0) + 1
        hand = self.hands[player]
        for card, n in cards.items():
            if hand.count(card) < n:
                raise IllegalAction("play to rail yard", f"you do not hold {n} {card} card{'s' if n > 1 else ''}")
        colours = [c for c in cards if c != LOCO]
        trio = len(action.cards) == 3 and len(colours) == 3
        if not trio:
            if len(colours) == 0:
                raise IllegalAction("ruling: locomotives-need-a-colour", "locomotives are played only on top of a set of one colour")
            if len(colours) > 1:
                raise IllegalAction("play to rail yard", "play either two or more cards of one colour (locomotives on top) "
                                                         "or three cards of three different colours without locomotives")
            if len(action.cards) < 2:
                raise IllegalAction("play to rail yard", "a set has at least two cards")
        beaten = []
        for colour in colours:
            strength = cards[colour] + (cards.get(LOCO, 0) if not trio else 0)
            for other in self.players:
                if other == player or colour not in self.yards[other]:
                    continue
                shown = self._column_strength(other, colour)
                if shown and strength <= shown:
                    raise IllegalAction("colour shown by an opponent",
                                        f"{other} shows {colour} ({shown} card{'s' if shown > 1 else ''}): "
                                        f"play more than that to discard theirs")
                if shown:
                    beaten.append((other, colour))
        for other, colour in beaten:
            self.discard.extend(self.yards[other].pop(colour))
            self._lacks.pop(other, None)
        self._lacks.pop(player, None)
        hand_list = self.hands[player]
        for card in action.cards:
            hand_list.remove(card)
        yard = self.yards[player]
        for colour in colours:
            column = yard.setdefault(colour, [])
            if LOCO in column:  # the new cards of the colour go under the locomotives
                locos_on_top = [c for c in column if c == LOCO]
                column[:] = [c for c in column if c != LOCO] + [colour] * cards[colour] + locos_on_top
            else:
                column += [colour] * cards[colour]
            if not trio:
                column.extend([LOCO] * cards.get(LOCO, 0))

    # --- what players see -------------------------------------------------------------------

    def public_fields(self) -> dict[str, Any]:
        return {
            "phase": self.phase,
            "step": self.step,
            "to_move": self.to_move(),
            "deck_number": self.deck_number,
            "turns": self.turns,
            "final_turns": self.final,
            "trigger": self.trigger,
            "columns": {p: {c: list(col) for c, col in sorted(y.items())} for p, y in self.yards.items()},
        }

    def fields(self) -> dict[str, Any]:
        """Everything, with each player's zone also as `name.P1` (so `expect:` can name one)."""
        return _dotted(super().fields(), self.players)

    def observation(self, player: str) -> dict[str, Any]:
        return _dotted(super().observation(player), self.players)

    def zones(self) -> list[Zone]:
        over = self.phase == OVER
        tracks_seen = Visibility.EVERYONE if over else (Visibility.OWNER if self.game.beginners else Visibility.NOBODY)
        tickets_seen = Visibility.EVERYONE if over else Visibility.OWNER
        zones = [
            # Piles are kept top last (drawing pops); every pile reads top first, as in a setup.
            Zone("deck", self.deck[::-1], Visibility.NOBODY, ordered=True),
            Zone("faceup", self.faceup, Visibility.EVERYONE),
            Zone("discard", self.discard, Visibility.EVERYONE),
            Zone("ticket_deck", self.ticket_deck[::-1], Visibility.NOBODY, ordered=True),
            Zone("cities", self.cities, Visibility.EVERYONE),
        ]
        for p in self.players:
            yard = [card for column in self.yards[p].values() for card in column]
            zones += [
                Zone("hand", self.hands[p], Visibility.OWNER, owner=p),
                Zone("yard", yard, Visibility.EVERYONE, owner=p),
                Zone("tracks", self.tracks[p], tracks_seen, owner=p),
                Zone("tickets", self.tickets[p], tickets_seen, owner=p),
                Zone("offered", self.pending[p], Visibility.OWNER, owner=p),
                Zone("done", self.done[p], Visibility.EVERYONE, owner=p),
            ]
        return zones

    def components(self) -> dict:
        return self.game.components

    def check_invariants(self) -> list[str]:
        """The kit's checks (every component in one place, and `rule_problems`), with one quick
        pass first that all hold; the full report, which names where each card is and every rule
        broken, is built only when the quick pass finds something wrong.

        Train cards: there are as many as the game has, and their weights (see
        `TicketToRide.card_weights`) add up to the weight of all of them, which they do exactly
        when every kind is there as often as the game has it. An action moves few cards: each
        pile (the face-up row, the discard pile, every hand, tracks pile and rail yard) is
        compared with a copy of it as an earlier check weighed and counted it, and only a pile
        unlike its copy is weighed and counted again (see `_weigh_changed`); the deck's weight
        comes from `_deck_weight`, which weighs it again whenever it changed other than by draws.
        A column: its colour, once or more, then only locomotives, and a colour no other column
        shows (looked at when a rail yard is unlike its copy). Tickets: as many as the game has,
        and all of them. Big cities: all of them, each once. The tickets, which move far less
        often than the rest, are looked at only when their piles are not those the last check
        found right."""
        game = self.game
        piles = [self.faceup, self.discard, *self.hands.values(), *self.tracks.values(), *self.yards.values()]
        seen, weights, counts = self._piles_seen  # copies of the piles, their weights and sizes, right together
        if len(seen) != len(piles):  # never checked (or a player added): every pile is weighed
            seen[:], weights[:], counts[:] = [None] * len(piles), [0] * len(piles), [0] * len(piles)
        try:
            if not self._weigh_changed(piles, seen, weights, counts) or \
                    sum(counts) + len(self.deck) != game.train_total or sum(weights) + self._deck_weight() != game.train_weight:
                return super().check_invariants()
        except (KeyError, TypeError):  # not a train card (or not hashable): the full report says where
            seen.clear()
            return super().check_invariants()
        held = self.tickets, self.pending, self.done
        tickets_seen = None  # copies of the piles of tickets, when they changed and are right
        if (self.ticket_deck, *held) != self._tickets_seen:
            tickets = list(self.ticket_deck)
            for owned in held:
                for pile in owned.values():
                    tickets += pile
            if len(tickets) != len(game.tickets) or set(tickets) != game.ticket_set:
                return super().check_invariants()
            tickets_seen = list(self.ticket_deck), *({p: list(pile) for p, pile in owned.items()} for owned in held)
        if self.cities != game.city_list and sorted(self.cities) != sorted(game.city_points):
            return super().check_invariants()
        if self.phase == PLAY:
            if self.deck and len(self.faceup) != FACE_UP:
                return super().check_invariants()
            if self.deck_number == 1 and not all(self.tickets.values()) and \
                    any(not self.tickets[p] and not self.done[p] for p in self.players):  # a player holds no ticket
                return super().check_invariants()
        elif self.phase == OVER and self.final not in (0, None):
            return super().check_invariants()
        if tickets_seen is not None:
            self._tickets_seen = tickets_seen
        return []

    def _weigh_changed(self, piles: list, seen: list, weights: list, counts: list) -> bool:
        """Weigh and count again every pile unlike its copy in `seen` (see check_invariants), and
        copy it; False when a rail yard breaks a rule. Then every copy is forgotten (as the check
        does when a card is not a train card), so the copies are always of piles found right
        together: a colour shown twice cannot hide in rail yards like their copies."""
        weight = self.game.card_weights.__getitem__
        for k in compress(count(), map(ne, piles, seen)):
            pile = piles[k]
            if type(pile) is dict:  # a rail yard: colour -> column
                cards = []
                for colour, column in pile.items():
                    n = column.count(colour)
                    if not n or column[0] != colour or \
                            (n != len(column) and (column.count(LOCO) != len(column) - n or column.index(LOCO) != n)):
                        seen.clear()
                        return False
                    cards += column
                yards = self.yards.values()
                if len(set().union(*yards)) != sum(map(len, yards)):  # a colour shown twice
                    seen.clear()
                    return False
                seen[k] = {colour: list(column) for colour, column in pile.items()}
            else:
                cards = seen[k] = list(pile)
            weights[k], counts[k] = sum(map(weight, cards)), len(cards)
        return True

    def _deck_weight(self) -> int:
        """The weight of the train deck (see check_invariants). A draw takes its top card, so the
        weights of every bottom part of the deck are worked out once and serve until it is
        anything but a bottom part of the deck they were worked out for."""
        deck = self.deck
        known, weights = self._deck_weights
        if len(deck) > len(known) or deck != known[:len(deck)]:
            known, weights = list(deck), list(accumulate(map(self.game.card_weights.__getitem__, deck), initial=0))
            self._deck_weights = known, weights
        return weights[len(deck)]

    def rule_problems(self) -> list[str]:
        problems = []
        if self.phase == PLAY and self.deck and len(self.faceup) != FACE_UP:
            problems.append(f"the face-up row holds {len(self.faceup)} cards while the deck lasts")
        shown: dict[str, str] = {}
        for p in self.players:
            for colour, column in self.yards[p].items():
                if not column or column[0] != colour:
                    problems.append(f"{p}'s {colour} column {column} does not start with a {colour} card")
                if any(c not in (colour, LOCO) for c in column):
                    problems.append(f"{p}'s {colour} column holds another colour: {column}")
                if LOCO in column and any(c != LOCO for c in column[column.index(LOCO):]):
                    problems.append(f"{p}'s {colour} column has a locomotive under a {colour} card: {column}")
                if colour in shown:
                    problems.append(f"{colour} is shown by both {shown[colour]} and {p}")
                shown[colour] = p
            if self.phase == PLAY and self.deck_number == 1 and not self.tickets[p] and not self.done[p]:
                problems.append(f"{p} holds no ticket")
        if self.phase == OVER and self.final not in (0, None):
            problems.append("the game ended before the last round was over")
        return problems

    # --- scoring ----------------------------------------------------------------------------

    def scores(self) -> dict:
        """Each player's breakdown at the end: the allocation, ticket points, big cities."""
        if self._scores is not None:
            return self._scores
        per: dict[str, dict] = {}
        for p in self.players:
            allocation = self.game.allocate(self.tracks[p], self.tickets[p])
            earlier = sorted(self.done[p])
            completed = earlier + sorted(allocation.completed)
            gained = sum(self.game.tickets[t].points for t in earlier) + allocation.gained
            per[p] = {
                "completed": completed,
                "failed": sorted(allocation.failed),
                "cards": {t: list(cards) for t, cards in sorted(allocation.cards.items())},
                "unused": list(allocation.unused),
                "gained": gained,
                "lost": allocation.lost,
                "tickets": gained - allocation.lost,
                "cities": [],
                "city_points": 0,
            }
        for city in self.cities:
            counts = {p: sum(1 for t in per[p]["completed"] if city in self.game.tickets[t].cities) for p in self.players}
            most = max(counts.values())
            if most == 0:
                continue
            for p in self.players:
                if counts[p] == most:
                    per[p]["cities"].append(city)
                    per[p]["city_points"] += self.game.city_points[city]
        for p in self.players:
            per[p]["total"] = per[p]["tickets"] + per[p]["city_points"]
        self._scores = per
        return per

    def outcome(self):
        per = self.scores()
        return outcome_from_scores(
            {p: per[p]["total"] for p in self.players},
            breakdown=per,
            tiebreaks=[("completed tickets", {p: len(per[p]["completed"]) for p in self.players}),
                       ("big cities", {p: len(per[p]["cities"]) for p in self.players})],
        )

    def result(self) -> dict[str, Any]:
        result = self.outcome().as_result()
        result["turns"] = self.turns
        return result

    # --- for playouts and scenarios ---------------------------------------------------------

    def clone(self) -> "TicketToRideState":
        other = self.shallow_copy()
        other.deck = list(self.deck)
        other.faceup = list(self.faceup)
        other.discard = list(self.discard)
        other.hands = {p: list(h) for p, h in self.hands.items()}
        other.yards = {p: {c: list(col) for c, col in y.items()} for p, y in self.yards.items()}
        other.tracks = {p: list(t) for p, t in self.tracks.items()}
        other.tickets = {p: list(t) for p, t in self.tickets.items()}
        other.pending = {p: list(t) for p, t in self.pending.items()}
        other.done = {p: list(t) for p, t in self.done.items()}
        other.ticket_deck = list(self.ticket_deck)
        other.cities = list(self.cities)
        other._lacks = dict(self._lacks)
        other._piles_seen = tuple(map(list, self._piles_seen))  # check_invariants changes them in place
        other._scores = None
        other.chance = self.chance.copy()
        return other

    def score(self, player: str) -> float:
        """A cheap estimate of how well `player` stands, for the greedy policy: the ticket cards
        already on the tracks pile or in the rail yard count fully, those in hand by half."""
        if self.phase == OVER:
            per = self.scores()
            best_rival = max(per[p]["total"] for p in self.players if p != player)
            return 1000 + per[player]["total"] - best_rival
        need: dict = {}
        points = 0
        tickets = self.game.tickets
        for t in self.tickets[player]:
            ticket = tickets[t]
            points += ticket.points
            for colour in ticket.needs:
                need[colour] = need.get(colour, 0) + 1
        have: dict = {}
        for card in self.tracks[player]:
            have[card] = have.get(card, 0) + 1
        for column in self.yards[player].values():
            for card in column:
                have[card] = have.get(card, 0) + 1
        for card in self.hands[player]:
            have[card] = have.get(card, 0) + 0.5
        short = 0.0
        total = 0
        for colour, n in need.items():
            total += n
            gap = n - have.get(colour, 0)
            if gap > 0:
                short += gap
        short = max(0.0, short - have.get(LOCO, 0))
        return (total - short) * 2 - short * 3 + 0.2 * len(self.hands[player]) + 0.01 * points

    def _wants(self, player: str, rival: dict | None = None) -> tuple[dict, int, dict]:
        """What `player`'s tickets still lack beyond the cards laid (tracks pile and rail yard):
        per colour, the total, and the cards the other players show per colour (`rival`, when
        already counted)."""
        missing, short = self._lack(player)
        return missing, short, self._rivals(player) if rival is None else rival

    def _lack(self, player: str) -> tuple[dict, int]:
        """What `player`'s tickets still lack beyond the cards laid: per colour, and in all
        beyond the locomotives laid."""
        laid = self._laid(player)
        tickets = self.tickets[player]
        need = self.game.needs.get(tuple(tickets)) or self.game.needs_of(tickets)
        missing = {c: n - k for c, n in need.items() if n > (k := laid.count(c))}
        return missing, max(0, sum(missing.values()) - laid.count(LOCO))

    def _laid(self, player: str) -> list[str]:
        """The cards `player` has laid: the tracks pile and the rail yard."""
        laid = list(self.tracks[player])
        for column in self.yards[player].values():
            laid += column
        return laid

    def _rivals(self, player: str) -> dict[str, int]:
        """The cards the other players show in their rail yards, per colour."""
        rival: dict = {}
        for other in self.players:
            if other != player:
                for colour, column in self.yards[other].items():
                    rival[colour] = rival.get(colour, 0) + len(column)
        return rival

    def score_action(self, player: str, action: Action) -> float:
        """A fast estimate of an action for the greedy policy, without playing it: lay the cards
        your tickets lack, draw the colours they lack, keep tickets your cards can cover."""
        return self._score(player, action, self._wants(player), {})

    def score_actions(self, player: str, actions: list[Action]) -> list[float]:
        """`score_action` of each action, in order, with the work they share done once: what the
        tickets lack; for keeping tickets, each choice continues from its choice less the last
        ticket; and when the actions are those `legal_actions` just offered, they are scored a
        kind at a time, the sets of one colour (or of three colours) remembered by all their
        scores depend on: the cards, what the tickets lack of them and the opponents' columns."""
        offer = self._offer
        if offer is None or offer[0] != player or offer[1] != actions:
            wants = self._wants(player)
            kept: dict = {}
            return [self._keeping(player, action.tickets, kept)[2] if type(action) is Keep
                    else self._score(player, action, wants, kept) for action in actions]
        if offer[2] == KEEP:
            return self._keep_scores(player, actions)
        _, _, second, draw, takes, groups, rival, free, tickets = offer
        # What the tickets lack changes only when the player's tickets or laid cards do (a play,
        # a column discarded, tickets kept): it is worked out once in between.
        lack = self._lacks.get(player)
        if lack is None:
            lack = self._lacks[player] = self._lack(player)
        missing, short = lack
        wants = missing, short, rival  # (only sets use the opponents' columns)
        scores = [STOP_SCORE] if second else []
        if draw:
            scores.append(DRAW_SCORE)
        if takes:
            loco = _take_score(LOCO, missing, short)
            scores += [loco if colour == LOCO else TAKE_WANTED if colour in missing else TAKE_OTHER for colour in takes]
        memo = self.game.set_scores
        if groups:
            lacking, loco_shown = short > 0, rival.get(LOCO, 0)
            for colour, have, locos, beat in groups:
                # The scores do not depend on the colour itself.
                key = (have, locos, beat, missing.get(colour, 0), lacking, rival.get(colour, 0), loco_shown)
                known = memo.get(key)
                scores += known if known is not None else self._remember(memo, key, _set_scores(*key))
        if len(free) >= 3:
            # A colour counts once in a set of three: whether the tickets lack it is all that
            # matters (no opponent shows these colours, so their columns add nothing).
            key = tuple([colour in missing for colour in free])
            known = self.game.trio_scores.get(key)
            if known is None:
                known = self._remember(self.game.trio_scores, key, _trio_scores(key))
            scores += known
        if tickets:
            scores.append(self._tickets_score(short))
        return scores

    @staticmethod
    def _remember(memo: dict, key: tuple, scores: tuple[float, ...]) -> tuple[float, ...]:
        """Scores of sets, remembered in `memo` under `key` (all they depend on) for score_actions."""
        if len(memo) >= MEMO_SIZE:
            memo.clear()
        memo[key] = scores
        return scores

    def _score(self, player: str, action: Action, wants: tuple, kept: dict | None) -> float:
        """`score_action` given `_wants(player)`; `kept` remembers choices of tickets to keep."""
        missing, short, rival = wants
        if isinstance(action, Play):
            value = 0.0
            left = dict(missing)
            for card in action.cards:
                if card == LOCO:
                    value += 1.5 if short > 0 else 0.1
                elif left.get(card, 0) > 0:
                    left[card] -= 1
                    value += 2.0
                else:
                    value += 0.1
            for colour in dict.fromkeys(action.cards):  # each colour once, in the set's order
                value += 0.3 * rival.get(colour, 0)
            return value
        if isinstance(action, Take):
            return _take_score(action.colour, missing, short)
        if isinstance(action, DrawBlind):
            return DRAW_SCORE
        if isinstance(action, Keep):
            return self._keeping(player, action.tickets, {} if kept is None else kept)[2]
        if isinstance(action, DrawTickets):
            return self._tickets_score(short)
        if isinstance(action, Stop):
            return STOP_SCORE
        return 0.0

    def _tickets_score(self, short: int) -> float:
        return 0.8 if short == 0 and len(self.deck) > 20 else -1.0

    def _keep_scores(self, player: str, keeps: list[Keep]) -> list[float]:
        """The scores of `keeps`, every choice of the tickets offered in the order of
        `combinations`, as `_keeping` works them out: each choice comes after the choice less its
        last ticket, so it continues from that one."""
        kept = {(): self._keeping(player, (), {})}
        tickets, needs = self.game.tickets, self.game.keep_needs
        scores = []
        for keep in keeps:
            chosen = keep.tickets
            known = kept.get(chosen)
            if known is None:
                last = chosen[-1]
                known = kept[chosen] = _keep_one(kept[chosen[:-1]], tickets[last].points, needs[last])
            scores.append(known[2])
        return scores

    def _keeping(self, player: str, tickets: tuple, kept: dict) -> tuple[list, int, float]:
        """Keeping `tickets` one by one, in order: the cards to spare per colour (in the order of
        the colours, none of any other card), the locomotives left to cover shortfalls, and the
        value so far (each ticket the cards cover counts its
        points, each other one loses 0.6 of them). `kept` remembers it per tuple of tickets, so a
        choice continues from the same choice less its last ticket."""
        known = kept.get(tickets)
        if known is not None:
            return known
        if not tickets:
            spare: dict = {}  # the cards owned: laid and in hand
            for card in self._laid(player) + self.hands[player]:
                spare[card] = spare.get(card, 0) + 1
            for colour, n in self.game.needs_of(self.tickets[player]).items():
                spare[colour] = spare.get(colour, 0) - n
            wild = spare.pop(LOCO, 0) - sum(-n for n in spare.values() if n < 0)
            # A colour short counts as none to spare (its shortfall is off the locomotives already).
            kept[tickets] = ([max(0, spare.get(colour, 0)) for colour in self.game.colours] + [0], wild, 0.0)
        else:
            before = kept.get(tickets[:-1]) or self._keeping(player, tickets[:-1], kept)
            last = tickets[-1]
            kept[tickets] = _keep_one(before, self.game.tickets[last].points, self.game.keep_needs[last])
        return kept[tickets]

    def setup_record(self) -> dict | None:
        if self.setup is not None:
            return self.setup
        return self.first_deal


DRAW_SCORE = 1.1
STOP_SCORE = 0.0


TAKE_WANTED, TAKE_OTHER = 1.0 + 1.2, 1.0 + 0.0  # a colour the tickets lack, another colour


def _set_scores(have: int, locos: int, beat: int, wanted: int, lacking: bool, rival: int,
                loco_rival: int) -> tuple[float, ...]:
    """The scores `_score` gives the sets of a colour `plays_of(colour, have, locos, beat)`
    offers, in their order, worked out together: the tickets lack `wanted` cards of the colour
    (and more when `lacking`), the opponents show `rival` cards of it and `loco_rival`
    locomotives. Each set's cards count in the order `_score` adds them up (the colour's cards,
    then the locomotives), so every score is the very same number."""
    loco = 1.5 if lacking else 0.1
    alone = 0.3 * rival
    both = (alone, 0.3 * loco_rival)
    scores = []
    value = 0.0
    for n in range(1, have + 1):
        value += 2.0 if n <= wanted else 0.1
        with_locos = value
        for m in range(locos + 1):
            if m:
                with_locos += loco
            if n + m >= 2 and n + m > beat:
                if m:
                    score = with_locos
                    for extra in both:
                        score += extra
                else:
                    score = with_locos + alone
                scores.append(score)
    return tuple(scores)


def _trio_scores(wanted: tuple[bool, ...]) -> tuple[float, ...]:
    """The scores `_score` gives the sets of three of `trios_of` colours, in their order, when
    the tickets lack the colours marked in `wanted` and no opponent shows any of them: each
    card counts as `_score` adds them up, so every score is the very same number."""
    value = [2.0 if lacked else 0.1 for lacked in wanted]
    return tuple(0.0 + value[i] + value[j] + value[k] for i, j, k in combinations(range(len(wanted)), 3))


def _keep_one(before: tuple[list, int, float], points: int, needs: tuple) -> tuple[list, int, float]:
    """Keeping one more ticket worth `points` (see `_keeping`), which asks for the cards `needs`
    (see `TicketToRide.keep_needs`): each comes from the cards to spare of its colour while they
    last, the rest from the locomotives left, when enough are."""
    spare, wild, value = before
    spare = spare.copy()
    lack = 0
    for k, n in needs:
        have = spare[k]
        if have >= n:
            spare[k] = have - n
        else:
            spare[k] = 0
            lack += n - have
    if lack <= wild:
        return spare, wild - lack, value + points
    return spare, wild, value - points * 0.6


def _take_score(colour: str, missing: dict, short: int) -> float:
    if colour == LOCO:
        return 2.2 if short > 0 else 1.6
    return TAKE_WANTED if missing.get(colour, 0) > 0 else TAKE_OTHER


def _dotted(fields: dict, players: list[str]) -> dict:
    for name, value in list(fields.items()):
        if isinstance(value, dict) and name not in ("result",) and set(value) == set(players):
            for p in players:
                fields[f"{name}.{p}"] = value[p]
    return fields


# --- the game -----------------------------------------------------------------------------------


class TicketToRide(Game):
    """Ticket to Ride: The Card Game for 2 to 4 players, configured from its content folder.

    Parameters (see rulings.yaml): beginners (true lets each player look at their own tracks
    pile), bump_count (all: a column counts its locomotives when a colour is taken over; colour:
    only its coloured cards), last_face_up (closed: no train card may be drawn once the deck is
    empty; open: face-up cards may still be taken), last_round (everyone: once the deck is down to
    its last card every player, the one who brought it there included, has one more turn; others:
    only the other players do), second_deal (one-at-a-time: the four-player second deal gives one
    card at a time round the table from the player who starts the second deck; four-at-a-time:
    four to each in that order) and short_second_deck (at-once: when that deal leaves the deck at
    one card or none, the final round starts with the first player's turn; after-first-turn: it
    starts after it, so the first player plays twice)."""

    id = "ticket-to-ride-card-game"

    def __init__(self, content=None, **params):
        if content is None:
            raise ValueError("Ticket to Ride needs its content (colours, tickets, big cities)")
        for name in params:
            if name not in READINGS:
                raise ValueError(f"params: unknown parameter {name!r}; expected one of {', '.join(READINGS)}")
        for name, allowed in READINGS.items():
            value = params.get(name, allowed[0])
            if value not in allowed or isinstance(value, bool) != isinstance(allowed[0], bool):
                raise ValueError(f"params.{name}: must be one of {', '.join(map(str, allowed))}, not {value!r}")
        super().__init__(content, **params)
        self.beginners = params.get("beginners", False)
        self.bump_count = params.get("bump_count", "all")
        self.last_face_up = params.get("last_face_up", "closed")
        self.last_round = params.get("last_round", "everyone")
        self.second_deal = params.get("second_deal", READINGS["second_deal"][0])
        self.short_second_deck = params.get("short_second_deck", READINGS["short_second_deck"][0])
        self.min_players = content.game["players"]["min"]
        self.max_players = content.game["players"]["max"]
        # Every name of a train card is one string object (interned), wherever it was read: a hand
        # counted per colour, or a pile compared with its copy, then compares by identity.
        self.colours: list[str] = [intern(c["id"]) for c in content.files["colours"]["colours"]]
        self.colour_order = {c: k for k, c in enumerate(self.colours)}
        self.tickets: dict[int, Ticket] = {}
        self.city_points: dict[str, int] = {}
        self.components: dict = {}
        for card in content.cards:
            copies = card.get("copies", 1)
            if card["deck"] == "trains":
                self.components[intern(card["colour"])] = copies
            elif card["deck"] == "locomotives":
                self.components[LOCO] = copies
            elif card["deck"] == "tickets":
                self.tickets[card["number"]] = Ticket(card["number"], card["points"], tuple(map(intern, card["colours"])),
                                                      (card["from"], card["to"]))
                self.components[card["number"]] = 1
            elif card["deck"] == "big-cities":
                self.city_points[card["city"]] = card["points"]
                self.components[card["city"]] = 1
        self.train_cards = sorted(c for c in self.components if isinstance(c, str) and (c in self.colours or c == LOCO))
        self.train_counts = Counter({c: self.components[c] for c in self.train_cards})
        self.train_total = sum(self.train_counts.values())
        # A train card weighs a power of one more than the number of train cards, a digit per
        # kind: as many cards as the game has (no more) weigh what all of them do exactly when
        # every kind is there as often as the game has it, since no kind can fill its digit.
        self.card_weights = {c: (self.train_total + 1) ** k for k, c in enumerate(self.train_cards)}
        self.train_weight = sum(self.card_weights[c] * n for c, n in self.train_counts.items())
        self.city_list = list(self.city_points)
        self.ticket_set = set(self.tickets)
        self._actions: dict[str, Action] = {}
        # The actions legal_actions offers, made once and shared: they are immutable.
        self.takes = {c: Take(c) for c in [*self.colours, LOCO]}
        self.take_sets: dict[tuple, tuple] = {}  # see takes_of
        self._played: dict[tuple, Play] = {}  # every set made for an offer, by its cards
        # The sets legal_actions offers: per (colour, held, locomotives, opponent's column) for
        # one colour, per tuple of colours no opponent shows for three.
        self.play_sets: dict[tuple, tuple[Play, ...]] = {}
        # Greedy scores of sets (see score_actions and `_set_scores`): of one colour and locomotives,
        # and of three colours by which of them the tickets lack.
        self.set_scores: dict[tuple, tuple[float, ...]] = {}
        self.trio_scores: dict[tuple, tuple[float, ...]] = {}
        self.needs: dict[tuple, dict[str, int]] = {}  # see needs_of
        # Per ticket, the cards it asks for as (colour's place in `colours`, number) pairs, a card
        # of no colour at the place after them (see `_keeping`, where nothing is to spare there).
        self.keep_needs = {t: tuple((self.colour_order.get(c, len(self.colours)), n) for c, n in Counter(ticket.needs).items())
                           for t, ticket in self.tickets.items()}

    def needs_of(self, tickets: list[int]) -> dict[str, int]:
        """The cards `tickets` ask for together, per colour (a shared dict: read it only)."""
        key = tuple(tickets)
        need = self.needs.get(key)
        if need is None:
            need = {}
            for t in tickets:
                for colour in self.tickets[t].needs:
                    need[colour] = need.get(colour, 0) + 1
            if len(self.needs) >= MEMO_SIZE:
                self.needs.clear()
            self.needs[key] = need
        return need

    def takes_of(self, faceup: list[str], second: bool) -> tuple[tuple[str, ...], tuple[Take, ...]]:
        """The colours a player may take from the face-up row `faceup`, in order, and their
        actions; the locomotive is left out for a `second` card."""
        key = (frozenset(faceup), second)
        offer = self.take_sets.get(key)
        if offer is None:
            takes = tuple(sorted(c for c in key[0] if not (second and c == LOCO)))
            offer = takes, tuple(self.takes[c] if c in self.takes else Take(c) for c in takes)
            if len(self.take_sets) >= MEMO_SIZE:
                self.take_sets.clear()
            self.take_sets[key] = offer
        return offer

    def _play(self, cards: tuple[str, ...]) -> Play:
        action = self._played.get(cards)
        if action is None:
            action = Play(cards)
            if len(self._played) >= MEMO_SIZE:
                self._played.clear()
            self._played[cards] = action
        return action

    def trios_of(self, colours: tuple[str, ...]) -> tuple[Play, ...]:
        """The sets of three of `colours` (in their order), in the order of `combinations`."""
        plays = self.play_sets.get(colours)
        if plays is None:
            plays = tuple(map(self._play, combinations(colours, 3)))
            if len(self.play_sets) >= MEMO_SIZE:
                self.play_sets.clear()
            self.play_sets[colours] = plays
        return plays

    def plays_of(self, colour: str, have: int, locos: int, beat: int) -> tuple[Play, ...]:
        """The sets of `colour` a player holding `have` of it and `locos` locomotives may play
        over an opponent's column of strength `beat` (0: none): n cards of the colour and m
        locomotives on top, n then m rising, at least two cards and more than `beat`."""
        key = (colour, have, locos, beat)
        plays = self.play_sets.get(key)
        if plays is None:
            plays = tuple(self._play((colour,) * n + (LOCO,) * m) for n in range(1, have + 1) for m in range(locos + 1)
                          if n + m >= 2 and n + m > beat)
            if len(self.play_sets) >= MEMO_SIZE:
                self.play_sets.clear()
            self.play_sets[key] = plays
        return plays

    def allocate(self, tracks: list[str], ticket_ids: list[int]):
        return best_allocation(tracks, [self.tickets[t] for t in sorted(ticket_ids)])

    def parse_action(self, text: str) -> Action:
        cached = self._actions.get(text)
        if cached is not None:
            return cached
        action = self._parse(text)
        if len(self._actions) < 4096:
            self._actions[text] = action
        return action

    def _parse(self, text: str) -> Action:
        words = str(text).split()
        if not words:
            raise NotationError(f"cannot read {text!r}; the actions are: {NOTATION}")
        head, rest = words[0], words[1:]
        if head == "keep" and rest:
            if rest == ["none"]:
                return Keep(())
            numbers = []
            for word in rest:
                if not (word.isascii() and word.isdigit()):
                    raise NotationError(f"cannot read {text!r}: {word!r} is not a ticket number")
                numbers.append(int(word))
            return Keep(tuple(sorted(numbers)))
        if head == "draw" and not rest:
            return DRAW
        if head == "take" and len(rest) == 1:
            self._check_card(rest[0], text)
            return Take(rest[0])
        if head == "stop" and not rest:
            return STOP
        if head == "tickets" and not rest:
            return TICKETS
        if head == "pass" and not rest:
            return PASS
        if head == "play" and rest:
            for word in rest:
                self._check_card(word, text)
            order = {c: i for i, c in enumerate(self.colours + [LOCO])}
            return Play(tuple(sorted(rest, key=order.__getitem__)))
        raise NotationError(f"cannot read {text!r}; the actions are: {NOTATION}")

    def _check_card(self, word: str, text: str) -> None:
        if word not in self.colours and word != LOCO:
            raise NotationError(f"cannot read {text!r}: {word!r} is not a train card "
                                f"({', '.join(self.colours)} or {LOCO})")

    def new_state(self, players: int, seed: int | None = None, setup: dict | None = None) -> TicketToRideState:
        setup = self.checked_setup(players, setup, SETUP_KEYS)
        state = TicketToRideState(self, players, Chance(seed))
        if "hands" in setup:
            _setup_position(self, state, setup)
            state.setup = setup
        else:
            _setup_deal(self, state, setup)
        return state

    def notation_help(self) -> str:
        readings = ", ".join(f"{name} ({' | '.join(str(v).lower() for v in values)})" for name, values in READINGS.items())
        return NOTATION_HELP + textwrap.fill(f"Parameters (the first value is the default): {readings}.", 96, break_on_hyphens=False) + "\n"


SETUP_KEYS = {"train_deck", "ticket_deck", "hands", "columns", "tracks", "faceup", "deck", "discard", "tickets",
              "offered", "done", "turn", "step", "phase", "deck_number", "final_turns", "trigger", "rest"}


def _train_list(game: TicketToRide, value, field: str) -> list[str]:
    if not isinstance(value, list):
        raise SetupError(field, "must be a list of train cards")
    for i, card in enumerate(value):
        if card not in game.colours and card != LOCO:
            raise SetupError(f"{field}.{i}", f"{card!r} is not a train card ({', '.join(game.colours)} or {LOCO})")
    return list(value)


def _ticket_list(game: TicketToRide, value, field: str) -> list[int]:
    if not isinstance(value, list):
        raise SetupError(field, "must be a list of ticket numbers")
    for i, t in enumerate(value):
        if isinstance(t, bool) or t not in game.tickets:
            raise SetupError(f"{field}.{i}", f"{t!r} is not a ticket number (1 to {len(game.tickets)})")
    return list(value)


def _per_player(state: TicketToRideState, setup: dict, key: str) -> dict:
    value = setup.get(key, {})
    if not isinstance(value, dict) or not set(value) <= set(state.players):
        raise SetupError(key, f"must map players ({', '.join(state.players)}) to their cards")
    return value


def _setup_deal(game: TicketToRide, state: TicketToRideState, setup: dict) -> None:
    """A locomotive to each player; the other train cards shuffled, seven dealt to each, five
    turned up; six tickets dealt to each player to choose from."""
    for key in setup:
        if key not in ("train_deck", "ticket_deck"):
            raise SetupError(key, "only 'train_deck' and 'ticket_deck' may be given without 'hands'")
    n = len(state.players)
    pool = Counter({c: k for c, k in game.components.items() if c in game.train_cards})
    pool[LOCO] -= n
    everything = sorted(pool.elements())
    if "train_deck" in setup:
        order = _train_list(game, setup["train_deck"], "train_deck")
        if sorted(order) != everything:
            raise SetupError("train_deck", f"must hold every train card but the {n} locomotives dealt first "
                                           f"({len(everything)} cards), in the order shuffled")
        state.chance.log.append(("deal", list(order)))
    else:
        order = state.chance.shuffle("deal", everything)
    tickets_all = sorted(game.tickets)
    if "ticket_deck" in setup:
        t_order = _ticket_list(game, setup["ticket_deck"], "ticket_deck")
        if sorted(t_order) != tickets_all:
            raise SetupError("ticket_deck", f"must hold all {len(tickets_all)} tickets, in the order shuffled")
        state.chance.log.append(("deal-tickets", list(t_order)))
    else:
        t_order = state.chance.shuffle("deal-tickets", tickets_all)
    state.first_deal = {"train_deck": list(order), "ticket_deck": list(t_order)}
    state.deck = list(order)[::-1]
    state.ticket_deck = list(t_order)[::-1]
    for p in state.players:
        state.hands[p].append(LOCO)
    for p in state.players:
        for _ in range(HAND_DEAL):
            state.hands[p].append(state.deck.pop())
    state._refill()
    for p in state.players:
        for _ in range(TICKET_DEAL):
            state.pending[p].append(state.ticket_deck.pop())
    state.phase = CHOOSE
    state.current = 0


def _setup_position(game: TicketToRide, state: TicketToRideState, setup: dict) -> None:
    """Start from a given position; unnamed train cards go under the deck (or to the discard pile
    with `rest: discard`) and unnamed tickets under the ticket deck, in a fixed order, so that a
    scenario never depends on a shuffle."""
    used: Counter = Counter()
    for p, cards in _per_player(state, setup, "hands").items():
        state.hands[p] = _train_list(game, cards, f"hands.{p}")
    columns = _per_player(state, setup, "columns")
    for p, yard in columns.items():
        if not isinstance(yard, dict):
            raise SetupError(f"columns.{p}", "must map a colour to its column, bottom card first")
        for colour, column in yard.items():
            column = _train_list(game, column, f"columns.{p}.{colour}")
            if colour not in game.colours:
                raise SetupError(f"columns.{p}", f"{colour!r} is not a colour")
            if not column or column[0] != colour or any(c not in (colour, LOCO) for c in column) or \
                    (LOCO in column and any(c != LOCO for c in column[column.index(LOCO):])):
                raise SetupError(f"columns.{p}.{colour}", f"a column holds {colour} cards with any locomotives on top")
            for other, theirs in columns.items():
                if other < p and colour in theirs:
                    raise SetupError(f"columns.{p}.{colour}", f"{other} shows {colour} too; a colour is shown by one player")
            state.yards[p][colour] = column
    for p, cards in _per_player(state, setup, "tracks").items():
        state.tracks[p] = _train_list(game, cards, f"tracks.{p}")
    state.faceup = _train_list(game, setup.get("faceup", []), "faceup")
    if len(state.faceup) > FACE_UP:
        raise SetupError("faceup", f"the face-up row holds {FACE_UP} cards at most")
    deck = _train_list(game, setup.get("deck", []), "deck")
    state.discard = _train_list(game, setup.get("discard", []), "discard")
    for cards in [*state.hands.values(), *state.tracks.values(), state.faceup, deck, state.discard]:
        used.update(cards)
    for yard in state.yards.values():
        for column in yard.values():
            used.update(column)
    rest = []
    for card in game.train_cards:
        extra = used[card] - game.components[card]
        if extra > 0:
            raise SetupError("hands", f"the setup uses {used[card]} {card} cards; the game has {game.components[card]}")
        rest += [card] * (game.components[card] - used[card])
    where = setup.get("rest", "deck")
    if where not in ("deck", "discard"):
        raise SetupError("rest", f"must be 'deck' or 'discard', not {where!r}")
    if where == "deck":
        deck += rest
    else:
        state.discard += rest
    state.deck = deck[::-1]
    seen: dict[int, str] = {}
    for key in ("tickets", "offered", "done"):
        target = {"tickets": state.tickets, "offered": state.pending, "done": state.done}[key]
        for p, numbers in _per_player(state, setup, key).items():
            target[p] = _ticket_list(game, numbers, f"{key}.{p}")
            for t in target[p]:
                if t in seen:
                    raise SetupError(f"{key}.{p}", f"ticket {t} is also in {seen[t]}")
                seen[t] = f"{key}.{p}"
    t_deck = _ticket_list(game, setup.get("ticket_deck", []), "ticket_deck")
    for t in t_deck:
        if t in seen:
            raise SetupError("ticket_deck", f"ticket {t} is also in {seen[t]}")
        seen[t] = "ticket_deck"
    t_deck += [t for t in sorted(game.tickets) if t not in seen]
    state.ticket_deck = t_deck[::-1]
    phase = setup.get("phase", PLAY)
    if phase not in (CHOOSE, PLAY, OVER):
        raise SetupError("phase", f"must be choose, play or over, not {phase!r}")
    state.phase = phase
    step = setup.get("step", KEEP if any(state.pending.values()) and phase == PLAY else START)
    if step not in (START, DRAW2, KEEP):
        raise SetupError("step", f"must be start, draw2 or keep, not {step!r}")
    state.step = step
    turn = setup.get("turn", state.players[0])
    if turn not in state.players:
        raise SetupError("turn", f"must be one of {', '.join(state.players)}, not {turn!r}")
    state.current = state.players.index(turn)
    if (phase == CHOOSE or step == KEEP) and not state.pending[turn]:
        raise SetupError("offered", f"{turn} must have tickets offered to choose from")
    number = setup.get("deck_number", 1)
    if number not in (1, 2) or (number == 2 and len(state.players) < TWO_DECKS_AT):
        raise SetupError("deck_number", "is 1, or 2 in the four-player game")
    state.deck_number = number
    final = setup.get("final_turns")
    if final is not None and (isinstance(final, bool) or not isinstance(final, int) or not 1 <= final <= len(state.players)):
        raise SetupError("final_turns", f"must be a number of turns from 1 to {len(state.players)}")
    state.final = final
    trigger = setup.get("trigger")
    if trigger is not None and trigger not in state.players:
        raise SetupError("trigger", f"must be one of {', '.join(state.players)}")
    state.trigger = trigger
    if phase == PLAY and state.deck and len(state.faceup) < FACE_UP:
        # A short row is refilled at once while the deck lasts, as in play.
        state._refill()


NOTATION_HELP = """\
Train cards: red, orange, blue, black, purple, yellow, white, green; a locomotive is loco.
Tickets are written by their number.
Actions:
  keep <numbers> | keep none   keep tickets dealt (at least one at the start) or drawn
  draw                         take the top card of the train deck
  take <colour>                take a face-up card (take loco: as the first card only; ends the draw)
  stop                         end a draw after its first card
  play <cards>                 e.g. play red red loco (one colour, locomotives on top)
                               or play red blue green (three colours, no locomotive)
  tickets                      draw four tickets, then keep any of them
  pass                         only when no action is possible
Phase 1 (the top card of each rail-yard column to the tracks pile) happens by itself.
Setup: train_deck and ticket_deck (top first) for a new deal; or hands {P1: [...]} with
columns {P1: {red: [red, red, loco]}}, tracks, faceup, deck (top first), discard, tickets,
offered, done, ticket_deck, turn, step (start, draw2, keep), phase (choose, play, over),
deck_number, final_turns, trigger and rest (deck or discard: where unnamed cards go).
Chance: deal, deal-tickets, tickets (the returned starting tickets), redeal (second deck).
Fields for expect: phase, step, to_move, turns, deck_number, final_turns, trigger, columns,
hand.P1, yard.P1, tracks.P1, tickets.P1, offered.P1, done.P1, faceup, deck and ticket_deck
(top first, as in the setup), discard, cities. Result fields for end: winner, winners, order, scores, breakdown
(completed, failed, cards, unused, gained, lost, tickets, cities, city_points, total),
tiebreaks, turns.
"""
