"""RULES.md is the whole story, for every registered game: every rule id the
game cites is defined there, and every id it defines is named by a test.

Users read a game's RULES.md and nothing else, so every id a rejection cites
(`Rejection.rule`), every id of an option's rule reference (ListGames), every
id a game's compiled rules carry and every id RULES.md itself mentions must be
*defined* in it, with a statement, and RULES.md sends its reader nowhere else.
The ids a rejection can cite are found twice: read from the game's source (the
rule of every `IllegalMove` and every string literal shaped like a rule id),
and collected from the rejections of every candidate move of the acting seat
(and one of an idle seat) along seeded playouts of every preset. And every id
RULES.md defines is named somewhere under tests/, as written or in a test
name's form (`R-S40-02` as `r_s40_02`, `C6.4` as `C6_4`).

Every check runs over the registry: a game that registers later gets them all
without a line here. The checks of one RULES.md run once per file (the three
counting games share one package and one RULES.md); those of a game's options
and playouts once per game. The tables below only add what the generic code
cannot derive: the ids a RULES.md must at least define and its source at least
cite, option mixes that reach rules the presets rarely meet, and the ids a
game's compiled rules carry.

Already checked elsewhere for every game, and not repeated here: that the rule
a rejection cites in the conformance suite's matches is *named* in RULES.md and
is the one its table of rejections gives for the reason
(conformance/rule_references.py), and that every option reference and
rejection reason is named there (readme/test_rules_references.py). "Defined"
is stricter than "named": RULES.md must give the id a statement.

How RULES.md defines an id (`definitions`), in the forms the files use:

- a table row whose first cell is the id, bold or not (`| **C6.3** | … |`,
  `| D7 | … |`, `| V1, V4 | … |`), stated by the rest of the row;
- a bold id in prose (`- **R-S40-02** …`, `**V21** …`, `**R-S40-54 / A-S40-17**`),
  or a bold label ending with it in brackets (`**No dead ends (C-S40-1).**`),
  stated by the text up to the next bold id or the end of the item;
- a heading ending with the id in brackets (`### Conflicts … (C-S40-5)`),
  stated by its section;
- a run of examples (`` `T-C1-01` 10, Q, 7 make 10, 13, 20 · `T-C1-03` … ``).

A legend (`**C1–C9**`, `**R-M-01 … R-M-42**`) defines nothing, and a seed
document cited as `[S001]` is no rule id. A section number (`§1.8`) is a name
RULES.md gives when a heading or a bold label of it carries the number.
"""

from __future__ import annotations

import ast
import random
import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from croupier import rules_text
from croupier.engine import api, registry
from croupier.engine.options import Value, option_settings
from croupier.games.counting.rules import compile_rules
from croupier.v1 import game_pb2, service_pb2

ENGINE = "engine"  # the gates every game shares (engine/api.py)
THIS_FILE = Path(__file__).resolve()
TESTS = THIS_FILE.parents[1]

# -- what a RULES.md defines ---------------------------------------------------------------

# A rule id: letters and a number (`C6.3`, `U1a`, `V10a`, `D7`), or letters and
# hyphenated parts ending in a number (`R-C1-01`, `C-UNO-11`, `R-S40-102`).
ID = r"(?:[A-Z]+\d+[a-z]?(?:\.\d+)?|[A-Z]+(?:-[A-Z0-9]+)*-\d+)"
SECTION = r"§\d+(?:\.\d+)*"
MENTION = re.compile(rf"(?<![\w.§-]){ID}(?![\w-]|\.\d)")
SEED_DOCUMENT = re.compile(r"S\d{3}")  # [S000], [S001]: the sources, not rules
TABLE_ROW = re.compile(rf"^\|\s*(?:\*\*)?({ID}(?:, {ID})*)(?:\*\*)?\s*\|(.+)\|\s*$")
BOLD_IDS = re.compile(rf"\*\*({ID}(?: / (?:{ID}|{SECTION}))*)\*\*")
BOLD_LABEL = re.compile(rf"\*\*[^*\n]*?\(({ID})\)\.?\*\*")
HEADING_ID = re.compile(rf"^#+ .*\(({ID})\)\s*$")
EXAMPLE = re.compile(rf"`({ID})` ([^·]+)")
ITEM = re.compile(r"^\s*(?:[-*]|\d+\.) ")


