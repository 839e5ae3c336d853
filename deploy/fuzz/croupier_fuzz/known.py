"""Findings already pinned by a regression test (tests/fuzz/test_fuzz_regressions.py,
reports/fuzz/FINDINGS.md), by signature. The smoke test fails on any finding
not listed here; when a fix lands, its xfail regression test passes (strict
xfail: the suite says so), and its lines here go with the xfail mark."""

from __future__ import annotations

from croupier_fuzz.corpus import ENGINE_RPCS

# Every engine RPC that takes a state: check_state answers for all of them.
_STATE_RPCS = tuple(rpc for rpc in ENGINE_RPCS if rpc not in ("ListGames", "NewGame"))
_F2 = "F2 moves offered at move_number 2^64-1: default_move_at_move_number_max"
_F3 = "F3 forbidden_finish named one by one: test_four_million_forbidden_finishes_are_refused…"
_F9 = "F9 Scala 40 next_meld_id 0: scala40_apply_move_next_meld_id_0"
_F11 = "F11 Scala 40 next_meld_id 2^32-1: scala40_apply_move_next_meld_id_at_uint32_max"
_WIRE_INTERNAL = "internal error; the server log has the details"

KNOWN: dict[str, str] = {
    "DefaultMove -> ApplyMove | default move refused | state.move_number": _F2,
    "ListLegalMoves -> ApplyMove | listed move refused | state.move_number": _F2,
    **{
        f"{rpc} | {kind} | {where}": finding
        for rpc in _STATE_RPCS
        for kind in ("exception escaped", "status INTERNAL")
        for where, finding in (
            ("StopIteration in croupier/games/scala40/validate.py:_check_melds", _F9),
            ("ValueError in croupier/games/scala40/position.py:write", _F11),
        )
    },
    **{
        f"{rpc} | item error code 13 | {_WIRE_INTERNAL}": f"{_F9}; {_F11}"
        for rpc in ("ApplyMoveBatch", "ApplyMoveStream")
    },
    **{
        f"{rpc} | slow | INVALID_ARGUMENT, longest list "
        "state.options.hundred_and_one.forbidden_finish": _F3
        for rpc in _STATE_RPCS
    },
}
