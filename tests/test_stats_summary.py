"""What one game contributes to the statistics: each source's doubloons as the engine applied them."""

from __future__ import annotations

from pathlib import Path

import libertalia as lt
from libertalia.stats import summarize
from tests.helpers import mod_rules, write_cards


def test_a_loss_counts_what_the_seat_had_left_to_lose(tmp_path: Path) -> None:
    """R2: a card that costs 30 doubloons takes only what its seat holds, and the statistics count that, not 30."""
    rules = mod_rules(write_cards(tmp_path, {"Leaky Barrel": (61, "sun: lose 30 doubloons.")}))
    seen = 0
    for seed in range(6):
        g = lt.play(rules, [lt.agents.RandomAgent(seed * 10 + i) for i in range(3)], seed=seed)
        summary = summarize(g, seed, ("random",) * 3)
        for seat, played in enumerate(summary.played):
            times = played.count("Leaky Barrel")
            if times:
                seen += 1
                lost = summary.doubloons[seat].get("Leaky Barrel", 0)
                assert -30 * times < lost <= 0, (seed, seat, times, lost)
    assert seen, "no seat played the card: pick other seeds"
