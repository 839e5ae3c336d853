package croupier

import (
	"context"
	"errors"
	"strings"
	"testing"

	pb "github.com/croupier-rules/croupier/clients/go/croupierv1"
)

func randomBots(n int, seed uint64) []Bot {
	bots := make([]Bot, n)
	for i := range bots {
		bots[i] = NewRandomBot(seed + uint64(i))
	}
	return bots
}

// recordingBot chooses the last move and records the views it was handed.
type recordingBot struct {
	views     []*pb.View
	wantsView bool
}

func (b *recordingBot) Choose(view *pb.View, moves []*pb.LegalMove) int {
	b.views = append(b.views, view)
	return len(moves) - 1
}

func (b *recordingBot) WantsView() bool { return b.wantsView }

// fixedBot always answers the same index, in range or not.
type fixedBot int

func (b fixedBot) Choose(*pb.View, []*pb.LegalMove) int { return int(b) }

func TestPlayMatchPlaysEveryDealToMatchOver(t *testing.T) {
	fake := &fakeGame{movesPerDeal: 3, deals: 2}
	result, err := PlayMatch(context.Background(), fakeClient(t, fake), "fake", "", 2, 7, randomBots(2, 1))
	if err != nil {
		t.Fatal(err)
	}
	if phase := result.State.GetMatch().GetPhase(); phase != pb.MatchPhase_MATCH_PHASE_MATCH_OVER {
		t.Fatalf("phase %s, want MATCH_OVER", phase)
	}
	if result.Moves != 6 || result.State.GetMatch().GetDealNumber() != 2 {
		t.Errorf("%d moves over %d deals, want 6 over 2", result.Moves, result.State.GetMatch().GetDealNumber())
	}
	if winners := result.State.GetMatch().GetWinners(); len(winners) != 1 {
		t.Errorf("winners %v", winners)
	}
	// One call per move: legal moves are asked only where a deal starts,
	// and a bot that reads no view costs no GetView.
	want := map[string]int{"NewGame": 1, "ApplyMove": 6, "NextDeal": 1, "ListLegalMoves": 2, "GetView": 0}
	for rpc, n := range want {
		if got := fake.callCount(rpc); got != n {
			t.Errorf("%s called %d times, want %d", rpc, got, n)
		}
	}
}

func TestPlayAsksForLegalMovesWhenTheAnswerCarriesNone(t *testing.T) {
	fake := &fakeGame{movesPerDeal: 4, deals: 1, noNextLegal: true}
	result, err := PlayMatch(context.Background(), fakeClient(t, fake), "fake", "", 3, 7, randomBots(3, 1))
	if err != nil {
		t.Fatal(err)
	}
	if result.Moves != 4 || fake.callCount("ListLegalMoves") != 4 {
		t.Errorf("%d moves, %d ListLegalMoves calls; want 4 and 4", result.Moves, fake.callCount("ListLegalMoves"))
	}
}

func TestTheCurrentSeatChoosesWhenOtherSeatsAlsoAct(t *testing.T) {
	fake := &fakeGame{movesPerDeal: 5, deals: 1, otherActs: true}
	bots := []*recordingBot{{}, {}}
	result, err := PlayMatch(context.Background(), fakeClient(t, fake), "fake", "", 2, 7, []Bot{bots[0], bots[1]})
	if err != nil {
		t.Fatal(err)
	}
	// Seat 0 moves first and the turn alternates: 3 moves for 0, 2 for 1.
	if len(bots[0].views) != 3 || len(bots[1].views) != 2 || result.Moves != 5 {
		t.Errorf("seat 0 chose %d times, seat 1 %d; want 3 and 2", len(bots[0].views), len(bots[1].views))
	}
}

func TestTheFirstActingSeatWithMovesChoosesWhenTheCurrentSeatHasNone(t *testing.T) {
	fake := &fakeGame{movesPerDeal: 4, deals: 1, currentHasNoMoves: true}
	bots := []*recordingBot{{}, {}, {}}
	_, err := PlayMatch(context.Background(), fakeClient(t, fake), "fake", "", 3, 7, []Bot{bots[0], bots[1], bots[2]})
	if err != nil {
		t.Fatal(err)
	}
	// Current seats 0, 2, 1, 0 (each move passes the turn to the mover's
	// next seat); the choosers are the seats after them: 1, 0, 2, 1.
	got := []int{len(bots[0].views), len(bots[1].views), len(bots[2].views)}
	if got[0] != 1 || got[1] != 2 || got[2] != 1 {
		t.Errorf("choices per seat %v, want [1 2 1]", got)
	}
	for seat, bot := range bots {
		for _, view := range bot.views {
			if view.GetSeat() != uint32(seat) || view.GetGame() != "fake" {
				t.Errorf("the bot of seat %d was handed the view of seat %d of %q", seat, view.GetSeat(), view.GetGame())
			}
		}
	}
}

