"""`make bench` runs end to end, with RLCard or without it (an optional extra)."""

from __future__ import annotations

import re
import sys

import pytest

from croupier import bench
from croupier.engine import registry

TINY = ["--rounds", "1", "--seconds", "0.02", "--preset-seconds", "0.02", "--states", "3"]
TINY += ["--hands", "5"]


def test_the_bench_prints_the_comparison_and_a_row_per_preset(
    capsys: pytest.CaptureFixture[str],
) -> None:
    bench.main(TINY)
    out = capsys.readouterr().out
    rlcard = bool(bench.rlcard_loops())  # an optional extra: absent in CI
    for name, (_, label) in bench.COMPARED_LOOPS.items():
        assert (label in out) == (rlcard or not name.startswith("rlcard")), name
    rows = {tuple(line.split()[:3]) for line in out.splitlines()}
    for game, preset, seats in bench.tables():
        assert (game, preset, str(seats)) in rows
    games = {game for game, _, _ in bench.tables()}
    assert games == {game.name for game in registry.games()}
    finder = [line for line in out.splitlines() if line.startswith("Scala 40 opening finder")]
    assert len(finder) == 1, out
    shape = (
        r"Scala 40 opening finder, 5 random 14-card hands with two jokers: "
        r"p50 [\d.]+ ms, p99 [\d.]+ ms, max [\d.]+ ms "
        r"\(goal p50 ≤ 1 ms, max ≤ 20 ms: (met|NOT met)\)"
    )
    assert re.fullmatch(shape, finder[0]), finder[0]


def test_without_rlcard_the_comparison_is_skipped_and_said_so(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(sys.modules, "rlcard", None)  # import rlcard raises ImportError
    bench.compare(rounds=1, seconds=0.02)
    out = capsys.readouterr().out
    assert "rlcard not installed" in out
    assert "ratio" not in out


def test_with_rlcard_both_of_its_loops_are_compared() -> None:
    pytest.importorskip("rlcard")
    loops = bench.rlcard_loops()
    assert set(loops) == {"rlcard", "rlcard-agent"}
    for loop in loops.values():
        tally = loop(0.01, 0)
        assert tally.steps > 0 and tally.episodes > 0
