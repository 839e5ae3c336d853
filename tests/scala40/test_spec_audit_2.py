"""A second audit of the Scala 40 rules (rummy_and_counting.md PART 1) over
what test_spec_audit.py did not probe: teams, the deal for 2–6 seats, the
exhausted stock with options, options of §1.16 not yet pinned, the conflicts
refused at NewGame, listed moves against accepted ones on crowded positions,
the opening finder with two jokers and aces, DefaultMove by phase and the
views. P is seat 0, to act; melds on the table were laid by seat 1 unless said
otherwise; defaults (FISC preset) unless an option is named."""

from __future__ import annotations

import pytest

from croupier.engine import api, cards
from croupier.engine.analysis import analyse_hand
from croupier.engine.errors import InvalidInput
from croupier.v1 import game_pb2, service_pb2
from spec_notation import settings

from .conftest import ENDS

MINE = (0, "[2♠ 3♠ 4♠]")
PAIRS = {"teams": "PAIRS"}
TRIPLES = {"teams": "TRIPLES"}


def _analyse(state, seat):
    return analyse_hand(service_pb2.AnalyseHandRequest(state=state, seat=seat)).scala40


def _view(state, seat):
    return api.get_view(service_pb2.GetViewRequest(state=state, seat=seat)).view.scala40


def _new(seats, options):
    request = service_pb2.NewGameRequest(
        game="scala40", seat_count=seats, seed=1, options=settings(options)
    )
    return api.new_game(request)


# -- teams (V18, A-S40-14, C-S40-7) -----------------------------------------------------------


def test_v18_triples_partners_alternate_and_each_member_holds_the_team_total(table):
    s = table.build(
        6,
        hands={0: "Q♣", 1: "A♠", 2: "3♣", 3: "2♣ 2♦", 4: "K♦", 5: "JK"},
        melds=[MINE, (1, "[9♥ 10♥ J♥]")],
        opened=[2, 3, 4, 5],
        scores=[10, 20, 10, 20, 10, 20],
        options=TRIPLES,
    )
    assert [seat.team for seat in s.seats] == [1, 2, 1, 2, 1, 2]
    s = table.ok(s, table.discard(s, 0, "Q♣"))
    assert table.deal_points(s) == [0, 11, 3, 4, 10, 25]
    assert table.scores(s) == [23, 60, 23, 60, 23, 60]
    assert table.match_phase(s) == "DEAL_OVER"
    assert table.eliminated(s) == [False] * 6


def test_a_s40_14_the_closers_partner_pays_his_hand_and_the_team_can_lose(table):
    # Seat 2 closes; his partner (seat 0) still pays his own hand: the closing
    # team reaches 151 and loses, the other team wins (A-S40-14).
    s = table.build(
        4,
        hands={2: "Q♣", 0: "K♠ K♦ 5♣", 1: "2♣", 3: "3♣"},
        melds=[(2, "[2♠ 3♠ 4♠]")],
        opened=[0, 1, 3],
        current=2,
        scores=[126, 10, 126, 10],
        options=PAIRS,
    )
    s = table.ok(s, table.discard(s, 2, "Q♣"))
    assert table.deal_points(s) == [25, 2, 0, 3]
    assert table.scores(s) == [151, 15, 151, 15]
    assert table.match_phase(s) == "MATCH_OVER"
    assert table.winners(s) == [1, 3]
    assert table.eliminated(s) == [True, False, True, False]


def test_v18_with_v3_a_team_at_the_threshold_still_loses(table):
    # RULES.md: V3 is inert with teams (two teams: one is always below).
    s = table.build(
        4,
        hands={0: "Q♣", 1: "A♠", 2: "3♣", 3: "2♣"},
        melds=[MINE],
        opened=[1, 2, 3],
        scores=[0, 140, 0, 140],
        options={**PAIRS, "reentry": True},
    )
    s = table.ok(s, table.discard(s, 0, "Q♣"))
    assert table.scores(s) == [3, 153, 3, 153]
    assert table.match_phase(s) == "MATCH_OVER"
    assert table.winners(s) == [0, 2]