def family(rule: str) -> str:
    """What an id's number is counted in: "C" for C6.3, "R-S40-" for R-S40-102."""
    return re.sub(r"\d+[a-z]?(?:\.\d+)?$", "", rule)


def _items(text: str) -> list[str]:
    """The prose of RULES.md as items (paragraphs and list items, each on
    one line), without its table rows and headings."""
    items: list[str] = []
    lines: list[str] = []
    for line in text.splitlines():
        starts = not line.strip() or line.startswith(("|", "#")) or ITEM.match(line)
        if starts:
            if lines:
                items.append(" ".join(lines))
            lines = [] if not line.strip() or line.startswith(("|", "#")) else [line.strip()]
        else:
            lines.append(line.strip())
    if lines:
        items.append(" ".join(lines))
    return items


@cache
def definitions(text: str) -> dict[str, str]:
    """{id: statement} of every id the text defines (module docstring); an
    id defined twice keeps its longer statement."""
    found: dict[str, str] = {}

    def define(rules: Iterable[str], statement: str) -> None:
        for rule in rules:
            if SEED_DOCUMENT.fullmatch(rule):
                continue
            statement = statement.strip(" |")
            if len(statement) >= len(found.get(rule, "")):
                found[rule] = statement

    lines = text.splitlines()
    for n, line in enumerate(lines):
        if row := TABLE_ROW.match(line):
            define(row.group(1).split(", "), row.group(2))
        elif heading := HEADING_ID.match(line):
            section = []
            for later in lines[n + 1 :]:
                if later.startswith("#"):
                    break
                section.append(later.strip())
            define([heading.group(1)], " ".join(section))
    for item in _items(text):
        spans = [(m.start(), m.end(), re.findall(ID, m.group(1))) for m in BOLD_IDS.finditer(item)]
        spans += [(m.start(), m.end(), [m.group(1)]) for m in BOLD_LABEL.finditer(item)]
        spans.sort()
        for k, (_, end, rules) in enumerate(spans):
            stop = spans[k + 1][0] if k + 1 < len(spans) else len(item)
            define(rules, item[end:stop])
        if re.match(rf"`{ID}` ", item):
            for example in EXAMPLE.finditer(item):
                define([example.group(1)], example.group(2))
    return found


@cache
def sections(text: str) -> frozenset[str]:
    """The section numbers the text carries: in a heading, in a bold label or
    in brackets right after one (`**Values in a meld** (§1.1.1, §1.6.4)`)."""
    found = {
        s for line in text.splitlines() if line.startswith("#") for s in re.findall(SECTION, line)
    }
    for label in re.finditer(r"\*\*[^*\n]+\*\*(?: \([^)\n]*\))?", text):
        found |= set(re.findall(SECTION, label.group(0)))
    return frozenset(found)


@cache
def headings(text: str) -> frozenset[str]:
    return frozenset(h.strip() for h in re.findall(r"^#+ (.+)$", text, flags=re.M))


@cache
def mentioned(text: str) -> frozenset[str]:
    """Every id the text mentions, of the families it defines ids of (a card
    `G7` or a seat `P0` is not a rule; an `R7` would be, in UNO's RULES.md)."""
    families = {family(rule) for rule in definitions(text)}
    return frozenset(m for m in MENTION.findall(text) if family(m) in families)


def names(text: str) -> set[str]:
    """What a rule a rejection cites may be: an id the text defines or a
    section number it carries."""
    return set(definitions(text)) | sections(text)


# -- the registry ----------------------------------------------------------------------------


@dataclass(frozen=True)
class RulesFile:
    """One RULES.md and the registered games it states (read once, at
    collection, before any test registers a stand-in under a game's name)."""

    path: Path
    games: tuple[str, ...]

    @property
    def package(self) -> str:
        return self.path.parent.name

    @property
    def text(self) -> str:
        return _read(self.path)


@cache
def _read(path: Path) -> str:
    return path.read_text(encoding="utf-8")


GAMES = registry.games()
RULES_OF = {game.name: rules_text.rules_path(game.name) for game in GAMES}
RULES_FILES = [
    RulesFile(path, tuple(name for name, p in RULES_OF.items() if p == path))
    for path in dict.fromkeys(RULES_OF.values())
]


