"""Texts that could start one another for ever: refused when the rules load.

Between two questions the engine runs at most ``flow.STEP_BUDGET`` steps and then gives up
with ``StepBudgetExceeded``.  A set of accepted cards must never get there, so every loaded
character and loot tile (bundled and mods together: a loop can run through two files) is
checked here, on the syntax tree, before any game starts.

The graph
---------
Its nodes are abilities.  An edge ``A → B`` says "running A can start B in the same phase";
only three actions start anything (``compile/actions.py``):

- ``play X onto the island`` (day only, the checker sees to it) puts X on the island, where the
  day's walk reaches it and runs X's sun abilities: an edge to every sun ability of every card
  the phrase can name.  The engine never plays a card that is on the island already, and the
  phrase's place says where the card comes from (``from your hand``: a hand; no place: a ship).
- ``take … from today's loot`` / ``from the bag`` starts the dusk abilities of the token taken,
  whatever the phase (R6): an edge to the dusk abilities of every loaded side of every kind
  named.  Taking from tomorrow's loot or another player fires nothing.
- ``use the T ability of X`` runs X's T abilities on the spot, as the borrower's: an edge to
  every T ability of every card named.  The engine never borrows a card whose text is running
  anywhere down the chain (``this`` included).

``put … into your hand``, ``discard``, ``draw``, ``give``, ``swap`` and ``return`` start
nothing.  Edges are over-approximated: a name's every copy counts, filters other than name,
rank and "with a T ability" are ignored, ``it`` may be any character.

Which cycles end
----------------
An action inside ``you may …`` needs its owner's "yes" each time (Automa always says no, S6),
so such an edge cannot repeat without a player's answer: cycles leave it out.  Every other
question may answer itself (one option, or Automa's fixed rules) and is counted on.

A loop runs within one phase, so each phase is looked at alone, with only the abilities that
can run in it: a character's of that timing (a borrowed one keeps it, the checker sees to
that), the loot tiles' of that timing, and what those can start (a tile's dusk ability fires
wherever its token is taken, and so does a dusk ability it borrows).

Suppose a phase ran for ever without a question.  Its ability runs form a forest: each run was
started by the flow (finitely many: the cards revealed, the dusk order, the night and anchor
queues, what was pending at the last answer) or by an edge from a running ability, and each
run starts finitely many, so some chain of runs is infinite (König).  From some point on it
stays in one strongly connected part of the graph, and the edges it uses infinitely often
form cycles there.  Three resources make that impossible:

1. **The stack.**  ``take`` and ``use`` start their abilities on top of the running one,
   which resumes after them, so a chain of those edges is a stack that never unwinds.  Each
   ``use`` on it pushes a card whose text must not be on the stack yet, and a game has
   finitely many cards: a chain of ``take`` and ``use`` edges with a ``use`` in every cycle
   ends.
2. **Sun turns.**  A ``play`` starts the played card's sun abilities only through its sun
   turn, and no card takes two sun turns a day (E26: one that had its turn, left the island
   and is played again stays without acting).  So ``play`` edges are used at most once per
   card a day and are left out of the graph: ``put this into your hand, then play a character
   from your hand onto the island`` plays itself once and stops.
3. **Loot to take.**  Each firing ``take`` removes a token from today's loot or the bag;
   ``swap`` moves none in or out and ``draw`` only removes more, so a ``take`` edge is used
   infinitely often only if something that runs infinitely often returns loot to the bag
   (the flow's own returns at dusk are one per card).

What can run infinitely often: the abilities on cycles, and what a *spreading* one of them
can reach.  A run spreads when it may start an ability on a cycle together with another: a
chain that goes on and a new branch.  Without spreading, the chains on the cycles are as
many as ever entered them, and one that leaves the cycles never comes back, so what lies off
them runs only finitely often; new chains start only where a run spreads, and only in what
that run reaches.  A ``take`` edge whose bag nothing of that set refills is *cut*: it is used finitely
often.  So, over the edges not cut, a phase is refused when

- a cycle is made of ``take`` edges alone (the stack ends only chains with a ``use``), or
- one run of an ability on a cycle may start two or more abilities on cycles: the stack does
  end that, but only after a tree of borrowings as deep as the cards, which no step budget
  survives (``use the sun ability of every character …`` borrowed by each of them in turn).

Every infinite chain uses one of these or a cut edge infinitely often, so what passes ends.
Edges and fillers are counted generously (every copy of a name, every loaded side of a loot
kind at once, any pile ``it`` may be in): the check may refuse a set that would have ended,
never the other way round.

So the Scout (``discard this, then play a character from your hand``) plays cards that take
one sun turn each, and the Apprentice (``use the sun ability of a character in your ship``)
borrows down a chain that cannot hold a card twice: both end.  A tile whose dusk ability
returns loot to the bag and takes that kind from the bag again is refused.  A tile that only takes its own kind
from the bag ends when the bag runs out of it, and is accepted.
"""