@pytest.mark.parametrize(("extra", "over"), [("2♦", False), ("3♦", True)])
def test_v18_no_elimination_team_totals_against_the_target(table, extra, over):
    s = table.build(
        4,
        hands={0: "Q♣", 1: "A♠", 2: f"5♦ {extra}", 3: "2♣"},
        melds=[MINE],
        opened=[1, 2, 3],
        scores=[992, 900, 992, 900],
        options={**PAIRS, "match_mode": "NO_ELIMINATION"},
    )
    s = table.ok(s, table.discard(s, 0, "Q♣"))
    team1 = 992 + 5 + int(extra[0])
    assert table.scores(s) == [team1, 913, team1, 913]
    assert table.eliminated(s) == [False] * 4
    if over:  # 1000 reached by team 1: the lower total (team 2) wins
        assert table.match_phase(s) == "MATCH_OVER"
        assert table.winners(s) == [1, 3]
    else:
        assert table.match_phase(s) == "DEAL_OVER"


def test_v18_with_v7_a_close_in_hand_doubles_the_partners_penalty_too(table):
    s = table.build(
        4,
        hands={0: "A♣ 2♣ 3♣ 2♥ 2♠ 2♦ K♥", 1: "5♣", 2: "4♦", 3: "3♦"},
        melds=[(1, "[9♥ 10♥ J♥]")],
        opened=[1, 2, 3],
        options={**PAIRS, "close_in_hand_doubles": True},
    )
    s = table.ok(s, table.open(s, 0, "[A♣ 2♣ 3♣]", "[2♥ 2♠ 2♦]"))
    s = table.ok(s, table.discard(s, 0, "K♥"))
    assert table.deal_points(s) == [0, 10, 8, 6]
    assert table.scores(s) == [8, 16, 8, 16]


# -- the deal (R-S40-04/05/06, R-S40-102) ---------------------------------------------------


@pytest.mark.parametrize("seats", [2, 3, 4, 5, 6])
def test_r_s40_05_every_seat_count_deals_13_each_and_the_deal_passes_left(table, seats):
    s = table.new(seats, seed=7)
    first = s.scala40.dealer
    assert [len(h.cards) for h in s.scala40.hands] == [13] * seats
    assert table.stock_size(s) == 108 - 13 * seats - 1
    assert len(table.pile(s)) == 1 and table.pile(s) != ["JK"]
    assert s.current_seat == (first + 1) % seats
    assert list(s.scala40.turns_started) == [1 if x == s.current_seat else 0 for x in range(seats)]
    assert not any(s.scala40.opened)
    # A closed deal, then the next: the seat left of the old dealer deals.
    closer = s.current_seat
    hands = {x: f"{x + 5}♣" for x in range(seats)}
    hands[closer] = "Q♦"
    built = table.build(
        seats, hands=hands, melds=[(closer, "[2♠ 3♠ 4♠]")], current=closer, dealer=first
    )
    built = table.ok(built, table.discard(built, closer, "Q♦"))
    nxt = table.next_deal(built)
    assert nxt.scala40.dealer == (first + 1) % seats
    assert nxt.current_seat == (first + 2) % seats
    assert [len(h.cards) for h in nxt.scala40.hands] == [13] * seats
    assert table.stock_size(nxt) == 108 - 13 * seats - 1
    assert nxt.match.deal_number == built.match.deal_number + 1


def test_r_s40_102_with_two_seats_out_of_five_the_deal_skips_both(table):
    s = table.build(
        5,
        hands={0: "Q♣", 2: "5♣", 4: "6♣"},
        melds=[MINE],
        eliminated=[1, 3],
        scores=[0, 160, 10, 170, 20],
        dealer=4,
    )
    s = table.ok(s, table.discard(s, 0, "Q♣"))
    s = table.next_deal(s)
    assert s.scala40.dealer == 0  # 4 → 0
    assert s.current_seat == 2  # seat 1 is out
    assert [len(h.cards) for h in s.scala40.hands] == [13, 0, 13, 0, 13]
    assert table.stock_size(s) == 108 - 39 - 1
    # And the deal after: 0 → 2.
    layout = {
        "hands": {2: "Q♣", 0: "5♣", 4: "6♣"},
        "melds": [(2, "[2♠ 3♠ 4♠]")],
        "eliminated": [1, 3],
        "scores": [0, 160, 10, 170, 20],
    }
    s2 = table.build(5, **layout, current=2, dealer=0)
    s2 = table.next_deal(table.ok(s2, table.discard(s2, 2, "Q♣")))
    assert s2.scala40.dealer == 2 and s2.current_seat == 4


