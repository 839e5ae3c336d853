"""Findings already pinned by a regression test (tests/fuzz/test_fuzz_regressions.py,
reports/fuzz/FINDINGS.md), by signature. The smoke test fails on any finding
not listed here; when a fix lands, its xfail regression test passes (strict
xfail: the suite says so), and its lines here go with the xfail mark.

F1-F13 are fixed, each with its regression test; none is open. An entry
reads {"<rpc> | <kind> | <where>": "<finding id and its test>"}."""

from __future__ import annotations

KNOWN: dict[str, str] = {}