def rules_of(game: Any) -> RulesFile:
    (found,) = [f for f in RULES_FILES if game.name in f.games]
    return found


# -- per game: what the generic code cannot derive ---------------------------------------------

# The ids each RULES.md must at least define (its legend's ranges; «Мост»'s
# numbering has gaps), by package.
AT_LEAST_DEFINED: dict[str, set[str]] = {
    "hundred_and_one": {f"C{n}" for n in range(1, 10)}
    | {f"O{n}" for n in range(1, 32)}
    | {f"A{n}" for n in range(1, 39)},
    "uno": {f"R{n}" for n in range(1, 13)}
    | {f"U{n}" for n in range(1, 19)}
    | {"U1a"}
    | {f"H{n}" for n in range(1, 18)}
    | {f"B{n}" for n in range(1, 36)}
    | {f"C-UNO-{n}" for n in range(1, 12)}
    | {f"D{n}" for n in range(1, 17)},
    "scala40": {f"R-S40-{n:02d}" for n in (1, 2, 3, 4, 5, 6, 7, 10, 11)}
    | {f"R-S40-{n}" for n in (20, 21, 22, 23, 24, 25, 26, 27, 28, 30, 40, 41, 42, 43, 44, 45)}
    | {f"R-S40-{n}" for n in (50, 51, 52, 53, 54, 70, 71, 72, 80, 90, 91, 100, 101, 102)}
    | {f"D{n}" for n in range(1, 7)}
    | {f"V{n}" for n in range(1, 25) if n != 10}
    | {"V6b", "V10a", "V10b", "V10c", "K-S40-1", "K-S40-2", "C-S40-1", "C-S40-2"},
    "most": {f"R-M-{n:02d}" for n in (1, 2, 3, 4, 5, 10, 11, 12, 13, 14, 20, 21, 22, 23)}
    | {f"R-M-{n}" for n in (30, 31, 32, 33, 34, 40, 41, 42)}
    | {f"A-M-{n:02d}" for n in range(1, 11)}
    | {f"C-M-{n}" for n in range(1, 6)}
    | {f"K-M-{n}" for n in range(1, 6)},
    "counting": {f"R-C1-0{n}" for n in range(1, 7)}
    | {f"R-C2-0{n}" for n in range(1, 8)}
    | {f"R-C3-0{n}" for n in range(1, 7)}
    | {f"O-C1-{n}" for n in range(1, 5)}
    | {f"O-C2-{n}" for n in range(1, 7)}
    | {f"O-C3-{n}" for n in range(1, 6)}
    | {f"A-C1-0{n}" for n in range(1, 5)}
    | {f"A-C2-0{n}" for n in range(1, 7)}
    | {f"A-C3-0{n}" for n in range(1, 5)}
    | {f"C-C-{n}" for n in range(1, 5)}
    | {f"E-C-{n}" for n in range(1, 10)},
}

# Rules each package's source must at least cite (for UNO and Scala 40: every
# rule their RULES.md's table of rejections names).
AT_LEAST_CITED: dict[str, set[str]] = {
    "hundred_and_one": {"C2", "C3", "C3.1", "C3.3", "C3.4", "C6", "C6.1", "A5", "A24", "O5"},
    "uno": {"R3", "R4", "R6", "R7", "R8", "U1a", "U7", "U8", "U9", "U10"}
    | {"H1", "H3", "H5", "H6", "H8", "H9", "H15", "H16"},
    "scala40": {"§1.4", "§1.8", "§1.10", "V6", "V14", "V21", "C-S40-1", "C-S40-2"}
    | {"R-S40-11", "R-S40-40", "R-S40-41", "R-S40-43", "R-S40-45", "R-S40-50", "R-S40-51"}
    | {"R-S40-20", "R-S40-22", "R-S40-23", "R-S40-24", "R-S40-25", "R-S40-27", "R-S40-28"}
    | {"R-S40-52", "R-S40-71", "D1", "D2", "D3", "D4", "D5"},
    "most": {"R-M-13", "R-M-21", "R-M-31", "R-M-32", "C-M-1", "K-M-2", "K-M-5"},
    "counting": {"R-C3-05", "A-C3-04", "R-C2-04", "R-C3-04", "O-C3-3", "C-C-2"},
}

