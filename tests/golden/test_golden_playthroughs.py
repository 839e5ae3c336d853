"""Replay every golden playthrough (playthrough.py): play the match again and
compare it with its file line by line; the first difference is reported with
the lines around it, so a failure says what changed (a legal move, a view, an
event sentence), not only that a digest did. After an intended change of
behaviour: bump the game's rules_version, run `make golden`, read the diff.
"""

from __future__ import annotations

import pytest

from croupier.engine import registry
from golden.playthrough import HERE, SUFFIX, Match, generate, golden_matches

CONTEXT = 4  # lines shown before a difference
REGENERATE = "regenerate the goldens with `make golden` and read the diff"


def first_difference(expected: list[str], got: list[str]) -> str | None:
    """A report of the first line where `got` (the playthrough now) departs
    from `expected` (the file), with the lines before it; None when equal."""
    if expected == got:
        return None
    index = next(
        (i for i, (want, have) in enumerate(zip(expected, got, strict=False)) if want != have),
        min(len(expected), len(got)),
    )
    want = expected[index] if index < len(expected) else "(end of file)"
    have = got[index] if index < len(got) else "(end of playthrough)"
    start = max(0, index - CONTEXT)
    context = [f"     {n + 1:>5}  {got[n]}" for n in range(start, index)]
    return "\n".join(
        [
            f"line {index + 1} differs",
            *context,
            f"file {index + 1:>5}  {want}",
            f"now  {index + 1:>5}  {have}",
        ]
    )


@pytest.mark.parametrize("match", golden_matches(), ids=lambda m: m.name)
def test_golden_playthrough_replays(match: Match) -> None:
    assert match.path.exists(), f"{match.path.name} is missing: {REGENERATE}"
    expected = match.path.read_text(encoding="utf-8").splitlines()
    game = registry.find(match.game)
    assert game is not None, f"{match.game} is not registered"
    assert f" rules_version={game.rules_version} " in expected[0], (
        f"{match.path.name} was written for another rules_version of {match.game}: {REGENERATE}"
    )
    difference = first_difference(expected, generate(match))
    if difference is not None:
        pytest.fail(f"{match.path.name}: the playthrough changed ({REGENERATE})\n{difference}")


def test_every_preset_of_every_game_has_a_golden() -> None:
    files = {path.name for path in HERE.glob(f"*{SUFFIX}")}
    missing = [
        f"{game.name} preset {preset.name}"
        for game in registry.games()
        for preset in game.presets
        if not any(
            m.game == game.name and m.preset == preset.name and m.path.name in files
            for m in golden_matches()
        )
    ]
    assert not missing, f"no golden playthrough for {', '.join(missing)}: {REGENERATE}"


def test_no_golden_file_is_left_without_its_match() -> None:
    wanted = {m.path.name for m in golden_matches()}
    stale = sorted(path.name for path in HERE.glob(f"*{SUFFIX}") if path.name not in wanted)
    assert not stale, f"golden files no match writes: {', '.join(stale)} (remove them)"


def test_a_difference_is_reported_with_its_line_and_context() -> None:
    report = first_difference(["a", "b", "c", "d"], ["a", "b", "x", "d"])
    assert report is not None
    assert report.splitlines() == [
        "line 3 differs",
        "         1  a",
        "         2  b",
        "file     3  c",
        "now      3  x",
    ]
    assert first_difference(["a"], ["a"]) is None
    shorter = first_difference(["a", "b"], ["a"])
    assert shorter is not None and "(end of playthrough)" in shorter
