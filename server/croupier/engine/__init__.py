"""The game-independent core of Croupier: a plain library, no transport.

How the shapes of every game are carried (the proto comments of
`croupier/v1/game.proto` say the same from the wire's side):

* Out-of-turn moves: a `Move` names its seat; `Game.legal_moves(state, seat)`
  answers for any seat, and `Game.apply` decides whether that seat may act now
  (UNO challenges, jump-ins, catching a missed "UNO!").
* Turns of several moves: the game keeps `GameState.current_seat` until the
  move that ends the turn and records the turn's progress in its own state.
* Partnerships: `Seat.team`; helpers in `seats` walk seats, teams are data.
* Cards revealed to one seat only: the game state records them with the seat
  that may see them; `Game.view` shows them to that seat alone.
* Choices carried by a move (a named suit, a joker's identity, a total):
  fields of the game's move message, checked by `Game.check_move_shape`.
* Match play: `GameState.match` and `Seat.score`; a finished deal is scored by
  the move that ends it and `Game.next_deal` deals the next one.
* Versions: `api.SCHEMA_VERSION` for the message layout, `Game.rules_version`
  for each game's behaviour.

Nothing below this package imports grpc, structlog or prometheus_client; a
test enforces it, so bots and notebooks can use the rules in-process.
"""
