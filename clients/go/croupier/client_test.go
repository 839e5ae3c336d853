package croupier

import (
	"context"
	"net"
	"strings"
	"testing"
	"time"

	"google.golang.org/genproto/googleapis/rpc/errdetails"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/grpc/test/bufconn"
	"google.golang.org/protobuf/proto"

	pb "github.com/croupier-rules/croupier/clients/go/croupierv1"
)

// recordingServer answers NewGame with INVALID_ARGUMENT and two field
// violations, keeps the last ApplyMove request, and blocks ListGames until
// the caller's deadline.
type recordingServer struct {
	pb.UnimplementedCroupierServiceServer
	lastApply *pb.ApplyMoveRequest
	lastNew   *pb.NewGameRequest
}

func (s *recordingServer) NewGame(_ context.Context, req *pb.NewGameRequest) (*pb.NewGameResponse, error) {
	s.lastNew = req
	st, err := status.New(codes.InvalidArgument, "bad options").WithDetails(&errdetails.BadRequest{
		FieldViolations: []*errdetails.BadRequest_FieldViolation{
			{Field: "options[0].value", Description: "out of range"},
			{Field: "seat_count", Description: "2 to 4 seats"},
		},
	})
	if err != nil {
		return nil, err
	}
	return nil, st.Err()
}

func (s *recordingServer) ApplyMove(_ context.Context, req *pb.ApplyMoveRequest) (*pb.ApplyMoveResponse, error) {
	s.lastApply = req
	return &pb.ApplyMoveResponse{Accepted: true, Notation: "7D"}, nil
}

func (s *recordingServer) AnalyseHand(_ context.Context, req *pb.AnalyseHandRequest) (*pb.AnalyseHandResponse, error) {
	if req.GetSeat() != 2 {
		return nil, status.Error(codes.InvalidArgument, "seat")
	}
	return &pb.AnalyseHandResponse{Analysis: &pb.AnalyseHandResponse_Scala40{Scala40: &pb.Scala40OpeningAnalysis{}}}, nil
}

func (s *recordingServer) ApplyMoveBatch(_ context.Context, req *pb.ApplyMoveBatchRequest) (*pb.ApplyMoveBatchResponse, error) {
	results := make([]*pb.ApplyMoveResult, len(req.GetItems()))
	for i, item := range req.GetItems() {
		results[i] = &pb.ApplyMoveResult{Outcome: &pb.ApplyMoveResult_Response{
			Response: &pb.ApplyMoveResponse{Accepted: true, Notation: item.GetState().GetGame()},
		}}
	}
	return &pb.ApplyMoveBatchResponse{Results: results}, nil
}

func (s *recordingServer) ListGames(ctx context.Context, _ *pb.ListGamesRequest) (*pb.ListGamesResponse, error) {
	<-ctx.Done()
	return nil, status.FromContextError(ctx.Err()).Err()
}

func recordingClient(t *testing.T) (*Client, *recordingServer) {
	server := &recordingServer{}
	conn := serveInMemory(t, func(s *grpc.Server) { pb.RegisterCroupierServiceServer(s, server) })
	return NewClient(conn), server
}

func TestErrorsCarryTheCodeAndTheFieldViolations(t *testing.T) {
	client, _ := recordingClient(t)
	_, err := client.NewGame(context.Background(), "uno", "", 9, 1)
	failure, ok := AsError(err)
	if !ok {
		t.Fatalf("error %v (%T), want *Error", err, err)
	}
	if failure.RPC != "NewGame" || failure.Code != codes.InvalidArgument || failure.Message != "bad options" {
		t.Errorf("got %s / %s / %q", failure.RPC, failure.Code, failure.Message)
	}
	want := []FieldViolation{{"options[0].value", "out of range"}, {"seat_count", "2 to 4 seats"}}
	if len(failure.Violations) != len(want) || failure.Violations[0] != want[0] || failure.Violations[1] != want[1] {
		t.Errorf("violations %v, want %v", failure.Violations, want)
	}
	if status.Code(err) != codes.InvalidArgument {
		t.Errorf("status.Code(err) = %s", status.Code(err))
	}
	text := err.Error()
	if !strings.Contains(text, "NewGame failed: InvalidArgument: bad options") || !strings.Contains(text, "\n  seat_count: 2 to 4 seats") {
		t.Errorf("message %q", text)
	}
}

func TestAnErrorWithoutDetailsHasNoViolations(t *testing.T) {
	client, _ := recordingClient(t)
	_, err := client.NextDeal(context.Background(), &pb.GameState{})
	failure, ok := AsError(err)
	if !ok || failure.Code != codes.Unimplemented || len(failure.Violations) != 0 {
		t.Fatalf("error %#v", err)
	}
}

func TestACallWithoutADeadlineGetsTheClientTimeout(t *testing.T) {
	client, _ := recordingClient(t)
	client.Timeout = 50 * time.Millisecond
	start := time.Now()
	_, err := client.ListGames(context.Background())
	if status.Code(err) != codes.DeadlineExceeded {
		t.Fatalf("error %v, want DeadlineExceeded", err)
	}
	if elapsed := time.Since(start); elapsed > 5*time.Second {
		t.Errorf("the call took %s", elapsed)
	}
}