from __future__ import annotations

from collections.abc import Collection, Iterator, Mapping, Sequence
from typing import NamedTuple, Protocol

from ..errors import CardError
from ..syntax import ast

_ENABLED = True
"""The check's switch; tests turn it off to show that a refused text really loops."""

MANY = 2
"""A start count that stands for "more than one" (``every …``, a pick in each ship)."""
_PER_SHIP = ("each_ship", "each_opponent_ship", "each_adjacent_ship")
_FIRING = {"today": "today's loot", "bag": "the bag"}


class CardLike(Protocol):
    """What the check reads of a character (``CharacterSpec`` has it)."""

    @property
    def name(self) -> str: ...
    @property
    def rank(self) -> float | None: ...  # None: unknown (a text checked on its own), any rank
    @property
    def path(self) -> str: ...
    @property
    def abilities(self) -> tuple[ast.Ability, ...]: ...


class TileLike(Protocol):
    """What the check reads of a loot tile (``LootSpec`` has it)."""

    @property
    def kind(self) -> str: ...
    @property
    def side(self) -> str: ...
    @property
    def path(self) -> str: ...
    @property
    def abilities(self) -> tuple[ast.Ability, ...]: ...


class Ability(NamedTuple):
    """A node: one ability of a card or tile."""

    owner: str  # "Scout", or "the calm map tile"
    kind: str  # a tile's loot kind; "" for a character
    path: str
    ability: ast.Ability
    nth: str = ""  # "first ", "second " … where the card has more than one ability of that timing

    @property
    def label(self) -> str:
        return f"{self.owner}'s {self.nth}{self.ability.timing} ability"


class Edge(NamedTuple):
    """Running ``src`` can start ``dst`` through ``action`` (``kind``: take or use)."""

    src: int
    dst: int
    kind: str
    action: ast.Action
    gated: bool  # inside "you may …": it needs a player's yes


class Graph(NamedTuple):
    nodes: tuple[Ability, ...]
    edges: tuple[Edge, ...]
    fan: tuple[int, ...]  # per node: how many abilities one run may start (MANY: more than one)
    # per node, each ungated starting action: how many it picks, and the abilities of each card or tile it may pick
    starts: tuple[tuple[tuple[int, tuple[tuple[int, ...], ...]], ...], ...]
    returns: tuple[bool, ...]  # per node: whether it may return loot to the bag


def check(cards: Sequence[CardLike], tiles: Sequence[TileLike], lines: Mapping[str, Sequence[str]],
          blame: Collection[str] = ()) -> None:
    """Raise a CardError at the first loop that could run for ever without a player's answer.

    ``lines`` gives each file's lines, for the error's quoted source line; a loop through
    a file of ``blame`` (the mod's, say) is told, and located, before one that is not.
    """
    if not _ENABLED:
        return
    g = graph(cards, tiles)
    loop = find_loop(g, blame)
    if loop is not None:
        raise _error(g, loop, lines)


class _Card(NamedTuple):
    name: str
    rank: float | None
    path: str
    abilities: tuple[ast.Ability, ...]


class _Tile(NamedTuple):
    kind: str
    side: str
    path: str
    abilities: tuple[ast.Ability, ...]


_RELEVANT = (ast.Play, ast.UseAbility, ast.Take, ast.Put, ast.Discard, ast.ReturnLoot)
"""The actions that start an ability or give back what one uses up.

A text without them starts nothing and refills nothing, so beside rules that load it closes
no loop (exactly so while no loaded ability has two starting actions, as none bundled has:
else its abilities could make such a one spread); ``load_rules`` has the last word anyway."""


