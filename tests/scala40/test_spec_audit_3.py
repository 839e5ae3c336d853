"""A third audit of Scala 40 against rummy_and_counting.md part 1: notation
round trips over crowded listings, AnalyseHand's values recomputed from
§1.6.4, V17 off with V15 and V13, random playouts under rare option
combinations with every deal's scoring recomputed, the first dealer by lot
for 2–6 seats, closing under V12 with V19 and with V11 + V8, and NextDeal's
refusals. P is seat 0, to act; melds on the table laid by seat 1 unless said
otherwise; defaults (FISC preset) unless an option is named."""

from __future__ import annotations

import random
import zlib

import pytest

from croupier.engine import api, cards
from croupier.engine.analysis import analyse_hand
from croupier.engine.errors import FailedPrecondition
from croupier.engine.session import Session
from croupier.games.scala40.notation import notation, parse_notation
from croupier.v1 import game_pb2, service_pb2
from croupier.v1 import scala40_pb2 as pb

MINE = (0, "[2♠ 3♠ 4♠]")


def _analyse(state, seat):
    return analyse_hand(service_pb2.AnalyseHandRequest(state=state, seat=seat)).scala40


@pytest.mark.parametrize(
    "options",
    [
        {},
        {"declare_ambiguous_joker": False, "max_jokers_per_meld": "UNLIMITED"},
        {"sequence_split_max5": True},
        {"set_joker_positional_convention": True},
    ],
    ids=["default", "v17off-unlimited", "v14", "v23"],
)
def test_every_listed_move_round_trips_through_its_notation(table, options):
    s = table.build(
        hands={0: "JK JK 7♦ 7♥ 10♣ 4♣ A♠ 2♠ 3♠ Q♥ K♥ 9♦"},
        melds=[MINE, "[5♣ 6♣ 7♣ 8♣ 9♣]", "[7♣ 7♠ JK→7♥]", "[J♥ Q♥ K♥]", "[2♦ 3♦ 4♦]"],
        opened=[0],
        options=options,
    )
    request = service_pb2.ListLegalMovesRequest(state=s, seat=0)
    listed = api.list_legal_moves(request).moves
    assert listed
    for lm in listed:
        text = notation(lm.move)
        assert text == lm.notation
        back = parse_notation(text, 0)
        assert back == lm.move, text
        # lower case and extra blanks parse to the same move
        assert parse_notation("  " + text.lower() + " ", 0) == lm.move, text


@pytest.mark.parametrize(
    ("hand", "options", "value"),
    [
        # [Q♥ K♥ JK→A♥] 31 + [A♣ A♦ A♠] 33 = 64 (beats [A♣ A♦ A♠ JK] 44)
        ("Q♥ K♥ JK A♣ A♦ A♠ 5♣ 9♦", {}, 64),
        # V5: 12+13+14 = 39 + 42 = 81
        ("Q♥ K♥ JK A♣ A♦ A♠ 5♣ 9♦", {"court_values_11_14": True}, 81),
        # the joker goes high (6♥), not low (A♥ = 1): 2+3+4+5+6 = 20
        ("JK 2♥ 3♥ 4♥ 5♥ 9♣", {}, 20),
        # a low ace stays 1 with V5; the joker is a 3: 1+2+3 = 6
        ("A♥ 2♥ JK 9♣", {"court_values_11_14": True}, 6),
        # J Q K with V5 = 36; with a joker as the high ace 50
        ("J♣ Q♣ K♣ JK 4♦", {"court_values_11_14": True}, 50),
        # whole suit + joker: [2♥..Q♥] 74 + [JK→Q♥ K♥ A♥] 31 = 105 beats the
        # 14-card [A♥..K♥ JK→A♥] (1+54+30+11 = 96)
        ("A♥ 2♥ 3♥ 4♥ 5♥ 6♥ 7♥ 8♥ 9♥ 10♥ J♥ Q♥ K♥ JK", {}, 105),
        ("A♥ 2♥ 3♥ 4♥ 5♥ 6♥ 7♥ 8♥ 9♥ 10♥ J♥ Q♥ K♥ JK", {"max_sequence_length": 13}, 105),
    ],
)
def test_analysis_value_is_section_1_6_4(table, hand, options, value):
    s = table.build(hands={0: hand}, options=options)
    a = _analyse(s, 0)
    assert a.value == value, [(list(m.cards), list(m.joker_as)) for m in a.melds]


