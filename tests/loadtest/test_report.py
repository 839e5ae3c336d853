"""The report says why a figure is missing: a case `--only` left out of the
pass, or one whose runs all failed (the first read "no result" either way,
and an ApplyMove-only pass seemed to have failed its other cases)."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "deploy" / "loadtest"))

import report  # noqa: E402
import results  # noqa: E402
import suite  # noqa: E402


def _run(rpc: str, ok: int, variant: str = "", game: str = "uno") -> results.Result:
    case = suite.Case(rpc, "" if rpc == suite.BASELINE else game, (), variant=variant)
    return results.Result(case, 1, ok, 0 if ok else 5, 1.0, {}, 1.0, 0.5, 1.0, 1.5, {"OK": ok})


def _pass() -> report.Pass:
    """Health/Check and uno's ApplyMove ran; its ListLegalMoves ran and
    failed; the one-call case and the batch and stream forms were left out."""
    return report.Pass(
        1,
        results=[
            _run(suite.BASELINE, 1000),
            _run("ApplyMove", 600),
            _run("ListLegalMoves", 0),
        ],
    )


def test_a_figure_names_the_cases_left_out_and_the_cases_that_failed() -> None:
    lines = report.one_call_per_move([_pass()])
    (row,) = [line for line in lines if line.startswith("| 1w, uno")]
    assert row == (
        "| 1w, uno | – | not run in this pass: ApplyMove [next legal moves]; no result for "
        "ListLegalMoves (see the errors in the table) | | | |"
    )


def test_goal_b_unevaluated_for_want_of_its_cases_says_so() -> None:
    assert "- 1w, uno: not evaluated (not run in this pass: ApplyMoveBatch, ApplyMoveStream)." in (
        report.goal_b([_pass()])
    )


def test_the_web_comparison_without_its_case_says_it_was_not_run() -> None:
    assert report.goal_web([_pass()])[-1] == (
        f"- 1w, uno: not run in this pass: ApplyMove [{suite.WEB}]."
    )
