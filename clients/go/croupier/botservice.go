package croupier

import (
	"container/list"
	"context"
	"crypto/sha256"
	"encoding/binary"
	"fmt"
	"net"
	"strconv"
	"sync"
	"unicode/utf8"

	"google.golang.org/genproto/googleapis/rpc/errdetails"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/reflect/protoreflect"

	pb "github.com/croupier-rules/croupier/clients/go/croupierv1"
)

// DefaultMaxMatches is how many (match, seat) bots a BotServer keeps; past
// it the least recently used one is dropped.
const DefaultMaxMatches = 4096

// BotFactory makes the bot of one seat of one match from the game's name
// and the seat's seed.
type BotFactory func(game string, seed uint64) Bot

// SeatSeed is the seed of the bot of seat in the match matchID: the first 8
// bytes, big-endian, of the SHA-256 of "{matchID}/{seat}". The Python
// client's BotService derives the same seeds (croupier_client.bots.service).
func SeatSeed(matchID string, seat uint32) uint64 {
	digest := sha256.Sum256([]byte(matchID + "/" + strconv.FormatUint(uint64(seat), 10)))
	return binary.BigEndian.Uint64(digest[:8])
}

// BotServer answers ChooseMove with one bot per (match id, seat) made by
// its factory, so a bot that remembers what it saw gets every call of its
// seat in its match.
type BotServer struct {
	pb.UnimplementedBotServiceServer
	factory    BotFactory
	maxMatches int

	mu    sync.Mutex
	bots  map[botKey]*list.Element // of *seatBot, in lru
	lru   *list.List               // most recently used first
	count int                      // bots made so far, for tests and logs
}

type botKey struct {
	matchID string
	seat    uint32
}

// seatBot is one seat's bot; its own lock keeps two calls for the same seat
// from running the bot at once (a bot needs not be safe for concurrent use).
type seatBot struct {
	key botKey
	mu  sync.Mutex
	bot Bot
}

// NewBotServer is a BotServer keeping at most maxMatches bots
// (DefaultMaxMatches when maxMatches <= 0).
func NewBotServer(factory BotFactory, maxMatches int) *BotServer {
	if maxMatches <= 0 {
		maxMatches = DefaultMaxMatches
	}
	return &BotServer{factory: factory, maxMatches: maxMatches, bots: map[botKey]*list.Element{}, lru: list.New()}
}

// BotsMade is how many bots the factory has made.
func (s *BotServer) BotsMade() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.count
}

func (s *BotServer) seatBot(game, matchID string, seat uint32) *seatBot {
	key := botKey{matchID, seat}
	s.mu.Lock()
	defer s.mu.Unlock()
	if element, ok := s.bots[key]; ok {
		s.lru.MoveToFront(element)
		return element.Value.(*seatBot)
	}
	entry := &seatBot{key: key, bot: s.factory(game, SeatSeed(matchID, seat))}
	s.count++
	s.bots[key] = s.lru.PushFront(entry)
	for s.lru.Len() > s.maxMatches {
		oldest := s.lru.Back()
		s.lru.Remove(oldest)
		delete(s.bots, oldest.Value.(*seatBot).key)
	}
	return entry
}

// ChooseMove answers the index of the move the seat's bot chooses;
// INVALID_ARGUMENT naming the field for a request no harness sends
// (CheckChooseMove), INTERNAL when the bot answers an index out of range.
func (s *BotServer) ChooseMove(_ context.Context, req *pb.ChooseMoveRequest) (*pb.ChooseMoveResponse, error) {
	// Checked before any bot is made or asked: a Bot may assume its moves
	// are its seat's moves of its view's game.
	if v := CheckChooseMove(req); v != nil {
		return nil, invalidArgument(*v)
	}
	moves := req.GetLegalMoves()
	view := req.GetView()
	entry := s.seatBot(view.GetGame(), req.GetMatchId(), view.GetSeat())
	entry.mu.Lock()
	index := entry.bot.Choose(view, moves)
	entry.mu.Unlock()
	if index < 0 || index >= len(moves) {
		return nil, status.Errorf(codes.Internal, "the bot of seat %d chose move %d of %d offered",
			view.GetSeat(), index, len(moves))
	}
	return &pb.ChooseMoveResponse{MoveIndex: uint32(index)}, nil
}

// games are the games a View can hold: the names of its game_view oneof,
// which are also the game ids (View.Game) and the names of a Move's and
// GameOptions' oneof fields.
var games = func() map[string]bool {
	names := map[string]bool{}
	fields := (&pb.View{}).ProtoReflect().Descriptor().Oneofs().ByName("game_view").Fields()
	for i := range fields.Len() {
		names[string(fields.Get(i).Name())] = true
	}
	return names
}()

// quotedChars is how much of a caller's text an error quotes: a status
// travels in the trailers, which clients cap at a few KB.
const quotedChars = 40