def test_v17_off_v15_a_declared_joker_laid_on_an_undeclared_set_fixes_the_first(table):
    """[7♣ 7♠ JK] (undeclared, either 7♦ or 7♥) + a second joker declared 7♥ → the
    first joker can only be 7♦ (the 4-card set's identity is forced)."""
    opts = {"declare_ambiguous_joker": False, "max_jokers_per_meld": "UNLIMITED"}
    s = table.build(hands={0: "JK K♠ 2♦ 9♣"}, melds=[MINE, "[7♣ 7♠ JK]"], options=opts)
    s = table.ok(s, table.lay(s, 0, "JK", 2, joker_as="7♥"))
    assert table.melds(s)[1] == "[7♣ 7♠ JK→7♦ JK→7♥]"


def test_v17_off_v13_lay_off_fixes_joker_then_swap_makes_a_natural_quad(table):
    opts = {"declare_ambiguous_joker": False, "quads_to_discard_pile": True}
    s = table.build(hands={0: "7♦ 7♥ K♠ 2♦ 9♣"}, melds=[MINE, "[7♣ 7♠ JK]"], top="5♣",
                    options=opts)  # fmt: skip
    s = table.ok(s, table.lay(s, 0, "7♦", 2))
    assert table.melds(s)[1] == "[7♣ 7♦ 7♠ JK→7♥]"
    s = table.ok(s, table.swap(0, "7♥", 2))
    assert len(table.melds(s)) == 1
    assert table.pile(s)[-4:] == ["7♣", "7♦", "7♥", "7♠"]
    assert table.hand(s, 0)["JK"] == 1


PLAYS = ("open", "meld", "lay_off", "swap_joker", "split")


def _penalty(value, court):
    if cards.is_joker(value):
        return 14 if court else 25
    rank = cards.RANK_OF[value]
    if rank == cards.ACE:
        return 14 if court else 11
    if rank >= 11:
        return rank if court else 10
    return rank


COMBOS = [
    ("triples-court-doubles-flat-101-v12", 6, {"teams": "TRIPLES", "court_values_11_14": True,
      "close_in_hand_doubles": True, "unopened_flat_penalty_100": True,
      "elimination_threshold": 101, "close_without_discard": True}, (60, 70, 60, 70, 60, 70)),
    ("reentry-101-flat-doubles-5", 5, {"reentry": True, "elimination_threshold": 101,
      "unopened_flat_penalty_100": True, "close_in_hand_doubles": True}, (80, 90, 50, 95, 70)),
    ("quads-v12-v6-v16-v19-3", 3, {"quads_to_discard_pile": True, "close_without_discard": True,
      "discard_pickup_for_opening": True, "joker_swap_for_opening": True,
      "retrieved_joker_must_be_used": True}, (100, 120, 140)),
    ("pairs-201-court-4", 4, {"teams": "PAIRS", "elimination_threshold": 201,
      "court_values_11_14": True}, (170, 180, 170, 180)),
    ("noelim-2000-court-2", 2, {"match_mode": "NO_ELIMINATION", "no_elimination_target": 2000,
      "court_values_11_14": True, "unopened_flat_penalty_100": True}, (1900, 1950)),
]  # fmt: skip


