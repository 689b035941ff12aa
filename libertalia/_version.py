"""The library's version, in a module of its own: any module may read it without importing the package's
``__init__``, which imports nearly everything (lazily) and so would close an import cycle."""

__version__ = "0.1.0"
