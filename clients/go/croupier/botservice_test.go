package croupier

import (
	"context"
	"errors"
	"net"
	"strings"
	"sync"
	"syscall"
	"testing"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/status"

	pb "github.com/croupier-rules/croupier/clients/go/croupierv1"
)

func TestSeatSeedIsThePythonClientsSeed(t *testing.T) {
	// int.from_bytes(hashlib.sha256(f"{match_id}/{seat}".encode()).digest()[:8], "big"),
	// as croupier_client.bots.service.seat_seed computes it.
	cases := []struct {
		matchID string
		seat    uint32
		seed    uint64
	}{
		{"m", 0, 5227419291365769287},
		{"match-1", 0, 15953064280873883968},
		{"match-1", 1, 328688776068702082},
	}
	for _, c := range cases {
		if got := SeatSeed(c.matchID, c.seat); got != c.seed {
			t.Errorf("SeatSeed(%q, %d) = %d, want %d", c.matchID, c.seat, got, c.seed)
		}
	}
}

// botStub is a BotService client of server over an in-memory connection.
func botStub(t *testing.T, server *BotServer) pb.BotServiceClient {
	conn := serveInMemory(t, func(s *grpc.Server) { pb.RegisterBotServiceServer(s, server) })
	return pb.NewBotServiceClient(conn)
}

// chooseRequest is a request CheckChooseMove passes: a UNO view of seat (of
// seat+1 seats) with moves UNO moves of that seat.
func chooseRequest(matchID string, seat uint32, moves int) *pb.ChooseMoveRequest {
	legal := make([]*pb.LegalMove, moves)
	for i := range legal {
		legal[i] = &pb.LegalMove{Move: unoMove(seat)}
	}
	view := &pb.View{
		Seat:     seat,
		Game:     "uno",
		Options:  &pb.GameOptions{Game: &pb.GameOptions_Uno{Uno: &pb.UnoOptions{}}},
		Seats:    make([]*pb.Seat, seat+1),
		GameView: &pb.View_Uno{Uno: &pb.UnoView{}},
	}
	return &pb.ChooseMoveRequest{View: view, LegalMoves: legal, MatchId: matchID}
}

func unoMove(seat uint32) *pb.Move {
	return &pb.Move{Seat: seat, GameMove: &pb.Move_Uno{Uno: &pb.UnoMove{}}}
}

// choices are the indices the server answers for calls (match id, seat), in order.
func choices(t *testing.T, stub pb.BotServiceClient, calls []botKey) map[botKey][]uint32 {
	out := map[botKey][]uint32{}
	for _, key := range calls {
		answer, err := stub.ChooseMove(context.Background(), chooseRequest(key.matchID, key.seat, 7))
		if err != nil {
			t.Fatal(err)
		}
		if answer.GetMoveIndex() >= 7 {
			t.Fatalf("index %d of 7 moves", answer.GetMoveIndex())
		}
		out[key] = append(out[key], answer.GetMoveIndex())
	}
	return out
}

func TestEachMatchAndSeatHasItsOwnReproducibleBot(t *testing.T) {
	a0, a1, b0 := botKey{"a", 0}, botKey{"a", 1}, botKey{"b", 0}
	var interleaved, grouped []botKey
	for range 20 {
		interleaved = append(interleaved, a0, b0, a1)
	}
	for _, key := range []botKey{b0, a1, a0} {
		for range 20 {
			grouped = append(grouped, key)
		}
	}
	first := NewBotServer(RandomBotFactory, 0)
	one := choices(t, botStub(t, first), interleaved)
	two := choices(t, botStub(t, NewBotServer(RandomBotFactory, 0)), grouped)
	for _, key := range []botKey{a0, a1, b0} {
		if !equalUint32s(one[key], two[key]) {
			t.Errorf("%v: %v on one server, %v on another", key, one[key], two[key])
		}
		// The seat's bot is the RandomBot of its seat seed.
		bot := NewRandomBot(SeatSeed(key.matchID, key.seat))
		for i, index := range one[key] {
			if want := bot.Choose(nil, make([]*pb.LegalMove, 7)); uint32(want) != index {
				t.Fatalf("%v call %d: %d, want %d", key, i, index, want)
			}
		}
	}
	if first.BotsMade() != 3 {
		t.Errorf("%d bots made for 3 (match, seat) pairs", first.BotsMade())
	}
}

