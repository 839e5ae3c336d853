"""The fourth spec audit of Scala 40 (rummy_and_counting.md part 1): option
interactions the earlier audits did not combine — V6 (the discard taken for
the opening) with V16 (a joker swapped for the opening), and the pairs of
§1.16 that must combine at NewGame — with each finding pinned on a concrete
position. P is seat 0, to act; melds on the table laid by seat 1 unless said
otherwise; defaults (FISC preset) unless an option is named."""

from __future__ import annotations

import itertools

import pytest

from croupier.engine import api
from croupier.engine.errors import InvalidInput
from croupier.v1 import service_pb2
from spec_notation import settings

V6_V16 = {"discard_pickup_for_opening": True, "joker_swap_for_opening": True}


# -- V6 × V16: the taken card goes into the opening, not in place of a joker -------------------


def test_v6_with_v16_a_swap_does_not_place_the_taken_card(table):
    # V6: the card an unopened seat takes must be "part of one of the NEW
    # opening melds (not a lay-off)". Swapping it for the joker of
    # [5♠ JK→6♠ 7♠] (V16) puts it into a meld already on the table: it does
    # not place it. Was: the swap accepted, then the opening
    # [K♦ K♥ JK→K♣] [Q♣ Q♦ Q♥] without the 6♠ accepted too.
    s = table.build(
        hands={0: "6♠ 6♥ 6♦ K♥ K♦ Q♣ Q♦ Q♥ 2♣"},
        melds=["[5♠ JK→6♠ 7♠]"],
        taken="6♠",
        options=V6_V16,
    )
    rejection = table.rejection(s, table.swap(0, "6♠", 1))
    assert table.reason(s, table.swap(0, "6♠", 1)) == "OPENING_MUST_USE_TAKEN_CARD"
    assert rejection.rule == "V6"
    # the listing agrees: only the opening that holds the 6♠ (and discards)
    assert not any(m.startswith("SWAP") for m in table.legal(s))
    s = table.ok(s, table.open(s, 0, "[Q♣ Q♦ Q♥]", "[6♦ 6♥ 6♠]"))
    assert table.opened(s, 0)


def test_v6_with_v16_a_take_only_a_swap_could_place_is_refused(table):
    # The same hand without the 6♥ 6♦: the 6♠ could go nowhere but in place
    # of the joker, so the TAKE itself is refused up front (C-S40-1). Was:
    # accepted (TAKE, SWAP 6S, OPEN [K♦ K♥ JK→K♣] [Q♣ Q♦ Q♥], worth 60).
    s = table.build(
        hands={0: "K♥ K♦ Q♣ Q♦ Q♥ 9♥ 2♣"},
        melds=["[5♠ JK→6♠ 7♠]"],
        phase="DRAW",
        top="6♠",
        options=V6_V16,
    )
    assert table.reason(s, table.take(0)) == "TAKEN_CARD_CANNOT_BE_PLACED"
    assert table.rejection(s, table.take(0)).rule == "V6"
    assert table.legal(s) == ["DRAW"]


def test_v6_with_v16_a_held_copy_may_swap_while_the_other_opens(table):
    # Copies are alike (R-S40-01): holding a 6♠ of his own besides the one
    # taken, P swaps one for the joker and opens with the other.
    s = table.build(
        hands={0: "6♠ 6♠ 6♥ 6♦ K♥ K♦ 9♥ 2♣"},
        melds=["[5♠ JK→6♠ 7♠]"],
        taken="6♠",
        options=V6_V16,
    )
    s = table.ok(s, table.swap(0, "6♠", 1))
    assert table.legal(s)[0] == "OPEN [6D 6H 6S] [KD KH RJ=KC]"
    # an opening without the remaining 6♠ does not place the taken card
    assert table.reason(s, table.open(s, 0, "[K♥ K♦ JK→K♣]")) == "OPENING_MUST_USE_TAKEN_CARD"
    s = table.ok(s, table.open(s, 0, "[K♥ K♦ JK→K♣]", "[6♦ 6♥ 6♠]"))
    assert table.events[-1].points == 48
    s = table.ok(s, table.discard(s, 0, "2♣"))
    assert table.hand(s, 0) == table.bag("9♥")


def test_r_s40_11_an_opened_seat_still_places_the_taken_card_by_a_swap(table):
    # A-S40-12 unchanged: for an opened seat the swap places the taken card.
    s = table.build(
        hands={0: "9♥ 2♣"},
        melds=[(0, "[2♠ 3♠ 4♠]"), "[5♠ JK→6♠ 7♠]"],
        phase="DRAW",
        top="6♠",
        options=V6_V16,
    )
    s = table.ok(s, table.take(0))
    s = table.ok(s, table.swap(0, "6♠", 2))
    s = table.ok(s, table.discard(s, 0, "2♣"))
    assert table.hand(s, 0) == table.bag("9♥ JK")