@pytest.mark.parametrize("name,seats,options,start", COMBOS, ids=[c[0] for c in COMBOS])
def test_random_playouts_score_as_recomputed(name, seats, options, start):
    rng = random.Random(zlib.crc32(name.encode()))  # the same every run (not hash())
    problems = []
    deals = 0
    for seed in range(1, 9):
        s = Session.new("scala40", seat_count=seats, seed=seed, options=options)
        st = game_pb2.GameState()
        st.CopyFrom(s.state)
        for i, sc in enumerate(start):
            st.seats[i].score = sc
        s = Session(st)
        o = s.state.options.scala40
        moves = 0
        turn_start_opened = None
        while not s.over and moves < 1500:
            if s.deal_over:
                prev = s.state.scala40.dealer
                elim = [x.eliminated for x in s.state.seats]
                s.next_deal()
                d = s.state.scala40
                n = len(elim)
                want_dealer = next(
                    (prev + k) % n for k in range(1, n + 1) if not elim[(prev + k) % n]
                )
                if d.dealer != want_dealer:
                    problems.append(f"dealer {d.dealer} want {want_dealer}")
                want_first = next(
                    (d.dealer + k) % n for k in range(1, n + 1) if not elim[(d.dealer + k) % n]
                )
                if s.state.current_seat != want_first:
                    problems.append(f"first {s.state.current_seat} want {want_first}")
                continue
            seat = s.acting_seats[0]
            pos = s.state
            if pos.scala40.phase == pb.SCALA40_PHASE_DRAW:
                turn_start_opened = pos.scala40.opened[seat]
            legal = s.legal_moves(seat)
            kinds = [m.move.scala40.WhichOneof("action") for m in legal]
            plays = [m for m, k in zip(legal, kinds, strict=True) if k in PLAYS]
            takes = [m for m, k in zip(legal, kinds, strict=True) if k == "take_discard"]
            if takes and rng.random() < 0.5:
                choice = takes[0]
            elif plays and rng.random() < 0.9:
                opens = [m for m, k in zip(legal, kinds, strict=True) if k == "open"]
                choice = (
                    max(opens, key=lambda m: sum(len(x.cards) for x in m.move.scala40.open.melds))
                    if opens
                    else rng.choice(plays)
                )
            else:
                choice = rng.choice(legal)
            before = game_pb2.GameState()
            before.CopyFrom(s.state)
            events = s.play(choice)
            moves += 1
            after = s.state
            closed = [
                e
                for e in events
                if e.HasField("scala40") and e.scala40.kind == pb.SCALA40_EVENT_KIND_CLOSED
            ]
            if not closed:
                continue
            deals += 1
            in_hand = closed[0].scala40.in_hand
            if in_hand != (not turn_start_opened):
                problems.append(f"in_hand {in_hand} but opened at turn start {turn_start_opened}")
            g = after.scala40
            pts = []
            for i, x in enumerate(before.seats):
                if x.eliminated or i == seat:
                    pts.append(0)
                    continue
                p = sum(_penalty(v, o.court_values_11_14) for v in g.hands[i].cards)
                if o.unopened_flat_penalty_100 and not g.opened[i]:
                    p = 100
                if o.close_in_hand_doubles and in_hand:
                    p *= 2
                pts.append(p)
            if list(after.match.deal_points) != pts:
                problems.append(f"points {list(after.match.deal_points)} want {pts}")
            teams = o.teams != pb.SCALA40_TEAMS_NONE
            if teams:
                team_pts = {}
                for i, x in enumerate(before.seats):
                    team_pts[x.team] = team_pts.get(x.team, 0) + pts[i]
                want = [x.score + team_pts[x.team] for x in before.seats]
            else:
                want = [x.score + pts[i] for i, x in enumerate(before.seats)]
            got_raw = [x.score for x in after.seats]
            if o.match_mode == pb.SCALA40_MATCH_MODE_ELIMINATION and not teams:
                thr = o.elimination_threshold
                active = [i for i, x in enumerate(before.seats) if not x.eliminated]
                below = [i for i in active if want[i] < thr]
                over = [i for i in active if want[i] >= thr]
                if o.reentry and over and len(below) >= 2:
                    hi = max(want[i] for i in below)
                    for i in over:
                        want[i] = hi
                    want_elim = [x.eliminated for x in before.seats]
                else:
                    want_elim = [x.eliminated or i in over for i, x in enumerate(before.seats)]
                if [x.eliminated for x in after.seats] != want_elim:
                    problems.append(f"elim {[x.eliminated for x in after.seats]} want {want_elim}")
                if (len(below) == 1) != s.over:
                    problems.append(f"over {s.over} below {below}")
                if s.over and list(after.match.winners) != below:
                    problems.append(f"winners {list(after.match.winners)} want {below}")
            elif o.match_mode == pb.SCALA40_MATCH_MODE_NO_ELIMINATION:
                top = max(want)
                if (top >= o.no_elimination_target) != s.over:
                    problems.append(f"over {s.over} top {top}")
                if s.over:
                    lo = min(want)
                    w = [i for i, v in enumerate(want) if v == lo]
                    if sorted(after.match.winners) != w:
                        problems.append(f"winners {list(after.match.winners)} want {w}")
            else:  # teams elimination
                thr = o.elimination_threshold
                totals = {x.team: want[i] for i, x in enumerate(before.seats)}
                over = [t for t, v in totals.items() if v >= thr]
                if bool(over) != s.over:
                    problems.append(f"team over {s.over} totals {totals}")
                if over:
                    if len(over) == 1:
                        wt = next(t for t in totals if t not in over)
                    else:
                        lo = min(totals.values())
                        best = [t for t, v in totals.items() if v == lo]
                        wt = best[0] if len(best) == 1 else before.seats[seat].team
                    w = [i for i, x in enumerate(before.seats) if x.team == wt]
                    if sorted(after.match.winners) != w:
                        problems.append(f"team winners {list(after.match.winners)} want {w}")
            if got_raw != want:
                problems.append(f"scores {got_raw} want {want}")
    assert deals >= 8, f"only {deals} deals ended"
    assert not problems, problems[:10]


