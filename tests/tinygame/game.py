"""Tiny Race, a made-up game declared entirely here and in `content/`: a print definition, a rules
engine on the engine kit, and one registration line. Each player holds one card; on a turn they
draw the top card and lay one of their two cards on their track; the first track worth 7 or more
wins, and when every card is laid the longest track wins (ties share the win)."""

from __future__ import annotations

from dataclasses import dataclass

from reportlab.lib.colors import HexColor

from cardgen.faces import fill_bleed
from cardgen.pdfdoc import SANS_BOLD
from cardgen.registry import GameDefinition
from verify.engine import Action, Chance, Game, IllegalAction, NotationError, SetupError, State, player_names
from verify.kit import Visibility, ZoneSpec, ZoneTable, outcome_from_scores

GOAL = 7
ZONES = (ZoneSpec("deck", Visibility.NOBODY, ordered=True), ZoneSpec("hand", Visibility.OWNER, per_player=True),
         ZoneSpec("track", Visibility.EVERYONE, per_player=True, ordered=True))


@dataclass(frozen=True)
class Lay(Action):
    card: int

    def __str__(self) -> str:
        return f"lay {self.card}"


class TinyRaceState(State):
    def __init__(self, game: "TinyRace", players: int, chance: Chance):
        self.game = game
        self.players = player_names(players)
        self.chance = chance
        self.table = ZoneTable(ZONES, self.players)
        self.current = 0

    def zones(self):
        return self.table.zones()

    def components(self):
        return {card: 1 for card in self.game.values}

    def total(self, player: str) -> int:
        return sum(self.game.values[c] for c in self.table["track", player])

    def public_fields(self):
        return {"to_move": self.to_move(), "totals": {p: self.total(p) for p in self.players}}

    def to_move(self):
        return [] if self.is_terminal() else [self.players[self.current]]

    def is_terminal(self):
        return any(self.total(p) >= GOAL for p in self.players) or not any(
            self.table["hand", p] for p in self.players)

    def legal_actions(self, player):
        if self.to_move() != [player]:
            return []
        return [Lay(card) for card in sorted(self.table["hand", player])]

    def parse_action(self, text):
        words = text.split()
        if len(words) != 2 or words[0] != "lay" or not (words[1].isascii() and words[1].isdigit()):
            raise NotationError(f"cannot read {text!r}: write 'lay <card>'")
        return Lay(int(words[1]))

    def apply(self, player, action):
        if self.to_move() != [player]:
            raise IllegalAction("turn", f"not your turn: {', '.join(self.to_move()) or 'nobody'} is to move")
        if not isinstance(action, Lay) or action.card not in self.table["hand", player]:
            raise IllegalAction("turn", f"{action} is not a card in {player}'s hand")
        self.table["hand", player].remove(action.card)
        self.table["track", player].append(action.card)
        self.current = (self.current + 1) % len(self.players)
        if not self.is_terminal():
            self._draw(self.players[self.current])

    def _draw(self, player):
        if self.table["deck"]:
            self.table["hand", player].append(self.table["deck"].pop(0))

    def outcome(self):
        scores = {p: self.total(p) for p in self.players}
        return outcome_from_scores(scores, {p: {"track": scores[p]} for p in self.players})

    def score(self, player):
        return self.total(player)

    def setup_record(self):
        return self.setup

    def clone(self):
        other = TinyRaceState.__new__(TinyRaceState)
        other.__dict__.update(self.__dict__)
        other.table = self.table.copy()
        other.chance = self.chance.copy()
        return other


class TinyRace(Game):
    id = "tiny-race"
    min_players, max_players = 2, 3

    def __init__(self, content=None, **params):
        super().__init__(content, **params)
        self.values = {card["id"]: card["value"] for card in content.cards}

    def new_state(self, players, seed=None, setup=None):
        state = TinyRaceState(self, players, Chance(seed))
        if setup is None:
            deck = state.chance.shuffle("deal", sorted(self.values))
            setup = {"deck": deck[players:], "hand": {p: [deck[i]] for i, p in enumerate(state.players)}}
        unknown = sorted(set(setup) - {"deck", "hand"})
        if unknown:
            raise SetupError(unknown[0], "unknown setup key; known: deck, hand")
        state.table["deck"] = setup.get("deck", [])
        for p, cards in (setup.get("hand") or {}).items():
            if p not in state.players:
                raise SetupError(f"hand.{p}", f"no player {p}")
            state.table["hand", p] = cards
        problems = state.check_invariants()
        if problems:
            raise SetupError("deck", "; ".join(problems))
        state.setup = {"deck": list(state.table["deck"]), "hand": {p: list(state.table["hand", p]) for p in state.players}}
        state._draw(state.players[0])
        return state

    def notation_help(self):
        return "lay <card>: lay a card from your hand on your track.\nExpect fields: to_move, totals, deck, hand, track."


class TinyRaceDefinition(GameDefinition):
    id = "tiny-race"
    engine = TinyRace

    def draw_face(self, canvas, content, card, rect, bleed):
        fill_bleed(canvas, rect, bleed, HexColor("#f4efe1"))
        canvas.setFont(SANS_BOLD, 40)
        canvas.drawCentredString(rect.x + rect.w / 2, rect.y + rect.h / 2 - 14, str(card["value"]))

    def draw_back(self, canvas, content, back_id, rect, bleed):
        fill_bleed(canvas, rect, bleed, HexColor(content.game["backs"][back_id]["colour"]))


GAME = TinyRaceDefinition()
