"""The fourth spec audit of «Мост» against rummy_and_counting.md PART 2 (with
the Clarifications of 2.13): option pairs in positions where both apply,
edge positions of the bridge, of the circle of ranks and of the stock, and
C-M-1's look-ahead on takes completable only through a chain of actions or
only under an option.

The audit found no divergence of play from the spec. In a one-off run (not
kept, for its cost) C-M-1's look-ahead was compared with an exhaustive
search (every meld, lay-off and exchange, depth 7) on about 20,000
generated takes and 57,000 generated play actions, with jokers on the table
and random option mixes: no disagreement. These tests pin
the edge positions the audit checked, including two readings that RULES.md
now states (R-M-21: a joker taken first may be won back; A-M-03: a joker
laid off by another seat), so that a change in behaviour fails a test.

Each test is named for the rule it pins. P is seat 0, to act; melds on the
table were laid by seat 1 unless said otherwise."""

from __future__ import annotations

from croupier.engine import api
from croupier.v1 import service_pb2

LAY_OFF = {"bridge_card_may_be_laid_off": True}
NEEDS_MELD = {"exchange_requires_meld": True}
RESHUFFLE = {"stock_exhausted": "RESHUFFLE_BRIDGE"}
OWNER = {"exchanged_card_credit": "MELD_OWNER"}


# -- R-M-21 × R-M-32: a joker taken first, melded, then won back ----------------------------------


def test_r_m_21_a_joker_taken_first_and_melded_may_be_won_back_by_exchange(table):
    """R-M-21 asks for a new meld made with the first card taken; R-M-32 lets
    any player exchange a card he holds for a table joker, his own included.
    The duty is met when the meld is made: winning the joker back after that
    is legal, and the joker stays in the hand, not the bridge (K-M-2)."""
    s = table.build(hands={0: "9♣ 9♠ 9♥ K♦ 4♣"}, bridge="5♦ JK", phase="DRAW")
    s = table.ok(s, table.take(0, "JK"))
    s = table.ok(s, table.meld(s, 0, "[9♣ 9♠ JK→9♥]"))
    assert s.most.bridge_card_owed is False
    s = table.ok(s, table.exchange(0, "9♥"))
    assert table.melds(s) == ["[9♣ 9♥ 9♠]"]
    assert table.hand(s, 0) == table.bag("JK K♦ 4♣")
    assert table.reason(s, table.discard(s, 0, "JK")) == "DISCARD_OF_BRIDGE_CARD"
    assert [m for m in table.legal(s) if m.startswith("DISCARD")] == ["DISCARD 4C", "DISCARD KD"]
    s = table.ok(s, table.discard(s, 0, "K♦"))
    assert table.bridge(s) == ["5♦", "K♦"]


# -- R-M-10 × R-M-31 × A-M-01: the bridge card laid off round the corner --------------------------


def test_a_m_01_the_bridge_card_is_laid_off_at_either_end_of_a_wrapped_sequence(table):
    """Under bridge_card_may_be_laid_off a seat that has melded may take Q♠ and
    lay it below the K♠ of [K♠ A♠ 2♠], or 3♠ above its 2♠; it scores for
    him. Without the option neither take is legal (C-M-1)."""
    layout = dict(
        hands={0: "4♦ K♣ 8♣"},
        melds=[(1, "[K♠ A♠ 2♠]"), (0, "[5♥ 6♥ 7♥]")],
        phase="DRAW",
    )
    for card, end, meld in (("Q♠", "low", "[Q♠ K♠ A♠ 2♠]"), ("3♠", "high", "[K♠ A♠ 2♠ 3♠]")):
        s = table.build(**layout, bridge=f"9♦ {card}")
        assert table.legal(s) == ["DRAW"]
        s = table.build(**layout, bridge=f"9♦ {card}", options=LAY_OFF)
        assert table.legal(s) == ["DRAW", "TAKE " + _notation(card)]
        s = table.ok(s, table.take(0, card))
        s = table.ok(s, table.lay(s, 0, card, 1, end))
        assert table.melds(s)[0] == meld
        assert table.credited(s, 1)[card] == 0
        s = table.ok(s, table.discard(s, 0, "K♣"))
        assert table.bridge(s) == ["9♦", "K♣"]


def _notation(card: str) -> str:
    rank, suit = card[:-1], card[-1]
    return rank + {"♣": "C", "♦": "D", "♥": "H", "♠": "S"}[suit]


def test_a_m_01_the_thirteenth_card_taken_fits_both_ends_of_twelve(table):
    """[3♥ … A♥] (twelve hearts) takes the 2♥ below its 3♥ or above its A♥:
    under bridge_card_may_be_laid_off both lay-offs are listed after the take,
    and either makes the whole suit (R-M-10: thirteen cards at most)."""
    s = table.build(
        hands={0: "4♦ K♣"},
        melds=["[3♥ 4♥ 5♥ 6♥ 7♥ 8♥ 9♥ 10♥ J♥ Q♥ K♥ A♥]", (0, "[5♠ 6♠ 7♠]")],
        bridge="9♦ 2♥",
        phase="DRAW",
        options=LAY_OFF,
    )
    s = table.ok(s, table.take(0, "2♥"))
    assert table.legal(s) == ["LAY 2H ON 1 LOW", "LAY 2H ON 1 HIGH"]
    s = table.ok(s, table.lay(s, 0, "2♥", 1, "high"))
    assert len(s.most.melds[0].cards) == 13
    assert "LAY" not in " ".join(table.legal(s))


