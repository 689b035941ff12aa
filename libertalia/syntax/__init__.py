"""The card language's syntax tree: data that the parser writes and the engine reads.

It stands below both ``language`` (which builds trees from text) and ``engine`` (whose specs
hold them), so that neither has to import the other to share them.
"""