def test_r_s40_07_v20_off_the_upcard_may_be_a_joker_and_the_stock_keeps_the_rest(table):
    jokers_up = 0
    for seed in range(200):
        s = table.new(2, {"upcard_joker_redraw": False}, seed=seed)
        assert table.stock_size(s) == 108 - 26 - 1
        jokers_up += table.pile(s) == ["JK"]
    assert jokers_up > 0  # 4/82 of deals turn a joker; none is put back
    for seed in range(200):
        s = table.new(2, seed=seed)
        assert table.pile(s) != ["JK"]
        assert table.stock_size(s) == 108 - 26 - 1


# -- the conflicts of §1.16 (C-S40-5) -------------------------------------------------------


@pytest.mark.parametrize(
    ("options", "seats", "named"),
    [
        ({"match_mode": "SINGLE_DEAL", "no_elimination_target": 2000}, 3,
         ("options.no_elimination_target", "options.match_mode")),
        ({"match_mode": "SINGLE_DEAL", "elimination_threshold": 201}, 3,
         ("options.elimination_threshold", "options.match_mode")),
        ({"teams": "PAIRS"}, 6, ("options.teams", "seat_count")),
        ({"teams": "TRIPLES"}, 5, ("options.teams", "seat_count")),
    ],
)  # fmt: skip
def test_c_s40_5_real_conflicts_are_refused_at_new_game_naming_both(options, seats, named):
    with pytest.raises(InvalidInput) as error:
        _new(seats, options)
    assert tuple(field for field, _ in error.value.violations) == named


def test_c_s40_5_inert_combinations_are_accepted():
    _new(3, {"match_mode": "SINGLE_DEAL", "unopened_flat_penalty_100": True})
    _new(4, {"teams": "PAIRS", "reentry": True})
    _new(3, {"discard_pickup_keep": True, "discard_pickup_for_opening": True})
    _new(3, {"first_player_may_take_upcard": True, "discard_pickup_for_opening": True})
    _new(3, {"match_mode": "NO_ELIMINATION", "no_elimination_target": 2000})


# -- listed moves = accepted moves on crowded positions (§1.8, §1.9, §1.10) -------------------


def _lay_off(seat, meld_id, value, end=0, joker_as=0):
    move = game_pb2.Move(seat=seat)
    lay = move.scala40.lay_off
    lay.meld_id, lay.card, lay.end, lay.joker_as = meld_id, value, end, joker_as
    return move


def _every_try(state):
    """Every lay-off (each card, meld, end, joker identity), swap and discard."""
    seat = state.current_seat
    hand = sorted(set(state.scala40.hands[seat].cards))
    naturals = sorted({v for v in cards.double_pack_108() if not cards.is_joker(v)})
    for meld in state.scala40.melds:
        for value in hand:
            for end in (0, *ENDS.values()):
                identities = [0, *naturals] if cards.is_joker(value) else [0]
                for joker_as in identities:
                    yield _lay_off(seat, meld.id, value, end, joker_as)
            if not cards.is_joker(value):
                move = game_pb2.Move(seat=seat)
                move.scala40.swap_joker.meld_id, move.scala40.swap_joker.card = meld.id, value
                yield move
    for value in hand:
        move = game_pb2.Move(seat=seat)
        move.scala40.discard.card = value
        yield move


def _accepted_equals_listed(table, state):
    kinds = ("LAY", "SWAP", "DISCARD")
    listed = {m for m in table.legal(state) if m.startswith(kinds)}
    accepted = set()
    for move in _every_try(state):
        response = table.apply(state, move)
        if response.accepted:
            accepted.add(response.notation)
    assert accepted == listed
    return listed