# -- R-M-32: a joker standing in a set of four --------------------------------------------------


def test_r_m_32_the_joker_of_a_set_of_four_is_exchanged_for_its_declared_suit_only(table):
    """[5♠ 5♣ 5♦ JK→5♥]: the joker stands for the 5♥, the one suit it was
    declared as; the exchange gives a set of four naturals, the 5♥ scoring
    for the exchanger (A-M-03), and nothing more is laid on it (R-M-11)."""
    s = table.build(hands={0: "5♥ K♣ 4♦"}, melds=["[5♣ 5♦ 5♠ JK→5♥]", (0, "[7♥ 8♥ 9♥]")])
    assert table.legal(s) == ["EXCHANGE 5H", "DISCARD KC", "DISCARD 4D"]
    s = table.ok(s, table.exchange(0, "5♥"))
    assert table.melds(s)[0] == "[5♣ 5♦ 5♥ 5♠]"
    assert table.credited(s, 1) == {"5♣": 1, "5♦": 1, "5♥": 0, "5♠": 1}
    assert not [m for m in table.legal(s) if m.startswith("LAY") and " ON 1" in m]


def test_a_m_03_meld_owner_credit_for_a_joker_another_seat_laid_off(table):
    """MELD_OWNER credits the card put in a joker's place to the seat that
    laid the meld — also when the joker was laid off on it by a third seat
    (RULES.md A-M-03)."""
    s = table.build(
        hands={0: "5♥ K♣ 4♦"},
        melds=[(1, "[5♣ 5♦ 5♠ JK→5♥]", {"JK": 2}), (2, "[7♥ 8♥ 9♥]")],
        options=OWNER,
    )
    s = table.ok(s, table.exchange(0, "5♥"))
    assert table.credited(s, 1)["5♥"] == 1


# -- C-M-1: a take completable only through a chain, and only under an option --------------------


def _chain(table, hand, **options):
    # Seat 1's [8♣ JK→9♣ 10♣] and [2♦ 3♦ 4♦]; P has not melded; the bridge ends 6♦ 8♥.
    return table.build(
        hands={0: hand},
        melds=["[8♣ JK→9♣ 10♣]", "[2♦ 3♦ 4♦]"],
        bridge="J♥ 6♦ 8♥",
        phase="DRAW",
        options=options,
    )


def test_c_m_1_a_take_completed_by_meld_exchange_and_two_lay_offs(table):
    """Under exchange_requires_meld and bridge_card_may_be_laid_off, P (no meld
    yet) may take 6♦ only through a chain: meld [5♣ 5♥ 5♠] (which opens the
    exchange and lay-offs), exchange 9♣ for the joker, lay the joker on
    [2♦ 3♦ 4♦] as the 5♦, then lay the 6♦ on it."""
    s = _chain(table, "5♣ 5♥ 5♠ 9♣ K♠", **NEEDS_MELD, **LAY_OFF)
    assert table.legal(s) == ["DRAW", "TAKE 6D"]
    s = table.ok(s, table.take(0, "6♦"))
    assert table.reason(s, table.exchange(0, "9♣")) == "EXCHANGE_NEEDS_OWN_MELD"
    s = table.ok(s, table.meld(s, 0, "[5♣ 5♥ 5♠]"))
    s = table.ok(s, table.exchange(0, "9♣"))
    s = table.ok(s, table.lay(s, 0, "JK", 2, "high"))
    s = table.ok(s, table.lay(s, 0, "6♦", 2, "high"))
    assert s.most.bridge_card_owed is False
    assert table.melds(s)[1] == "[2♦ 3♦ 4♦ JK→5♦ 6♦]"
    s = table.ok(s, table.discard(s, 0, "K♠"))
    assert table.bridge(s) == ["J♥", "K♠"]


def test_c_m_1_the_chain_take_is_refused_without_the_lay_off_option_or_the_joker(table):
    """The same take is refused when the 6♦ could only go into a new meld
    (default: no 6♦ meld can be formed, even with the joker), and under the
    option when no joker can be won (9♥ instead of 9♣)."""
    refused = "BRIDGE_CARD_CANNOT_BE_MELDED"
    s = _chain(table, "5♣ 5♥ 5♠ 9♣ K♠", **NEEDS_MELD)
    assert table.legal(s) == ["DRAW"]
    assert table.reason(s, table.take(0, "6♦")) == refused
    s = _chain(table, "5♣ 5♥ 5♠ 9♥ K♠", **NEEDS_MELD, **LAY_OFF)
    assert table.legal(s) == ["DRAW"]
    assert table.reason(s, table.take(0, "6♦")) == refused


