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
OUTSIDE = ("shedding.md", "rummy_and_counting.md", "shared/rules")


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


def _sources() -> list[Path]:
    """Every file a user of the repository reads for the rules: the server's
    code and RULES.md files, the contract, the clients' own code and docs
    (their generated stubs carry the contract's comments), deploy, README."""
    clients = ROOT / "clients"
    return [
        *(ROOT / "server" / "croupier").rglob("*.py"),
        *(ROOT / "server" / "croupier").rglob("*.md"),
        *(ROOT / "proto").rglob("*.proto"),
        *(clients / "python" / "croupier_client").rglob("*.py"),
        *(clients / "go").rglob("*.go"),
        *(clients / "typescript" / "src").rglob("*.ts"),
        *(clients / "web" / "src").rglob("*.ts"),
        *clients.glob("*/README.md"),
        *(ROOT / "deploy").rglob("*.md"),
        ROOT / "README.md",
    ]


def test_nothing_points_outside_the_repository() -> None:
    files = _sources()
    assert len(files) > 100
    for path in files:
        text = path.read_text(encoding="utf-8")
        for outside in OUTSIDE:
            assert outside not in text, f"{path.relative_to(ROOT)} cites {outside}"


# A game's proto file and a game it describes (the counting games share one
# package, one RULES.md and one proto file).
PROTO_GAMES = {"hundred_and_one": "hundred_and_one", "uno": "uno", "scala40": "scala40",
               "most": "most", "counting": "sto"}  # fmt: skip


@pytest.mark.parametrize("proto", sorted(PROTO_GAMES))
def test_every_section_a_games_contract_cites_is_in_its_rules(proto: str) -> None:
    """A "§1.8" in a game's proto comments names a section of that game's
    RULES.md, not of a document outside the repository."""
    text = (ROOT / "proto" / "croupier" / "v1" / f"{proto}.proto").read_text(encoding="utf-8")
    rules = rules_text.rules_path(PROTO_GAMES[proto]).read_text(encoding="utf-8")
    for section in sorted(set(re.findall(r"§\d+(?:\.\d+)*", text))):
        assert section in rules, f"{proto}.proto cites {section}, which its RULES.md has not"


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