def text_problem(abilities: tuple[ast.Ability, ...], cards: Sequence[CardLike], tiles: Sequence[TileLike], *,
                 loot: bool, name: str = "<text>") -> CardError | None:
    """The loop a text would close beside ``cards`` and ``tiles`` (which load), or ``None``.

    For ``libertalia.testing.texts``: a character text is checked as the card ``name`` of any
    rank; a loot text as a tile of every kind at once, beside the tiles there are, which is
    stricter than any one kind it may be given.
    """
    if not _ENABLED or not any(isinstance(act, _RELEVANT) for a in abilities for act, _ in _actions(a)):
        return None
    if loot:
        extra: list[TileLike] = [_Tile(k, "new", "<text>", abilities) for k in dict.fromkeys(t.kind for t in tiles)]
        g = graph(cards, [*tiles, *extra])
    else:
        g = graph([*cards, _Card(name, None, "<text>", abilities)], tiles)
    loop = find_loop(g, ("<text>",))
    return None if loop is None else _error(g, loop, {})


# ---------------------------------------------------------------- building the graph
def graph(cards: Sequence[CardLike], tiles: Sequence[TileLike]) -> Graph:
    """Every ability of ``cards`` and ``tiles``, and what each can start."""
    nodes: list[Ability] = []
    by_card: dict[int, list[int]] = {}
    by_kind: dict[str, list[list[int]]] = {}  # each kind's tiles (one per loaded side), their abilities
    for ci, c in enumerate(cards):
        for a in c.abilities:
            if not _passive(a):
                by_card.setdefault(ci, []).append(len(nodes))
                nodes.append(Ability(c.name, "", c.path, a, _nth(a, c.abilities)))
    for t in tiles:
        by_kind.setdefault(t.kind, []).append([])
        for a in t.abilities:
            by_kind[t.kind][-1].append(len(nodes))
            nodes.append(Ability(f"the {t.side} {t.kind} tile", t.kind, t.path, a, _nth(a, t.abilities)))
    kinds = list(dict.fromkeys(t.kind for t in tiles))

    def timed(indices: list[int], timing: str) -> list[int]:
        return [i for i in indices if nodes[i].ability.timing == timing] if indices else indices

    edges: list[Edge] = []
    fan: list[int] = []
    starts: list[tuple[tuple[int, tuple[tuple[int, ...], ...]], ...]] = []
    returns: list[bool] = []
    for src, node in enumerate(nodes):
        started = 0
        picked: list[tuple[int, tuple[tuple[int, ...], ...]]] = []
        gives_back = False
        for act, gated in _actions(node.ability):
            groups: list[list[int]] = []
            picks, kind = 1, ""
            # A play starts nothing here: a card takes one sun turn a day at most (E26, resource 2).
            if isinstance(act, ast.UseAbility):
                groups = [timed(by_card.get(ci, []), act.timing) for ci in _named(act.target, cards)]
                picks, kind = _char_picks(act.target), "use"
            elif isinstance(act, ast.Take) and act.loot.np.place in _FIRING:
                groups = [timed(tile, "dusk") for k in (act.loot.np.kinds or kinds) for tile in by_kind.get(k, [])]
                picks, kind = _loot_picks(act.loot), "take"
            elif isinstance(act, ast.ReturnLoot):
                gives_back = True
            for dst in dict.fromkeys(i for group in groups for i in group):
                edges.append(Edge(src, dst, kind, act, gated))
            groups = [group for group in groups if group]
            if not gated and groups:
                started += picks * max(len(group) for group in groups)
                picked.append((picks, tuple(tuple(group) for group in groups)))
        fan.append(min(started, MANY))
        starts.append(tuple(picked))
        returns.append(gives_back)
    return Graph(tuple(nodes), tuple(edges), tuple(fan), tuple(starts), tuple(returns))


_ORDINALS = ("first", "second", "third", "fourth", "fifth")


def _nth(a: ast.Ability, abilities: tuple[ast.Ability, ...]) -> str:
    same = [b for b in abilities if b.timing == a.timing]
    if len(same) < 2:
        return ""
    i = next(i for i, b in enumerate(same) if b is a)
    return f"{_ORDINALS[i] if i < len(_ORDINALS) else f'{i + 1}th'} "


def _passive(a: ast.Ability) -> bool:
    """A standing rule (``take no loot``): never run, never borrowed."""
    return all(isinstance(x, ast.TakeNoLoot) for s in a.steps for x in s.actions)