# -- R-M-23 × C-M-2: the stock running out, a one-card bridge -------------------------------------


def test_c_m_2_a_one_card_bridge_becomes_the_stock_once(table):
    """The stock is empty. P takes the whole bridge, melds and discards: the
    bridge is the one card he discarded. Seat 1's draw turns it into a stock
    (the first time in the hand) and draws it; seat 2's draw finds the stock
    empty again with no card on the table since: the hand ends (R-M-23),
    nobody out."""
    s = table.build(
        3,
        hands={0: "9♥ 9♠ K♣ 4♦", 1: "3♦ 7♣", 2: "2♣ Q♦"},
        bridge="9♣ 5♦",
        stock="",
        phase="DRAW",
        spare=1,
        options=RESHUFFLE,
    )
    s = table.ok(s, table.take(0, "9♣"))
    s = table.ok(s, table.meld(s, 0, "[9♣ 9♥ 9♠]"))
    s = table.ok(s, table.discard(s, 0, "K♣"))
    assert (table.bridge(s), table.stock_size(s)) == (["K♣"], 0)
    s = table.ok(s, table.draw(1))
    assert table.kinds() == ["STOCK_RESTOCKED", "CARDS_DRAWN"]
    assert table.bridge(s) == [] and table.hand(s, 1)["K♣"] == 1
    s = table.ok(s, table.discard(s, 1, "K♣"))
    s = table.ok(s, table.draw(2))
    assert table.rule_events() == ["STOCK_EXHAUSTED"]
    assert table.match_phase(s) == "DEAL_OVER"


def test_c_m_2_the_first_reshuffle_of_a_hand_is_free(table):
    """C-M-2 turns the bridge into a stock *again* only after a card reached
    the table since the last reshuffle: the first time needs nothing. With
    nothing melded this hand, P's draw from the empty stock shuffles the
    three bridge cards into a stock and draws one of them (rules version 4;
    version 3 ended the hand here). P's second empty stock, still with
    nothing on the table, ends the hand."""
    s = table.build(
        2,
        hands={0: "K♣ 9♦", 1: "3♦ 4♦"},
        bridge="8♥ 5♣ 7♠",
        stock="",
        phase="DRAW",
        spare=1,
        options=RESHUFFLE,
    )
    assert not s.most.reshuffled
    s = table.ok(s, table.draw(0))
    assert table.kinds() == ["STOCK_RESTOCKED", "CARDS_DRAWN"]
    assert table.match_phase(s) == "DEAL_IN_PROGRESS"
    assert (table.bridge(s), table.stock_size(s), len(s.most.hands[0].cards)) == ([], 2, 3)
    assert s.most.reshuffled and s.most.table_cards_at_reshuffle == 0
    seen = api.get_view(service_pb2.GetViewRequest(state=s, seat=1)).view
    assert seen.most.reshuffled  # public: everyone saw the bridge go
    s = table.ok(s, table.discard(s, 0, "K♣"))
    s = table.ok(s, table.draw(1))
    s = table.ok(s, table.discard(s, 1, "3♦"))
    s = table.ok(s, table.draw(0))
    assert table.stock_size(s) == 0 and table.bridge(s) == ["K♣", "3♦"]
    s = table.ok(s, table.discard(s, 0, "9♦"))
    s = table.ok(s, table.draw(1))
    assert table.rule_events() == ["STOCK_EXHAUSTED"]
    assert table.match_phase(s) == "DEAL_OVER"


# -- R-M-34 × A-M-01 × C-M-5: going out by laying off the bridge card ------------------------


def test_r_m_34_a_first_meld_then_the_bridge_card_laid_off_goes_out(table):
    """P (no meld yet) holds 5♣ 5♥ 5♠; the bridge is the 6♦ alone, and seat 1
    has [2♦ 3♦ 4♦ 5♦]. Placing the 6♦ needs bridge_card_may_be_laid_off and a
    first meld, and then the hand is empty: without go_out_without_discard
    the take is refused (no discard would be left, C-M-1); with it — also
    under exchange_requires_meld — meld, lay-off and the hand ends, P scoring
    15 + 5."""
    layout = dict(hands={0: "5♣ 5♥ 5♠"}, melds=["[2♦ 3♦ 4♦ 5♦]"], bridge="6♦", phase="DRAW")
    s = table.build(**layout, options=LAY_OFF)
    assert table.legal(s) == ["DRAW"]
    for extra in ({}, NEEDS_MELD):
        s = table.build(**layout, options={**LAY_OFF, "go_out_without_discard": True, **extra})
        assert table.legal(s) == ["DRAW", "TAKE 6D"]
        s = table.ok(s, table.take(0, "6♦"))
        assert table.legal(s) == ["MELD [5C 5H 5S]"]
        s = table.ok(s, table.meld(s, 0, "[5♣ 5♥ 5♠]"))
        assert table.legal(s) == ["LAY 6D ON 1 HIGH"]
        s = table.ok(s, table.lay(s, 0, "6♦", 1, "high"))
        assert table.rule_events() == ["LAID_OFF", "WENT_OUT"]
        assert table.deal_points(s)[0] == 20