func equalUint32s(a, b []uint32) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func TestTheFactoryGetsTheGameAndTheSeatSeed(t *testing.T) {
	var mu sync.Mutex
	var made []string
	factory := func(game string, seed uint64) Bot {
		mu.Lock()
		defer mu.Unlock()
		made = append(made, game)
		if seed != SeatSeed("m", 3) {
			t.Errorf("seed %d, want SeatSeed(m, 3)", seed)
		}
		return fixedBot(0)
	}
	stub := botStub(t, NewBotServer(factory, 0))
	if _, err := stub.ChooseMove(context.Background(), chooseRequest("m", 3, 2)); err != nil {
		t.Fatal(err)
	}
	if len(made) != 1 || made[0] != "uno" {
		t.Errorf("factory calls %v", made)
	}
}

func TestARequestWithoutMovesIsInvalid(t *testing.T) {
	stub := botStub(t, NewBotServer(RandomBotFactory, 0))
	_, err := stub.ChooseMove(context.Background(), chooseRequest("m", 0, 0))
	if status.Code(err) != codes.InvalidArgument ||
		status.Convert(err).Message() != "legal_moves: empty: a bot needs at least one move to choose from" {
		t.Errorf("error %v, want INVALID_ARGUMENT", err)
	}
}

// badRequests are requests no harness sends, one per check of
// CheckChooseMove, with the violation each must get: the field paths and
// words of the server's built-in bots (tests/service/test_builtin_bots.py)
// and of the Python client (tests/client/test_bot_server_checks.py).
func badRequests() []struct {
	name string
	req  *pb.ChooseMoveRequest
	want FieldViolation
} {
	type bad = struct {
		name string
		req  *pb.ChooseMoveRequest
		want FieldViolation
	}
	var out []bad
	add := func(name string, field, description string, change func(*pb.ChooseMoveRequest)) {
		req := chooseRequest("m", 1, 5)
		change(req)
		out = append(out, bad{name, req, FieldViolation{field, description}})
	}
	add("no game", "view.game", "no game is named 'poker'", func(r *pb.ChooseMoveRequest) {
		r.View.Game = "poker"
	})
	add("a long game name", "view.game", "no game is named '"+strings.Repeat("x", 40)+"'…",
		func(r *pb.ChooseMoveRequest) { r.View.Game = strings.Repeat("x", 10000) })
	add("no view", "view.game", "no game is named ''", func(r *pb.ChooseMoveRequest) { r.View = nil })
	add("no game view", "view", "holds no uno view", func(r *pb.ChooseMoveRequest) { r.View.GameView = nil })
	add("another game's view", "view.hundred_and_one", "a hundred_and_one view, but the view is of a uno game",
		func(r *pb.ChooseMoveRequest) {
			r.View.GameView = &pb.View_HundredAndOne{HundredAndOne: &pb.HundredAndOneView{}}
		})
	add("another game's options", "view.options", "hundred_and_one options, but the view is of a uno game",
		func(r *pb.ChooseMoveRequest) {
			r.View.Options = &pb.GameOptions{Game: &pb.GameOptions_HundredAndOne{HundredAndOne: &pb.HundredAndOneOptions{}}}
		})
	add("a seat that does not exist", "view.seat", "seat 1 does not exist (the view has 1)",
		func(r *pb.ChooseMoveRequest) { r.View.Seats = r.View.Seats[:1] })
	add("another game's move", "legal_moves[3].move.hundred_and_one",
		"a hundred_and_one move, but the view is of a uno game", func(r *pb.ChooseMoveRequest) {
			r.LegalMoves[3].Move.GameMove = &pb.Move_HundredAndOne{HundredAndOne: &pb.HundredAndOneMove{}}
		})
	add("an empty move", "legal_moves[3].move", "missing or empty move",
		func(r *pb.ChooseMoveRequest) { r.LegalMoves[3].Move = &pb.Move{Seat: 1} })
	add("no move", "legal_moves[3].move", "missing or empty move",
		func(r *pb.ChooseMoveRequest) { r.LegalMoves[3] = &pb.LegalMove{} })
	add("another seat's move", "legal_moves[3].move.seat",
		"a move of seat 0, but the view is seat 1's: a bot chooses among its own seat's moves",
		func(r *pb.ChooseMoveRequest) { r.LegalMoves[3].Move = unoMove(0) })
	return out
}

