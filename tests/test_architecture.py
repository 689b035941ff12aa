"""The package's import graph: no cycles, the engine below the data files, the state at the bottom (issue 19).

The graph is read from the source with ``ast`` (nothing is imported), and holds every import:
at module level, under ``if TYPE_CHECKING:`` and inside functions.  A lazy import is still a
dependency, and a type-only one still ties two modules together for whoever reads or moves them.
"""

from __future__ import annotations

import ast
from collections import defaultdict, deque
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import NamedTuple

import pytest

PACKAGE = "libertalia"
ROOT = Path(__file__).resolve().parents[1] / PACKAGE

ENGINE_MAY_NOT_IMPORT = ("language", "loading", "cli", "testing", "bots", "env", "game", "saves", "records")
"""What ``libertalia/engine/`` stands below: the card language's parser and compiler, the data files and
everything that plays or shows games.  The syntax tree the engine's specs hold lives below both (``syntax``)."""
FOUNDATION = ("libertalia.state", "libertalia.errors", "libertalia._terminal")
"""The bottom of the package: these import nothing of it but each other (errors show data through ``_terminal``)."""


class Edge(NamedTuple):
    """One import statement's dependency of ``source`` on ``target``."""

    source: str
    target: str
    path: str  # the importing file, relative to the package's parent
    line: int
    names: tuple[str, ...]  # what the statement takes from ``target`` (``import x`` takes the module)


Graph = Mapping[str, list[Edge]]  # module -> its edges, in file order


def modules_of(root: Path, package: str) -> dict[str, Path]:
    """Every module of the package folder ``root``, by dotted name (a package is its ``__init__``)."""
    out = {}
    for path in sorted(root.rglob("*.py")):
        parts = path.relative_to(root).with_suffix("").parts
        if parts[-1] == "__init__":
            parts = parts[:-1]
        out[".".join((package, *parts))] = path
    return out


def _deepest(name: str, modules: Mapping[str, Path]) -> str | None:
    """The longest prefix of the dotted ``name`` that is one of ``modules``."""
    parts = name.split(".")
    for n in range(len(parts), 0, -1):
        prefix = ".".join(parts[:n])
        if prefix in modules:
            return prefix
    return None


def _within(name: str, package: str) -> bool:
    """Whether the dotted ``name`` is ``package`` or one of its modules."""
    return name == package or name.startswith(package + ".")


def _from_base(module: str, is_package: bool, node: ast.ImportFrom) -> str:
    """The absolute module a ``from ... import`` names, relative imports resolved against ``module``."""
    if not node.level:
        return node.module or ""
    here = module.split(".") if is_package else module.split(".")[:-1]
    base = here[:len(here) - (node.level - 1)]
    return ".".join([*base, *([node.module] if node.module else [])])


def edges_of(module: str, path: Path, modules: Mapping[str, Path], package: str, top: Path) -> list[Edge]:
    """Every import of ``package``'s modules in one file, wherever in the file it stands.

    ``from . import x`` names the submodule ``x`` when there is one, else an attribute of the
    package itself (its ``__init__``).
    """
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    rel = path.relative_to(top).as_posix()
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                target = _deepest(alias.name, modules) if _within(alias.name, package) else None
                if target is not None:
                    out.append(Edge(module, target, rel, node.lineno, (f"import {alias.name}",)))
        elif isinstance(node, ast.ImportFrom):
            base = _from_base(module, path.name == "__init__.py", node)
            if not _within(base, package):
                continue
            attributes = []
            for alias in node.names:
                sub = f"{base}.{alias.name}"
                if sub in modules:
                    out.append(Edge(module, sub, rel, node.lineno, (alias.name,)))
                else:
                    attributes.append(alias.name)
            target = _deepest(base, modules)
            if attributes and target is not None:
                out.append(Edge(module, target, rel, node.lineno, tuple(attributes)))
    return sorted(out, key=lambda e: e.line)


def import_graph(root: Path = ROOT, package: str = PACKAGE) -> dict[str, list[Edge]]:
    """The package's module graph: each module's imports of its own package's modules."""
    modules = modules_of(root, package)
    return {m: edges_of(m, path, modules, package, root.parent) for m, path in modules.items()}


