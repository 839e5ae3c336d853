"""Findings already pinned by a regression test (tests/fuzz/test_fuzz_regressions.py,
reports/fuzz/FINDINGS.md), by signature. The smoke test fails on any finding
not listed here; when a fix lands, its xfail regression test passes (strict
xfail: the suite says so), and its lines here go with the xfail mark."""

from __future__ import annotations

_STATE_RPCS = ("ApplyMove", "ListLegalMoves", "GetView", "DefaultMove", "NextDeal")
_F1 = "F1 names echoed in full: test_fuzz_regressions.py (*_of_4096_chars, *_fits_in_8_kb)"
_F2 = "F2 moves offered at move_number 2^64-1: default_move_at_move_number_max"
_F3 = "F3 forbidden_finish named one by one: test_a_million_forbidden_finishes_are_refused…"

KNOWN: dict[str, str] = {
    "NewGame | error over 8 KB | game": _F1,
    "NewGame | error over 8 KB | preset": _F1,
    "NewGame | error over 8 KB | options[].name": _F1,
    "ApplyMoveBatch | item error over 8 KB | state.game": _F1,
    "ApplyMoveStream | item error over 8 KB | state.game": _F1,
    **{f"{rpc} | error over 8 KB | state.game": _F1 for rpc in _STATE_RPCS},
    "DefaultMove -> ApplyMove | default move refused | state.move_number": _F2,
    "ListLegalMoves -> ApplyMove | listed move refused | state.move_number": _F2,
    **{
        f"{rpc} | slow | INVALID_ARGUMENT, longest list "
        "state.options.hundred_and_one.forbidden_finish": _F3
        for rpc in _STATE_RPCS
    },
}
