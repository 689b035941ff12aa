"""A replay page: one self-contained HTML file that steps through a game record.

``libertalia replay FILE --html OUT.html`` writes it.  Each step is one recorded answer: the
table's picture after it (``pictures.table_svg``, the whole table) and the events it caused.
Buttons and the arrow keys step by answer (left/right) and by day (up/down, or page up/down).
Everything is inline (SVG, CSS, script): the page opens from a file with no network, and
names no external URL.  The steps' data is JSON inside a ``<script type="application/json">``
block, escaped so that no card name can close the block or run as code.
"""

from __future__ import annotations

import html
import json
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from .pictures import table_svg

if TYPE_CHECKING:
    from .game import Game
    from .records import GameRecord
    from .state import Event


def replay_steps(record: GameRecord, *, cards: Sequence[str] = ()) -> list[dict[str, Any]]:
    """The record's steps: the start of the game, then one per answer, each with its picture and events."""
    from .game import new_game

    rules = record.load_rules(cards=cards)
    game = new_game(rules, record.players, record.seed, record.setup,
                    handicap=dict(enumerate(record.handicap)) if record.handicap else None)
    steps = [_step(game, None, "the game starts", ())]
    for i, (before, key, after) in enumerate(record.answered(game)):
        decision = before.decision
        assert decision is not None  # answered() refuses an answer after the end
        steps.append(_step(after, i + 1, f"seat {decision.player} answers {key} ({decision.kind})",
                           after.events_since(before)))
    return steps


def _step(game: Game, answer: int | None, what: str, events: Sequence[Event]) -> dict[str, Any]:
    return {"answer": answer, "what": what, "voyage": game.voyage, "day": game.day, "phase": game.phase,
            "events": [str(e) for e in events],
            "svg": table_svg(game.rules, game, decision=game.decision, last=events,
                             winners=game.winners() if game.is_over else ())}


def replay_page(record: GameRecord, *, cards: Sequence[str] = (), title: str = "") -> str:
    """The replay page of ``record`` as HTML text (``replay_steps`` says what each step shows)."""
    steps = replay_steps(record, cards=cards)
    data = json.dumps(steps, ensure_ascii=True).replace("<", "\\u003c").replace(">", "\\u003e")
    data = data.replace("&", "\\u0026")
    heading = title or f"Libertalia replay: seed {record.seed}, {record.players} seats"
    return _PAGE.replace("@TITLE@", html.escape(heading)).replace("@DATA@", data)


_PAGE = """<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>@TITLE@</title>
<style>
body { font-family: sans-serif; margin: 16px; background: #fdfbf5; color: #222; }
h1 { font-size: 20px; margin: 0 0 8px 0; }
#controls { margin: 8px 0; display: flex; gap: 6px; align-items: center; flex-wrap: wrap; }
#controls button { font-size: 14px; padding: 4px 10px; }
#counter { font-weight: bold; margin-left: 8px; }
#what { margin-left: 12px; color: #444; }
#main { display: flex; gap: 16px; align-items: flex-start; }
#events { max-width: 420px; min-width: 260px; font-size: 13px; background: #fff; border: 1px solid #ccc;
          padding: 8px; max-height: 80vh; overflow-y: auto; }
#events li { margin-bottom: 3px; }
#help { font-size: 12px; color: #666; }
</style>
</head>
<body>
<h1>@TITLE@</h1>
<div id="controls">
<button id="first" type="button" title="Home">|&#x25C0; start</button>
<button id="prev-day" type="button" title="Up / Page Up">&#x25C0;&#x25C0; day</button>
<button id="prev" type="button" title="Left arrow">&#x25C0; answer</button>
<button id="next" type="button" title="Right arrow">answer &#x25B6;</button>
<button id="next-day" type="button" title="Down / Page Down">day &#x25B6;&#x25B6;</button>
<button id="last" type="button" title="End">end &#x25B6;|</button>
<span id="counter"></span><span id="what"></span>
</div>
<div id="help">Keys: left/right arrows step one answer, up/down arrows (or page up/down) one day,
Home/End go to the start and the end.</div>
<div id="main">
<div id="table"></div>
<div id="events"><strong id="where"></strong><ul id="event-list"></ul></div>
</div>
<script type="application/json" id="steps">@DATA@</script>
<script>
(function () {
  "use strict";
  var steps = JSON.parse(document.getElementById("steps").textContent);
  var at = 0;
  function dayOf(i) { return steps[i].voyage * 1000 + steps[i].day; }
  function show(i) {
    at = Math.max(0, Math.min(steps.length - 1, i));
    var s = steps[at];
    document.getElementById("table").innerHTML = s.svg;
    document.getElementById("counter").textContent = "step " + at + " of " + (steps.length - 1);
    document.getElementById("what").textContent = s.what;
    document.getElementById("where").textContent =
      "Voyage " + s.voyage + ", day " + s.day + " (" + s.phase + ")";
    var list = document.getElementById("event-list");
    while (list.firstChild) { list.removeChild(list.firstChild); }
    if (s.events.length === 0) { s.events = ["(no events)"]; }
    s.events.forEach(function (text) {
      var li = document.createElement("li");
      li.textContent = text;
      list.appendChild(li);
    });
    if (location.hash !== "#" + at) { history.replaceState(null, "", "#" + at); }
  }
  function nextDay() {
    var d = dayOf(at), i = at;
    while (i < steps.length - 1 && dayOf(i) === d) { i++; }
    show(i);
  }
  function prevDay() {
    var i = at;
    while (i > 0 && dayOf(i - 1) === dayOf(at)) { i--; }
    if (i === at && i > 0) {
      var d = dayOf(i - 1);
      i--;
      while (i > 0 && dayOf(i - 1) === d) { i--; }
    }
    show(i);
  }
  var actions = {
    first: function () { show(0); }, last: function () { show(steps.length - 1); },
    prev: function () { show(at - 1); }, next: function () { show(at + 1); },
    "prev-day": prevDay, "next-day": nextDay
  };
  Object.keys(actions).forEach(function (id) {
    document.getElementById(id).addEventListener("click", actions[id]);
  });
  var keys = { ArrowLeft: "prev", ArrowRight: "next", ArrowUp: "prev-day", ArrowDown: "next-day",
               PageUp: "prev-day", PageDown: "next-day", Home: "first", End: "last" };
  document.addEventListener("keydown", function (e) {
    var action = keys[e.key];
    if (action) { e.preventDefault(); actions[action](); }
  });
  var start = parseInt(location.hash.slice(1), 10);
  show(isNaN(start) ? 0 : start);
}());
</script>
</body>
</html>
"""
