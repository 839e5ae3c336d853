package croupier

import (
	"context"
	"net"
	"sync"
	"testing"

	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/test/bufconn"
	"google.golang.org/protobuf/proto"

	pb "github.com/croupier-rules/croupier/clients/go/croupierv1"
)

// fakeGame is a CroupierService for a tiny game with every shape the match
// loop must handle, so its tests know each answer the server gives: seats
// take turns; each seat may play card 1 or card 2 (a sto Play); a deal ends
// after movesPerDeal moves, the match after deals deals, won by the seat
// that made the last move. Its knobs break the contract or leave out parts
// of the answers on purpose.
type fakeGame struct {
	pb.UnimplementedCroupierServiceServer
	movesPerDeal uint64
	deals        uint32
	// noNextLegal: ApplyMove never answers next_legal_moves.
	noNextLegal bool
	// rejectAll: ApplyMove rejects every move (a contract breach).
	rejectAll bool
	// otherActs: every seat is listed as acting, but only the current seat
	// has moves (a window another seat may act in, and does not).
	otherActs bool
	// currentHasNoMoves: every seat is listed as acting and the current seat
	// has no move; the seat after it has the moves and must choose.
	currentHasNoMoves bool

	mu    sync.Mutex
	calls map[string]int
}

func (f *fakeGame) count(rpc string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.calls == nil {
		f.calls = map[string]int{}
	}
	f.calls[rpc]++
}

func (f *fakeGame) callCount(rpc string) int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.calls[rpc]
}

func (f *fakeGame) acting(current uint32, seats int) []uint32 {
	if !f.otherActs && !f.currentHasNoMoves {
		return []uint32{current}
	}
	acting := make([]uint32, seats)
	for seat := range acting {
		acting[seat] = uint32(seat)
	}
	return acting
}

func (f *fakeGame) movesOf(state *pb.GameState, seat uint32) []*pb.LegalMove {
	if state.GetMatch().GetPhase() != pb.MatchPhase_MATCH_PHASE_DEAL_IN_PROGRESS {
		return nil
	}
	chooser := state.GetCurrentSeat()
	if f.currentHasNoMoves {
		chooser = (chooser + 1) % uint32(len(state.GetSeats()))
	}
	if seat != chooser {
		return nil
	}
	moves := make([]*pb.LegalMove, 2)
	for i, card := range []pb.FrenchCard{pb.FrenchCard_FRENCH_CARD_CLUBS_2, pb.FrenchCard_FRENCH_CARD_CLUBS_3} {
		play := &pb.CountingMove{Action: &pb.CountingMove_Play_{Play: &pb.CountingMove_Play{Card: card}}}
		moves[i] = &pb.LegalMove{
			Move:     &pb.Move{Seat: seat, GameMove: &pb.Move_Sto{Sto: play}},
			Notation: card.String(),
		}
	}
	return moves
}

func (f *fakeGame) NewGame(_ context.Context, req *pb.NewGameRequest) (*pb.NewGameResponse, error) {
	f.count("NewGame")
	state := &pb.GameState{
		Game:  req.GetGame(),
		Seats: make([]*pb.Seat, req.GetSeatCount()),
		Seed:  req.GetSeed(),
		Match: &pb.MatchState{Phase: pb.MatchPhase_MATCH_PHASE_DEAL_IN_PROGRESS, DealNumber: 1},
	}
	for i := range state.Seats {
		state.Seats[i] = &pb.Seat{}
	}
	state.ActingSeats = f.acting(0, len(state.Seats))
	return &pb.NewGameResponse{State: state}, nil
}

func (f *fakeGame) ListLegalMoves(_ context.Context, req *pb.ListLegalMovesRequest) (*pb.ListLegalMovesResponse, error) {
	f.count("ListLegalMoves")
	return &pb.ListLegalMovesResponse{Moves: f.movesOf(req.GetState(), req.GetSeat())}, nil
}

