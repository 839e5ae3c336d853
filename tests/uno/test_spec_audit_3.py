"""A third adversarial audit of UNO, kept from the audit's scratch file:
scoring arithmetic (R11, H14, U15, B30) and a scoring mini-model over random
round ends, NextDeal (R2, U1, U2, D9) and a mini-model of it, two players
with house rules (§2.9, R12), rounds that end on an answer (U13, H1, H2),
and H15 through the API.

The defects it found are pinned where their rules are: U2 under H7
(test_ambiguities.py, test_b04_*), a decided match in play
(test_validation.py), DefaultMove (test_default_move.py), C-UNO-8 with a
catch, a report, a misplay or a slap during the challenge window
(test_clarifications.py)."""

from __future__ import annotations

import random as _random

import pytest

from croupier.engine.errors import FailedPrecondition
from croupier.engine.uno_cards import KIND_OF, Kind, parse_uno_card, uno_card_text, uno_deck


def deal_with_first(table, state, card, tries=4000):
    """NextDeal from `state` with the first rng counter (from the state's own)
    that turns `card` first (the deal shuffles from the state's stream)."""
    want = parse_uno_card(card)
    base = state.rng_counter
    for k in range(tries):
        s = type(state)()
        s.CopyFrom(state)
        s.rng_counter = base + k
        nxt = table.next_deal(s)
        if nxt.uno.discard[0] == want:
            return nxt
    raise AssertionError(f"no counter turns {card} first")


def test_h14_a_lone_zero_that_receives_a_final_draw_is_no_longer_alone(table):
    # §2.8: the final +2 is drawn before scoring; H14 ONLY_CARD then no longer applies.
    hands = {0: "R+2", 1: "G0", 2: "B0", 3: "Y3 Y4"}
    s = table.build(top="R4", hands=hands, stock="Y5 Y6 …", options={"zero_worth_50": True})
    s = table.ok(s, table.play(0, "R+2"))
    assert table.hand(s, 1) == table.bag("G0 Y5 Y6")
    assert table.deal_points(s) == [(0 + 5 + 6) + 50 + (3 + 4), 0, 0, 0]


def test_penalty_limit_a_final_wild_draw_four_pushes_its_target_to_the_limit(table):
    opts = {"scoring_method": "PENALTY_LIMIT"}
    hands = {0: "W+4", 1: "Y1", 2: "B2", 3: "G3"}
    s = table.build(top="R4", hands=hands, stock="Y9 Y8 BSkip W …", scores=[0, 120, 10, 0],
                    options=opts)  # fmt: skip
    s = table.ok(s, table.play(0, "W+4", "G"), "P1 ACCEPT")
    assert table.deal_points(s) == [0, 1 + 9 + 8 + 20 + 50, 2, 3]
    assert table.scores(s) == [0, 208, 12, 3]
    assert table.match_phase(s) == "MATCH_OVER" and list(s.match.winners) == [0, 2, 3]


def test_penalty_limit_a_failed_challenge_of_a_final_wild_draw_four_counts_six(table):
    opts = {"scoring_method": "PENALTY_LIMIT"}
    hands = {0: "W+4", 1: "Y1", 2: "B2", 3: "G3"}
    s = table.build(top="R4", hands=hands, stock="Y9 Y8 Y7 Y6 Y5 Y4 …", options=opts)
    s = table.ok(s, table.play(0, "W+4", "G"), "P1 CHALLENGE")
    assert table.deal_points(s) == [0, 1 + 9 + 8 + 7 + 6 + 5 + 4, 2, 3]


def test_winner_collects_custom_target_one_below_goes_on(table):
    hands = {0: "R7", 1: "Y9", 2: "Y1", 3: "B0"}
    s = table.build(top="R3", hands=hands, scores=[89, 0, 0, 0], options={"target": 100})
    s = table.ok(s, table.play(0, "R7"))
    assert table.scores(s) == [99, 0, 0, 0] and table.match_phase(s) == "DEAL_OVER"


