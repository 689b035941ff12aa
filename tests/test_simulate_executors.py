"""``stats.simulate`` on any executor (threads, processes, dask) gives the same games as one process."""

from __future__ import annotations

import json
import sys
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest
from click.testing import CliRunner

from libertalia import stats
from libertalia.cli import main

ARGS: dict[str, Any] = {"edition": "galecrest", "loot": None, "extra_cards": []}
RUN: dict[str, Any] = {"games": 7, "players": 3, "bots": ["random", "first"], "seed": 11}


@pytest.fixture(scope="module")
def one_process() -> list[stats.GameSummary | stats.GameFailure]:
    """The reference: the same games played one after the other in this process."""
    return list(stats.simulate(ARGS, **RUN))


def test_chunk_sizes_stay_between_bounds() -> None:
    """Chunks hold 25 to 200 games, fewer only when a run is too small to give every worker one."""
    assert stats.chunk_size(1_000_000, 100) == 200
    assert stats.chunk_size(1000, 2) == 63
    assert stats.chunk_size(100, 2) == 25
    assert stats.chunk_size(6, 2) == 3
    assert stats.chunk_size(1, 8) == 1


def test_a_thread_pool_gives_the_same_games_in_seed_order(one_process: list[Any]) -> None:
    """A ThreadPoolExecutor with chunks of two returns the one-process summaries, in seed order; progress adds up."""
    done: list[int] = []
    with ThreadPoolExecutor(max_workers=3) as pool:
        results = list(stats.simulate(ARGS, **RUN, executor=pool, chunk=2, progress=done.append))
    assert results == one_process
    assert [r.seed for r in results] == list(range(11, 18))
    assert sorted(done) == [1, 2, 2, 2]  # one call per finished chunk: 7 games in chunks of 2


def test_jobs_and_an_executor_together_are_refused() -> None:
    """``jobs=2`` with an executor is a ValueError: it is not clear which should run the games."""
    with ThreadPoolExecutor(max_workers=1) as pool, pytest.raises(ValueError, match="not both"):
        list(stats.simulate(ARGS, **RUN, jobs=2, executor=pool))


def test_an_in_process_dask_cluster_gives_the_same_games(one_process: list[Any]) -> None:
    """A dask LocalCluster (in-process, two threads) returns summaries equal to the one-process run."""
    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(processes=False, n_workers=1, threads_per_worker=2,
                                  dashboard_address=None) as cluster, distributed.Client(cluster) as client:
        results = list(stats.simulate(ARGS, **RUN, executor=client.get_executor()))
    assert results == one_process
    assert stats.report(results) == stats.report(one_process)


def _cli(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, ["simulate", "--games", "6", "--players", "3", "--seed", "2", "--json", *args])
    return result.exit_code, result.stdout, result.stderr


def test_dask_local_gives_the_same_json_as_one_job() -> None:
    """``simulate --dask local`` (a LocalCluster of two worker processes) prints the JSON of ``--jobs 1``."""
    pytest.importorskip("distributed")
    code1, one, _ = _cli("--jobs", "1")
    code2, dask, err = _cli("--dask", "local")
    assert code1 == code2 == 0, err
    assert json.loads(dask) == json.loads(one) and json.loads(one)["games"] == 6


def test_dask_without_the_extra_says_how_to_install_it(monkeypatch: pytest.MonkeyPatch) -> None:
    """Without dask installed, ``--dask`` prints one line naming the cluster extra, before any game runs."""
    monkeypatch.setitem(sys.modules, "distributed", None)  # makes ``import distributed`` fail
    monkeypatch.setattr(stats, "play_one", lambda task: pytest.fail("a game ran"))
    code, out, err = _cli("--dask", "local")
    assert code == 1 and out == ""
    assert "pip install '.[cluster]'" in err and "libertalia[" not in err
    assert len(err.strip().splitlines()) == 1


def test_jobs_with_a_cluster_address_is_an_error() -> None:
    """``--jobs`` sizes only ``--dask local``; with a scheduler address it is a usage error (status 2)."""
    code, out, err = _cli("--dask", "tcp://127.0.0.1:1", "--jobs", "2")
    assert code == 2 and out == "" and "--jobs" in err
