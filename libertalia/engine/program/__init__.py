"""Card programs: what a compiled ability is, as typed data.

``language/compile`` turns each ability's syntax tree into a tuple of frozen step
records defined here, one class per kind of step, with every reference bound to the
step that introduces it.  The engine runs a step by calling its ``act``; the checker,
the contract fuzzer and the anchor-order rule read the records themselves.

- ``record``: the frozen record every step class derives from (native classes in the compiled build);
- ``base``: marks (what binder steps leave for later words) and contracts;
- ``cards``, ``loot``, ``amounts``, ``conditions``: the phrases steps are made of (``measures``: what
  players are compared by);
- ``actions``: one class per action, each with its contract;
- ``control``: tests, questions and jumps;
- ``footprint``: what a program may read and change.
"""