def test_winner_collects_ten_seats_sum(table):
    hands = {0: "R7", 1: "Y9", 2: "Y1", 3: "B0", 4: "W", 5: "W+4", 6: "GSkip", 7: "BRev",
             8: "Y+2", 9: "G5 G6"}  # fmt: skip
    s = table.build(seats=10, top="R3", hands=hands, stock="…")
    s = table.ok(s, table.play(0, "R7"))
    assert table.deal_points(s)[0] == 9 + 1 + 0 + 50 + 50 + 20 + 20 + 20 + 11


def test_lazy_the_match_does_not_end_before_lazy_rounds(table):
    opts = {"scoring_method": "LAZY", "lazy_rounds": 3}
    s = table.build(top="R4", hands={1: "R6"}, current=1, scores=[1, 0, 0, 0], deal_number=2,
                    options=opts)  # fmt: skip
    s = table.ok(s, table.play(1, "R6"))
    assert table.match_phase(s) == "DEAL_OVER"
    assert table.scores(s) == [1, 1, 0, 0]


def test_nextdeal_refused_after_match_over(table):
    hands = {0: "R7", 1: "Y9", 2: "Y1", 3: "B0"}
    s = table.build(top="R3", hands=hands, scores=[490, 0, 0, 0])
    s = table.ok(s, table.play(0, "R7"))
    assert table.match_phase(s) == "MATCH_OVER"
    with pytest.raises(FailedPrecondition):
        table.next_deal(s)


def test_2p_h4_a_stacked_draw_two_comes_back_as_four(table):
    s = table.build(seats=2, top="R4", hands={0: "R+2 Y1 Y2", 1: "B+2 Y3 Y4"},
                    stock="G1 G2 G3 G4 …", options={"stacking": True})  # fmt: skip
    s = table.ok(s, table.play(0, "R+2"), table.play(1, "B+2"))
    assert table.pending(s) == ("DRAW_TWO", 4) and table.turn(s) == (0, "RESPOND")
    s = table.ok(s, "P0 ACCEPT")
    assert table.size(s, 0) == 2 + 4
    assert table.turn(s) == (1, "PLAY")


def test_2p_h11_a_bounced_draw_two_hits_its_player_and_the_bouncer_plays_again(table):
    s = table.build(seats=2, top="R4", hands={0: "R+2 Y1 Y2", 1: "RRev Y3 Y4"},
                    stock="G1 G2 …", options={"reverse_bounce": True})  # fmt: skip
    s = table.ok(s, table.play(0, "R+2"), table.play(1, "RRev"))
    assert table.pending(s) == ("DRAW_TWO", 2) and table.turn(s) == (0, "RESPOND")
    s = table.ok(s, "P0 ACCEPT")
    assert table.hand(s, 0) == table.bag("Y1 Y2 G1 G2")
    assert table.turn(s) == (1, "PLAY")


def test_2p_h11_a_reverse_skip_bounced_by_a_reverse(table):
    # U12/C-UNO-5: P0's Reverse skips P1 with a Skip's answer window; H11 lets
    # P1 bounce a Skip with a Reverse of the current colour: P0 is skipped.
    s = table.build(seats=2, top="R4", hands={0: "RRev Y1 Y2", 1: "RRev Y3 Y4"},
                    options={"reverse_bounce": True})  # fmt: skip
    s = table.ok(s, table.play(0, "RRev"))
    assert table.pending(s) == ("SKIP", 0) and table.turn(s) == (1, "RESPOND")
    s = table.ok(s, table.play(1, "RRev"))
    assert table.turn(s) == (0, "RESPOND") or table.turn(s) == (1, "PLAY")
    if table.turn(s) == (0, "RESPOND"):
        s = table.ok(s, "P0 ACCEPT")
    assert table.turn(s) == (1, "PLAY")