def _actions(a: ast.Ability) -> Iterator[tuple[ast.Action, bool]]:
    """Every action of the ability, and whether a "you may" asks before it runs."""
    for step in a.steps:
        for act in step.actions:
            yield act, step.form == "may" or step.optional == "then"
        for _, acts in step.elifs:
            for act in acts:
                yield act, False
        for act in step.otherwise or ():
            yield act, step.optional == "otherwise"
        for choice in step.choices:
            for act in choice:
                yield act, False


def _named(sel: ast.CharSel, cards: Sequence[CardLike]) -> list[int]:
    """The cards a selector may name (a borrow or a play); ``this`` and the taker: none (never borrowable)."""
    if isinstance(sel, ast.This | ast.Taker):
        return []
    np = getattr(sel, "np", None)
    if not isinstance(np, ast.CharNP):
        return list(range(len(cards)))  # it, the character beside this: any
    return [i for i, c in enumerate(cards) if _fits(np, c)]


def _fits(np: ast.CharNP, c: CardLike) -> bool:
    if np.noun != "character" and np.noun != c.name:
        return False
    for f in np.filters:
        if isinstance(f, ast.RankedAbove) and c.rank is not None and not c.rank > f.rank:
            return False
        if isinstance(f, ast.RankedBelow) and c.rank is not None and not c.rank < f.rank:
            return False
        if isinstance(f, ast.WithAbility) and not any(a.timing == f.timing for a in c.abilities):
            return False
    return True


def _char_picks(sel: ast.CharSel) -> int:
    np = getattr(sel, "np", None)
    if isinstance(sel, ast.EveryChar) or (isinstance(np, ast.CharNP) and np.zone is not None
                                          and np.zone.place in _PER_SHIP):
        return MANY
    return 1


def _loot_picks(sel: ast.LootSel) -> int:
    if isinstance(sel, ast.EveryLoot | ast.EveryLootBut):
        return MANY
    if isinstance(sel, ast.ChooseLootN | ast.ChooseLootSet):
        return min(max(sel.counts), MANY)
    return 1


# ---------------------------------------------------------------- finding a loop
def _inside(g: Graph, within: set[int] | None) -> list[Edge]:
    """The ungated edges between nodes of ``within`` (all nodes: ``None``)."""
    return [e for e in g.edges if not e.gated and (within is None or (e.src in within and e.dst in within))]


def components(g: Graph, within: set[int] | None = None) -> list[int]:
    """Each node's strongly connected component over the ungated edges (Tarjan's algorithm, without recursion).

    With ``within``, only the edges between those nodes count.
    """
    succ: list[list[int]] = [[] for _ in g.nodes]
    for e in _inside(g, within):
        succ[e.src].append(e.dst)
    index: list[int] = [-1] * len(g.nodes)
    low = [0] * len(g.nodes)
    comp = [-1] * len(g.nodes)
    stack: list[int] = []
    counter = 0
    for root in range(len(g.nodes)):
        if index[root] >= 0:
            continue
        work = [(root, 0)]
        while work:
            v, i = work.pop()
            if i == 0:
                index[v] = low[v] = counter
                counter += 1
                stack.append(v)
            if i < len(succ[v]):
                work.append((v, i + 1))
                w = succ[v][i]
                if index[w] < 0:
                    work.append((w, 0))
                elif comp[w] < 0:
                    low[v] = min(low[v], index[w])
                continue
            if low[v] == index[v]:
                while True:
                    w = stack.pop()
                    comp[w] = v
                    if w == v:
                        break
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[v])
    return comp


def on_cycles(g: Graph, within: set[int] | None = None) -> list[int]:
    """The nodes that lie on some cycle of ungated edges (between nodes of ``within``, if given)."""
    comp = components(g, within)
    size: dict[int, int] = {}
    for c in comp:
        size[c] = size.get(c, 0) + 1
    loops = {e.src for e in _inside(g, within) if e.src == e.dst}
    return [n for n in range(len(g.nodes)) if (within is None or n in within) and (size[comp[n]] > 1 or n in loops)]


def in_phase(g: Graph, phase: str) -> set[int]:
    """The abilities that can run in ``phase``: those of its timing, and what they can start.

    A character's ability runs in its own phase (a borrowed one too: the checker keeps the
    timing); a loot tile's dusk ability runs wherever a take fires it, and so does a dusk
    ability it borrows.
    """
    seen = {n for n, node in enumerate(g.nodes) if node.ability.timing == phase}
    return _reach(g, seen, gated=True)  # what a "yes" starts runs in the phase too