# -- C-S40-5: the pairs §1.16 does not name combine at NewGame ---------------------------------

_NON_DEFAULT = {
    "match_mode": ["SINGLE_DEAL", "NO_ELIMINATION"],
    "elimination_threshold": [101, 201],
    "reentry": [True],
    "no_elimination_target": [1500],
    "court_values_11_14": [True],
    "discard_pickup_for_opening": [True],
    "discard_pickup_keep": [True],
    "close_in_hand_doubles": [True],
    "close_on_first_turn": [True],
    "unopened_flat_penalty_100": [True],
    "forbid_playable_discard_unopened": [False],
    "forbid_playable_discard_opened": ["ALWAYS", "NEVER"],
    "forbid_playable_discard_closing": [True],
    "first_player_may_take_upcard": [True],
    "close_without_discard": [True],
    "quads_to_discard_pile": [True],
    "sequence_split_max5": [True],
    "max_jokers_per_meld": ["UNLIMITED"],
    "joker_swap_for_opening": [True],
    "declare_ambiguous_joker": [False],
    "teams": ["PAIRS"],
    "retrieved_joker_must_be_used": [True],
    "upcard_joker_redraw": [False],
    "close_in_hand_requires_40": [True],
    "max_sequence_length": [13],
    "set_joker_positional_convention": [True],
    "joker_discard": ["NOT_WHEN_UNOPENED", "NEVER", "ANY"],
}


def _named_conflict(a: tuple[str, object], b: tuple[str, object]) -> set[str] | None:
    """The two fields of a conflict §1.16 names (V2 "only in elimination", V3
    "only with elimination; not with V4", V4 "excludes V2, V3"), or None."""
    o = dict([a, b])
    mode = o.get("match_mode", "ELIMINATION")
    if mode != "ELIMINATION" and ("elimination_threshold" in o or "reentry" in o):
        other = "elimination_threshold" if "elimination_threshold" in o else "reentry"
        return {"match_mode", other}
    if mode != "NO_ELIMINATION" and "no_elimination_target" in o:
        return {"no_elimination_target", "match_mode"}
    return None


def test_c_s40_5_every_pair_of_options_combines_but_the_named_conflicts():
    # 4 seats so that teams=PAIRS (V18) is possible with anything.
    items = [(k, v) for k, values in _NON_DEFAULT.items() for v in values]
    refused = []
    for a, b in itertools.combinations(items, 2):
        if a[0] == b[0]:
            continue
        request = service_pb2.NewGameRequest(
            game="scala40", seat_count=4, seed=1, options=settings(dict([a, b]))
        )
        conflict = _named_conflict(a, b)
        if conflict is None:
            api.new_game(request)  # accepted
            continue
        with pytest.raises(InvalidInput) as error:
            api.new_game(request)
        fields = {field.removeprefix("options.") for field, _ in error.value.violations}
        assert conflict <= fields, (a, b, fields)
        refused.append((a, b))
    # match_mode × threshold (2 × 2) and × reentry (2); the target with
    # every value but NO_ELIMINATION (ELIMINATION being the default)
    assert len(refused) == 6 + (len(items) - 2)


# -- V1 × V7, V9: a single deal scores nothing, so they do not apply ---------------------


def test_v1_single_deal_shows_plain_hand_values_whatever_v7_and_v9_say(table):
    """§1.16 V1: SINGLE_DEAL "disables V2–V4, V9, V7 scoring effects": the
    closer wins and `deal_points` show each hand's plain value (T-S40-24's
    hands: 53 and 87), not V9's 100 or V7's doubling (106, 200)."""
    from .test_examples import IN_HAND, IN_HAND_MELDS, P2_HAND, P3_HAND

    for options in (
        {"match_mode": "SINGLE_DEAL", "unopened_flat_penalty_100": True},
        {"match_mode": "SINGLE_DEAL", "unopened_flat_penalty_100": True,
         "close_in_hand_doubles": True},
    ):  # fmt: skip
        s = table.build(
            hands={0: IN_HAND, 1: P2_HAND, 2: P3_HAND}, melds=[(1, "[9♣ 10♣ J♣]")], options=options
        )
        s = table.ok(s, table.open(s, 0, *IN_HAND_MELDS))
        s = table.ok(s, table.discard(s, 0, "K♥"))
        assert table.deal_points(s) == [0, 53, 87], options
        assert table.scores(s) == [0, 0, 0]
        assert list(s.match.winners) == [0]
