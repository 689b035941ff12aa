"""Rules pickle as the arguments they were loaded with, and unpickle checked against their files.

A ``Rules`` holds the compiled programs of every card (some 120 kB pickled, several
milliseconds to build again), and ``load_rules`` makes all of it from the card files.  So
rules that ``load_rules(**rules.load_args)`` makes again, equal, pickle as those arguments
and the stamp a save carries (edition and loot sides, the fingerprint of their files, the
library version).  Unpickling loads them once per process and stamp, and every later
pickle of them, a game's or an observation's, gets that same object: a pool of worker
processes plays with rules identical to the sender's, at the cost of one load per worker.
A process that loads the same rules twice holds two equal objects; pickles of either come
back as the first of them this module met, equal to both.
Files that have changed since the pickle was made are refused with ``RulesError``, as a
save is.

Other rules pickle as ``Rules.__reduce__`` says: the rules of one game (``for_game``,
``for_solo``) as the rules they came from and the step, and rules made in any other way
(built by hand, or changed with ``attrs.evolve`` as tests and the contract fuzzer do)
field by field.  Whether rules load again is checked once per rules object, by loading
them (once per process and load arguments) and comparing.

The engine, where ``Rules`` lives, may not import the loader, so this module tells the
pickler through ``copyreg``; ``libertalia.game`` imports it, so any process that has made
a game pickles rules this way.  The library itself never unpickles anything.
"""

from __future__ import annotations

import copyreg
import functools
import json
import threading
import warnings
import weakref
from collections.abc import Mapping
from typing import Any

from .engine.specs import Rules
from .errors import LibertaliaError, RulesError, RulesWarning

Recipe = tuple[str, dict[str, str]]
"""How rules that load again pickle: their load arguments as JSON, and their stamp (``saves.rules_stamp``)."""
_LOCK = threading.Lock()  # one load at a time: threads unpickling the same rules wait for one load
_LOADED: dict[tuple[str, str], Rules] = {}
"""Rules as loaded, by (fingerprint, load arguments as JSON): what unpickling returns."""
_RECIPES: dict[int, tuple[weakref.ref[Rules], Recipe | None]] = {}
"""By ``id``: the recipe of those rules, or None where they do not load again (worked out once per object)."""


def _arguments(args: Mapping[str, Any]) -> str:
    """Load arguments as canonical JSON: how a pickle holds them, and half the key of ``_LOADED``."""
    return json.dumps(args, sort_keys=True)


def _load(args: Mapping[str, Any]) -> Rules:
    """``load_rules(**args)``, without the warning about reconstructed loot tiles: whoever loaded
    these rules first was warned (``catch_warnings`` holds for this thread's load, under the lock)."""
    from .loading.rules import load_rules  # here: importing a game need not import the loader

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RulesWarning)
        return load_rules(**args)


def _same(a: Rules, b: Rules) -> bool:
    """Whether two rules are the same rules: equal, and with the same uncharted and solo sides."""
    return (a == b and a.uncharted == b.uncharted and a.solo_loot == b.solo_loot and a.load_args == b.load_args
            and a.fingerprint == b.fingerprint)


def recipe(rules: Rules) -> Recipe | None:
    """What ``rules`` pickle as if ``load_rules(**rules.load_args)`` makes them again from today's files, else
    None; worked out once per rules object."""
    kept = _RECIPES.get(id(rules))
    if kept is not None and kept[0]() is rules:
        return kept[1]
    found = None
    if _loads_again(rules):
        from .saves import rules_stamp

        found = _arguments(rules.load_args), rules_stamp(rules)
    _RECIPES[id(rules)] = (weakref.ref(rules, functools.partial(_forget, id(rules))), found)
    return found


def _forget(ident: int, ref: weakref.ref[Rules]) -> None:
    kept = _RECIPES.get(ident)
    if kept is not None and kept[0] is ref:
        del _RECIPES[ident]


def _loads_again(rules: Rules) -> bool:
    args = rules.load_args
    if rules._derived is not None or not args or not rules.fingerprint:
        return False
    key = rules.fingerprint, _arguments(args)
    with _LOCK:
        known = _LOADED.get(key)
        if known is None:
            try:
                fresh = _load(args)
            except (LibertaliaError, OSError, TypeError, ValueError):  # a mod folder gone: pickled field by field
                return False
            if fresh.fingerprint != rules.fingerprint:  # the files changed since these rules were loaded
                return False
            known = _LOADED[key] = rules if _same(fresh, rules) else fresh
    return known is rules or _same(known, rules)


def _reduce(rules: Rules) -> tuple[Any, ...]:
    """What ``pickle`` stores for ``rules``: their recipe where they load again, else ``Rules.__reduce__``."""
    found = recipe(rules)
    return (_reloaded, found) if found is not None else rules.__reduce__()


def _reloaded(arguments: str, stamp: dict[str, str]) -> Rules:
    """Unpickling rules pickled as their load arguments (JSON): loaded once per process, checked against ``stamp``."""
    from .saves import rules_mismatch

    key = stamp["fingerprint"], arguments
    rules = _LOADED.get(key)
    if rules is None:
        with _LOCK:
            rules = _LOADED.get(key)
            if rules is None:
                try:
                    rules = _load(json.loads(arguments))
                except LibertaliaError as exc:
                    exc.add_note(f"(while unpickling rules loaded with {arguments})")
                    raise
                if rules.fingerprint == stamp["fingerprint"]:
                    _LOADED[key] = rules
    mismatch = rules_mismatch(stamp, rules, "pickle")
    if mismatch:
        raise RulesError(f"cannot unpickle the rules loaded with {arguments}: {mismatch[1]}")
    return rules


copyreg.pickle(Rules, _reduce)