class Loop(NamedTuple):
    """A cycle no resource ends: its edges in order, and the ability that keeps feeding it (if one)."""

    edges: tuple[Edge, ...]
    feeder: int | None  # what gives back the cards or loot the loop uses up
    phase: str = ""
    spreader: int | None = None  # a node on it whose runs start several abilities: the chains multiply


PHASES = {"sun": "by day", "dusk": "at dusk", "moon": "at night", "anchor": "at anchor"}


def find_loop(g: Graph, blame: Collection[str] = ()) -> Loop | None:
    """A cycle no resource ends (see the module's docstring); ``None`` if every cycle ends.

    Each phase is looked at alone: a loop runs within one, and what can only run in
    another phase gives it nothing back.
    """
    loops = [loop for phase in PHASES if (loop := _loop_in(g, in_phase(g, phase), phase, frozenset(blame)))]
    mine = [loop for loop in loops if any(g.nodes[e.src].path in blame for e in loop.edges)]
    return (mine or loops)[0] if loops else None


def _loop_in(g: Graph, within: set[int], phase: str, blame: frozenset[str]) -> Loop | None:
    comp = components(g, within)
    cyclic = set(on_cycles(g, within))
    if not cyclic:
        return None
    spreading = {n for n in cyclic if _spreads(g, n, cyclic)}
    forever = cyclic | _reach(g, spreading)
    returned = any(g.returns[n] for n in forever)
    live = [e for e in _inside(g, within) if comp[e.src] == comp[e.dst] and not (e.kind == "take" and not returned)]
    found: list[tuple[int, int, int, Loop]] = []
    takes = [e for e in live if e.kind == "take"]
    for e in live:
        back = _path(e.dst, e.src, takes) if e.kind == "take" else None
        if back is None:
            continue
        cycle = (e, *back)
        near = _distances(g, {x.src for x in cycle})
        files = {g.nodes[x.src].path for x in cycle}
        feeds = sorted((n for n in forever if g.returns[n]),
                       key=lambda n: (near.get(n, len(g.nodes)), g.nodes[n].path not in files, n))
        fed_on_it = [n for n in feeds if near.get(n) == 0]
        fans = next((x.src for x in cycle if x.src in spreading), None)
        feeder = (fed_on_it or feeds)[0] if feeds else None
        first = fed_on_it[0] if fed_on_it else fans
        found.append((0 if fed_on_it else 1, 0 if fans is not None else 1, len(cycle),
                      Loop(_rotated(cycle, first), feeder, phase, fans)))
    # A cycle the stack ends still multiplies where a run starts two or more abilities on
    # cycles: a tree of borrowings as deep as the cards ("use the T ability of every
    # character …", borrowed by each in turn) would run past any budget, so it is refused too.
    for n in sorted(m for m in cyclic if _branches(g, m, cyclic)):
        for e in live:
            back = _path(e.dst, n, live) if e.src == n else None
            if back is not None:
                found.append((2, 0, len(back) + 1, Loop((e, *back), None, phase, n)))
                break
    if not found:
        return None
    # The loop most likely meant: one through a file to blame, then one that feeds itself, or
    # spreads, then the shortest; told from the first ability of such a file.
    best = min(found, key=lambda f: (not any(g.nodes[e.src].path in blame for e in f[3].edges), *f[:3]))[3]
    mine = next((e.src for e in best.edges if g.nodes[e.src].path in blame), None)
    return best._replace(edges=_rotated(best.edges, mine)) if mine is not None else best


def _distances(g: Graph, start: set[int]) -> dict[int, int]:
    """How many ungated edges from ``start`` each node it reaches is (0: in it)."""
    out = dict.fromkeys(start, 0)
    frontier = sorted(start)
    while frontier:
        nxt = []
        for e in g.edges:
            if e.src in frontier and not e.gated and e.dst not in out:
                out[e.dst] = out[e.src] + 1
                nxt.append(e.dst)
        frontier = nxt
    return out


