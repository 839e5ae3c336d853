package croupier

import (
	"context"
	"os"
	"testing"
	"time"

	pb "github.com/croupier-rules/croupier/clients/go/croupierv1"
)

// The seed of every live match, and of its bots (seat i: liveSeed + 1 + i).
const liveSeed = 2024

// shortMatches are the options that keep a random match short where a
// whole match of the default preset is long. Random bots take UNO's
// voluntary draws, so hands grow and a match to 500 points ran 7,000 to
// 31,000 moves over 5 to 15 deals (15 seeds, in-process): 10 to 50 s through
// a server. Scored LAZY over one round, it is one deal, which still ends the
// match with a winner; the other games play their default matches whole,
// NextDeal and all.
var shortMatches = map[string][]*pb.OptionSetting{
	"uno": {EnumOption("scoring_method", "LAZY"), IntOption("lazy_rounds", 1)},
}

// liveSeats is the table size of a live match: 2 seats, or the fewest the
// default preset allows when that is more («Сто» and One Hundred start at 3).
func liveSeats(game *pb.GameDescriptor) uint32 {
	seats := uint32(2)
	for _, preset := range game.GetPresets() {
		if preset.GetName() == game.GetDefaultPreset() && preset.GetMinSeats() > seats {
			seats = preset.GetMinSeats()
		}
	}
	return max(seats, game.GetMinSeats())
}

// TestRandomBotsPlayEveryGame plays one whole match of every game the server
// at CROUPIER_TARGET lists (default preset, shortMatches' options on top,
// fixed seeds) with random bots, to MATCH_OVER with a winner. Skipped without CROUPIER_TARGET;
// tests/e2e/test_go_client.py runs it against a real server.
func TestRandomBotsPlayEveryGame(t *testing.T) {
	target := os.Getenv("CROUPIER_TARGET")
	if target == "" {
		t.Skip("CROUPIER_TARGET is not set: no server to play against")
	}
	client, err := Dial(target)
	if err != nil {
		t.Fatal(err)
	}
	defer client.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	games, err := client.ListGames(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(games) == 0 {
		t.Fatal("the server lists no game")
	}
	for _, game := range games {
		t.Run(game.GetName(), func(t *testing.T) {
			seats := liveSeats(game)
			bots := make([]Bot, seats)
			for seat := range bots {
				bots[seat] = NewRandomBot(liveSeed + 1 + uint64(seat))
			}
			start := time.Now()
			result, err := PlayMatch(ctx, client, game.GetName(), "", seats, liveSeed, bots,
				shortMatches[game.GetName()]...)
			if err != nil {
				t.Fatal(err)
			}
			match := result.State.GetMatch()
			if match.GetPhase() != pb.MatchPhase_MATCH_PHASE_MATCH_OVER {
				t.Fatalf("phase %s after %d moves", match.GetPhase(), result.Moves)
			}
			if len(match.GetWinners()) == 0 {
				t.Fatalf("MATCH_OVER without a winner after %d moves", result.Moves)
			}
			for _, winner := range match.GetWinners() {
				if winner >= seats {
					t.Errorf("winner seat %d of %d seats", winner, seats)
				}
			}
			t.Logf("%s, preset %s, %d seats: %d moves over %d deals in %s, winners %v (options %v)",
				game.GetName(), game.GetDefaultPreset(), seats, result.Moves, match.GetDealNumber(),
				time.Since(start).Round(time.Millisecond), match.GetWinners(), shortMatches[game.GetName()])
		})
	}
}
