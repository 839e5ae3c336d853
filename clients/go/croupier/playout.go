package croupier

import (
	"context"
	"fmt"

	pb "github.com/croupier-rules/croupier/clients/go/croupierv1"
)

// DefaultMaxMoves bounds a match PlayMatch plays: a game that cannot end
// stops with a *MatchTooLongError instead of running forever.
const DefaultMaxMoves = 100_000

// MatchTooLongError is a match still going after MaxMoves moves; State is
// the state it reached.
type MatchTooLongError struct {
	MaxMoves int
	State    *pb.GameState
}

func (e *MatchTooLongError) Error() string {
	return fmt.Sprintf("croupier: the match is not over after %d moves (deal %d, move number %d)",
		e.MaxMoves, e.State.GetMatch().GetDealNumber(), e.State.GetMoveNumber())
}

// ContractError is the server breaking its own contract (no acting seat
// with a legal move, a listed move rejected, an unknown match phase): a bug
// to report, never a game outcome.
type ContractError struct {
	Message string
}

func (e *ContractError) Error() string { return "croupier: server contract broken: " + e.Message }

// Result is a finished match: its final state (phase MATCH_OVER, with
// winners) and the number of moves played.
type Result struct {
	State *pb.GameState
	Moves int
}

// PlayMatch deals a new match of game (preset empty: the default preset;
// options override it by name) for seats seats with seed, and plays it to
// MATCH_OVER with bots[seat] choosing each seat's moves (at most
// DefaultMaxMoves moves).
func PlayMatch(ctx context.Context, client *Client, game, preset string, seats uint32, seed uint64,
	bots []Bot, options ...*pb.OptionSetting,
) (*Result, error) {
	if err := checkBots(bots, seats); err != nil {
		return nil, err
	}
	started, err := client.NewGame(ctx, game, preset, seats, seed, options...)
	if err != nil {
		return nil, err
	}
	return Play(ctx, client, started.GetState(), bots, DefaultMaxMoves)
}

func checkBots(bots []Bot, seats uint32) error {
	if len(bots) != int(seats) {
		return fmt.Errorf("croupier: %d bots for %d seats: one bot per seat", len(bots), seats)
	}
	for seat, bot := range bots {
		if bot == nil {
			return fmt.Errorf("croupier: no bot for seat %d", seat)
		}
	}
	return nil
}

// Play plays from state to the end of the match and answers the final state
// and the number of moves played; a *MatchTooLongError after maxMoves moves.
//
// At every step it takes the legal moves of every acting seat: from the
// last ApplyMove answer (asked with next legal moves), else one
// ListLegalMoves per acting seat. The bot of the seat whose turn it is
// chooses when that seat has moves, else the bot of the first acting seat
// that has some (a UNO challenge or jump-in window).
func Play(ctx context.Context, client *Client, state *pb.GameState, bots []Bot, maxMoves int) (*Result, error) {
	if err := checkBots(bots, uint32(len(state.GetSeats()))); err != nil {
		return nil, err
	}
	applyOpts := []ApplyOption{WithNextLegalMoves()}
	for _, bot := range bots {
		if wantsView(bot) {
			applyOpts = append(applyOpts, WithNextViews())
			break
		}
	}
	moves := 0
	var legal map[uint32][]*pb.LegalMove // nil: not known yet
	var views map[uint32]*pb.View
	for {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		switch phase := state.GetMatch().GetPhase(); phase {
		case pb.MatchPhase_MATCH_PHASE_MATCH_OVER:
			return &Result{State: state, Moves: moves}, nil
		case pb.MatchPhase_MATCH_PHASE_DEAL_OVER:
			dealt, err := client.NextDeal(ctx, state)
			if err != nil {
				return nil, err
			}
			state, legal, views = dealt.GetState(), nil, nil
			continue
		case pb.MatchPhase_MATCH_PHASE_DEAL_IN_PROGRESS:
		default:
			return nil, &ContractError{fmt.Sprintf("a state in match phase %s", phase)}
		}
		if moves >= maxMoves {
			return nil, &MatchTooLongError{MaxMoves: maxMoves, State: state}
		}
		if legal == nil {
			var err error
			if legal, err = legalMovesOf(ctx, client, state); err != nil {
				return nil, err
			}
		}
		seat, ok := choosingSeat(state, legal)
		if !ok {
			return nil, &ContractError{fmt.Sprintf("no acting seat %v has a legal move (move number %d)",
				state.GetActingSeats(), state.GetMoveNumber())}
		}
		choice, err := choose(ctx, client, state, seat, bots[seat], legal[seat], views[seat])
		if err != nil {
			return nil, err
		}
		answer, err := client.ApplyMove(ctx, state, choice.GetMove(), applyOpts...)
		if err != nil {
			return nil, err
		}
		if !answer.GetAccepted() {
			return nil, &ContractError{fmt.Sprintf("%q of seat %d was listed as legal but rejected: %s",
				choice.GetNotation(), seat, answer.GetRejection().GetMessage())}
		}
		state = answer.GetState()
		legal, views = nextLegalMoves(answer), nextViews(answer)
		if len(legal) == 0 && len(state.GetActingSeats()) > 0 {
			legal = nil // a server without the one-call path: the next step asks
		}
		moves++
	}
}