def test_listing_every_lay_off_swap_and_discard_of_a_crowded_table(table):
    s = table.build(
        hands={0: "JK JK 6♥ 9♥ 10♥ 7♥ 7♦ A♠ 10♠ 4♦ 9♣ K♦ 8♣"},
        melds=[MINE, "[7♥ 8♥ JK→9♥]", "[7♣ 7♠ JK→7♥]", "[J♠ Q♠ K♠]", "[A♦ 2♦ 3♦]",
               "[10♣ J♣ Q♣ K♣]", "[9♦ 9♣ 9♥ 9♠]"],
    )  # fmt: skip
    listed = _accepted_equals_listed(table, s)
    lays = sorted(m for m in listed if m.startswith(("LAY", "SWAP")))
    assert len([m for m in lays if m.startswith("SWAP")]) == 2  # 9♥ on 2, 7♥ on 3
    assert "LAY 7D ON 3" in listed and "LAY 10S ON 4 LOW" in listed
    assert "LAY AS ON 4 HIGH" in listed and "LAY 4D ON 5 HIGH" in listed
    assert "LAY 9C ON 6 LOW" in listed and not any(" ON 7" in m for m in lays)
    # Opened, three players: no playable card (9♥ and 7♥ only replace jokers,
    # A-S40-07) and no joker while other cards remain.
    discards = sorted(m for m in listed if m.startswith("DISCARD"))
    assert discards == ["DISCARD 7H", "DISCARD 8C", "DISCARD 9H", "DISCARD KD"]


def test_listing_with_an_owed_taken_card_and_unlimited_undeclared_jokers(table):
    s = table.build(
        hands={0: "JK 7♦ 7♥ 5♥ 10♥ Q♠ 2♣"},
        melds=[MINE, "[7♣ 7♠ JK]", "[6♥ 7♥ JK→8♥ 9♥]", "[J♦ Q♦ K♦]"],
        taken="5♥",
        options={"declare_ambiguous_joker": False, "max_jokers_per_meld": "UNLIMITED"},
    )
    listed = _accepted_equals_listed(table, s)
    # The taken 5♥ goes only low on meld 3; every other play must leave it placeable.
    assert "LAY 5H ON 3 LOW" in listed
    assert not any(m.startswith("DISCARD 5H") for m in listed)


def test_listing_of_an_unopened_seat_is_discards_only(table):
    s = table.build(
        hands={0: "JK 7♦ 4♦ 8♦ K♠ 2♣ 9♠"},
        melds=["[5♦ 6♦ 7♦]", "[7♣ 7♠ JK→7♥]"],
    )
    listed = _accepted_equals_listed(table, s)
    assert listed == {"DISCARD 2C", "DISCARD 9S", "DISCARD KS"}


def test_v14_a_card_a_split_would_take_is_playable_and_lay_offs_stop_at_five(table):
    v14 = {"sequence_split_max5": True}
    s = table.build(hands={0: "10♣ 6♣ K♠ 2♦"}, melds=["[5♣ 6♣ 7♣ 8♣ 9♣]"], options=v14)
    assert table.reason(s, table.discard(s, 0, "10♣")) == "DISCARD_PLAYABLE_UNOPENED"
    assert table.reason(s, table.discard(s, 0, "6♣")) == "ACCEPTED"
    s = table.build(
        hands={0: "10♣ 4♦ K♠ 2♦"}, melds=[MINE, "[5♣ 6♣ 7♣ 8♣ 9♣]", "[5♦ 6♦ 7♦]"], options=v14
    )
    listed = _accepted_equals_listed(table, s)
    assert "LAY 4D ON 3 LOW" in listed
    assert not any(m.startswith("LAY 10C") for m in listed)
    assert "SPLIT 2 [5C 6C 7C] [8C 9C 10C]" in table.legal(s)
    assert sorted(m for m in listed if m.startswith("DISCARD")) == ["DISCARD 2D", "DISCARD KS"]


# -- options of §1.16 at the edges ------------------------------------------------------------


def test_v11_the_first_player_is_the_next_seat_still_in_the_match(table):
    layout = {
        "hands": {1: "2♦ K♠ 5♥", 2: "3♦", 3: "4♦"},
        "phase": "DRAW",
        "top": "9♣",
        "turn": 1,
        "current": 1,
        "dealer": 3,
        "eliminated": [0],
        "scores": [160, 0, 0, 0],
        "options": {"first_player_may_take_upcard": True},
    }
    s = table.build(4, **layout)
    s = table.ok(s, table.take(1))
    assert table.reason(s, table.discard(s, 1, "9♣")) == "DISCARD_OF_KEPT_CARD"
    s = table.ok(s, table.discard(s, 1, "2♦"))
    assert table.hand(s, 1) == table.bag("K♠ 5♥ 9♣")


