package croupier

import (
	"math/rand/v2"

	pb "github.com/croupier-rules/croupier/clients/go/croupierv1"
)

// Bot picks one of the legal moves its seat is offered. It sees what its
// seat may see (view; view.Seat is the seat it plays) and the moves the rules
// allow it, never the state, and answers an index into moves. moves is never
// empty: the match loop and the BotService offer a bot no empty choice.
type Bot interface {
	Choose(view *pb.View, moves []*pb.LegalMove) int
}

// ViewWanter is an optional interface of a Bot. A bot whose WantsView is
// false never reads its view, so the match loop hands it a View with only
// Seat and Game set instead of asking the server for the seat's view.
type ViewWanter interface {
	WantsView() bool
}

func wantsView(bot Bot) bool {
	w, ok := bot.(ViewWanter)
	return !ok || w.WantsView()
}

// RandomBot chooses uniformly among the legal moves with its own seeded
// generator (PCG), so the same seed makes the same choices against the same
// positions. Not safe for concurrent use: one bot plays one seat.
type RandomBot struct {
	seed uint64
	rng  *rand.Rand
}

// NewRandomBot is a random bot seeded with seed.
func NewRandomBot(seed uint64) *RandomBot {
	// The stream constant is fixed: the seed alone picks the sequence.
	return &RandomBot{seed: seed, rng: rand.New(rand.NewPCG(seed, 0x63726f7570696572))}
}

// Seed is the seed the bot was made with.
func (b *RandomBot) Seed() uint64 { return b.seed }

// Choose answers a uniformly random index of moves; it panics on an empty
// list, which no caller of the contract offers.
func (b *RandomBot) Choose(_ *pb.View, moves []*pb.LegalMove) int {
	if len(moves) == 0 {
		panic("croupier: RandomBot.Choose offered no legal move")
	}
	return b.rng.IntN(len(moves))
}

// WantsView is false: the random bot never reads its view.
func (b *RandomBot) WantsView() bool { return false }

// RandomBotFactory makes a RandomBot per seat from its seed, whatever the
// game; a factory for ServeBot.
func RandomBotFactory(_ string, seed uint64) Bot { return NewRandomBot(seed) }
