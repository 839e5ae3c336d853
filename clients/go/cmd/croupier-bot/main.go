// Command croupier-bot serves the random bot as a BotService, for a harness
// (`croupier tournament`, or an app's own) to play as a remote bot:
//
//	croupier-bot --listen 127.0.0.1:50061
//
// Each (match id, seat) gets its own RandomBot, seeded from both
// (croupier.SeatSeed), so a match replays the same against the same server.
// Once it listens it prints "serving on HOST:PORT" (port 0 picks a free
// port, printed there); SIGINT or SIGTERM stops it after the calls in
// flight.
package main

import (
	"flag"
	"fmt"
	"os"
	"os/signal"
	"syscall"

	"github.com/croupier-rules/croupier/clients/go/croupier"
)

func main() {
	listen := flag.String("listen", "127.0.0.1:50061", "host:port to serve on (port 0: any free port)")
	flag.Parse()
	if flag.NArg() > 0 {
		fmt.Fprintf(os.Stderr, "croupier-bot: unexpected arguments %q\n", flag.Args())
		flag.Usage()
		os.Exit(2)
	}
	// Catch the signals before saying "serving on": a harness that reads the
	// line and stops the bot at once must find it stopping gracefully, not
	// killed by the default action of a signal not yet caught.
	signals := make(chan os.Signal, 1)
	signal.Notify(signals, syscall.SIGINT, syscall.SIGTERM)
	server, listener, err := croupier.ServeBot(*listen, croupier.RandomBotFactory)
	if err != nil {
		fmt.Fprintln(os.Stderr, "croupier-bot:", err)
		os.Exit(1)
	}
	fmt.Printf("serving on %s\n", listener.Addr())
	<-signals
	server.GracefulStop()
}