def _rotated(cycle: tuple[Edge, ...], first: int | None) -> tuple[Edge, ...]:
    """The cycle told from ``first`` on (the ability most to blame), where it lies on it."""
    at = next((i for i, e in enumerate(cycle) if e.src == first), 0)
    return cycle[at:] + cycle[:at]


def _branches(g: Graph, n: int, cyclic: set[int]) -> bool:
    """Whether one run of ``n`` may start two or more abilities that lie on cycles."""
    return sum(picks * max(sum(i in cyclic for i in group) for group in groups)
               for picks, groups in g.starts[n]) > 1


def _spreads(g: Graph, n: int, cyclic: set[int]) -> bool:
    """Whether one run of ``n`` may start an ability on a cycle *and* another one: a chain that goes on and a branch.

    A run that starts one card's abilities, where every card with an ability on a cycle has
    no other of that timing, either goes on along the cycles or leaves them: never both.
    """
    if g.fan[n] <= 1:
        return False
    acts = g.starts[n]
    if not any(i in cyclic for _, groups in acts for group in groups for i in group):
        return False
    return not (len(acts) == 1 and acts[0][0] == 1
                and all(len(group) == 1 for group in acts[0][1] if any(i in cyclic for i in group)))


def _reach(g: Graph, start: set[int], *, gated: bool = False) -> set[int]:
    """``start`` and every node its ungated edges (``gated``: all its edges) lead to."""
    succ: dict[int, list[int]] = {}
    for e in g.edges:
        if gated or not e.gated:
            succ.setdefault(e.src, []).append(e.dst)
    seen, todo = set(start), list(start)
    while todo:
        for w in succ.get(todo.pop(), ()):
            if w not in seen:
                seen.add(w)
                todo.append(w)
    return seen


def _path(start: int, goal: int, edges: Sequence[Edge]) -> list[Edge] | None:
    """The shortest chain of ``edges`` from ``start`` to ``goal`` (empty if they are the same node)."""
    if start == goal:
        return []
    came: dict[int, Edge] = {}
    frontier = [start]
    while frontier:
        nxt = []
        for v in frontier:
            for e in edges:
                if e.src == v and e.dst not in came and e.dst != start:
                    came[e.dst] = e
                    if e.dst == goal:
                        out = [e]
                        while out[0].src != start:
                            out.insert(0, came[out[0].src])
                        return out
                    nxt.append(e.dst)
        frontier = nxt
    return None


# ---------------------------------------------------------------- the error
def _step(g: Graph, e: Edge) -> str:
    dst = g.nodes[e.dst]
    if isinstance(e.action, ast.Take):
        place = _FIRING[e.action.loot.np.place]
        return f"takes a {dst.kind} token from {place}, which starts {dst.label}"
    return f"uses {dst.label}"


def _why(g: Graph, loop: Loop) -> str:
    """What keeps the loop going: who gives back the loot it uses up, or how it multiplies."""
    feeder = g.nodes[loop.feeder].label if loop.feeder is not None else "something on it"
    fans = g.nodes[loop.spreader].label if loop.spreader is not None else None
    if loop.feeder is None and fans is not None:
        return (f"{fans} starts more than one ability at a time that can start it again, so the runs multiply "
                "faster than anything ends them")
    also = f" ({fans} starts more than one ability at a time, so all it can reach counts)" if fans else ""
    return f"each round takes a token, and {feeder} returns loot to the bag{also}"


def _error(g: Graph, loop: Loop, lines: Mapping[str, Sequence[str]]) -> CardError:
    first = g.nodes[loop.edges[0].src]
    chain = "; ".join(f"{g.nodes[e.src].label} {_step(g, e)}" for e in loop.edges)
    involved = []
    for e in loop.edges:
        node = g.nodes[e.src]
        line = node.ability.line
        involved.append(f"{node.owner} ({node.path}:{line})" if line else f"{node.owner} ({node.path})")
    act = loop.edges[0].action
    source = lines.get(first.path, ())
    at = act.line or first.ability.line
    return CardError(
        f"these texts can run one another for ever {PHASES[loop.phase]}, without any player's answer: {chain}, "
        "and so on; "
        f"{_why(g, loop)}. On the loop: {', '.join(dict.fromkeys(involved))}",
        path=first.path, line=at, column=act.column or first.ability.column,
        source_line=source[at - 1] if 0 < at <= len(source) else "",
        expected='a loop that asks first ("you may …") or that uses up loot that nothing on it gives back')