def test_2p_mattel_guilty_challenge_challenger_plays_then_the_guilty_player(table):
    s = table.build("mattel", seats=2, top="R4", hands={0: "W+4 R1 Y1", 1: "Y3 Y4"},
                    stock="G1 G2 G3 G4 …")  # fmt: skip
    s = table.ok(s, table.play(0, "W+4", "G"), "P1 CHALLENGE")
    assert table.hand(s, 0) == table.bag("R1 Y1 G1 G2 G3 G4")
    assert table.top(s) == "W+4" and table.colour(s) == "G"
    assert table.turn(s) == (1, "PLAY")
    s = table.ok(s, "P1 DRAW", "P1 PASS")
    assert table.turn(s) == (0, "PLAY")


def test_2p_h8_the_only_other_seat_is_the_last_to_slap(table):
    s = table.build(seats=2, top="R4", hands={0: "R5 Y1", 1: "Y3 Y4"}, stock="G1 G2 …",
                    options={"uno_in_centre": True})  # fmt: skip
    s = table.ok(s, table.play(0, "R5", uno=True), "P1 SLAP")
    assert table.size(s, 1) == 4
    assert table.turn(s) == (1, "PLAY")


def test_2p_h3_zero_the_hands_change_places(table):
    s = table.build(seats=2, top="R4", hands={0: "R0 Y1 Y2", 1: "Y3 Y4 Y5 Y6"},
                    options={"seven_zero": True})  # fmt: skip
    s = table.ok(s, table.play(0, "R0"))
    assert table.hand(s, 0) == table.bag("Y3 Y4 Y5 Y6")
    assert table.hand(s, 1) == table.bag("Y1 Y2")
    assert table.turn(s) == (1, "PLAY")


def test_2p_h9_wheel_after_a_reverse_turns_the_other_way(table):
    # d = -1 after a two-player Reverse: counter-clockwise R -> Y.
    s = table.build(seats=2, top="R4", hands={0: "RRev W Y1", 1: "Y3 Y4"}, reversed=False,
                    options={"colour_rotation": True})  # fmt: skip
    s = table.ok(s, table.play(0, "RRev"))
    assert table.turn(s) == (0, "PLAY") and table.direction(s) == -1
    s = table.ok(s, table.play(0, "W"))
    assert table.colour(s) == "Y"


_VAL = {"Skip": 20, "Rev": 20, "+2": 20}


def _value(card: str) -> int:
    if card in ("W", "W+4", "X+10"):
        return 50
    body = card[1:]
    return _VAL.get(body) if body in _VAL else int(body)


def _hand_value(hand, zero50, any_zero):
    total = 0
    for c in hand:
        if zero50 and c[1:] == "0" and (any_zero or len(hand) == 1):
            total += 50
        else:
            total += _value(c)
    return total


