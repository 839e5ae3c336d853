// Package croupier is a small Go client of Croupier, the stateless card-game
// rules engine: a typed Client over the generated stub (croupierv1), the
// match loop that plays a match with one Bot per seat (PlayMatch), and a
// BotService server for any Bot (ServeBot).
//
// Every rule stays on the server: the client converts nothing but the option
// values a person types, and turns gRPC errors into *Error with their field
// violations. The messages it takes and returns are the generated ones.
package croupier

import (
	"context"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"

	pb "github.com/croupier-rules/croupier/clients/go/croupierv1"
)

// DefaultTimeout is the deadline of a call whose context has none.
const DefaultTimeout = 10 * time.Second

// retryServiceConfig retries every Croupier and Health call answered
// UNAVAILABLE (a server draining, a balancer without a backend for a
// moment): every call is pure, so sending it again is safe. The same policy
// as the Python client's (up to 5 attempts, 100 ms to 1 s backoff).
const retryServiceConfig = `{"methodConfig": [{
  "name": [{"service": "croupier.v1.CroupierService"}, {"service": "grpc.health.v1.Health"}],
  "retryPolicy": {
    "maxAttempts": 5, "initialBackoff": "0.1s", "maxBackoff": "1s",
    "backoffMultiplier": 2, "retryableStatusCodes": ["UNAVAILABLE"]
  }
}]}`

// Client is a connection to one Croupier server (or load balancer). Its
// methods are safe for concurrent use. A call whose context has no deadline
// gets Timeout (DefaultTimeout unless changed; 0: no deadline).
type Client struct {
	Timeout time.Duration
	stub    pb.CroupierServiceClient
	conn    *grpc.ClientConn // nil when the caller owns the connection
}

// Dial opens an insecure channel to target ("host:port") that retries calls
// answered UNAVAILABLE. More options (TLS credentials, interceptors) go in
// opts and take precedence. Close the client when done.
func Dial(target string, opts ...grpc.DialOption) (*Client, error) {
	all := append([]grpc.DialOption{
		grpc.WithTransportCredentials(insecure.NewCredentials()),
		grpc.WithDefaultServiceConfig(retryServiceConfig),
	}, opts...)
	conn, err := grpc.NewClient(target, all...)
	if err != nil {
		return nil, err
	}
	return &Client{Timeout: DefaultTimeout, stub: pb.NewCroupierServiceClient(conn), conn: conn}, nil
}

// NewClient is a client over a connection the caller opened and closes.
func NewClient(conn grpc.ClientConnInterface) *Client {
	return &Client{Timeout: DefaultTimeout, stub: pb.NewCroupierServiceClient(conn)}
}

// Close closes the connection Dial opened; a no-op for NewClient's.
func (c *Client) Close() error {
	if c.conn == nil {
		return nil
	}
	return c.conn.Close()
}

// Stub is the generated stub, for the calls the wrapper does not cover
// (ApplyMoveBatch, ApplyMoveStream, AnalyseHand, sealed states).
func (c *Client) Stub() pb.CroupierServiceClient { return c.stub }

// call runs one RPC under the client's default deadline and wraps its error.
func call[Req, Resp any](ctx context.Context, c *Client, rpc string,
	method func(context.Context, Req, ...grpc.CallOption) (Resp, error), req Req,
) (Resp, error) {
	if _, has := ctx.Deadline(); !has && c.Timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, c.Timeout)
		defer cancel()
	}
	resp, err := method(ctx, req)
	return resp, callError(rpc, err)
}

// ListGames answers every game the server knows, with its options and presets.
func (c *Client) ListGames(ctx context.Context) ([]*pb.GameDescriptor, error) {
	resp, err := call(ctx, c, "ListGames", c.stub.ListGames, &pb.ListGamesRequest{})
	return resp.GetGames(), err
}

// NewGame deals the first deal of a new match of game for seats seats. An
// empty preset is the game's default preset; options override it by name
// (BoolOption, IntOption, EnumOption, SetOption).
func (c *Client) NewGame(ctx context.Context, game, preset string, seats uint32, seed uint64,
	options ...*pb.OptionSetting,
) (*pb.NewGameResponse, error) {
	req := &pb.NewGameRequest{Game: game, Preset: preset, SeatCount: seats, Seed: seed, Options: options}
	return call(ctx, c, "NewGame", c.stub.NewGame, req)
}

// ApplyOption asks ApplyMove for more than the next state.
type ApplyOption func(*pb.ApplyMoveRequest)

// WithNextLegalMoves also answers every next acting seat's legal moves, so a
// match takes one call per move instead of two.
func WithNextLegalMoves() ApplyOption {
	return func(r *pb.ApplyMoveRequest) { r.NextLegalMoves = true }
}