def _components(graph: Graph) -> list[list[str]]:
    """Strongly connected components with a cycle in them (Tarjan), each sorted, in name order."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for e in graph.get(v, ()):
            w = e.target
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1 or any(e.target == v for e in graph.get(v, ())):
                found.append(sorted(component))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return sorted(found)


def find_cycles(graph: Graph) -> list[list[str]]:
    """Import cycles as ``[a, b, ..., a]``: within each tangle, the shortest cycle through each of its edges.

    So every import that takes part in some cycle shows in the list (each one a place to cut),
    without listing the exponentially many cycles a large tangle can hold.
    """
    cycles: dict[tuple[str, ...], list[str]] = {}
    for component in _components(graph):
        inside = set(component)
        for u in component:
            for v in sorted({e.target for e in graph.get(u, ()) if e.target in inside}):
                path = _shortest_path(graph, v, u, inside)
                assert path is not None  # u and v are strongly connected
                cycle = [u, *path]
                start = cycle.index(min(cycle[:-1]))
                rotated = [*cycle[start:-1], *cycle[:start], cycle[start]]
                cycles.setdefault(tuple(rotated), rotated)
    return sorted(cycles.values())


def _shortest_path(graph: Graph, start: str, goal: str, inside: set[str]) -> list[str] | None:
    """The fewest-import path from ``start`` to ``goal`` through ``inside`` (breadth first, in name order)."""
    previous: dict[str, str | None] = {start: None}
    queue = deque([start])
    while queue:
        v = queue.popleft()
        if v == goal:
            path = [v]
            while (p := previous[path[-1]]) is not None:
                path.append(p)
            return path[::-1]
        for w in sorted({e.target for e in graph.get(v, ())}):
            if w in inside and w not in previous:
                previous[w] = v
                queue.append(w)
    return None


def _takes(edges: Iterable[Edge]) -> str:
    """``libertalia/game.py:23,318 takes Agent, table_view``: where one module imports another, and what."""
    edges = list(edges)
    names = ", ".join(dict.fromkeys(n for e in edges for n in e.names))
    lines = ",".join(str(e.line) for e in edges)
    return f"{edges[0].path}:{lines} takes {names}"


def describe_cycles(graph: Graph, cycles: list[list[str]]) -> str:
    """Each cycle as ``a -> b -> a``, then, under it, what each file takes from the next and where."""
    out = [f"{len(cycles)} import cycle(s) in {PACKAGE}; cut one import of each:"]
    for cycle in cycles:
        out.append("  " + " -> ".join(cycle))
        for u, v in zip(cycle, cycle[1:], strict=False):
            out.append(f"      {_takes(e for e in graph[u] if e.target == v)} from {v}")
    return "\n".join(out)


def _forbidden(graph: Graph, sources: Iterable[str], targets: Iterable[str], allowed: Iterable[str] = ()) -> list[str]:
    """Each import from ``sources`` of a module in ``targets`` (or below one), unless it is in ``allowed``."""
    targets, allowed = tuple(targets), set(allowed)
    grouped: dict[tuple[str, str], list[Edge]] = defaultdict(list)
    for source in sources:
        for e in graph[source]:
            if e.target not in allowed and any(_within(e.target, t) for t in targets):
                grouped[e.source, e.target].append(e)
    return [f"  {_takes(edges)} from {target}" for (_, target), edges in sorted(grouped.items())]


# ---------------------------------------------------------------- the package
GRAPH = import_graph()


def test_the_package_has_no_import_cycle() -> None:
    """No module imports, however indirectly, a module that imports it: the layers can be read bottom up."""
    cycles = find_cycles(GRAPH)
    if cycles:
        pytest.fail(describe_cycles(GRAPH, cycles), pytrace=False)


def test_the_engine_imports_nothing_above_it() -> None:
    """``libertalia/engine/`` runs loaded rules: it imports neither the language, the loaders nor what plays games."""
    engine = [m for m in GRAPH if m == f"{PACKAGE}.engine" or m.startswith(f"{PACKAGE}.engine.")]
    assert len(engine) > 5  # the folder was found
    bad = _forbidden(GRAPH, engine, [f"{PACKAGE}.{name}" for name in ENGINE_MAY_NOT_IMPORT])
    assert not bad, "the engine imports from above it:\n" + "\n".join(bad)


def test_state_and_errors_import_only_each_other() -> None:
    """``state``, ``errors`` and ``_terminal`` are the foundation: of the package they import only each other."""
    bad = _forbidden(GRAPH, FOUNDATION, [PACKAGE], allowed=FOUNDATION)
    assert not bad, "the foundation imports from the package:\n" + "\n".join(bad)


def test_the_lazy_exports_are_in_the_graph() -> None:
    """Every module ``libertalia/__init__.py`` imports on first use (``_LAZY``) is an import of it in the graph too.

    It imports them by name at run time, which ``ast`` cannot follow; its ``TYPE_CHECKING``
    block names them again, and that is what puts them in the graph.
    """
    tree = ast.parse((ROOT / "__init__.py").read_text(encoding="utf-8"))
    lazy = next(n.value for n in tree.body if isinstance(n, ast.Assign)
                and any(isinstance(t, ast.Name) and t.id == "_LAZY" for t in n.targets))
    assert isinstance(lazy, ast.Dict) and lazy.values
    where = {PACKAGE + v.value for v in lazy.values if isinstance(v, ast.Constant) and isinstance(v.value, str)}
    assert len(where) > 5  # the table was read
    missing = sorted(where - {e.target for e in GRAPH[PACKAGE]})
    assert not missing, "imported lazily but not under TYPE_CHECKING: " + ", ".join(missing)


# ---------------------------------------------------------------- the checker itself
def _package(tmp_path: Path, files: Mapping[str, str]) -> Path:
    root = tmp_path / "pkg"
    for name, text in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text, encoding="utf-8")
    return root


def test_a_planted_cycle_is_found(tmp_path: Path) -> None:
    """Two modules that import each other (one only inside a function) are reported as a cycle, names and lines."""
    root = _package(tmp_path, {
        "__init__.py": "",
        "a.py": "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from .b import helper\nVALUE = 1\n",
        "b.py": "def helper():\n    from . import a\n    return a.VALUE\n",
    })
    graph = import_graph(root, "pkg")
    cycles = find_cycles(graph)
    assert cycles == [["pkg.a", "pkg.b", "pkg.a"]]
    text = describe_cycles(graph, cycles)
    assert "  pkg.a -> pkg.b -> pkg.a" in text
    assert "pkg/a.py:3 takes helper from pkg.b" in text
    assert "pkg/b.py:2 takes a from pkg.a" in text


def test_relative_imports_resolve_to_submodules_or_attributes(tmp_path: Path) -> None:
    """``from .. import x`` names the submodule ``x`` if there is one, else an attribute of the package."""
    root = _package(tmp_path, {
        "__init__.py": "VERSION = '1'\n",
        "low.py": "",
        "sub/__init__.py": "from . import deep\n",
        "sub/deep.py": "from .. import VERSION, low\nimport pkg.low as again\nimport os\n",
    })
    graph = import_graph(root, "pkg")
    assert [(e.target, e.names) for e in graph["pkg.sub.deep"]] == [
        ("pkg.low", ("low",)), ("pkg", ("VERSION",)), ("pkg.low", ("import pkg.low",))]
    assert [(e.target, e.names) for e in graph["pkg.sub"]] == [("pkg.sub.deep", ("deep",))]
    assert find_cycles(graph) == []


def test_the_syntax_tree_stands_below_the_engine_and_the_language() -> None:
    """``libertalia/syntax/`` is data both layers read: it imports neither of them, nor anything above."""
    tree = [m for m in GRAPH if m.startswith(f"{PACKAGE}.syntax")]
    assert len(tree) == 3  # the package, ast and nodes
    above = ["language", "engine", "loading", "game", "testing", "cli"]
    bad = _forbidden(GRAPH, tree, [f"{PACKAGE}.{name}" for name in above])
    assert not bad, "the syntax tree imports from above it:\n" + "\n".join(bad)
