"""Versions of the library and of the packages a parse depends on, from their package metadata.

pyproject.toml is the single source of the library's version: building the package writes
it into the distribution's metadata (``METADATA`` in ``libertalia-X.dist-info``), and that
is what is read here.  A source checkout that is not installed has no metadata of its own,
so there the version is read from pyproject.toml itself.

The metadata file is read directly when it sits beside the package (every ordinary
install), because importing ``importlib.metadata`` costs some 45 ms, a fifth of a warm
``load_rules``, and the cache needs these versions on every start.  ``importlib.metadata``
remains the answer for any other layout.
"""

from __future__ import annotations

import functools
import importlib.util
import re
from pathlib import Path

_PACKAGE = Path(__file__).resolve().parent


def _normalized(name: str) -> str:
    """A distribution name as packaging compares them (``PyYAML``, ``pyyaml`` and ``py_yaml`` are one)."""
    return re.sub(r"[-_.]+", "_", name).lower()


def _metadata_beside(package_dir: Path, distribution: str) -> str | None:
    """The ``Version:`` of the one ``*.dist-info`` folder for ``distribution`` beside a package folder."""
    wanted = _normalized(distribution)
    try:
        found = [p for p in package_dir.parent.iterdir()
                 if p.name.endswith(".dist-info") and _normalized(p.name[:-10].rpartition("-")[0]) == wanted]
    except OSError:
        return None
    if len(found) != 1:  # none, or stale copies: leave the choice to importlib.metadata
        return None
    try:
        with open(found[0] / "METADATA", encoding="utf-8") as fh:
            for line in fh:
                if line.startswith("Version:"):
                    return line.partition(":")[2].strip() or None
                if not line.strip():  # the headers end at the first empty line
                    break
    except (OSError, UnicodeDecodeError):
        return None
    return None


def _from_importlib(distribution: str) -> str | None:
    import importlib.metadata

    try:
        return importlib.metadata.version(distribution)
    except importlib.metadata.PackageNotFoundError:
        return None


def _from_pyproject() -> str | None:
    """The version in the pyproject.toml of the source checkout this package is in, if it is in one."""
    path = _PACKAGE.parent / "pyproject.toml"
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return None
    import tomllib

    try:
        project = tomllib.loads(text).get("project", {})
    except tomllib.TOMLDecodeError:
        return None
    version = project.get("version") if project.get("name") == "libertalia" else None
    return version if isinstance(version, str) else None


@functools.cache
def library_version() -> str:
    """This library's version: its package metadata, or pyproject.toml in a checkout that is not installed."""
    return (_metadata_beside(_PACKAGE, "libertalia") or _from_pyproject() or _from_importlib("libertalia")
            or "unknown")


@functools.cache
def distribution_version(distribution: str, package: str) -> str | None:
    """The installed version of ``distribution``, whose import package is ``package``, without importing it.

    None when it cannot be told (no such package, or no metadata for it).
    """
    try:
        spec = importlib.util.find_spec(package)
    except (ImportError, ValueError):
        return None
    if spec is None or spec.origin is None:
        return None
    return _metadata_beside(Path(spec.origin).parent, distribution) or _from_importlib(distribution)
