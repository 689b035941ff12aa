"""Information-set Monte Carlo tree search: the strongest bundled bot (docs/bots.md).

One tree per decision, grown from the deciding seat's information set: every iteration
draws a fresh game consistent with what that seat sees (``Observation.sample_game``),
walks the tree through the options that game allows, adds one node and plays the rest
at random on the fast path (``Game.play_out``).  Selection is UCB1 with availability
counts, as an option may be legal in one sampled game and not in another.

Other seats' secret picks are hidden from the searching seat, so the tree never branches
on them: they are answered at random and the walk stays at the same node.  Every other
answer (the seat's own, and other seats' public choices such as dusk loot) is a tree edge,
labelled by seat and key, and scored with the reward of the seat that chose it.
"""

from __future__ import annotations

import math
import random
import time

from ..engine import rng
from ..game import Game, Observation
from ..state import Decision

MARGIN_SCALE = 15.0
"""Points of score margin that count about as much as a quarter of a win in the reward."""


class _Node:
    __slots__ = ("avail", "children", "seat", "total", "visits")

    def __init__(self, seat: int) -> None:
        self.seat = seat  # who chose the edge into this node: its reward is what the node sums
        self.visits = 0
        self.avail = 0
        self.total = 0.0
        self.children: dict[tuple[int, str], _Node] = {}


def rewards(game: Game) -> tuple[float, ...]:
    """A finished game's reward per seat: a win (shared among tied winners) plus a quarter for the margin.

    The margin term, ``0.25 * tanh((score - best other score) / MARGIN_SCALE)``, keeps a
    losing line that loses by less worth more than one that loses by much, which guides
    the search early, when few play-outs have been won.
    """
    scores = game.final_scores()
    winners = game.winners()
    out = []
    for seat, score in enumerate(scores):
        others = [s for i, s in enumerate(scores) if i != seat]
        margin = score - max(others) if others else 0
        out.append((1 / len(winners) if seat in winners else 0.0) + 0.25 * math.tanh(margin / MARGIN_SCALE))
    return tuple(out)


class ISMCTSAgent:
    """Searches ``iterations`` sampled games per decision, or for ``seconds`` of wall time.

    With an iteration count it is deterministic for its seed; with a time budget the number
    of iterations (and so the answer) depends on the machine.
    """

    answers_from_options = True

    def __init__(self, seed: int = 0, iterations: int | None = 200, seconds: float | None = None,
                 exploration: float = 0.7) -> None:
        if (iterations is None) == (seconds is None):
            raise ValueError("ISMCTS needs exactly one budget: iterations or seconds")
        if iterations is not None and iterations < 1:
            raise ValueError(f"ISMCTS needs at least 1 iteration per decision, not {iterations}")
        if seconds is not None and seconds <= 0:
            raise ValueError(f"ISMCTS needs a positive time per decision, not {seconds}")
        self.seed = seed
        self.iterations = iterations
        self.seconds = seconds
        self.exploration = exploration
        self._rng = random.Random(seed)
        self.last_iterations = 0  # how many the last decision ran (for benchmarks)

    def choose(self, observation: Observation, decision: Decision) -> str:
        keys = decision.keys()
        if len(keys) == 1:
            return keys[0]
        seat = decision.player
        root = _Node(seat)
        seats = len(observation.players)
        deadline = time.perf_counter() + self.seconds if self.seconds is not None else math.inf
        done = 0
        while (done < self.iterations) if self.iterations is not None else (time.perf_counter() < deadline or not done):
            self._iterate(root, observation.sample_game(self._rng), seat, seats)
            done += 1
        self.last_iterations = done
        best = max(range(len(keys)), key=lambda i: _rank(root.children.get((seat, keys[i]))) + (-i * 1e-9,))
        return keys[best]

    def _iterate(self, root: _Node, game: Game, seat: int, seats: int) -> None:
        stream = self._rng.getrandbits(62)
        counter = 0
        node = root
        path: list[_Node] = []
        expanded = False
        while not expanded:
            d = game.decision
            if d is None:
                break
            if d.player != seat and d.kind == "play_character" and game._where()[2] == "select":
                # Another seat's secret pick: invisible to the searching seat, so no edge.
                game = game.choose(d.options[rng.draw(stream, counter, len(d.options))].key)
                counter += 1
                continue
            edges = [(d.player, o.key) for o in d.options]
            fresh = [e for e in edges if e not in node.children]
            for e in edges:
                child = node.children.get(e)
                if child is not None:
                    child.avail += 1
            if fresh:
                edge = fresh[rng.draw(stream, counter, len(fresh))]
                counter += 1
                child = node.children[edge] = _Node(d.player)
                child.avail = 1
                expanded = True
            else:
                edge = max(edges, key=lambda e: self._ucb(node.children[e]))
                child = node.children[edge]
            path.append(child)
            node = child
            game = game.choose(edge[1])
        if game.decision is not None:
            game = game.play_out([_Rollout(stream, counter)] * seats)
        reward = rewards(game)
        for n in path:
            n.visits += 1
            n.total += reward[n.seat]

    def _ucb(self, n: _Node) -> float:
        if n.visits == 0:
            return math.inf
        return n.total / n.visits + self.exploration * math.sqrt(math.log(max(n.avail, 1)) / n.visits)


def _rank(n: _Node | None) -> tuple[float, ...]:
    """Most visits first, then the best mean: the robust choice at the root."""
    if n is None or n.visits == 0:
        return (0.0, -math.inf)
    return (float(n.visits), n.total / n.visits)


class _Rollout:
    """Uniformly random answers for every seat from one counter-based stream (a play-out's policy)."""

    answers_from_options = True

    def __init__(self, stream: int, counter: int) -> None:
        self.stream = stream
        self.counter = counter + 1_000_000

    def choose(self, observation: Observation, decision: Decision) -> str:
        options = decision.options
        self.counter += 1
        return options[rng.draw(self.stream, self.counter, len(options))].key

