"""Every game's rules live in its own RULES.md, in the repository: ListGames'
option references point into it, no source or RULES.md sends a reader to a
file outside the repository, and `croupier rules GAME [--preset P]` prints it."""

from __future__ import annotations

import re
from importlib.metadata import entry_points
from pathlib import Path

import pytest

from conformance.rule_references import mentions
from croupier import cli, rules_text
from croupier.engine import api, registry
from croupier.v1 import game_pb2, service_pb2

ROOT = Path(__file__).resolve().parents[2]
# Documents the games were built from, which are not in this repository.
OUTSIDE = ("rummy_and_counting.md", "shared/rules")


def _games() -> list[str]:
    return sorted(point.load().name for point in entry_points(group="croupier.games"))


@pytest.mark.parametrize("name", _games())
def test_option_references_point_into_the_games_rules(name: str) -> None:
    (descriptor,) = [
        g for g in api.list_games(service_pb2.ListGamesRequest()).games if g.name == name
    ]
    text = rules_text.rules_path(name).read_text(encoding="utf-8")
    for option in descriptor.options:
        where, _, ids = option.rule_reference.partition(" ")
        assert where == "RULES.md", f"{name}.{option.name}: {option.rule_reference}"
        for rule in ids.split(", "):
            assert mentions(text, rule), f"{name}.{option.name}: {rule} is not in RULES.md"


@pytest.mark.parametrize("name", _games())
def test_every_reason_a_game_rejects_with_is_in_its_rules(name: str) -> None:
    """A bot switches on the typed reason; RULES.md says what each one means
    and which rule it cites (its Rejections section)."""
    field = game_pb2.Rejection.DESCRIPTOR.fields_by_name[name]
    text = rules_text.rules_path(name).read_text(encoding="utf-8")
    for value in field.enum_type.values:
        if value.number == 0:
            continue
        short = value.name.partition("REJECTION_REASON_")[2]
        assert mentions(text, short), f"{name}: {short} is not in RULES.md"


def test_nothing_points_outside_the_repository() -> None:
    files = [
        *(ROOT / "server" / "croupier").rglob("*.py"),
        *(ROOT / "server" / "croupier").rglob("*.md"),
        *(ROOT / "clients" / "python").rglob("*.py"),
        ROOT / "README.md",
    ]
    for path in files:
        if "/v1/" in path.as_posix():
            continue  # generated stubs
        text = path.read_text(encoding="utf-8")
        for outside in OUTSIDE:
            assert outside not in text, f"{path.relative_to(ROOT)} cites {outside}"


def test_croupier_rules_prints_the_rules_and_a_presets_settings(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert cli.main(["rules", "hundred_and_one", "--preset", "cl"]) == 0
    out = capsys.readouterr().out
    head, _, body = out.partition("\n\n")
    version = registry.find("hundred_and_one").rules_version  # type: ignore[union-attr]
    assert f"hundred_and_one, rules version {version}" in head
    assert "Preset cl" in head
    assert re.search(r"^  opening +\= DEALER_UPCARD$", head, re.M)
    path = rules_text.rules_path("hundred_and_one")
    assert body == path.read_text(encoding="utf-8")


def test_croupier_rules_refuses_an_unknown_game_or_preset(
    capsys: pytest.CaptureFixture[str],
) -> None:
    for argv in (["rules", "whist"], ["rules", "sto", "--preset", "nope"]):
        with pytest.raises(SystemExit) as stopped:
            cli.main(argv)
        assert stopped.value.code == 2
    assert "known: seed, hundert" in capsys.readouterr().err