# Besides every preset as it is: option mixes whose playouts meet the rules
# the presets rarely do.
MORE_TABLES: dict[str, list[tuple[str, dict[str, Value]]]] = {
    "hundred_and_one": [
        ("hd", {"draw_rule": "UNTIL_PLAYABLE"}),
        ("hd", {"must_play_drawn": True, "eight_draw_mode": "THREE", "opening": "DEALER_UPCARD"}),
        ("cl", {"first_move_any": True, "upcard_effects": False, "transfer_6_7": True}),
        ("ru", {"six_cover_by": "NEXT", "transfer_6_7": True}),
    ],
    "uno": [
        (
            "mattel",
            {
                "wd4_enforcement": "STRICT",
                "voluntary_draw": False,
                "play_drawn": "MUST",
                "uno_call_timing": "UNTIL_CAUGHT",
                "colour_rotation": True,
            },
        ),
    ],
    "scala40": [
        (
            "fisc",
            {
                "sequence_split_max5": True,
                "joker_swap_for_opening": True,
                "discard_pickup_for_opening": True,
            },
        ),
        (
            "pagat",
            {
                "close_without_discard": True,
                "retrieved_joker_must_be_used": True,
                "discard_pickup_keep": True,
                "close_in_hand_requires_40": True,
            },
        ),
    ],
    "most": [("rum500", {"exchange_requires_meld": True, "go_out_without_discard": True})],
    "one_hundred": [("seed", {"after_bust": "CONTINUE", "floor_zero": False})],
    "chips_101": [("seed", {"card_table": "ONE_HUNDRED", "limit": 100})],
}


def _counting_ids(game: Any) -> set[str]:
    """The ids the counting games' compiled rules carry: each card's effect's
    rule, and the rules a turn cites (`rules.py`), for every preset."""
    carried: set[str] = set()
    for preset in game.presets:
        options = game.catalogue.resolve([(preset.settings, {})])
        if game.name == "one_hundred":
            options.players = preset.min_seats
        rules = compile_rules(game.name, options)
        carried |= {effect.rule for effect in rules.effects.values()}
        carried |= set(rules.rule_ids.values())
    return carried


# The rule ids a game carries in data its source builds at run time.
CARRIED_IDS: dict[str, Callable[[Any], set[str]]] = {
    "sto": _counting_ids,
    "one_hundred": _counting_ids,
    "chips_101": _counting_ids,
}

# Checks a RULES.md fails today, reported and left for RULES.md to fix (a
# strict xfail: the day it is fixed, the mark must go).
FAILS_TODAY: dict[tuple[str, str], str] = {}


def _marked(check: str, key: str, *values: object) -> Any:
    """A parameter, marked as failing today when FAILS_TODAY says so."""
    reason = FAILS_TODAY.get((check, key))
    marks = [pytest.mark.xfail(strict=True, raises=AssertionError, reason=reason)] if reason else []
    return pytest.param(*values, marks=marks, id=key)


def per_file(check: str) -> list[Any]:
    return [_marked(check, f.package, f) for f in RULES_FILES]


def per_game(check: str) -> list[Any]:
    return [_marked(check, game.name, game) for game in GAMES]


# -- the source --------------------------------------------------------------------------------

CITABLE = re.compile(rf"{ID}|{SECTION}")


@cache
def cited_in_source(package: Path) -> frozenset[str]:
    """The rules a package's code can cite: every string literal shaped like
    a rule id or a section number — the rule of an `IllegalMove(reason,
    message, rule)` written out (both branches of a conditional one), and the
    tables a rule is looked up in (a meld fault's, a card effect's). Every
    IllegalMove must cite a rule."""
    found: set[str] = set()
    for path in sorted(package.glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Constant) and isinstance(node.value, str):
                if CITABLE.fullmatch(node.value):
                    found.add(node.value)
                continue
            if not (isinstance(node, ast.Call) and getattr(node.func, "id", "") == "IllegalMove"):
                continue
            if node.args and isinstance(node.args[0], ast.Starred):
                continue  # a remembered rejection rebuilt
            rule = node.args[2] if len(node.args) > 2 else None
            rule = next((k.value for k in node.keywords if k.arg == "rule"), rule)
            assert rule is not None, f"{path.name}:{node.lineno}: an IllegalMove cites no rule"
    return frozenset(found)