// legalMovesOf asks for the legal moves of every acting seat.
func legalMovesOf(ctx context.Context, client *Client, state *pb.GameState) (map[uint32][]*pb.LegalMove, error) {
	legal := make(map[uint32][]*pb.LegalMove, len(state.GetActingSeats()))
	for _, seat := range state.GetActingSeats() {
		moves, err := client.LegalMoves(ctx, state, seat)
		if err != nil {
			return nil, err
		}
		legal[seat] = moves
	}
	return legal, nil
}

// choosingSeat is the seat whose bot chooses: the current seat when it has
// moves, else the first acting seat that has some.
func choosingSeat(state *pb.GameState, legal map[uint32][]*pb.LegalMove) (uint32, bool) {
	if seat := state.GetCurrentSeat(); len(legal[seat]) > 0 && int(seat) < len(state.GetSeats()) {
		return seat, true
	}
	for _, seat := range state.GetActingSeats() {
		if len(legal[seat]) > 0 && int(seat) < len(state.GetSeats()) {
			return seat, true
		}
	}
	return 0, false
}

// choose asks the bot of seat for one of moves, with the seat's view: the
// one the last answer carried, else GetView's, or only the seat and game
// for a bot that reads no view.
func choose(ctx context.Context, client *Client, state *pb.GameState, seat uint32, bot Bot,
	moves []*pb.LegalMove, view *pb.View,
) (*pb.LegalMove, error) {
	if view == nil {
		if wantsView(bot) {
			var err error
			if view, err = client.View(ctx, state, seat); err != nil {
				return nil, err
			}
		} else {
			view = &pb.View{Seat: seat, Game: state.GetGame()}
		}
	}
	index := bot.Choose(view, moves)
	if index < 0 || index >= len(moves) {
		return nil, fmt.Errorf("croupier: the bot of seat %d chose move %d of %d offered", seat, index, len(moves))
	}
	return moves[index], nil
}

func nextLegalMoves(answer *pb.ApplyMoveResponse) map[uint32][]*pb.LegalMove {
	legal := make(map[uint32][]*pb.LegalMove, len(answer.GetNextLegalMoves()))
	for _, entry := range answer.GetNextLegalMoves() {
		legal[entry.GetSeat()] = entry.GetMoves()
	}
	return legal
}

func nextViews(answer *pb.ApplyMoveResponse) map[uint32]*pb.View {
	views := make(map[uint32]*pb.View, len(answer.GetNextViews()))
	for _, view := range answer.GetNextViews() {
		views[view.GetSeat()] = view
	}
	return views
}