func TestABotThatWantsViewsGetsItsSeatsViews(t *testing.T) {
	fake := &fakeGame{movesPerDeal: 3, deals: 2}
	bots := []*recordingBot{{wantsView: true}, {wantsView: true}}
	_, err := PlayMatch(context.Background(), fakeClient(t, fake), "fake", "", 2, 7, []Bot{bots[0], bots[1]})
	if err != nil {
		t.Fatal(err)
	}
	// The first view of each deal comes from GetView, the others from the
	// ApplyMove answers (next_views).
	if n := fake.callCount("GetView"); n != 2 {
		t.Errorf("GetView called %d times, want 2 (once per deal)", n)
	}
	moveNumbers := map[uint64]bool{}
	for seat, bot := range bots {
		for _, view := range bot.views {
			if view.GetSeat() != uint32(seat) {
				t.Errorf("the bot of seat %d was handed the view of seat %d", seat, view.GetSeat())
			}
			moveNumbers[view.GetMoveNumber()] = true
		}
	}
	if len(moveNumbers) != 6 {
		t.Errorf("views of move numbers %v, want one per move 0-5", moveNumbers)
	}
}

func TestAListedMoveRejectedIsAContractError(t *testing.T) {
	fake := &fakeGame{movesPerDeal: 3, deals: 1, rejectAll: true}
	_, err := PlayMatch(context.Background(), fakeClient(t, fake), "fake", "", 2, 7, randomBots(2, 1))
	var contract *ContractError
	if !errors.As(err, &contract) || !strings.Contains(err.Error(), "listed as legal but rejected: fake rejection") {
		t.Fatalf("error %v, want a ContractError naming the rejection", err)
	}
}

func TestPlayStopsAtTheMoveBound(t *testing.T) {
	fake := &fakeGame{movesPerDeal: 1000, deals: 1}
	client := fakeClient(t, fake)
	started, err := client.NewGame(context.Background(), "fake", "", 2, 7)
	if err != nil {
		t.Fatal(err)
	}
	_, err = Play(context.Background(), client, started.GetState(), randomBots(2, 1), 5)
	var tooLong *MatchTooLongError
	if !errors.As(err, &tooLong) || tooLong.State.GetMoveNumber() != 5 || fake.callCount("ApplyMove") != 5 {
		t.Fatalf("error %v, want a MatchTooLongError at move number 5", err)
	}
}

func TestABotAnswerOutOfRangeIsAnError(t *testing.T) {
	fake := &fakeGame{movesPerDeal: 3, deals: 1}
	_, err := PlayMatch(context.Background(), fakeClient(t, fake), "fake", "", 2, 7, []Bot{fixedBot(2), fixedBot(0)})
	if err == nil || !strings.Contains(err.Error(), "the bot of seat 0 chose move 2 of 2 offered") {
		t.Fatalf("error %v", err)
	}
}

func TestPlayMatchNeedsOneBotPerSeat(t *testing.T) {
	fake := &fakeGame{movesPerDeal: 3, deals: 1}
	client := fakeClient(t, fake)
	if _, err := PlayMatch(context.Background(), client, "fake", "", 3, 7, randomBots(2, 1)); err == nil ||
		!strings.Contains(err.Error(), "2 bots for 3 seats") {
		t.Errorf("error %v", err)
	}
	if _, err := PlayMatch(context.Background(), client, "fake", "", 2, 7, []Bot{NewRandomBot(1), nil}); err == nil ||
		!strings.Contains(err.Error(), "no bot for seat 1") {
		t.Errorf("error %v", err)
	}
	if n := fake.callCount("NewGame"); n != 0 {
		t.Errorf("NewGame called %d times before the bots were checked", n)
	}
}

func TestPlayStopsWhenTheContextIsCancelled(t *testing.T) {
	fake := &fakeGame{movesPerDeal: 3, deals: 1}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := Play(ctx, fakeClient(t, fake), &pb.GameState{Seats: []*pb.Seat{{}}}, randomBots(1, 1), 10); !errors.Is(err, context.Canceled) {
		t.Errorf("error %v, want context.Canceled", err)
	}
}

func TestRandomBotIsSeededAndUniform(t *testing.T) {
	moves := make([]*pb.LegalMove, 10)
	choices := func(seed uint64) []int {
		bot := NewRandomBot(seed)
		out := make([]int, 1000)
		for i := range out {
			out[i] = bot.Choose(nil, moves)
		}
		return out
	}
	first, again, other := choices(42), choices(42), choices(43)
	same, differs := true, false
	counts := make([]int, len(moves))
	for i := range first {
		same = same && first[i] == again[i]
		differs = differs || first[i] != other[i]
		counts[first[i]]++
	}
	if !same || !differs {
		t.Errorf("same seed same choices: %v; another seed other choices: %v", same, differs)
	}
	// 1000 draws over 10 moves: each expected 100, sd 9.5; 50 is 5 sd away.
	for index, n := range counts {
		if n < 50 || n > 150 {
			t.Errorf("move %d chosen %d times of 1000", index, n)
		}
	}
}