def test_r_s40_90_with_v13_the_quad_laid_after_the_restock_starts_the_new_pile(table):
    s = table.build(
        2,
        hands={0: "8♥ 8♠ 8♦ K♠ 2♦"},
        melds=[MINE],
        phase="DRAW",
        stock="8♣",
        top="9♠",
        options={"quads_to_discard_pile": True},
    )
    pile = len(table.pile(s))
    s = table.ok(s, table.draw(0))
    assert table.stock_size(s) == pile and table.pile(s) == []
    s = table.ok(s, table.meld(s, 0, "[8♣ 8♦ 8♥ 8♠]"))
    s = table.ok(s, table.discard(s, 0, "2♦"))
    assert table.pile(s)[-1] == "2♦"
    assert table.bag(" ".join(table.pile(s)[:-1])) == table.bag("8♣ 8♦ 8♥ 8♠")
    assert table.melds(s) == ["[2♠ 3♠ 4♠]"]
    assert table.stock_size(s) == pile


def test_v21_closing_in_hand_needs_40_and_the_listing_drops_the_closing_opening(table):
    hand = {0: "A♣ 2♣ 3♣ 2♥ 2♠ 2♦ K♥"}
    s = table.build(hands=hand)
    assert "OPEN [AC 2C 3C] [2D 2H 2S]" in table.legal(s)
    s = table.build(hands=hand, options={"close_in_hand_requires_40": True})
    move = table.open(s, 0, "[A♣ 2♣ 3♣]", "[2♥ 2♠ 2♦]")
    assert table.reason(s, move) == "OPENING_BELOW_40"
    assert not any(m.startswith("OPEN") for m in table.legal(s))


def test_v6b_the_kept_card_may_be_discarded_in_a_later_turn(table):
    s = table.build(hands={0: "2♦ K♠ 9♣"}, melds=[MINE], options={"discard_pickup_keep": True})
    s = table.ok(s, table.discard(s, 0, "9♣"))
    assert table.top(s) == "9♣"


def test_v6b_does_not_let_an_unopened_seat_take_the_discard(table):
    s = table.build(
        hands={0: "2♦ K♠ 9♣"}, phase="DRAW", top="5♥", options={"discard_pickup_keep": True}
    )
    assert table.reason(s, table.take(0)) == "TAKE_DISCARD_NEEDS_OPENED"


def test_v24_never_a_joker_as_the_last_card_is_lifted_by_the_fallback(table):
    s = table.build(hands={0: "JK"}, melds=[MINE], options={"joker_discard": "NEVER"})
    s = table.ok(s, table.discard(s, 0, "JK"))
    assert table.match_phase(s) == "DEAL_OVER"


def test_v8_a_first_turn_close_in_hand_with_v7_doubles(table):
    s = table.build(
        hands={0: "A♣ 2♣ 3♣ 2♥ 2♠ 2♦ K♥", 1: "5♣", 2: "4♦"},
        turn=1,
        dealer=2,
        opened=[1, 2],
        options={"close_on_first_turn": True, "close_in_hand_doubles": True},
    )
    s = table.ok(s, table.open(s, 0, "[A♣ 2♣ 3♣]", "[2♥ 2♠ 2♦]"))
    s = table.ok(s, table.discard(s, 0, "K♥"))
    assert table.deal_points(s) == [0, 10, 8]


# -- the opening finder (AnalyseHand), two jokers and aces --------------------------------------


@pytest.mark.parametrize(
    ("options", "value", "used"),
    [
        ({}, 64, 6),
        ({"max_jokers_per_meld": "UNLIMITED"}, 64, 6),
        ({"court_values_11_14": True}, 81, 6),
    ],
    ids=["default", "unlimited", "court"],
)
def test_analysis_two_jokers_go_to_an_ace_set_and_a_high_ace(table, options, value, used):
    # [A♥ A♠ JK] 33 + [Q♥ K♥ JK→A♥] 31 (court: 42 + 39); 2♣ 3♣ have no joker left.
    s = table.build(hands={0: "JK JK A♥ A♠ Q♥ K♥ 2♣ 3♣ 7♦ 9♠ 4♥"}, options=options)
    a = _analyse(s, 0)
    assert (a.value, a.cards_used, a.reaches_threshold) == (value, used, True)
    assert sum(1 for m in a.melds for v in m.cards if cards.is_joker(v)) == 2