func TestCheckChooseMoveNamesTheFieldAtFaultAsTheServerDoes(t *testing.T) {
	for _, c := range badRequests() {
		got := CheckChooseMove(c.req)
		if got == nil || *got != c.want {
			t.Errorf("%s: %+v, want %+v", c.name, got, c.want)
		}
	}
	if got := CheckChooseMove(chooseRequest("m", 2, 3)); got != nil {
		t.Errorf("a request of the view's game and seat refused: %+v", got)
	}
}

func TestABadRequestIsInvalidArgumentBeforeTheBotIsAsked(t *testing.T) {
	var mu sync.Mutex
	made := 0
	factory := func(string, uint64) Bot {
		mu.Lock()
		defer mu.Unlock()
		made++
		return fixedBot(0)
	}
	server := NewBotServer(factory, 0)
	stub := botStub(t, server)
	for _, c := range badRequests() {
		_, err := stub.ChooseMove(context.Background(), c.req)
		if status.Code(err) != codes.InvalidArgument {
			t.Fatalf("%s: %v, want INVALID_ARGUMENT", c.name, err)
		}
		if msg := status.Convert(err).Message(); msg != c.want.Field+": "+c.want.Description {
			t.Errorf("%s: message %q", c.name, msg)
		}
		// The BadRequest detail the server attaches, read as a client reads it.
		if got := callError("ChooseMove", err).(*Error).Violations; len(got) != 1 || got[0] != c.want {
			t.Errorf("%s: violations %+v, want %+v", c.name, got, c.want)
		}
	}
	if made != 0 || server.BotsMade() != 0 {
		t.Errorf("%d bots made for refused requests", made)
	}
}

func TestABotIndexOutOfRangeIsInternal(t *testing.T) {
	stub := botStub(t, NewBotServer(func(string, uint64) Bot { return fixedBot(3) }, 0))
	_, err := stub.ChooseMove(context.Background(), chooseRequest("m", 1, 3))
	if status.Code(err) != codes.Internal || !strings.Contains(err.Error(), "chose move 3 of 3") {
		t.Errorf("error %v, want INTERNAL", err)
	}
}

func TestTheLeastRecentlyUsedBotIsDroppedPastTheBound(t *testing.T) {
	server := NewBotServer(RandomBotFactory, 2)
	stub := botStub(t, server)
	// a, b, a (a is fresh again), c (drops b), a (kept), b (made anew).
	for _, matchID := range []string{"a", "b", "a", "c", "a", "b"} {
		if _, err := stub.ChooseMove(context.Background(), chooseRequest(matchID, 0, 2)); err != nil {
			t.Fatal(err)
		}
	}
	if made := server.BotsMade(); made != 4 {
		t.Errorf("%d bots made, want 4 (a, b, c, b again)", made)
	}
}

func TestServeBotServesOnALoopbackPort(t *testing.T) {
	server, listener, err := ServeBot("127.0.0.1:0", RandomBotFactory)
	if err != nil {
		t.Fatal(err)
	}
	defer server.Stop()
	conn, err := grpc.NewClient(listener.Addr().String(), grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	answer, err := pb.NewBotServiceClient(conn).ChooseMove(context.Background(), chooseRequest("m", 2, 5))
	if err != nil {
		t.Fatal(err)
	}
	if want := NewRandomBot(SeatSeed("m", 2)).Choose(nil, make([]*pb.LegalMove, 5)); answer.GetMoveIndex() != uint32(want) {
		t.Errorf("index %d, want %d", answer.GetMoveIndex(), want)
	}
}

func TestServeBotRefusesABadAddress(t *testing.T) {
	if _, _, err := ServeBot("127.0.0.1:notaport", RandomBotFactory); err == nil ||
		!strings.HasPrefix(err.Error(), "croupier: cannot listen on 127.0.0.1:notaport (the BotService port): ") {
		t.Errorf("error %v", err)
	}
	if _, _, err := ServeBot("127.0.0.1:0", nil); err == nil {
		t.Error("no error for a nil factory")
	}
}

func TestServeBotNamesAnAddressInUse(t *testing.T) {
	taken, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer taken.Close()
	addr := taken.Addr().String()
	_, _, err = ServeBot(addr, RandomBotFactory)
	if err == nil || !strings.HasPrefix(err.Error(), "croupier: cannot listen on "+addr+" (the BotService port): ") {
		t.Errorf("error %v, want one naming %s", err, addr)
	}
	if !errors.Is(err, syscall.EADDRINUSE) {
		t.Errorf("error %v does not wrap EADDRINUSE", err)
	}
}