// CheckChooseMove is nil for a request a harness could send, else the
// first field at fault: it needs at least one move; a view whose parts are
// all of the game it names and whose seat exists; every move of that game,
// by that seat.
//
// These are the checks, field paths and words of Croupier's built-in bots
// (server/croupier/service/bots.py) and of the Python client's BotService,
// so every BotService refuses the same requests alike. Without them a bot
// was handed a 101 view with a UNO move, or seat 0's moves with seat 2's
// view, and answered an index that means nothing.
func CheckChooseMove(req *pb.ChooseMoveRequest) *FieldViolation {
	refuse := func(field, description string, args ...any) *FieldViolation {
		return &FieldViolation{Field: field, Description: fmt.Sprintf(description, args...)}
	}
	if len(req.GetLegalMoves()) == 0 {
		return refuse("legal_moves", "empty: a bot needs at least one move to choose from")
	}
	view := req.GetView()
	game := view.GetGame()
	// The one check in other words than the server's ("no built-in bot
	// plays"): which games a served bot plays is its factory's business.
	if !games[game] {
		return refuse("view.game", "no game is named %s", quoted(game))
	}
	kind := oneofName(view, "game_view")
	if kind == "" {
		return refuse("view", "holds no %s view", game)
	}
	if kind != game {
		return refuse("view."+kind, "a %s view, but the view is of a %s game", kind, game)
	}
	if options := oneofName(view.GetOptions(), "game"); options != "" && options != game {
		return refuse("view.options", "%s options, but the view is of a %s game", options, game)
	}
	if int(view.GetSeat()) >= len(view.GetSeats()) {
		return refuse("view.seat", "seat %d does not exist (the view has %d)", view.GetSeat(), len(view.GetSeats()))
	}
	for i, legal := range req.GetLegalMoves() {
		move := legal.GetMove()
		at := fmt.Sprintf("legal_moves[%d].move", i)
		switch moveKind := oneofName(move, "game_move"); moveKind {
		case game: // the view's game; its seat is checked below
		case "":
			return refuse(at, "missing or empty move")
		default:
			return refuse(at+"."+moveKind, "a %s move, but the view is of a %s game", moveKind, game)
		}
		if move.GetSeat() != view.GetSeat() {
			return refuse(at+".seat", "a move of seat %d, but the view is seat %d's: a bot "+
				"chooses among its own seat's moves", move.GetSeat(), view.GetSeat())
		}
	}
	return nil
}

// oneofName is the name of the field set in m's oneof (e.g. "uno"), or ""
// when none is (or m is nil).
func oneofName(m interface{ ProtoReflect() protoreflect.Message }, oneof protoreflect.Name) string {
	message := m.ProtoReflect()
	if !message.IsValid() {
		return ""
	}
	field := message.WhichOneof(message.Descriptor().Oneofs().ByName(oneof))
	if field == nil {
		return ""
	}
	return string(field.Name())
}

// quoted is text between single quotes, as the Python client and the
// server quote it, cut to quotedChars characters.
func quoted(text string) string {
	if utf8.RuneCountInString(text) <= quotedChars {
		return "'" + text + "'"
	}
	return "'" + string([]rune(text)[:quotedChars]) + "'…"
}

// invalidArgument is INVALID_ARGUMENT as the server answers it: the message
// "field: description", and a google.rpc.BadRequest detail naming the field
// again (what AsError's Violations and the Python client's CroupierError read).
func invalidArgument(v FieldViolation) error {
	st := status.New(codes.InvalidArgument, v.Field+": "+v.Description)
	detailed, err := st.WithDetails(&errdetails.BadRequest{
		FieldViolations: []*errdetails.BadRequest_FieldViolation{{Field: v.Field, Description: v.Description}},
	})
	if err != nil { // cannot happen: the code is not OK and BadRequest marshals
		return st.Err()
	}
	return detailed.Err()
}

// ServeBot serves a BotService on addr ("127.0.0.1:50061"; port 0 picks a
// free one: read it from the listener) with bots from factory, in a
// goroutine. Stop it with the server's Stop or GracefulStop. An address it
// cannot listen on is an error naming it, in the words of the Python
// client's serve_bot and of the server's listen failures; it wraps the
// cause (errors.Is(err, syscall.EADDRINUSE) for a port in use).
func ServeBot(addr string, factory BotFactory) (*grpc.Server, net.Listener, error) {
	if factory == nil {
		return nil, nil, fmt.Errorf("croupier: ServeBot needs a bot factory")
	}
	listener, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, nil, fmt.Errorf("croupier: cannot listen on %s (the BotService port): %w", addr, err)
	}
	server := grpc.NewServer()
	pb.RegisterBotServiceServer(server, NewBotServer(factory, DefaultMaxMatches))
	go func() { _ = server.Serve(listener) }() // returns when the server stops
	return server, listener, nil
}