func TestApplyMoveSendsWhatItsOptionsAsk(t *testing.T) {
	client, server := recordingClient(t)
	state := &pb.GameState{Game: "sto", MoveNumber: 3}
	move := &pb.Move{Seat: 1}
	answer, err := client.ApplyMove(context.Background(), state, move, WithNextLegalMoves(), WithNextViews())
	if err != nil || !answer.GetAccepted() || answer.GetNotation() != "7D" {
		t.Fatalf("answer %v, error %v", answer, err)
	}
	got := server.lastApply
	if !got.GetNextLegalMoves() || !got.GetNextViews() || got.GetSeatEvents() || got.GetValidateOnly() {
		t.Errorf("request flags %v", got)
	}
	if !proto.Equal(got.GetState(), state) || !proto.Equal(got.GetMove(), move) {
		t.Errorf("request state/move %v", got)
	}
	if _, err := client.ApplyMove(context.Background(), state, move, ValidateOnly(), WithSeatEvents()); err != nil {
		t.Fatal(err)
	}
	if got := server.lastApply; got.GetNextLegalMoves() || !got.GetValidateOnly() || !got.GetSeatEvents() {
		t.Errorf("request flags %v", got)
	}
}

func TestNewGameSendsItsOptionsByName(t *testing.T) {
	client, server := recordingClient(t)
	_, _ = client.NewGame(context.Background(), "hundred_and_one", "hd", 3, 99,
		BoolOption("jokers", true), IntOption("deck_size", 52), EnumOption("opening", "DEALER_UPCARD"),
		SetOption("finish_forbidden", "QUEEN", "ACE"))
	want := &pb.NewGameRequest{Game: "hundred_and_one", Preset: "hd", SeatCount: 3, Seed: 99, Options: []*pb.OptionSetting{
		{Name: "jokers", Value: &pb.OptionValue{Kind: &pb.OptionValue_BoolValue{BoolValue: true}}},
		{Name: "deck_size", Value: &pb.OptionValue{Kind: &pb.OptionValue_IntValue{IntValue: 52}}},
		{Name: "opening", Value: &pb.OptionValue{Kind: &pb.OptionValue_EnumValue{EnumValue: "DEALER_UPCARD"}}},
		{Name: "finish_forbidden", Value: &pb.OptionValue{Kind: &pb.OptionValue_SetValue{
			SetValue: &pb.NameList{Names: []string{"QUEEN", "ACE"}},
		}}},
	}}
	if !proto.Equal(server.lastNew, want) {
		t.Errorf("request %v\nwant %v", server.lastNew, want)
	}
}

func TestACallToNoServerIsAnErrorAndTheClientCloses(t *testing.T) {
	client, err := Dial("127.0.0.1:1")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	// Nothing listens on port 1: the call fails UNAVAILABLE (after the
	// retries) or at the deadline, as an *Error either way.
	_, err = client.ListGames(ctx)
	if failure, ok := AsError(err); !ok || (failure.Code != codes.Unavailable && failure.Code != codes.DeadlineExceeded) {
		t.Errorf("error %v", err)
	}
	if err := client.Close(); err != nil {
		t.Error(err)
	}
}

// flakyServer answers ListGames UNAVAILABLE until it has been called failures times.
type flakyServer struct {
	pb.UnimplementedCroupierServiceServer
	failures, calls int
}

func (s *flakyServer) ListGames(context.Context, *pb.ListGamesRequest) (*pb.ListGamesResponse, error) {
	s.calls++
	if s.calls <= s.failures {
		return nil, status.Error(codes.Unavailable, "draining")
	}
	return &pb.ListGamesResponse{Games: []*pb.GameDescriptor{{Name: "uno"}}}, nil
}

func TestDialRetriesACallAnsweredUnavailable(t *testing.T) {
	server := &flakyServer{failures: 2}
	listener := bufconn.Listen(1 << 16)
	grpcServer := grpc.NewServer()
	pb.RegisterCroupierServiceServer(grpcServer, server)
	go func() { _ = grpcServer.Serve(listener) }()
	defer grpcServer.Stop()
	client, err := Dial("passthrough:///bufconn",
		grpc.WithContextDialer(func(ctx context.Context, _ string) (net.Conn, error) { return listener.DialContext(ctx) }))
	if err != nil {
		t.Fatal(err)
	}
	defer client.Close()
	games, err := client.ListGames(context.Background())
	if err != nil || len(games) != 1 || server.calls != 3 {
		t.Fatalf("games %v, error %v after %d calls; want 1 game after 3 calls", games, err, server.calls)
	}
}

func TestAnalyseHandAndApplyMoveBatchSendTheirRequests(t *testing.T) {
	client, _ := recordingClient(t)
	ctx := context.Background()
	analysis, err := client.AnalyseHand(ctx, &pb.GameState{Game: "scala40"}, 2)
	if err != nil || analysis.GetScala40() == nil {
		t.Fatalf("analysis %v, error %v", analysis, err)
	}
	items := []*pb.ApplyMoveRequest{
		{State: &pb.GameState{Game: "uno"}}, {State: &pb.GameState{Game: "sto"}},
	}
	results, err := client.ApplyMoveBatch(ctx, items)
	if err != nil || len(results) != 2 || results[1].GetResponse().GetNotation() != "sto" {
		t.Fatalf("results %v, error %v", results, err)
	}
}