func (f *fakeGame) GetView(_ context.Context, req *pb.GetViewRequest) (*pb.GetViewResponse, error) {
	f.count("GetView")
	state := req.GetState()
	return &pb.GetViewResponse{View: &pb.View{Seat: req.GetSeat(), Game: state.GetGame(), MoveNumber: state.GetMoveNumber()}}, nil
}

func (f *fakeGame) ApplyMove(_ context.Context, req *pb.ApplyMoveRequest) (*pb.ApplyMoveResponse, error) {
	f.count("ApplyMove")
	state, move := req.GetState(), req.GetMove()
	legal := false
	for _, m := range f.movesOf(state, move.GetSeat()) {
		legal = legal || proto.Equal(m.GetMove(), move)
	}
	if f.rejectAll || !legal {
		return &pb.ApplyMoveResponse{Rejection: &pb.Rejection{
			Reason: pb.RejectionReason_REJECTION_REASON_NOT_YOUR_TURN, Message: "fake rejection",
		}}, nil
	}
	next := proto.Clone(state).(*pb.GameState)
	next.MoveNumber++
	seats := uint32(len(next.GetSeats()))
	next.CurrentSeat = (move.GetSeat() + 1) % seats
	next.Seats[move.GetSeat()].Score++
	if next.GetMoveNumber()%f.movesPerDeal == 0 {
		next.ActingSeats = nil
		next.Match.DealWinners = []uint32{move.GetSeat()}
		next.Match.Phase = pb.MatchPhase_MATCH_PHASE_DEAL_OVER
		if next.GetMatch().GetDealNumber() >= f.deals {
			next.Match.Phase = pb.MatchPhase_MATCH_PHASE_MATCH_OVER
			next.Match.Winners = []uint32{move.GetSeat()}
		}
	} else {
		next.ActingSeats = f.acting(next.CurrentSeat, int(seats))
	}
	answer := &pb.ApplyMoveResponse{Accepted: true, State: next}
	for _, seat := range next.GetActingSeats() {
		if req.GetNextLegalMoves() && !f.noNextLegal {
			answer.NextLegalMoves = append(answer.NextLegalMoves, &pb.SeatMoves{Seat: seat, Moves: f.movesOf(next, seat)})
		}
		if req.GetNextViews() {
			answer.NextViews = append(answer.NextViews, &pb.View{Seat: seat, Game: next.GetGame(), MoveNumber: next.GetMoveNumber()})
		}
	}
	return answer, nil
}

func (f *fakeGame) NextDeal(_ context.Context, req *pb.NextDealRequest) (*pb.NextDealResponse, error) {
	f.count("NextDeal")
	next := proto.Clone(req.GetState()).(*pb.GameState)
	next.Match.Phase = pb.MatchPhase_MATCH_PHASE_DEAL_IN_PROGRESS
	next.Match.DealNumber++
	next.CurrentSeat = next.GetMatch().GetDealNumber() % uint32(len(next.GetSeats()))
	next.ActingSeats = f.acting(next.CurrentSeat, len(next.GetSeats()))
	return &pb.NextDealResponse{State: next}, nil
}

// serveInMemory serves register's services over an in-memory connection and
// answers a client connection to it, closed at the end of the test.
func serveInMemory(t *testing.T, register func(*grpc.Server)) *grpc.ClientConn {
	t.Helper()
	listener := bufconn.Listen(1 << 20)
	server := grpc.NewServer()
	register(server)
	go func() { _ = server.Serve(listener) }()
	conn, err := grpc.NewClient("passthrough:///bufconn",
		grpc.WithContextDialer(func(ctx context.Context, _ string) (net.Conn, error) { return listener.DialContext(ctx) }),
		grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = conn.Close()
		server.Stop()
	})
	return conn
}

// fakeClient is a Client of f over an in-memory connection.
func fakeClient(t *testing.T, f *fakeGame) *Client {
	t.Helper()
	conn := serveInMemory(t, func(s *grpc.Server) { pb.RegisterCroupierServiceServer(s, f) })
	return NewClient(conn)
}