@pytest.mark.parametrize(
    ("options", "value", "reaches"),
    [({}, 36, False), ({"max_jokers_per_meld": "UNLIMITED"}, 40, True)],
    ids=["default", "unlimited"],
)
def test_analysis_a_low_ace_joker_sequence_or_two_jokers_in_a_set(table, options, value, reaches):
    # One joker a meld: [K♠ K♦ JK] 30 + [A♣ 2♣ JK→3♣] 6 = 36; unlimited: [K♠ K♦ JK JK] 40.
    s = table.build(hands={0: "JK JK A♣ 2♣ K♠ K♦ Q♥ 5♦ 8♠"}, options=options)
    a = _analyse(s, 0)
    assert (a.value, a.reaches_threshold) == (value, reaches)


# -- DefaultMove in each phase ---------------------------------------------------------------


def test_default_move_draws_then_discards_the_drawn_card(table):
    s = table.build(hands={0: "2♦ K♠ 9♣"}, melds=[MINE], phase="DRAW", stock="Q♥ …")
    assert table.default(s) == "DRAW"
    s = table.ok(s, table.draw(0))
    assert table.default(s) == "DISCARD QH"


def test_default_move_when_the_drawn_card_is_playable_is_the_first_legal_discard(table):
    s = table.build(hands={0: "K♠ 9♣"}, melds=[MINE], phase="DRAW", stock="5♠ …")
    s = table.ok(s, table.draw(0))
    assert table.reason(s, table.discard(s, 0, "5♠")) == "DISCARD_PLAYABLE_OPENED"
    assert table.default(s) == "DISCARD 9C"


def test_default_move_places_the_owed_card_then_discards(table):
    s = table.build(hands={0: "K♠ 9♣"}, melds=[MINE, "[7♥ 8♥ 9♥]"], phase="DRAW", top="6♥")
    s = table.ok(s, table.take(0))
    assert table.default(s) == "LAY 6H ON 2 LOW"
    s = table.ok(s, table.lay(s, 0, "6♥", 2, "low"))
    assert table.default(s) == "DISCARD 9C"


def test_default_move_with_a_v19_joker_owed_places_the_joker(table):
    """RULES.md "Default move": with a joker owed (V19), the first legal move that
    places it, not the first legal move ([7♣ 7♦ 7♥] leaves the joker owed)."""
    s = table.build(hands={0: "6♠ 7♦ 7♥ 7♣ K♦ 2♦"},
                    melds=[MINE, "[5♠ JK→6♠ 7♠]", "[9♥ 10♥ J♥]"],
                    options={"retrieved_joker_must_be_used": True})  # fmt: skip
    s = table.ok(s, table.swap(0, "6♠", 2))
    assert table.legal(s)[0] == "MELD [7C 7D 7H]"
    assert table.default(s) == "MELD [7C 7D 7H RJ=7S]"
    s = table.ok(s, table.meld(s, 0, "[7♣ 7♦ 7♥ JK→7♠]"))
    assert table.default(s) == "DISCARD 2D"


def test_default_move_with_a_taken_joker_owed_places_any_joker(table):
    """C-S40-8 with V19: TAKE (the black joker), SWAP 6♠ (the red one, owed too),
    the black one laid: one joker is still owed, and only the red one is held —
    DefaultMove places it (it looked for the black one only)."""
    s = table.build(hands={0: "6♠ 7♦ 7♥ 7♣ K♦ 2♦"},
                    melds=[MINE, "[5♠ JK→6♠ 7♠]", "[9♥ 10♥ J♥]", "[4♣ 5♣ 6♣]"],
                    phase="DRAW", top="JK",
                    options={"retrieved_joker_must_be_used": True})  # fmt: skip
    s = table.ok(s, table.take(0))
    assert table.default(s) == "MELD [7C 7D 7H BJ=7S]"
    s = table.ok(s, table.swap(0, "6♠", 2))
    s = table.ok(s, table.lay(s, 0, "JK", 3, "high"))  # the first joker of the hand: BJ
    assert table.hand(s, 0)["JK"] == 1
    assert table.legal(s)[0] == "MELD [7C 7D 7H]"
    assert table.default(s) == "MELD [7C 7D 7H RJ=7S]"


