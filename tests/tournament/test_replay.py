"""`croupier replay` checks records byte for byte: a tampered digest, move,
deal or winner is found and named; records stopped at the move bound replay
too."""

from __future__ import annotations

import base64
import json
from pathlib import Path

import pytest

from croupier.tournament import replay

from .conftest import Tournament


@pytest.fixture
def records(tournament: Tournament) -> Path:
    code, out, _ = tournament(
        "--game", "chips_101", "--bot", "random", "--bot", "b=random", "--matches", "3"
    )
    assert code == 0
    return out / "records.jsonl"


def _lines(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text().splitlines()]


def _write(path: Path, records: list[dict]) -> Path:
    path.write_text("".join(json.dumps(r) + "\n" for r in records))
    return path


def _replay(capsys: pytest.CaptureFixture[str], *paths: Path) -> tuple[int, str]:
    capsys.readouterr()
    code = replay.main([str(p) for p in paths])
    captured = capsys.readouterr()
    return code, captured.out + captured.err


def test_untouched_records_replay(records: Path, capsys: pytest.CaptureFixture[str]) -> None:
    moves = sum(len(r["moves"]) for r in _lines(records))
    assert _replay(capsys, records) == (0, f"OK 3 records, {moves} moves\n")


def test_one_changed_digest_is_found_with_its_move_number(
    records: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    lines = _lines(records)
    digests = bytearray(base64.b64decode(lines[1]["digests"]))
    expected = digests[5 * 32 : 6 * 32].hex()
    digests[5 * 32 + 7] ^= 0x01
    tampered_hex = digests[5 * 32 : 6 * 32].hex()
    lines[1]["digests"] = base64.b64encode(bytes(digests)).decode()
    code, out = _replay(capsys, _write(tmp_path / "tampered.jsonl", lines))
    assert code == 1
    assert out.startswith(f"MISMATCH {tmp_path / 'tampered.jsonl'}:2 (match 1, chips_101 seed, ")
    assert f"move 5: expected digest {tampered_hex}, actual {expected}" in out


def test_a_changed_move_winner_or_deal_is_found(
    records: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (record, *_) = _lines(records)
    swapped = dict(record, moves=[record["moves"][1], record["moves"][0], *record["moves"][2:]])
    code, out = _replay(capsys, _write(tmp_path / "a.json", [swapped]))
    assert code == 1 and "move 1:" in out

    other = [seat for seat in range(2) if seat not in record["winners"]]
    wrong = dict(record, winners=other)
    code, out = _replay(capsys, _write(tmp_path / "b.json", [wrong]))
    assert code == 1 and f"the match: winners: expected {other}" in out

    deals = [dict(record["deals"][0], points=[p + 1 for p in record["deals"][0]["points"]])]
    code, out = _replay(capsys, _write(tmp_path / "c.json", [dict(record, deals=deals)]))
    assert code == 1 and "deal 1: expected points" in out


def test_malformed_records_exit_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"v": 1, "game": "uno"}\n')
    code, out = _replay(capsys, bad)
    assert code == 2 and f"{bad}:1: malformed record: KeyError" in out
    with pytest.raises(SystemExit) as exit_:
        replay.main([str(tmp_path / "missing.jsonl")])
    assert exit_.value.code == 2


def test_matches_stopped_at_the_move_bound_are_reported_and_replay(
    tournament: Tournament, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, results = tournament(
        "--game",
        "hundred_and_one",
        "--bot",
        "random",
        "--bot",
        "b=random",
        "--matches",
        "3",
        "--max-moves",
        "7",
    )
    assert code == 0
    assert results["finished"] == 0
    assert results["unfinished"] == [[0, "max_moves"], [1, "max_moves"], [2, "max_moves"]]
    assert all(e["matches"] == 0 and e["unfinished"] == 3 for e in results["entrants"])
    assert (
        "Unfinished matches (3): 0 (max_moves), 1 (max_moves), 2 (max_moves)."
        in (out / "REPORT.md").read_text()
    )
    assert [len(r["moves"]) for r in _lines(out / "records.jsonl")] == [7, 7, 7]
    assert _replay(capsys, out / "records.jsonl") == (0, "OK 3 records, 21 moves\n")


def test_sample_replays_records_spread_over_the_files(
    records: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    capsys.readouterr()
    assert replay.main([str(records), str(records), "--sample", "2"]) == 0
    assert capsys.readouterr().out.startswith("OK 2 records, ")