@pytest.mark.parametrize("seed", range(60))
def test_scoring_model_random_round_ends(table, seed):
    rnd = _random.Random(seed)
    n = rnd.randint(2, 10)
    method = rnd.choice(["WINNER_COLLECTS", "PENALTY_LIMIT", "LAZY"])
    zero50 = rnd.random() < 0.5
    any_zero = rnd.random() < 0.5
    opts = {"scoring_method": method, "zero_worth_50": zero50,
            "zero50_scope": "ANY_ZERO" if any_zero else "ONLY_CARD",
            "target": rnd.choice([50, 100, 500]), "limit": rnd.choice([30, 60, 200]),
            "lazy_rounds": rnd.choice([1, 2, 3])}  # fmt: skip
    deck = [uno_card_text(v) for v in uno_deck()]
    final = rnd.choice(["R5", "R+2", "W+4", "RSkip"])
    deck.remove("R4")
    deck.remove(final)
    rnd.shuffle(deck)
    hands = {0: [final]}
    for s in range(1, n):
        k = rnd.randint(1, 6)
        hands[s] = [deck.pop() for _ in range(k)]
    stock = [deck.pop() for _ in range(6)]
    bound = opts["target"] if method == "WINNER_COLLECTS" else opts["limit"]
    scores = [rnd.randint(0, bound - 1) for _ in range(n)]
    deal_number = rnd.randint(1, 3)
    if method == "LAZY":
        # a LAZY round past lazy_rounds is no valid state (D11); the last may be in progress
        deal_number = min(deal_number, opts["lazy_rounds"])
        scores = [rnd.randint(0, deal_number - 1) for _ in range(n)]
    s = table.build(seats=n, top="R4", hands={k: " ".join(v) for k, v in hands.items()},
                    stock=" ".join(stock) + " …", scores=scores, deal_number=deal_number,
                    options=opts)  # fmt: skip
    s = table.ok(s, table.play(0, final, "G" if final == "W+4" else None))
    target = 1 % n
    if final == "W+4":
        s = table.ok(s, f"P{target} ACCEPT")
        hands[target] += stock[:4]
    elif final == "R+2":
        hands[target] += stock[:2]
    values = [_hand_value(hands[k], zero50, any_zero) if k else 0 for k in range(n)]
    points = [sum(values)] + [0] * (n - 1) if method == "WINNER_COLLECTS" else values
    assert table.deal_points(s) == points
    if method == "LAZY":
        new = list(scores)
        new[0] += 1
        order = [(0 + k) % n for k in range(1, n)]
        best = max(values[k] for k in order)
        loser = next(k for k in order if values[k] == best)
        assert s.uno.round_loser == loser
        over = deal_number >= opts["lazy_rounds"]
        winners = [k for k in range(n) if new[k] == max(new)]
    else:
        new = [a + b for a, b in zip(scores, points, strict=True)]
        if method == "WINNER_COLLECTS":
            over = new[0] >= opts["target"]
            winners = [0]
        else:
            over = any(x >= opts["limit"] for x in new)
            winners = [k for k in range(n) if new[k] < opts["limit"]]
    assert table.scores(s) == new
    assert table.match_phase(s) == ("MATCH_OVER" if over else "DEAL_OVER")
    if over:
        assert sorted(s.match.winners) == winners


def test_u13_a_deflecting_last_draw_two_makes_the_next_seat_draw_two(table):
    hands = {0: "R+2 Y1", 1: "B+2", 2: "Y2 Y3", 3: "B0"}
    s = table.build(top="R4", hands=hands, stock="G7 G8 G9 …")
    s = table.ok(s, table.play(0, "R+2"), table.play(1, "B+2"))
    assert table.match_phase(s) == "DEAL_OVER" and list(s.match.deal_winners) == [1]
    assert table.hand(s, 2) == table.bag("Y2 Y3 G7 G8")
    assert table.deal_points(s) == [0, 1 + 2 + 3 + 7 + 8 + 0, 0, 0]


def test_u13_a_last_draw_two_deflecting_a_wild_draw_four_makes_the_next_draw_two(table):
    hands = {0: "W+4 Y1", 1: "G+2", 2: "Y2 Y3", 3: "B0"}
    s = table.build(top="R4", hands=hands, stock="G7 G8 G9 …")
    s = table.ok(s, table.play(0, "W+4", "G"), table.play(1, "G+2"))
    assert table.match_phase(s) == "DEAL_OVER"
    assert table.hand(s, 2) == table.bag("Y2 Y3 G7 G8")
    assert table.hand(s, 0) == table.bag("Y1")


def test_h1_a_last_draw_two_jumped_in_without_stacking_next_of_jumper_draws_two(table):
    hands = {0: "R+2 Y1 Y2", 1: "Y3 Y4", 2: "R+2", 3: "Y5"}
    s = table.build(top="R4", hands=hands, stock="G7 G8 G9 …", options={"jump_in": True})
    s = table.ok(s, table.play(0, "R+2"), table.jump(2, "R+2"))
    assert table.match_phase(s) == "DEAL_OVER" and list(s.match.deal_winners) == [2]
    assert table.hand(s, 3) == table.bag("Y5 G7 G8") and table.size(s, 1) == 2