def test_default_move_after_an_opening_below_40_is_the_closing_discard(table):
    s = table.build(hands={0: "A♣ 2♣ 3♣ 2♥ 2♠ 2♦ K♥"})
    s = table.ok(s, table.open(s, 0, "[A♣ 2♣ 3♣]", "[2♥ 2♠ 2♦]"))
    assert table.default(s) == "DISCARD KH"


# -- views ----------------------------------------------------------------------------------------


def test_views_show_the_drawn_card_to_its_drawer_only_and_no_other_hand(table):
    s = table.build(hands={0: "2♦ K♠", 1: "5♣ 6♣", 2: "7♦"}, melds=[MINE], phase="DRAW",
                    stock="Q♥ …")  # fmt: skip
    s = table.ok(s, table.draw(0))
    mine, theirs = _view(s, 0), _view(s, 1)
    assert table.c("Q♥") == mine.drawn_card and not theirs.drawn_card
    assert sorted(theirs.hand) == sorted([table.c("5♣"), table.c("6♣")])
    assert list(theirs.hand_sizes) == [3, 2, 1]
    assert theirs.stock_size == table.stock_size(s)
    assert list(theirs.opened) == [True, False, False]
    shown = {field.name for field, _ in theirs.ListFields()}
    assert shown <= {
        "hand", "hand_sizes", "stock_size", "discard", "melds", "opened", "turns_started",
        "phase", "dealer", "drawn_card", "taken_card", "taken_must_be_placed", "jokers_owed",
        "opened_this_turn", "must_close", "restocks_without_play",
    }  # fmt: skip


def test_views_show_the_taken_card_to_everyone(table):
    s = table.build(hands={0: "K♠ 9♣"}, melds=[MINE, "[7♥ 8♥ 9♥]"], phase="DRAW", top="6♥")
    s = table.ok(s, table.take(0))
    for seat in range(3):
        v = _view(s, seat)
        assert v.taken_card == table.c("6♥") and v.taken_must_be_placed
        assert not v.drawn_card


def test_v12_with_v13_a_quad_of_the_last_four_cards_closes_and_goes_to_the_pile(table):
    s = table.build(
        hands={0: "8♥ 8♠ 8♦ 8♣", 1: "5♣", 2: "4♦"},
        melds=[MINE],
        opened=[1, 2],
        top="9♠",
        options={"close_without_discard": True, "quads_to_discard_pile": True},
    )
    s = table.ok(s, table.meld(s, 0, "[8♣ 8♦ 8♥ 8♠]"))
    assert table.match_phase(s) == "DEAL_OVER"
    assert table.deal_points(s) == [0, 5, 4]
    assert table.pile(s)[-5] == "9♠"
    assert table.bag(" ".join(table.pile(s)[-4:])) == table.bag("8♣ 8♦ 8♥ 8♠")


def test_listing_every_one_meld_opening_that_is_accepted(table):
    from croupier.games.scala40 import legal
    from croupier.games.scala40.position import Position
    from croupier.games.scala40.rules import rules_for

    s = table.build(hands={0: "JK A♥ A♠ A♦ K♥ Q♥ J♥ 10♥ 9♣ 2♣"})
    pos = Position.read(s, rules_for(s.options.scala40))
    listed = {m for m in table.legal(s) if m.startswith("OPEN")}
    accepted = set()
    for key in legal.formable_melds(pos.hand, pos):
        response = table.apply(s, legal.open_move(0, [key]))
        if response.accepted:
            accepted.add(response.notation)
    assert accepted <= listed
    assert "OPEN [10H JH QH KH AH]" in accepted  # 51
    assert "OPEN [AD AH AS RJ=AC]" in accepted  # 44
    assert "OPEN [RJ=10H JH QH KH]" in accepted  # 40
    assert "OPEN [9H 10H JH QH KH AH]" not in listed
