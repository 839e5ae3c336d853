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

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

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
// INVALID_ARGUMENT for a request offering no move, INTERNAL when the bot
// answers an index out of range.
func (s *BotServer) ChooseMove(_ context.Context, req *pb.ChooseMoveRequest) (*pb.ChooseMoveResponse, error) {
	moves := req.GetLegalMoves()
	if len(moves) == 0 {
		return nil, status.Error(codes.InvalidArgument, "legal_moves: empty, nothing to choose")
	}
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

// ServeBot serves a BotService on addr ("127.0.0.1:50061"; port 0 picks a
// free one: read it from the listener) with bots from factory, in a
// goroutine. Stop it with the server's Stop or GracefulStop.
func ServeBot(addr string, factory BotFactory) (*grpc.Server, net.Listener, error) {
	if factory == nil {
		return nil, nil, fmt.Errorf("croupier: ServeBot needs a bot factory")
	}
	listener, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, nil, fmt.Errorf("croupier: serving a bot on %s: %w", addr, err)
	}
	server := grpc.NewServer()
	pb.RegisterBotServiceServer(server, NewBotServer(factory, DefaultMaxMatches))
	go func() { _ = server.Serve(listener) }() // returns when the server stops
	return server, listener, nil
}
