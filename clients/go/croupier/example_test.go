package croupier_test

import (
	"context"
	"fmt"
	"log"

	"github.com/croupier-rules/croupier/clients/go/croupier"
	pb "github.com/croupier-rules/croupier/clients/go/croupierv1"
)

// The README's example: a whole match between two random bots. It needs a
// server, so it is compiled (kept in step with the API) but not run.
func ExamplePlayMatch() {
	client, err := croupier.Dial("127.0.0.1:50051")
	if err != nil {
		log.Fatal(err)
	}
	defer client.Close()
	bots := []croupier.Bot{croupier.NewRandomBot(1), croupier.NewRandomBot(2)}
	result, err := croupier.PlayMatch(context.Background(), client, "hundred_and_one", "hd", 2, 7, bots)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("winners", result.State.GetMatch().GetWinners(), "after", result.Moves, "moves")
}

// firstMove is the simplest bot there is: it always plays the first legal
// move (the engine's canonical order).
type firstMove struct{}

func (firstMove) Choose(*pb.View, []*pb.LegalMove) int { return 0 }

// The README's bot service, compiled but not run (it serves until stopped).
func ExampleServeBot() {
	server, listener, err := croupier.ServeBot("127.0.0.1:50061", func(game string, seed uint64) croupier.Bot {
		return firstMove{}
	})
	if err != nil {
		log.Fatal(err)
	}
	defer server.GracefulStop()
	fmt.Println("serving on", listener.Addr())
}