@pytest.mark.parametrize("seed", range(40))
def test_nextdeal_model(table, seed):
    rnd = _random.Random(1000 + seed)
    n = rnd.randint(2, 10)
    preset = rnd.choice(["seed", "mattel"])
    opts = {"wild_first_card": rnd.choice(["FIRST_PLAYER_CHOOSES", "RETURN"]),
            "reverse_first_card": rnd.choice(["DEALER_FIRST", "RIGHT_OF_DEALER"]),
            "two_player_reverse_is_skip": rnd.random() < 0.7,
            "seven_rounds": rnd.random() < 0.3, "plus_ten": rnd.random() < 0.3}  # fmt: skip
    dealer0 = rnd.randrange(n)
    winner = (dealer0 + 1 + rnd.randrange(n)) % n
    fill = ["Y1", "Y2", "Y3", "Y4", "Y5", "Y6", "Y7", "Y8", "Y9", "B1"]
    hands = {k: fill[k] for k in range(n)}
    hands[winner] = "G6"
    s = table.build(preset, seats=n, top="G5", hands=hands, current=winner, dealer=dealer0,
                    reversed=rnd.random() < 0.5, options=opts,
                    **({"stages": [1] * n} if opts["seven_rounds"] else {}))  # fmt: skip
    s = table.ok(s, table.play(winner, "G6"))
    s.rng_counter = rnd.randrange(1 << 20)
    scores = table.scores(s)
    nxt = table.next_deal(s)
    dealer = (dealer0 + 1) % n
    first = (dealer + 1) % n
    assert nxt.uno.dealer == dealer and table.scores(nxt) == scores
    assert nxt.match.deal_number == s.match.deal_number + 1
    assert list(nxt.uno.finished) == [] and list(nxt.uno.turn_lost) == []
    if opts["seven_rounds"]:
        assert list(nxt.uno.stages) == [7] * n
    card = table.top(nxt)
    assert len(nxt.uno.discard) == 1 and card not in ("W+4", "X+10")
    sizes = [table.size(nxt, k) for k in range(n)]
    kind = KIND_OF[parse_uno_card(card)]
    if preset == "seed":
        assert kind == Kind.NUMBER
    expect_sizes = [7] * n
    d = 1
    if kind == Kind.NUMBER:
        turn = (first, "PLAY")
    elif kind == Kind.SKIP:
        turn = ((first + 1) % n, "PLAY")
    elif kind == Kind.DRAW_TWO:
        expect_sizes[first] = 9
        turn = ((first + 1) % n, "PLAY")
    elif kind == Kind.REVERSE:
        d = -1
        two_skip = n == 2 and opts["two_player_reverse_is_skip"]
        if two_skip or opts["reverse_first_card"] == "DEALER_FIRST":
            turn = (dealer, "PLAY")
        else:
            turn = ((dealer - 1) % n, "PLAY")
    else:
        assert card == "W" and opts["wild_first_card"] == "FIRST_PLAYER_CHOOSES"
        turn = (first, "NAME_COLOUR")
    assert sizes == expect_sizes
    assert table.turn(nxt) == turn and table.direction(nxt) == d


