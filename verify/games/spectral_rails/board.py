"""The map of Spectral Rails as a graph: towns grouped in regions, routes between towns made of
numbered track spaces, and one side of the board (its regions and its blue and red start towns).

The same class reads the reconstructed board in `content/spectral-rails/map.yaml` and the small
maps a scenario may bring, so a rule can be pinned on a ring of six towns as well as on the board.
Spaces are numbered s1, s2, ... along the routes in the order they are listed, each route from its
`from` town to its `to` town. Everything here is fixed for a game and shared by every state.
"""

from __future__ import annotations

from collections import deque
from functools import cached_property, lru_cache
from heapq import heappop, heappush
from typing import Any


@lru_cache(maxsize=None)
def soul_town(soul: str) -> str:
    """The town a soul tile names: d-<town>-<n> or l-<town>."""
    return soul[2:].rsplit("-", 1)[0] if soul.startswith("d-") else soul[2:]


class MapError(ValueError):
    """A map that breaks a rule; `where` is the dotted path of the offending entry."""

    def __init__(self, where: str, message: str):
        super().__init__(f"{where}: {message}")
        self.where = where
        self.message = message


class Board:
    """One side of a map: towns, regions, spaces, adjacency and start towns."""

    def __init__(self, data: dict, side: str | None = None, players: int | None = None):
        if not isinstance(data, dict):
            raise MapError("map", "must be a mapping with regions, towns, routes and sides")
        regions = data.get("regions")
        towns = data.get("towns")
        routes = data.get("routes")
        if not isinstance(regions, list) or not regions:
            raise MapError("map.regions", "must be a list of regions")
        if not isinstance(towns, list) or not towns:
            raise MapError("map.towns", "must be a list of towns")
        if not isinstance(routes, list) or not routes:
            raise MapError("map.routes", "must be a list of routes")
        region_ids = []
        for i, region in enumerate(regions):
            rid = region.get("id") if isinstance(region, dict) else region
            if not isinstance(rid, str):
                raise MapError(f"map.regions.{i}", "a region needs an id")
            region_ids.append(rid)
        all_town_region: dict[str, str] = {}
        for i, town in enumerate(towns):
            if not isinstance(town, dict) or not isinstance(town.get("id"), str):
                raise MapError(f"map.towns.{i}", "a town needs an id and a region")
            if town["id"] in all_town_region:
                raise MapError(f"map.towns.{i}", f"town {town['id']!r} is listed twice")
            if town.get("region") not in region_ids:
                raise MapError(f"map.towns.{i}.region", f"unknown region {town.get('region')!r}")
            all_town_region[town["id"]] = town["region"]
        sides = data.get("sides") or [{"id": "only", "regions": region_ids,
                                        "blue_starts": data.get("blue_starts", []),
                                        "red_starts": data.get("red_starts", [])}]
        chosen = None
        for s in sides:
            if side is not None and s.get("id") == side:
                chosen = s
            elif side is None and players is not None and s.get("players", players) == players and chosen is None:
                chosen = s
        if chosen is None:
            chosen = sides[0] if side is None and players is None else None
        if chosen is None:
            raise MapError("map.sides", f"no side for {players} players" if side is None else f"no side {side!r}")
        self.side = chosen.get("id", "only")
        self.regions: list[str] = [r for r in chosen.get("regions", region_ids)]
        for r in self.regions:
            if r not in region_ids:
                raise MapError("map.sides", f"unknown region {r!r}")
        self.town_region = {t: r for t, r in all_town_region.items() if r in self.regions}
        self.towns: list[str] = list(self.town_region)
        self.region_towns: dict[str, list[str]] = {r: [t for t in self.towns if self.town_region[t] == r]
                                                   for r in self.regions}
        self.region_town_sets = [frozenset(ts) for ts in self.region_towns.values()]
        self.adj: dict[str, list[str]] = {t: [] for t in self.towns}
        self.spaces: list[str] = []
        self.space_route: dict[str, int] = {}
        self.routes: list[tuple[str, str, list[str]]] = []
        number = 0
        for i, route in enumerate(routes):
            if not isinstance(route, dict):
                raise MapError(f"map.routes.{i}", "a route is {from: town, to: town, spaces: n}")
            a, b, n = route.get("from"), route.get("to"), route.get("spaces")
            for end in (a, b):
                if end not in all_town_region:
                    raise MapError(f"map.routes.{i}", f"unknown town {end!r}")
            if a == b:
                raise MapError(f"map.routes.{i}", "a route joins two different towns")
            if not isinstance(n, int) or isinstance(n, bool) or not 1 <= n <= 4:
                raise MapError(f"map.routes.{i}.spaces", "a route has 1 to 4 track spaces")
            ids = [f"s{number + k}" for k in range(1, n + 1)]
            number += n
            if a not in self.town_region or b not in self.town_region:
                continue  # a route of the other side of the board
            chain = [a, *ids, b]
            for s in ids:
                self.adj[s] = []
                self.space_route[s] = len(self.routes)
            for x, y in zip(chain, chain[1:]):
                self.adj[x].append(y)
                self.adj[y].append(x)
            self.spaces += ids
            self.routes.append((a, b, ids))
        # the routes out of each town, in map order: their spaces from the town, and the town at the far end
        self.town_legs: dict[str, list[tuple[tuple[str, ...], str]]] = {t: [] for t in self.towns}
        for a, b, ids in self.routes:
            self.town_legs[a].append((tuple(ids), b))
            self.town_legs[b].append((tuple(reversed(ids)), a))
        self.town_routes = {t: [spaces for spaces, _ in legs] for t, legs in self.town_legs.items()}
        self.blue_starts = list(chosen.get("blue_starts", []))
        self.red_starts = list(chosen.get("red_starts", []))
        for name in ("blue_starts", "red_starts"):
            for t in getattr(self, name):
                if t not in self.town_region:
                    raise MapError(f"map.sides.{name}", f"{t!r} is not a town of this side")
        self.is_town = {t: True for t in self.towns}
        self.town_set = frozenset(self.towns)
        for s in self.spaces:
            self.is_town[s] = False
        self.near_weights = _NearTables(self)
        self.problems = self.check()
        if self.problems:
            raise MapError("map", self.problems[0])

    def check(self) -> list[str]:
        problems = []
        if not self.towns:
            return ["the side has no towns"]
        seen = {self.towns[0]}
        todo = [self.towns[0]]
        while todo:
            node = todo.pop()
            for nxt in self.adj[node]:
                if nxt not in seen:
                    seen.add(nxt)
                    todo.append(nxt)
        missing = [n for n in self.adj if n not in seen]
        if missing:
            problems.append(f"not connected: {', '.join(missing[:5])} cannot be reached from {self.towns[0]}")
        for r, ts in self.region_towns.items():
            if not ts:
                problems.append(f"region {r} has no town on this side")
        return problems

    @cached_property
    def distance(self) -> dict[str, dict[str, int]]:
        """Spaces between every two towns on an empty map: a static yardstick for heuristics."""
        return {t: self._spaces_from(t) for t in self.towns}

    def _spaces_from(self, start: str) -> dict[str, int]:
        """The fewest spaces from `start` to each town it reaches: a shortest-path search over
        whole routes, each weighing its number of spaces."""
        best = {start: 0}
        heap = [(0, start)]
        while heap:
            cost, town = heappop(heap)
            if cost > best[town]:
                continue  # a dearer entry for a town already reached
            for spaces, far in self.town_legs[town]:
                if cost + len(spaces) < best.get(far, 1 << 30):
                    best[far] = cost + len(spaces)
                    heappush(heap, (cost + len(spaces), far))
        return best

    @cached_property
    def space_number(self) -> dict[str, int]:
        """The number of each space (s12: 12), the order spaces are listed in."""
        return {s: int(s[1:]) for s in self.spaces}

    def is_space(self, node: str) -> bool:
        return node in self.space_route

    def first_legs(self, town: str, track: dict, me: int, ride_others: bool, place: bool) -> list[int]:
        """The pieces each route out of `town` needs to reach the town at its other end, for the
        routes open to `me` (as in `cheapest`, with no pieces laid this turn). Every way from a
        town to another begins with one whole route, so the cheapest of these is what the
        cheapest town of `cheapest(town, ...)` costs, and there is none when this is empty."""
        legs = []
        owner_of = track.get
        for spaces in self.town_routes[town]:
            cost = 0
            for space in spaces:
                owner = owner_of(space)
                if owner is None:
                    if not place:
                        break
                    cost += 1
                elif owner == me or not ride_others:
                    break
            else:
                legs.append(cost)
        return legs

    def cheapest(self, start: str, track: dict, me: int, ride_others: bool, place: bool,
                 first_only: bool = False, spaces: bool = False,
                 free: frozenset = frozenset(), limit: int | None = None) -> dict[str, tuple[int, tuple[str, ...]]]:
        """Cheapest route from `start` to every other town: {town: (pieces to place, nodes after
        start)}. An empty space costs one piece (if `place`), another player's trail nothing (if
        `ride_others`), your own trail (`me`) blocks; towns cost nothing and may be passed
        through. With `first_only`, stop at the first (cheapest) town. Ties go to the route met
        first in map order, so the answer is stable. With `spaces`, the spaces a route may end on
        are listed too (for the reading in which a train may stop on the track); spaces in `free`
        (your pieces laid this turn) are ridden for nothing. With `limit`, only places costing at
        most that many pieces are listed (the same ones, in the same order, as without it: a
        place dearer than the limit is never queued, and it would only have come off the queue
        after every place within it).

        The search takes places in order of cost, cost-free steps first (a 0-1 breadth-first
        search), so the first time a place comes off the queue its cost is final; later entries
        for it cost more and are skipped. Every place listed was reached from one listed before
        it (or from the start), so its route is that one's and the few steps after it."""
        if not place and not spaces and not free and (limit is None or limit >= 0) and start in self.town_set:
            return self._rides(start, track, me, ride_others, first_only)
        return self._search(start, track, me, ride_others, place, first_only, spaces, free, limit)

    def _rides(self, start: str, track: dict, me: int, ride_others: bool,
               first_only: bool) -> dict[str, tuple[int, tuple[str, ...]]]:
        """`cheapest` when no piece is placed: every step is free (towns, other players' trail),
        so the search's queue is a stack, and a route, once entered, is followed at once as far
        as it goes (each of its spaces leads on to one place only). The same towns in the same
        order, each by the same route, a route at a time instead of a space at a time."""
        result: dict[str, tuple[int, tuple[str, ...]]] = {}
        if not ride_others:
            return result  # nothing is free to ride
        legs = self.town_legs
        owner_of = track.get
        seen = {start}
        paths: dict[str, tuple[str, ...]] = {start: ()}
        stack: list = [start]
        while stack:
            node = stack.pop()
            if type(node) is str:  # a town: listed, then each route out of it with a ridable first space
                if node != start:
                    result[node] = (0, paths[node])
                    if first_only:
                        return result
                for spaces, far in legs[node]:
                    first = spaces[0]
                    if first not in seen:
                        owner = owner_of(first)
                        if owner is not None and owner != me:
                            seen.add(first)
                            stack.append((node, spaces, far))
                continue
            origin, spaces, far = node  # a route entered: followed while its spaces may be ridden
            for space in spaces[1:]:
                owner = owner_of(space)
                if space in seen or owner is None or owner == me:
                    break
                seen.add(space)
            else:
                if far not in seen:
                    seen.add(far)
                    paths[far] = paths[origin] + spaces + (far,)
                    stack.append(far)
        return result

    def _search(self, start: str, track: dict, me: int, ride_others: bool, place: bool, first_only: bool,
                spaces: bool, free: frozenset, limit: int | None) -> dict[str, tuple[int, tuple[str, ...]]]:
        """`cheapest` by a 0-1 breadth-first search of towns and spaces."""
        best = {start: 0}
        best_of = best.get
        prev: dict[str, str] = {}
        queue = deque(((0, start),))
        pop, push, push_front = queue.popleft, queue.append, queue.appendleft
        is_town, adj, owner_of = self.is_town, self.adj, track.get
        free_ride = self.town_set | free if free else self.town_set
        result: dict[str, tuple[int, tuple[str, ...]]] = {}
        paths: dict[str, tuple[str, ...]] = {start: ()}
        if limit is None:
            limit = 1 << 30
        while queue:
            cost, node = pop()
            if cost != best[node]:
                continue  # a dearer entry for a place already taken off the queue
            if cost > limit:
                break
            if node != start and (spaces or is_town[node]):
                steps = [node]
                step = prev[node]
                while step not in paths:
                    steps.append(step)
                    step = prev[step]
                steps.reverse()
                path = paths[node] = paths[step] + tuple(steps)
                result[node] = (cost, path)
                if first_only:
                    return result
            for nxt in adj[node]:
                if nxt in free_ride:
                    c = cost
                else:
                    owner = owner_of(nxt)
                    if owner is None:
                        if not place or cost >= limit:
                            continue  # no piece may go there, or it would cost more than the limit
                        c = cost + 1
                    elif owner == me or not ride_others:
                        continue
                    else:
                        c = cost
                if c < best_of(nxt, 1 << 30):
                    best[nxt] = c
                    prev[nxt] = node
                    if c != cost:
                        push((c, nxt))
                    else:
                        push_front((c, nxt))
        return result


class _NearTables(dict):
    """`Board.near_weights[node]`, for a train at `node`: 0.5 / (1 + spaces to the soul's town)
    for any soul tile (9 spaces for a town off this side), the heuristics' pull of a soul aboard.
    A train on the track is measured from its route's first town. Filled as places and souls are
    asked for; shared by every state."""

    __slots__ = ("board",)

    def __init__(self, board: Board):
        super().__init__()
        self.board = board

    def __missing__(self, node: str) -> _NearWeights:
        board = self.board
        town = node if node in board.distance else board.routes[board.space_route[node]][0]
        weights = self[node] = _NearWeights(board.distance[town])
        return weights


class _NearWeights(dict):
    """soul tile -> 0.5 / (1 + spaces from one town to the soul's town), filled on demand."""

    __slots__ = ("near",)

    def __init__(self, near: dict[str, int]):
        super().__init__()
        self.near = near

    def __missing__(self, soul: str) -> float:
        weight = self[soul] = 0.5 / (1 + self.near.get(soul_town(soul), 9))
        return weight


def load_board(data: Any, players: int) -> Board:
    return Board(data, players=players)
