"""CHANGELOG.md's newest release lists the versions the code carries: the
package version, the state schema version and every registered game's
rules version (the version scheme is at the top of CHANGELOG.md)."""

from __future__ import annotations

import re
import tomllib
from importlib.metadata import entry_points
from pathlib import Path

from croupier import rules_text
from croupier.engine import api

ROOT = Path(__file__).resolve().parents[2]


def _newest_release() -> tuple[str, str]:
    """The newest numbered release of CHANGELOG.md: its version and text."""
    text = (ROOT / "CHANGELOG.md").read_text()
    match = re.search(r"^## \[(\d+\.\d+\.\d+)\][^\n]*\n(.*?)(?=^## \[|\Z)", text, re.M | re.S)
    assert match, "CHANGELOG.md has no release heading like '## [0.1.0]'"
    return match.group(1), match.group(2)


def _table(text: str) -> dict[str, str]:
    return dict(re.findall(r"^\| `?([\w .]+?)`? \| (\d[\w.]*) \|$", text, re.M))


def test_the_changelog_names_the_package_version() -> None:
    version, text = _newest_release()
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    assert version == project["version"]
    assert _table(text)["package"] == project["version"]


def test_the_changelog_names_the_schema_and_every_rules_version() -> None:
    _, text = _newest_release()
    listed = _table(text)
    assert listed["state schema"] == str(api.SCHEMA_VERSION)
    # The entry points, not the registry: a test may register a game of its own.
    loaded = [point.load() for point in entry_points(group="croupier.games")]
    games = {game.name: game.rules_version for game in loaded}
    assert games
    for name, rules_version in games.items():
        assert listed.get(name) == str(rules_version), f"{name}: rules version {rules_version}"


def test_the_readme_names_the_licence() -> None:
    assert (ROOT / "LICENSE").read_text().lstrip().startswith("Apache License")
    assert "Apache-2.0" in (ROOT / "README.md").read_text()


def test_the_readme_tour_shows_every_game_at_its_rules_version() -> None:
    """The API tour's ListGames output is pasted text: hold it to the code."""
    shown = dict(
        re.findall(
            r'^\{"name":"(\w+)","rules_version":(\d+),', (ROOT / "README.md").read_text(), re.M
        )
    )
    loaded = [point.load() for point in entry_points(group="croupier.games")]
    assert shown == {game.name: str(game.rules_version) for game in loaded}


def test_each_games_rules_md_states_its_rules_version() -> None:
    """RULES.md says at its head which rules version it describes, and its
    version history reaches that version: held to the code, not to memory."""
    for point in entry_points(group="croupier.games"):
        game = point.load()
        text = rules_text.rules_path(game.name).read_text(encoding="utf-8")
        stated = re.findall(r"Rules version: \*\*(\d+)\*\*", text)
        assert stated == [str(game.rules_version)], f"{game.name}: RULES.md states {stated}"
        history = text.partition("Version history")[2] or text.partition("version history")[2]
        assert re.search(
            rf"(^- \*\*|^\| |^## Changes in rules version ){game.rules_version}\b", history, re.M
        ), f"{game.name}: no history entry for {game.rules_version}"


def test_the_kubernetes_image_tag_is_the_package_version() -> None:
    version = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["version"]
    for path in ("base", "overlays/prod"):
        text = (ROOT / "deploy/kubernetes" / path / "kustomization.yaml").read_text()
        assert re.findall(r"newTag: (\S+)", text) == [version], path
