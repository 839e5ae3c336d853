"""Deals, turns and the match around them (RULES.md, "A turn", E-C-1,
E-C-3, E-C-4, E-C-6, E-C-8, E-C-9), and what the events tell each seat."""

from __future__ import annotations

from croupier.engine import api
from croupier.inprocess import InProcess
from croupier.v1 import game_pb2, service_pb2
from croupier_client.playout import play_match, uniform


def test_e_c_1_a_seat_without_cards_is_passed_over(table) -> None:
    s = table.build("sto", 3, hands={0: "10♠", 1: "", 2: "7♠ 8♠"}, total=20)
    s = table.ok(s, table.play("sto", 0, "10♠"))
    assert s.current_seat == 2
    assert "PASSED_OVER" in table.rule_events()


def test_e_c_1_no_card_left_ends_the_deal_without_a_loser(table) -> None:
    s = table.build("sto", 3, hands={0: "10♠", 1: "", 2: ""}, total=20)
    s = table.ok(s, table.play("sto", 0, "10♠"))
    assert table.match_phase(s) == "DEAL_OVER"
    assert table.deal_points(s) == [0, 0, 0]
    assert sorted(s.match.deal_winners) == [0, 1, 2]
    assert "ends without a loser" in table.events[-1].text


def test_e_c_3_a_play_that_leaves_the_next_seat_stuck_ends_the_deal(table) -> None:
    # R-C3-05, A-C3-04: "loss is automatic when none exists". P0's king makes
    # 101; P1 holds no card within 101 and loses the deal and a chip at once.
    s = table.build("chips_101", 3, hands={0: "K♠ …", 1: "7♦ 8♠ 5♥"}, total=40)
    s = table.ok(s, table.play("chips_101", 0, "K♠"))
    assert table.match_phase(s) == "DEAL_OVER"
    assert list(s.acting_seats) == []
    assert table.scores(s) == [3, 2, 3]
    assert table.deal_points(s) == [0, -1, 0]
    assert table.rule_events() == ["CONCEDED", "LIFE_LOST"]
    conceded = next(e for e in table.events if "loses the deal" in e.text)
    assert conceded.seat == 1
    dealer = s.chips_101.dealer
    s = table.next_deal(s)
    assert s.chips_101.dealer == (dealer + 1) % 3  # the deal passes left (A-C3-03)
    assert table.total(s) == 0


def test_e_c_3_a_seat_with_a_card_within_the_limit_plays_on(table) -> None:
    # The same play with a nine in P1's hand (+0): the deal goes on.
    s = table.build("chips_101", 3, hands={0: "K♠ …", 1: "7♦ 8♠ 9♥"}, total=40)
    s = table.ok(s, table.play("chips_101", 0, "K♠"))
    assert table.match_phase(s) == "DEAL_IN_PROGRESS"
    assert list(s.acting_seats) == [1]
    assert table.legal(s) == ["9♥"]


def test_e_c_3_a_stuck_seat_built_by_hand_concedes(table) -> None:
    # A position no play leads to (built by hand, or written by rules version
    # 3): its seat on turn has CONCEDE as its one move.
    s = table.build("chips_101", 3, hands={0: "7♦ 8♠ 5♥"}, total=101)
    assert list(s.acting_seats) == [0]
    assert table.legal(s) == ["CONCEDE"]
    assert table.scores(table.ok(s, table.concede("chips_101", 0))) == [2, 3, 3]


def test_e_c_4_the_busters_cards_are_shown_to_everyone(table) -> None:
    opts = {"after_bust": "CONTINUE"}
    s = table.build("one_hundred", 3, hands={0: "Q♠ 2♣ 3♣ 6♣"}, total=95, options=opts)
    drawn = table.text(s.one_hundred.stock[0])  # drawn before the bust check
    s = table.ok(s, table.play("one_hundred", 0, "Q♠"))
    reset = next(e for e in table.events if "under the pile" in e.text)
    assert not reset.visible_to
    assert sorted(table.text(c) for c in reset.cards) == sorted(["2♣", "3♣", "6♣", drawn])


