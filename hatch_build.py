"""The optional compiled build: with ``LIBERTALIA_COMPILE=1`` the wheel's engine is compiled by mypyc.

Without the variable this hook does nothing and the wheel is the pure one (the default from
source and the fallback everywhere).  With it, the engine (``libertalia/engine``, the card
programs included) becomes C extension modules next to their
``.py`` files (an extension module wins over a source file of the same name on import), and
the wheel is tagged for this interpreter and platform.  Only then are mypy (which brings mypyc)
and setuptools (which drives the C compiler) needed, with what mypy reads (the runtime
dependencies and stubs), so they are asked for by ``dependencies()`` rather than in
``[build-system] requires``.

``LIBERTALIA_COMPILE_OPT`` sets mypyc's C optimisation level (0-3, default 3: a build at 0 is
much quicker, for checking that the modules compile and import, but slower to run).
"""

from __future__ import annotations

import os
import shutil
import sysconfig
from pathlib import Path
from typing import Any

from hatchling.builders.hooks.plugin.interface import BuildHookInterface

COMPILE_VARIABLE = "LIBERTALIA_COMPILE"
# What compiles: the engine with its card programs, the library's own agents (their ``choose``
# runs at every decision of a play-out), and the observation vector's fill (``libertalia.env``
# builds a learner's vector with it at every step; it imports neither numpy nor the env, so the
# compiler needs neither).
# Not libertalia/state.py: it holds only attrs classes, which mypyc never makes native (so compiling
# gains nothing), and compiled modules check a value of one of their classes by its exact type, which
# the events (interpreted subclasses of state.Event, in libertalia.events) fail.
COMPILED = ("libertalia/engine", "libertalia/agents.py", "libertalia/_vector.py", "libertalia/_glance.py",
            "libertalia/_envstep.py", "libertalia/_spiel_play.py", "libertalia/_spiel_text.py")


def compile_wanted() -> bool:
    return os.environ.get(COMPILE_VARIABLE, "") == "1"


def compiled_sources(root: Path) -> list[str]:
    """The modules mypyc compiles, as paths relative to ``root``, in a stable order."""
    out: list[str] = []
    for entry in COMPILED:
        path = root / entry
        files = sorted(path.rglob("*.py")) if path.is_dir() else [path]
        out.extend(p.relative_to(root).as_posix() for p in files)
    return out


def _check_toolchain() -> None:
    """Fail early, and say what is missing, when the C toolchain cannot build extensions."""
    compiler = (os.environ.get("CC") or sysconfig.get_config_var("CC") or "cc").split()[0]
    if shutil.which(compiler) is None:
        raise RuntimeError(f"{COMPILE_VARIABLE}=1 needs a C compiler: {compiler!r} was not found. Install one "
                           f"(gcc or clang) or unset {COMPILE_VARIABLE} for the pure-Python build.")
    include = Path(sysconfig.get_paths()["include"]) / "Python.h"
    if not include.exists():
        raise RuntimeError(f"{COMPILE_VARIABLE}=1 needs the Python headers: {include} was not found. Install them "
                           f"(python3-dev or similar) or unset {COMPILE_VARIABLE} for the pure-Python build.")


class CompileHook(BuildHookInterface):  # type: ignore[type-arg]  # generic in the config type only
    PLUGIN_NAME = "custom"

    def dependencies(self) -> list[str]:
        """What the build environment needs besides hatchling: for a compiled build, mypy and setuptools,
        and everything mypy reads when mypyc type-checks the engine under the project's strict settings
        (the runtime dependencies and PyYAML's stubs).  pip's isolated build environment has none of them,
        so without these a fresh ``LIBERTALIA_COMPILE=1 pip install .`` stops at its first import."""
        if not compile_wanted():
            return []
        return ["mypy>=1.10", "setuptools>=61", "types-PyYAML", *self.metadata.core.dependencies]

    def initialize(self, version: str, build_data: dict[str, Any]) -> None:
        if not compile_wanted() or version == "editable":
            return
        _check_toolchain()
        from mypyc.build import mypycify
        from setuptools import Distribution
        from setuptools.command.build_ext import build_ext

        root = Path(self.root)
        work = root / "build" / "mypyc"
        opt = os.environ.get("LIBERTALIA_COMPILE_OPT", "3")
        cwd = os.getcwd()
        os.chdir(root)  # mypyc names modules from paths relative to the working directory
        try:
            extensions = mypycify(compiled_sources(root), opt_level=opt, target_dir=str(work / "c"))
            dist = Distribution({"name": "libertalia", "ext_modules": extensions})
            command = build_ext(dist)
            command.build_lib = str(work / "lib")
            command.build_temp = str(work / "temp")
            command.ensure_finalized()
            command.run()
            outputs = command.get_outputs()
        finally:
            os.chdir(cwd)
        for built in outputs:
            build_data["force_include"][built] = Path(built).relative_to(work / "lib").as_posix()
        build_data["pure_python"] = False
        build_data["infer_tag"] = True

    def clean(self, versions: list[str]) -> None:
        shutil.rmtree(Path(self.root) / "build" / "mypyc", ignore_errors=True)