# -- playouts ------------------------------------------------------------------------------------

STEPS = 150


def playout_tables() -> list[Any]:
    tables = []
    for game in GAMES:
        runs: list[tuple[str, dict[str, Value]]] = [(p.name, {}) for p in game.presets]
        runs += MORE_TABLES.get(game.name, [])
        mixes = 0
        for preset, options in runs:
            mixes += bool(options)
            key = f"{game.name}-{preset}" + (f"-mix{mixes}" if options else "")
            tables.append(pytest.param(game, preset, options, id=key))
    return tables


def cited_by_rejections(
    game: Any, preset: str, options: Mapping[str, Value], seed: int
) -> set[str]:
    """The rules cited by rejecting every candidate move of the seat to act
    (the first acting seat that owes a move) and the first of a seat that may
    not act, at each step of a seeded random playout. Probes take the trusted
    path (the state is the engine's own; gates and rules run on both paths)."""
    seats = max(3, game.min_seats)
    request = service_pb2.NewGameRequest(
        game=game.name, preset=preset, seat_count=seats, seed=seed, options=option_settings(options)
    )
    state = api.new_game(request).state
    owes = getattr(game, "owes_move", None)
    choose = random.Random(seed)
    cited: set[str] = set()
    for _ in range(STEPS):
        if state.match.phase == game_pb2.MATCH_PHASE_MATCH_OVER:
            break
        if state.match.phase == game_pb2.MATCH_PHASE_DEAL_OVER:
            state = api.next_deal(service_pb2.NextDealRequest(state=state)).state
        acting = list(state.acting_seats)
        seat = next((s for s in acting if owes is None or owes(state, s)), acting[0])
        others = [(seat + k) % seats for k in range(1, seats)]
        idle = next((s for s in others if s not in acting), None)
        moves = [*game.candidate_moves(state, seat)]
        if idle is not None:
            moves += game.candidate_moves(state, idle)[:1]
        accepted = []
        for move in moves:
            answer = api.apply_move_on(state, move, validate_only=True, trusted=True)
            if answer.accepted:
                accepted.append(move)
            else:
                cited.add(answer.rejection.rule)
        assert accepted, f"{game.name}: no candidate of P{seat} is accepted"
        state = api.apply_move_on(state, choose.choice(accepted), trusted=True).state
    return cited


# -- RULES.md defines what is cited ----------------------------------------------------------------


@pytest.mark.parametrize("rules", per_file("statements"))
def test_every_id_defined_in_rules_md_has_a_statement(rules: RulesFile) -> None:
    ids = definitions(rules.text)
    missing = sorted(AT_LEAST_DEFINED.get(rules.package, set()) - set(ids))
    assert missing == [], f"ids {rules.package}'s RULES.md does not define: {missing}"
    short = {rule: statement for rule, statement in ids.items() if len(statement) <= 10}
    assert ids and short == {}, f"ids defined without a statement: {short}"
    assert not any(SEED_DOCUMENT.fullmatch(rule) for rule in ids)


@pytest.mark.parametrize("rules", per_file("source"))
def test_every_rule_the_source_cites_is_defined_in_rules_md(rules: RulesFile) -> None:
    cited = cited_in_source(rules.path.parent)
    uncited = sorted(AT_LEAST_CITED.get(rules.package, set()) - cited)
    assert uncited == [], f"rules the source of {rules.package} never cites: {uncited}"
    undefined = sorted(cited - names(rules.text))
    assert undefined == [], f"rules the source cites that RULES.md does not define: {undefined}"


@pytest.mark.parametrize(("game", "preset", "options"), playout_tables())
def test_every_rule_a_rejection_cites_is_defined_in_rules_md(game, preset, options) -> None:
    rules = rules_of(game)
    cited = cited_by_rejections(game, preset, options, seed=3)
    assert ENGINE in cited  # the idle seat's move meets the engine's gate
    undefined = sorted(cited - {ENGINE} - names(rules.text))
    assert undefined == [], f"rules rejections cite that RULES.md does not define: {undefined}"
    # The source scan sees every rule the rejections cite.
    unseen = sorted(cited - {ENGINE} - cited_in_source(rules.path.parent))
    assert unseen == [], f"rules rejections cite that the source scan misses: {unseen}"