def test_e_c_6_deal_winners_are_the_seats_left_but_the_loser(table) -> None:
    s = table.build("one_hundred", 4, hands={1: "10♠ …"}, current=1, total=95, preset="gamerules")
    s = table.ok(s, table.play("one_hundred", 1, "10♠"))  # 100: safe
    s = table.build("one_hundred", 4, hands={1: "Q♠ …"}, current=1, total=95, preset="gamerules")
    s = table.ok(s, table.play("one_hundred", 1, "Q♠"))
    assert sorted(s.match.deal_winners) == [0, 2, 3]
    assert table.deal_points(s) == [0, -1, 0, 0]
    ended = next(e for e in table.events if e.kind == game_pb2.EVENT_KIND_DEAL_ENDED)
    assert list(ended.scores) == [0, -1, 0, 0]


def test_e_c_8_every_deal_starts_clockwise_from_the_next_dealer(table) -> None:
    s = table.build("chips_101", 4, hands={1: "4♠ …"}, current=1, total=20)
    s = table.ok(s, table.play("chips_101", 1, "4♠"))
    assert table.reversed(s)
    s = table.build(
        "chips_101", 4, hands={2: "7♦ 8♠ 5♥"}, current=2, dealer=1, total=101, reversed=True
    )
    s = table.ok(s, table.concede("chips_101", 2))
    s = table.next_deal(s)
    assert not table.reversed(s)
    assert (s.chips_101.dealer, s.current_seat) == (2, 3)


def test_e_c_8_the_deal_skips_seats_out_of_the_match(table) -> None:
    s = table.build(
        "chips_101", 4, hands={0: "7♦ 8♠ 5♥"}, dealer=1, total=101, scores=[2, 3, 0, 3],
        eliminated=(2,),
    )  # fmt: skip
    s = table.ok(s, table.concede("chips_101", 0))
    s = table.next_deal(s)
    assert s.chips_101.dealer == 3
    assert s.current_seat == 0
    assert table.hand_size(s, 2) == 0


def test_e_c_9_scores_start_as_the_game_says(table) -> None:
    assert table.scores(table.new("sto", 4)) == [0, 0, 0, 0]
    assert table.scores(table.new("sto", 4, preset="hundert")) == [0, 0, 0, 0]
    assert table.scores(table.new("one_hundred", 4)) == [1, 1, 1, 1]
    assert table.scores(table.new("chips_101", 4)) == [3, 3, 3, 3]


def test_a_drawn_card_is_shown_to_its_drawer_only(table) -> None:
    s = table.build("one_hundred", 3, hands={0: "7♦ …"}, total=0)
    response = api.apply_move(
        service_pb2.ApplyMoveRequest(
            state=s, move=table.play("one_hundred", 0, "7♦"), seat_events=True
        )
    )
    drawn = next(e for e in response.events if e.kind == game_pb2.EVENT_KIND_CARDS_DRAWN)
    assert list(drawn.visible_to) == [0]
    assert drawn.text == "P0 draws a card"
    mine, other = response.seat_events[0].events, response.seat_events[1].events
    assert [len(e.cards) for e in mine if e.kind == drawn.kind] == [1]
    assert [len(e.cards) for e in other if e.kind == drawn.kind] == [0]


def test_a_played_card_tells_the_new_total(table) -> None:
    s = table.build("chips_101", 3, hands={0: "K♣ …"}, total=33)
    s = table.ok(s, table.play("chips_101", 0, "K♣"))
    played = table.events[0]
    assert played.kind == game_pb2.EVENT_KIND_CARD_PLAYED
    assert (played.chips_101.total, played.chips_101.previous_total) == (101, 33)
    assert played.text == "P0 plays KC: 33 → 101"


def test_a_deal_starts_with_its_dealer_and_leader(table) -> None:
    response = api.new_game(
        service_pb2.NewGameRequest(game="sto", preset="hundert", seat_count=3, seed=5)
    )
    started = response.events[0]
    assert started.kind == game_pb2.EVENT_KIND_DEAL_STARTED
    assert started.target_seat == response.state.current_seat
    assert len(started.cards) == 2  # the face-up leftovers
    assert "start the total at" in started.text


def test_a_whole_match_of_each_game_has_a_winner(table) -> None:
    for game, preset, seats in [("sto", "seed", 4), ("one_hundred", "gamerules", 5),
                                ("chips_101", "pagat", 3)]:  # fmt: skip
        final, _ = play_match(InProcess(trusted=False), game, preset, seats, 7, uniform(7))
        assert final.match.phase == game_pb2.MATCH_PHASE_MATCH_OVER
        assert final.match.winners