// WithNextViews also answers every next acting seat's view.
func WithNextViews() ApplyOption { return func(r *pb.ApplyMoveRequest) { r.NextViews = true } }

// WithSeatEvents also answers each seat's events as that seat may see them.
func WithSeatEvents() ApplyOption { return func(r *pb.ApplyMoveRequest) { r.SeatEvents = true } }

// ValidateOnly checks the move without playing it: the answer has no state.
func ValidateOnly() ApplyOption { return func(r *pb.ApplyMoveRequest) { r.ValidateOnly = true } }

// ApplyMove checks move against state and, when legal, plays it. An illegal
// move is an answer, not an error: Accepted is false and Rejection names the
// rule that forbids it.
func (c *Client) ApplyMove(ctx context.Context, state *pb.GameState, move *pb.Move,
	opts ...ApplyOption,
) (*pb.ApplyMoveResponse, error) {
	req := &pb.ApplyMoveRequest{State: state, Move: move}
	for _, opt := range opts {
		opt(req)
	}
	return call(ctx, c, "ApplyMove", c.stub.ApplyMove, req)
}

// LegalMoves answers every legal move of seat, in the engine's canonical
// order (empty for a seat that may not act).
func (c *Client) LegalMoves(ctx context.Context, state *pb.GameState, seat uint32) ([]*pb.LegalMove, error) {
	req := &pb.ListLegalMovesRequest{State: state, Seat: seat}
	resp, err := call(ctx, c, "ListLegalMoves", c.stub.ListLegalMoves, req)
	return resp.GetMoves(), err
}

// View answers what seat may see of state: no seed, hidden cards counted.
func (c *Client) View(ctx context.Context, state *pb.GameState, seat uint32) (*pb.View, error) {
	resp, err := call(ctx, c, "GetView", c.stub.GetView, &pb.GetViewRequest{State: state, Seat: seat})
	return resp.GetView(), err
}

// NextDeal starts the next deal of a match whose last deal is over.
func (c *Client) NextDeal(ctx context.Context, state *pb.GameState) (*pb.NextDealResponse, error) {
	return call(ctx, c, "NextDeal", c.stub.NextDeal, &pb.NextDealRequest{State: state})
}

// DefaultMove answers the move seat is deemed to make when its clock runs
// out; always one of its legal moves.
func (c *Client) DefaultMove(ctx context.Context, state *pb.GameState, seat uint32) (*pb.LegalMove, error) {
	req := &pb.DefaultMoveRequest{State: state, Seat: seat}
	resp, err := call(ctx, c, "DefaultMove", c.stub.DefaultMove, req)
	return resp.GetMove(), err
}

// AnalyseHand answers the hand analysis a game offers for seat (Scala 40:
// the best opening its hand holds); a game that offers none is
// FAILED_PRECONDITION.
func (c *Client) AnalyseHand(ctx context.Context, state *pb.GameState, seat uint32) (*pb.AnalyseHandResponse, error) {
	return call(ctx, c, "AnalyseHand", c.stub.AnalyseHand, &pb.AnalyseHandRequest{State: state, Seat: seat})
}

// ApplyMoveBatch makes several independent ApplyMove calls in one: one
// result per item, in order; an item the server refuses carries its error in
// its result and does not fail the others.
func (c *Client) ApplyMoveBatch(ctx context.Context, items []*pb.ApplyMoveRequest) ([]*pb.ApplyMoveResult, error) {
	resp, err := call(ctx, c, "ApplyMoveBatch", c.stub.ApplyMoveBatch, &pb.ApplyMoveBatchRequest{Items: items})
	return resp.GetResults(), err
}

// BoolOption sets a BOOL option by name.
func BoolOption(name string, value bool) *pb.OptionSetting {
	return &pb.OptionSetting{Name: name, Value: &pb.OptionValue{Kind: &pb.OptionValue_BoolValue{BoolValue: value}}}
}

// IntOption sets an INT option by name.
func IntOption(name string, value int64) *pb.OptionSetting {
	return &pb.OptionSetting{Name: name, Value: &pb.OptionValue{Kind: &pb.OptionValue_IntValue{IntValue: value}}}
}

// EnumOption sets an ENUM option by name to a value name without its type
// prefix (opening = "DEALER_UPCARD").
func EnumOption(name, value string) *pb.OptionSetting {
	return &pb.OptionSetting{Name: name, Value: &pb.OptionValue{Kind: &pb.OptionValue_EnumValue{EnumValue: value}}}
}

// SetOption sets a SET option by name to the listed value names, in the
// order given.
func SetOption(name string, values ...string) *pb.OptionSetting {
	set := &pb.NameList{Names: values}
	return &pb.OptionSetting{Name: name, Value: &pb.OptionValue{Kind: &pb.OptionValue_SetValue{SetValue: set}}}
}
