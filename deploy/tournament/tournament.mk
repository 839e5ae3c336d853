# The bot tournament harness (croupier tournament / croupier replay), included
# by the Makefile. See deploy/tournament/README.md.
#
# DEV ($(BIN)/.installed: openskill, tqdm, matplotlib) is defined after the
# include, so it is spelled out here.

# `make tournament`: in every game at its default preset, the heuristic bot
# against the random bot (2 seats, or the game's least), seat rotation on,
# TOURNAMENT_MATCHES matches through a `croupier serve` each tournament
# starts; a report per game and a summary in reports/tournament/, then
# `croupier replay` of 100 of the saved records.
# E.g. make tournament TOURNAMENT_MATCHES=200 TOURNAMENT_ARGS="--games uno,most".
TOURNAMENT_MATCHES ?= 1000
TOURNAMENT_ARGS ?=
.PHONY: tournament
tournament: $(STAMP) $(BIN)/.installed
	$(BIN)/python deploy/tournament/all_games.py --matches $(TOURNAMENT_MATCHES) $(TOURNAMENT_ARGS)

# `make tournament-remote`: a Python BotService (deploy/tournament/serve_bot.py,
# the heuristic bots) against the Go one (clients/go's croupier-bot, built
# here when Go and clients/go are there), both on loopback, in every game;
# reports in reports/tournament-remote/, then every record replayed.
TOURNAMENT_REMOTE_MATCHES ?= 200
TOURNAMENT_REMOTE_ARGS ?=
.PHONY: tournament-remote
tournament-remote: $(STAMP) $(BIN)/.installed
	@if command -v go >/dev/null && test -d clients/go/cmd/croupier-bot; then \
		(cd clients/go && go build -buildvcs=false -o $(abspath $(BIN))/croupier-bot ./cmd/croupier-bot) && \
		$(BIN)/python deploy/tournament/remote.py --go-bot $(BIN)/croupier-bot \
			--matches $(TOURNAMENT_REMOTE_MATCHES) $(TOURNAMENT_REMOTE_ARGS); \
	else \
		echo "no Go or no clients/go/cmd/croupier-bot: the Python BotService plays the local heuristic bot"; \
		$(BIN)/python deploy/tournament/remote.py --matches $(TOURNAMENT_REMOTE_MATCHES) $(TOURNAMENT_REMOTE_ARGS); \
	fi