@pytest.mark.parametrize("card", ["GSkip", "Y+2", "BRev", "W", "R7"])
@pytest.mark.parametrize("n", [2, 3, 5])
@pytest.mark.parametrize("rev", ["DEALER_FIRST", "RIGHT_OF_DEALER"])
def test_nextdeal_mattel_first_cards(table, card, n, rev):
    opts = {"reverse_first_card": rev}
    hands = {k: ["Y1", "Y2", "Y3", "Y4", "Y5"][k] for k in range(n)}
    hands[1] = "G6"
    s = table.build("mattel", seats=n, top="G5", hands=hands, current=1, dealer=n - 1,
                    options=opts)  # fmt: skip
    s = table.ok(s, table.play(1, "G6"))
    nxt = deal_with_first(table, s, card)
    dealer, first = 0, 1 % n
    assert nxt.uno.dealer == dealer
    sizes = [table.size(nxt, k) for k in range(n)]
    if card == "R7":
        assert table.turn(nxt) == (first, "PLAY")
    elif card == "GSkip":
        assert table.turn(nxt) == ((first + 1) % n, "PLAY") and sizes == [7] * n
    elif card == "Y+2":
        assert sizes[first] == 9 and table.turn(nxt) == ((first + 1) % n, "PLAY")
    elif card == "W":
        assert table.turn(nxt) == (first, "NAME_COLOUR")
    else:
        assert table.direction(nxt) == -1
        if n == 2 or rev == "DEALER_FIRST":
            assert table.turn(nxt) == (dealer, "PLAY")
        else:
            assert table.turn(nxt) == ((dealer - 1) % n, "PLAY")


@pytest.mark.parametrize(("stacking", "drawn"), [(False, 2), (True, 4)])
def test_h2_a_second_identical_draw_two_as_the_last_card(table, stacking, drawn):
    opts = {"jump_in": True, "jump_in_own_card": True, "stacking": stacking}
    hands = {0: "R+2 R+2", 1: "Y3 Y4", 2: "Y5", 3: "Y6"}
    s = table.build(top="R4", hands=hands, stock="G1 G2 G3 G7 G8 …", options=opts)
    s = table.ok(s, table.play(0, "R+2", uno=True), table.jump(0, "R+2"))
    assert table.match_phase(s) == "DEAL_OVER" and list(s.match.deal_winners) == [0]
    assert table.size(s, 1) == 2 + drawn
    assert table.deal_points(s)[0] == 3 + 4 + sum([1, 2, 3, 7][:drawn]) + 5 + 6


def test_2p_h1_a_reverse_waits_and_the_identical_reverse_sends_the_skip_back(table):
    s = table.build(seats=2, top="R4", hands={0: "RRev Y1 Y2", 1: "RRev Y3 Y4"},
                    options={"jump_in": True})  # fmt: skip
    s = table.ok(s, table.play(0, "RRev"))
    assert table.pending(s) == ("SKIP", 0) and table.turn(s) == (1, "RESPOND")
    assert "RRev" in table.legal(s, 1)
    s = table.ok(s, table.play(1, "RRev"))
    assert table.direction(s) == 1  # flipped twice
    assert table.turn(s) == (0, "RESPOND") and table.pending(s) == ("SKIP", 0)
    s = table.ok(s, "P0 ACCEPT")
    assert table.turn(s) == (1, "PLAY")


def test_2p_h6_the_exchange_then_the_opponent_plays(table):
    s = table.build(seats=2, top="R4", hands={0: "R5 Y1 Y2", 1: "B3 Y4"},
                    options={"swap_on_five": True})  # fmt: skip
    s = table.ok(s, table.play(0, "R5", swap=1, give="Y1"), "P1 GIVE B3")
    assert table.hand(s, 0) == table.bag("Y2 B3") and table.hand(s, 1) == table.bag("Y1 Y4")
    assert table.turn(s) == (1, "PLAY")


def test_h15_has_no_observable_effect_through_the_api(table):
    # C-UNO-7: "a scoring position names the finishing card" — but no state
    # field can name it (scoring.end_round is never called with a label), so
    # a PENALTY_LIMIT round won under H15 scores the winner 0 whatever the card.
    opts = {"h2o_finish_bonus": True}
    s = table.build(top="R4", hands={0: "R+2", 1: "Y1", 2: "Y2", 3: "Y3"}, scores=[70, 0, 0, 0],
                    stock="G1 G2 …", options=opts)  # fmt: skip
    assert s.options.uno.scoring_method == 2  # PENALTY_LIMIT follows H15
    s = table.ok(s, table.play(0, "R+2"))
    assert table.deal_points(s)[0] == 0 and table.scores(s)[0] == 70