def test_c_s40_8_v17_off_a_taken_joker_placed_undeclared(table):
    """C-S40-8: the duty of a taken joker "is met by placing any joker". Under
    V17 off a new set [7♣ 7♠ JK] keeps its joker undeclared, and that
    placement meets it."""
    opts = {"declare_ambiguous_joker": False, "joker_discard": "ANY"}
    s = table.build(hands={0: "7♣ 7♠ K♦ 2♥"}, melds=[MINE], phase="DRAW", top="JK",
                    options=opts)  # fmt: skip
    s = table.ok(s, table.take(0))
    s = table.ok(s, table.meld(s, 0, "[7♣ 7♠ JK]", raw=True))
    assert table.reason(s, table.discard(s, 0, "K♦")) == "ACCEPTED"


@pytest.mark.parametrize("seats", [2, 3, 4, 5, 6])
def test_r_s40_04_the_first_dealer_is_drawn_by_lot_and_deals_13_from_his_left(table, seats):
    dealers = set()
    for seed in range(1, 60):
        s = table.new(seats, seed=seed)
        d = s.scala40.dealer
        dealers.add(d)
        assert s.current_seat == (d + 1) % seats
        assert [len(h.cards) for h in s.scala40.hands] == [13] * seats
        assert len(s.scala40.discard) == 1 and not cards.is_joker(s.scala40.discard[0])
        assert len(s.scala40.stock) == 108 - 13 * seats - 1
        assert s.scala40.turns_started[s.current_seat] == 1
        assert sum(s.scala40.turns_started) == 1
    assert dealers == set(range(seats))


def test_v12_v19_the_swapped_joker_laid_as_the_last_card_closes(table):
    opts = {"close_without_discard": True, "retrieved_joker_must_be_used": True}
    s = table.build(hands={0: "6♠"}, melds=[MINE, "[5♠ JK→6♠ 7♠]", "[9♥ 10♥ J♥]"], options=opts)
    s = table.ok(s, table.swap(0, "6♠", 2))
    s = table.ok(s, table.lay(s, 0, "JK", 3, "high"))
    assert table.match_phase(s) in ("DEAL_OVER", "MATCH_OVER")
    assert table.deal_points(s)[0] == 0


def test_v12_v11_v8_first_player_opens_all_fourteen_with_the_kept_upcard(table):
    """V11 + C-S40-6: the kept upcard goes into the opening; V8 lets him close in his
    first turn; V12 closes without a discard (14 cards, 5 melds)."""
    opts = {"close_without_discard": True, "first_player_may_take_upcard": True,
            "close_on_first_turn": True, "close_in_hand_doubles": True}  # fmt: skip
    hand = "10♣ J♣ Q♣ K♣ 2♥ 2♠ 2♦ 5♥ 5♠ 5♦ 8♥ 8♠ 8♦"
    s = table.build(hands={0: hand}, phase="DRAW", top="8♣", turn=1, dealer=2, options=opts)
    s = table.ok(s, table.take(0))
    move = table.open(s, 0, "[10♣ J♣ Q♣ K♣]", "[2♥ 2♠ 2♦]", "[5♥ 5♠ 5♦]",
                      "[8♣ 8♥ 8♠ 8♦]")  # fmt: skip
    s = table.ok(s, move)
    assert table.match_phase(s) in ("DEAL_OVER", "MATCH_OVER")
    assert [e for e in table.rule_events() if e == "CLOSED"]
    others = table.deal_points(s)[1:]
    assert all(p % 2 == 0 and p > 0 for p in others)


def test_next_deal_refused_after_the_match_and_during_a_deal(table):
    s = table.build(hands={0: "Q♣", 1: "A♠"}, melds=[MINE, (2, "[9♥ 10♥ J♥]")],
                    scores=[0, 150, 150])  # fmt: skip
    with pytest.raises(FailedPrecondition):
        table.next_deal(s)
    s = table.ok(s, table.discard(s, 0, "Q♣"))
    assert table.match_phase(s) == "MATCH_OVER" and table.winners(s) == [0]
    with pytest.raises(FailedPrecondition):
        table.next_deal(s)
