"""A replay page: one self-contained HTML file that steps through a game record.

``libertalia replay FILE --html OUT.html`` writes it.  Each step is one recorded answer: the
table's picture after it (exactly ``pictures.table_svg``, as ``Game.svg()`` draws it), a caption in
words (the question the seat answered, with its answer) and the events it caused, as sentences.
The pictures are packed (``pictures_pack``: every line drawn once, each step a diff of the step
before, deflated), so that a six-seat game weighs a few hundred kB, not megabytes; the page's
script unpacks them.  A slider, buttons, a list of the voyages and days, and the keys (left/right
one answer, up/down a day, Home/End) move through the game.  Everything is inline (SVG, CSS,
script): the page opens from a file with no network, and names no external URL.  The steps' words
are JSON inside a ``<script type="application/json">`` block, escaped so that no card name can close
the block or run as code; the pictures are base64, which holds no markup at all.
"""

from __future__ import annotations

import html
import json
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from .pictures import seat_colour, table_svg
from .pictures.happening import question, winner_line
from .pictures.layout import _PHASE_WORDS
from .pictures_pack import encode

if TYPE_CHECKING:
    from .game import Game
    from .records import GameRecord
    from .state import Event


def replay_steps(record: GameRecord, *, cards: Sequence[str] = ()) -> list[dict[str, Any]]:
    """The record's steps: the start of the game, then one per answer, each with its picture, caption and events."""
    return _steps(record, _start(record, cards))


def _start(record: GameRecord, cards: Sequence[str]) -> Game:
    from .game import new_game

    rules = record.load_rules(cards=cards)
    return new_game(rules, record.players, record.seed, record.setup,
                    handicap=dict(enumerate(record.handicap)) if record.handicap else None)


def _steps(record: GameRecord, game: Game) -> list[dict[str, Any]]:
    steps = [_step(game, None, "The game starts", ())]
    for i, (before, key, after) in enumerate(record.answered(game)):
        steps.append(_step(after, i + 1, caption(before, key, record.agents), after.events_since(before)))
    return steps


def seat_name(seat: int, agents: Sequence[str], automa: int | None = None) -> str:
    """"Seat 2 (greedy)": the seat and who played it, as the record says (just "Seat 2" when it does not;
    "Seat 1 (Automa)" for the solo game's rival, as the picture names it)."""
    if seat == automa:
        return f"Seat {seat} (Automa)"
    return f"Seat {seat} ({agents[seat]})" if seat < len(agents) and agents[seat] else f"Seat {seat}"


def caption(before: Game, key: str, agents: Sequence[str] = ()) -> str:
    """The answer in words: the question as the picture asks it, then the option chosen, by its label
    ("Seat 1 (random) chooses loot for its Cook: saber"); no internal kind name."""
    decision = before.decision
    assert decision is not None  # answered() refuses an answer after the end
    asked = question(decision, before.island, [p.ship for p in before.players], before.rules.kinds)
    who = f"Seat {decision.player}"
    if asked.startswith(who):
        asked = seat_name(decision.player, agents) + asked[len(who):]
    label = next((o.label for o in decision.options if o.key == key), key)
    return f"{asked}: {label}"


def where(game: Game) -> str:
    """The voyage and day in words, or the end and the winner: a finished game has no day."""
    voyages = len(game.rules.board.voyage_days)
    if game.is_over:
        return (f"The game is over after voyage {game.voyage} of {voyages}: "
                f"{winner_line(game.players, game.winners(), game.automa)}")
    day = f", day {game.day}" if game.day > 0 else ""
    return f"Voyage {game.voyage}{day} ({_PHASE_WORDS.get(game.phase, game.phase)})"


def _step(game: Game, answer: int | None, what: str, events: Sequence[Event]) -> dict[str, Any]:
    return {"answer": answer, "what": what, "voyage": game.voyage, "day": game.day, "phase": game.phase,
            "over": game.is_over, "where": where(game), "events": [e.sentence() for e in events],
            # as ``Game.svg()`` draws it, with the step's events at hand rather than replayed for each step
            "svg": table_svg(game.rules, game, picks=game._public.commits, decision=game.decision, last=events,
                             winners=game.winners() if game.is_over else ())}