@pytest.mark.parametrize("game", [g for g in GAMES if g.name in CARRIED_IDS], ids=lambda g: g.name)
def test_every_rule_a_card_or_turn_cites_is_defined_in_rules_md(game) -> None:
    carried = CARRIED_IDS[game.name](game)
    undefined = sorted(carried - set(definitions(rules_of(game).text)))
    assert carried and undefined == [], f"ids the rules carry that RULES.md lacks: {undefined}"


@pytest.mark.parametrize("game", per_game("options"))
def test_every_option_reference_names_what_rules_md_defines(game) -> None:
    text = rules_of(game).text
    known = names(text) | headings(text)
    undefined = []
    for spec in game.catalogue.specs:
        prefix, _, ids = spec.reference.partition(" ")
        assert prefix == "RULES.md", spec.name
        undefined += [f"{spec.name}: {rule}" for rule in ids.split(", ") if rule not in known]
    assert undefined == [], f"option references RULES.md does not define: {undefined}"


@pytest.mark.parametrize("rules", per_file("mentions"))
def test_every_id_rules_md_mentions_is_defined_there(rules: RulesFile) -> None:
    undefined = sorted(mentioned(rules.text) - set(definitions(rules.text)))
    assert undefined == [], f"ids {rules.package}'s RULES.md mentions, undefined: {undefined}"


# Documents the games were built from, which users never see.
ELSEWHERE = ("shedding.md", "rummy_and_counting.md", "../shared", "shared/rules")


@pytest.mark.parametrize("rules", per_file("elsewhere"))
def test_rules_md_sends_its_reader_nowhere_else(rules: RulesFile) -> None:
    for document in ELSEWHERE:
        assert document not in rules.text
    # A section number names one of its own sections: none at all in a
    # RULES.md whose headings carry none.
    cited = set(re.findall(rf"{SECTION}(?!\d)", rules.text))
    missing = sorted(cited - sections(rules.text))
    assert missing == [], f"sections {rules.package}'s RULES.md cites but has not: {missing}"


# -- every id RULES.md defines is named by a test ------------------------------------------------


@dataclass(frozen=True)
class Corpus:
    """What the test sources say: every id written in them, and every
    function and class name, in lower case."""

    written: frozenset[str]
    names: str


@cache
def _test_sources() -> dict[Path, tuple[frozenset[str], tuple[str, ...]]]:
    """Every test source but this module (its tables name ids without
    pinning them): the ids written in it, and its function and class names."""
    found = {}
    for path in sorted(TESTS.rglob("*.py")):
        if path.resolve() != THIS_FILE:
            text = path.read_text(encoding="utf-8")
            names = tuple(re.findall(r"(?:def|class) (\w+)", text))
            found[path.relative_to(TESTS)] = (frozenset(MENTION.findall(text)), names)
    return found


@cache
def corpus(package: str) -> Corpus:
    """The test sources that may speak of `package`'s rules: all but
    another game's test folder (UNO's D6 is not Scala 40's)."""
    others = {f.package for f in RULES_FILES} - {package}
    written: set[str] = set()
    names: list[str] = []
    for path, (ids, defined) in _test_sources().items():
        if path.parts[0] not in others:
            written |= ids
            names += defined
    return Corpus(frozenset(written), "\n".join(names).lower())


def named_by_a_test(rule: str, package: str) -> bool:
    """Whether a test source names `rule`: as written (a docstring, a
    comment, a table), or in a test name (`t_c1_01`, `C6_4`: any case)."""
    sources = corpus(package)
    if rule in sources.written:
        return True
    name = re.escape(re.sub(r"[-.]", "_", rule.lower()))
    return re.search(rf"(?<![a-z0-9]){name}(?![a-z0-9])", sources.names) is not None


@pytest.mark.parametrize("rules", per_file("named"))
def test_every_id_rules_md_defines_is_named_by_a_test(rules: RulesFile) -> None:
    ids = sorted(definitions(rules.text))
    unnamed = [rule for rule in ids if not named_by_a_test(rule, rules.package)]
    assert unnamed == [], f"ids {rules.package}'s RULES.md defines that no test names: {unnamed}"