def replay_page(record: GameRecord, *, cards: Sequence[str] = (), title: str = "") -> str:
    """The replay page of ``record`` as HTML text (``replay_steps`` says what each step shows)."""
    start = _start(record, cards)
    steps = _steps(record, start)
    pictures = encode([step.pop("svg") for step in steps])
    data = json.dumps(steps, ensure_ascii=True).replace("<", "\\u003c").replace(">", "\\u003e")
    data = data.replace("&", "\\u0026")
    heading = title or (f"Libertalia replay: seed {record.seed}, "
                        + ("solo, against the Automa" if start.automa is not None else f"{record.players} seats"))
    seats = "".join(f'<span class="seat" style="border-color:{seat_colour(s)}">'
                    f'<span class="dot" style="background:{seat_colour(s)}"></span>'
                    f"{html.escape(seat_name(s, record.agents, start.automa))}</span>"
                    for s in range(len(start.players)))
    return (_PAGE.replace("@TITLE@", html.escape(heading)).replace("@SEATS@", seats)
            .replace("@PICTURES@", pictures).replace("@DATA@", data))


_PAGE = """<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>@TITLE@</title>
<style>
* { box-sizing: border-box; }
body { font-family: sans-serif; margin: 0; padding: 10px 14px; background: #fdfbf5; color: #222; }
h1 { font-size: 19px; margin: 0 0 6px 0; }
#seats { display: flex; flex-wrap: wrap; gap: 6px; margin-bottom: 6px; font-size: 13px; }
.seat { border: 2px solid #999; border-radius: 11px; padding: 1px 8px; background: #fff; overflow-wrap: anywhere; }
.dot { display: inline-block; width: 9px; height: 9px; border-radius: 50%; margin-right: 5px; }
#controls { display: flex; gap: 5px; align-items: center; flex-wrap: wrap; }
#controls button, #controls select { font-size: 13px; padding: 3px 8px; }
#slider { flex: 1 1 200px; min-width: 120px; }
#counter { font-weight: bold; white-space: nowrap; }
#what { margin: 6px 0; font-size: 15px; font-weight: bold; min-height: 1.3em; overflow-wrap: anywhere; }
#help { font-size: 12px; color: #666; margin-bottom: 6px; }
#main { display: grid; grid-template-columns: minmax(0, 1fr) clamp(230px, 27vw, 380px); gap: 12px;
        align-items: start; }
#table { min-width: 0; }
#table svg { display: block; width: 100%; height: auto; }
#events { font-size: 13px; background: #fff; border: 1px solid #ccc; padding: 8px; position: sticky; top: 8px;
          max-height: calc(100vh - 16px); overflow-y: auto; overflow-wrap: anywhere; }
#events ul { padding-left: 18px; margin: 6px 0 0 0; }
#events li { margin-bottom: 3px; }
@media (max-width: 900px) {
  #main { grid-template-columns: minmax(0, 1fr); }
  #events { order: -1; position: static; max-height: 26vh; }
}
</style>
</head>
<body>
<h1>@TITLE@</h1>
<div id="seats">@SEATS@</div>
<div id="controls">
<button id="first" type="button" title="Home">|&#x25C0;</button>
<button id="prev-voyage" type="button" title="Previous voyage">&#x25C0;&#x25C0;&#x25C0; voyage</button>
<button id="prev-day" type="button" title="Up / Page Up">&#x25C0;&#x25C0; day</button>
<button id="prev" type="button" title="Left arrow">&#x25C0;</button>
<input id="slider" type="range" min="0" max="0" value="0" aria-label="step">
<button id="next" type="button" title="Right arrow">&#x25B6;</button>
<button id="next-day" type="button" title="Down / Page Down">day &#x25B6;&#x25B6;</button>
<button id="next-voyage" type="button" title="Next voyage">voyage &#x25B6;&#x25B6;&#x25B6;</button>
<button id="last" type="button" title="End">&#x25B6;|</button>
<select id="jump" aria-label="jump to a voyage and day"></select>
<span id="counter">unpacking the pictures&#x2026;</span>
</div>
<div id="what"></div>
<div id="help">Keys: left/right one answer, up/down (or page up/down) one day, Home/End the start and the end.
Hover a card or a token for its text.</div>
<div id="main">
<div id="table"></div>
<div id="events"><strong id="where"></strong><ul id="event-list"></ul></div>
</div>
<script type="application/json" id="steps">@DATA@</script>
<script type="application/octet-stream" id="pictures">@PICTURES@</script>
<script>
(function () {
  "use strict";
  var steps = JSON.parse(document.getElementById("steps").textContent);
  var seqs = [], at = 0;
  var MOVABLE = / (c?)([xy])="(0|-?[1-9][0-9]*)"/g;  // pictures_pack.MOVABLE
  function byId(id) { return document.getElementById(id); }
  function shift(line, dx, dy) {
    if (!dx && !dy) { return line; }
    return line.replace(MOVABLE, function (m, c, axis, n) {
      return " " + c + axis + '="' + String(parseInt(n, 10) + (axis === "x" ? dx : dy)) + '"';
    });
  }
  function unpack(packed) {
    var fresh = 0, prev = [], lines = packed.lines;
    packed.steps.forEach(function (ops) {
      var seq = [];
      ops.forEach(function (op) {
        var k;
        if (Array.isArray(op)) {
          for (k = 0; k < op[1]; k++) { seq.push(shift(prev[op[0] + k], op[2] || 0, op[3] || 0)); }
        }
        else if (op < 0) { for (k = 0; k < -op; k++) { seq.push(lines[fresh++]); } }
        else { seq.push(lines[op]); }
      });
      seqs.push(seq);
      prev = seq;
    });
  }
  function picture(i) { return seqs[i].join("\\n"); }
  window.libertaliaPicture = picture;
  function dayOf(i) { return steps[i].over ? 1e9 : steps[i].voyage * 1000 + steps[i].day; }
  function voyageOf(i) { return steps[i].over ? 1e9 : steps[i].voyage; }
  function show(i) {
    at = Math.max(0, Math.min(steps.length - 1, i));
    var s = steps[at];
    byId("table").innerHTML = picture(at);
    byId("counter").textContent = "step " + at + " of " + (steps.length - 1);
    byId("slider").value = String(at);
    byId("what").textContent = s.what;
    byId("where").textContent = s.where;
    var list = byId("event-list");
    while (list.firstChild) { list.removeChild(list.firstChild); }
    var none = at === 0 ? "(nothing happened yet)" : "(this answer caused no events)";
    (s.events.length ? s.events : [none]).forEach(function (text) {
      var li = document.createElement("li");
      li.textContent = text;
      list.appendChild(li);
    });
    var jump = byId("jump"), d = dayOf(at);
    for (var k = 0; k < jump.options.length; k++) {
      if (dayOf(+jump.options[k].value) === d) { jump.selectedIndex = k; }
    }
    if (location.hash !== "#" + at) { history.replaceState(null, "", "#" + at); }
  }
  function startOf(key, i) { while (i > 0 && key(i - 1) === key(i)) { i--; } return i; }
  function forward(key) {
    var i = at;
    while (i < steps.length - 1 && key(i) === key(at)) { i++; }
    show(i);
  }
  function back(key) {
    var i = startOf(key, at);
    if (i === at && i > 0) { i = startOf(key, i - 1); }
    show(i);
  }
  var actions = {
    first: function () { show(0); }, last: function () { show(steps.length - 1); },
    prev: function () { show(at - 1); }, next: function () { show(at + 1); },
    "prev-day": function () { back(dayOf); }, "next-day": function () { forward(dayOf); },
    "prev-voyage": function () { back(voyageOf); }, "next-voyage": function () { forward(voyageOf); }
  };
  var keys = { ArrowLeft: "prev", ArrowRight: "next", ArrowUp: "prev-day", ArrowDown: "next-day",
               PageUp: "prev-day", PageDown: "next-day", Home: "first", End: "last" };
  function ready() {
    var slider = byId("slider"), jump = byId("jump");
    slider.max = String(steps.length - 1);
    slider.addEventListener("input", function () { show(parseInt(slider.value, 10)); });
    steps.forEach(function (s, i) {
      if (i === 0 || dayOf(i) !== dayOf(i - 1)) {
        var o = document.createElement("option");
        o.value = String(i);
        o.textContent = s.over ? "The end" : ("Voyage " + s.voyage + (s.day > 0 ? ", day " + s.day : ""));
        jump.appendChild(o);
      }
    });
    jump.addEventListener("change", function () { show(parseInt(jump.value, 10)); jump.blur(); });
    Object.keys(actions).forEach(function (id) { byId(id).addEventListener("click", actions[id]); });
    document.addEventListener("keydown", function (e) {
      var action = keys[e.key];
      if (action && e.target.tagName !== "SELECT") { e.preventDefault(); actions[action](); }
    });
    var start = parseInt(location.hash.slice(1), 10);
    show(isNaN(start) ? 0 : start);
    document.body.setAttribute("data-ready", "1");
  }
  function fail(why) { byId("counter").textContent = "This browser cannot unpack the pictures: " + why; }
  if (typeof DecompressionStream === "undefined") { fail("it has no DecompressionStream"); return; }
  var raw = atob(byId("pictures").textContent.trim()), bytes = new Uint8Array(raw.length);
  for (var n = 0; n < raw.length; n++) { bytes[n] = raw.charCodeAt(n); }
  new Response(new Blob([bytes]).stream().pipeThrough(new DecompressionStream("deflate"))).text()
    .then(function (text) { unpack(JSON.parse(text)); ready(); })
    .catch(function (e) { fail(String(e)); });
}());
</script>
</body>
</html>
"""
