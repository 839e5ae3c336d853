"""The engine's front door: one function per RPC, messages in, messages out.

The service layer is a thin gRPC adapter over these functions, and an
in-process user (a bot, the benchmark, a notebook) calls them directly with
the same results. Here the framework does the bookkeeping every game shares:
the envelope checks, the reading of a move written in another spelling as
its one canonical spelling (a game's optional `canonical_move`), the gates
every game has (match over, deal over, a stale move, a seat that may not act)
before any rule of the game runs, the copy
that keeps `apply` off its input, the acting seats and the move counter, the
notation of each move, and the per-seat redaction of events.

The trusted path: `apply_move(..., trusted=True)` and
`list_legal_moves(..., trusted=True)` skip the validation of the incoming
state. Use it only for a state this engine produced and nobody changed since
(an in-process playout); a state from outside gets the full check, which is
the default and the only path the gRPC service takes.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from google.protobuf.message import Message

from croupier.engine import caches, registry
from croupier.engine.errors import FailedPrecondition, IllegalMove, InvalidInput
from croupier.engine.events import fill_seat_events
from croupier.engine.move_codec import LIST_LEGAL_MOVES_TAG, MoveCodec, codec_of
from croupier.engine.options import Preset, Value, from_option_value, to_option_value
from croupier.engine.registry import Game
from croupier.engine.validate_seats import check_seat_names
from croupier.v1 import game_pb2, options_pb2, service_pb2

# The layout version of GameState written by this server. Older states keep
# loading; a newer one is refused with FAILED_PRECONDITION. Version 2 added
# `acting_seats` (computed for a version-1 state) and typed game moves.
SCHEMA_VERSION = 2
UINT64_MAX = 2**64 - 1
_IN_PROGRESS = game_pb2.MATCH_PHASE_DEAL_IN_PROGRESS
UINT32_MAX = 2**32 - 1

_MATCH_PHASES = (
    game_pb2.MATCH_PHASE_DEAL_IN_PROGRESS,
    game_pb2.MATCH_PHASE_DEAL_OVER,
    game_pb2.MATCH_PHASE_MATCH_OVER,
)

# Options already checked, keyed by (game, serialized options): a table keeps
# its options for a whole match, so the check runs once per table, not per move.
_checked_options: caches.BoundedSet[tuple[str, bytes]] = caches.BoundedSet(
    "engine.api.checked_options", 256, 250
)


def list_games(request: service_pb2.ListGamesRequest) -> service_pb2.ListGamesResponse:
    """Every game with its option catalogue and presets."""
    response = service_pb2.ListGamesResponse()
    for game in registry.games():
        d = response.games.add(
            name=game.name,
            display_name=game.display_name,
            description=game.description,
            rules_version=game.rules_version,
            min_seats=game.min_seats,
            max_seats=game.max_seats,
            default_preset=game.default_preset,
        )
        d.options.extend(game.catalogue.descriptors())
        for name, value in getattr(game, "match_bound", {}).items():
            d.match_bound.add(name=name).value.CopyFrom(to_option_value(value))
        for preset in game.presets:
            p = d.presets.add(
                name=preset.name,
                description=preset.description,
                min_seats=preset.min_seats,
                max_seats=preset.max_seats,
            )
            for name, value in preset.settings.items():
                setting = p.settings.add(name=name)
                setting.value.CopyFrom(to_option_value(value))
    return response


def _check_seat_count(
    game: Game, preset: Preset, seat_count: int, settings: Sequence[options_pb2.OptionSetting]
) -> None:
    """A preset seats what its version is played with (101 HD 2 to 4). A game
    whose catalogue has the option `players` makes the count a rule option
    like any other (101's O2, One Hundred's O-C2-2): a table that sets
    `players` itself chooses that variant, so the preset's range yields to
    the option's own domain (2..8) and the game's checks of it (101:
    players × hand_size < deck_size), which then name the option."""
    spec = game.catalogue.by_name.get("players")
    if spec is not None and any(setting.name == "players" for setting in settings):
        low, high = max(game.min_seats, spec.min_value), min(game.max_seats, spec.max_value)
        if not low <= seat_count <= high:
            raise InvalidInput("seat_count", f"{game.name} seats {low} to {high}; got {seat_count}")
        return
    low = max(game.min_seats, preset.min_seats)
    high = min(game.max_seats, preset.max_seats)
    if not low <= seat_count <= high:
        more = (
            f" (the option players={seat_count} chooses that variant)"
            if spec is not None and game.min_seats <= seat_count <= game.max_seats
            else ""
        )
        raise InvalidInput(
            "seat_count",
            f"{game.name} preset {preset.name} seats {low} to {high}; got {seat_count}{more}",
        )


def new_game(request: service_pb2.NewGameRequest) -> service_pb2.NewGameResponse:
    """Deal the first deal of a new match."""
    if not request.game:
        raise InvalidInput("game", "missing: name a game from ListGames")
    game = registry.find(request.game)
    if game is None:
        known = ", ".join(g.name for g in registry.games())
        raise InvalidInput("game", f"unknown game {request.game!r}; known: {known}")
    preset_name = request.preset or game.default_preset
    presets = {p.name: p for p in game.presets}
    preset = presets.get(preset_name.lower())
    if preset is None:
        raise InvalidInput(
            "preset",
            f"unknown preset {request.preset!r} for {game.name}; known: {', '.join(presets)}",
        )
    seat_count = request.seat_count
    _check_seat_count(game, preset, seat_count, request.options)
    if request.seat_names and len(request.seat_names) != seat_count:
        raise InvalidInput(
            "seat_names",
            f"give no names or one per seat ({seat_count}); got {len(request.seat_names)}",
        )
    if request.seat_names:
        check_seat_names(request.seat_names, lambda i: f"seat_names[{i}]")
    overrides: dict[str, Value] = {}
    paths: dict[str, str] = {}
    for i, setting in enumerate(request.options):
        path = f"options[{i}]"
        if not setting.name:
            raise InvalidInput(f"{path}.name", "missing option name")
        if setting.name in overrides:
            raise InvalidInput(f"{path}.name", f"option {setting.name!r} is set twice")
        overrides[setting.name] = from_option_value(setting.value, f"{path}.value")
        paths[setting.name] = path
    if "players" in game.catalogue.by_name:
        # The seat count is the number of players; a game that lists it as an
        # option takes it from the seats so that the two cannot disagree.
        if overrides.get("players", seat_count) != seat_count:
            raise InvalidInput(
                f"{paths['players']}.value",
                f"option players={overrides['players']} contradicts seat_count={seat_count}",
            )
        overrides["players"] = seat_count
    options = game.catalogue.resolve([(preset.settings, {}), (overrides, paths)])
    game.check_options(options, "options")

    state = game_pb2.GameState(
        schema_version=SCHEMA_VERSION,
        game=game.name,
        rules_version=game.rules_version,
        seed=request.seed,
    )
    getattr(state.options, game.name).CopyFrom(options)
    for i in range(seat_count):
        state.seats.add(name=request.seat_names[i] if request.seat_names else f"P{i}")
    state.match.phase = game_pb2.MATCH_PHASE_DEAL_IN_PROGRESS
    state.match.deal_number = 1
    events = game.new_game(state, options)
    set_acting_seats(game, state)
    response = service_pb2.NewGameResponse(state=state, events=events)
    if request.seat_events:
        fill_seat_events(response.seat_events, events, seat_count)
    return response


def check_state(state: game_pb2.GameState, path: str = "state") -> Game:
    """Validate a whole state before any rule runs; returns its game.

    Raises InvalidInput naming the first broken field, or FailedPrecondition
    for a state written by a newer schema or rules version. Whether the
    state's parts agree on its game (its name, options and game state) is
    checked before its rules version: a state whose parts disagree is
    malformed, whatever version it claims, and only a consistent state of a
    newer version is FAILED_PRECONDITION.
    """
    if state.schema_version == 0:
        if state.ByteSize() == 0:
            raise InvalidInput(path, "missing or empty game state")
        raise InvalidInput(f"{path}.schema_version", "missing (0)")
    if state.schema_version > SCHEMA_VERSION:
        raise FailedPrecondition(
            f"state schema_version {state.schema_version} is newer than this server's "
            f"{SCHEMA_VERSION}"
        )
    game = registry.find(state.game)
    if game is None:
        raise InvalidInput(f"{path}.game", f"unknown game {state.game!r}")
    if state.rules_version == 0:
        raise InvalidInput(f"{path}.rules_version", "missing (0)")
    _check_one_game(state, game, path)
    if state.rules_version > game.rules_version:
        raise FailedPrecondition(
            f"{game.name} rules_version {state.rules_version} is newer than this server's "
            f"{game.rules_version}"
        )
    _check_options(game, getattr(state.options, game.name), path)
    if not game.min_seats <= len(state.seats) <= game.max_seats:
        raise InvalidInput(
            f"{path}.seats",
            f"{game.name} seats {game.min_seats} to {game.max_seats}; got {len(state.seats)}",
        )
    check_seat_names([seat.name for seat in state.seats], lambda i: f"{path}.seats[{i}].name")
    if state.current_seat >= len(state.seats):
        raise InvalidInput(f"{path}.current_seat", f"seat {state.current_seat} does not exist")
    if state.match.phase not in _MATCH_PHASES:
        raise InvalidInput(f"{path}.match.phase", "must be set")
    # A deal in progress at move_number 2^64-1 is valid (the last countable
    # move answers it), but no further move can be counted there: ApplyMove
    # and DefaultMove refuse one and no move is listed (fuzz F2, F12).
    _check_match(state, path)
    if any(seat.team for seat in state.seats):
        _check_teams(state, path)
    game.validate(state)
    if holds_acting_seats(game, state):
        _check_acting_seats(game, state, path)
    return game


def _check_one_game(state: game_pb2.GameState, game: Game, path: str) -> None:
    """The state's options and game state are of the game it names."""
    options = state.options.WhichOneof("game")
    if options != game.name:
        got = f"{options} options" if options else "none"
        raise InvalidInput(
            f"{path}.options", f"must hold {game.name} options, the state's game; got {got}"
        )
    kind = state.WhichOneof("game_state")
    if kind is None:
        raise InvalidInput(path, f"the {game.name} game state is missing")
    if kind != game.name:
        raise InvalidInput(
            f"{path}.{kind}", f"a {kind} game state, but the state is a {game.name} game"
        )


def _check_match(state: game_pb2.GameState, path: str) -> None:
    """The match record names seats of this table, each once, and only what
    has happened: the last deal's result once a deal has ended, the match's
    winners exactly when it is over."""
    match = state.match
    if match.deal_number == 0:
        raise InvalidInput(f"{path}.match.deal_number", "missing (0): the first deal is 1")
    over = match.phase == game_pb2.MATCH_PHASE_MATCH_OVER
    if match.deal_points or match.deal_winners or match.winners or over:
        _check_match_record(match, len(state.seats), f"{path}.match")


def _check_match_record(match: game_pb2.MatchState, seat_count: int, path: str) -> None:
    # The last deal's result stays in the record while the next one is played.
    finished = match.deal_number > 1 or match.phase != game_pb2.MATCH_PHASE_DEAL_IN_PROGRESS
    if match.deal_points:
        if len(match.deal_points) != seat_count:
            raise InvalidInput(
                f"{path}.deal_points",
                f"give none or one per seat ({seat_count}); got {len(match.deal_points)}",
            )
        if not finished:
            raise InvalidInput(f"{path}.deal_points", "no deal has ended yet: must be empty")
    _check_seat_list(match.deal_winners, seat_count, path, "deal_winners")
    if match.deal_winners and not finished:
        raise InvalidInput(f"{path}.deal_winners", "no deal has ended yet: must be empty")
    _check_seat_list(match.winners, seat_count, path, "winners")
    over = match.phase == game_pb2.MATCH_PHASE_MATCH_OVER
    if over and not match.winners:
        raise InvalidInput(f"{path}.winners", "a match that is over names its winners")
    if match.winners and not over:
        raise InvalidInput(f"{path}.winners", "the match is not over: must be empty")


def _check_seat_list(listed: Sequence[int], seat_count: int, path: str, name: str) -> None:
    """Seats of the table, each once (the field's path is built only to refuse)."""
    if not listed or (max(listed) < seat_count and len(set(listed)) == len(listed)):
        return
    seen: set[int] = set()
    for i, seat in enumerate(listed):
        if seat >= seat_count:
            raise InvalidInput(
                f"{path}.{name}[{i}]", f"seat {seat} does not exist (the table has {seat_count})"
            )
        if seat in seen:
            raise InvalidInput(f"{path}.{name}[{i}]", f"names seat {seat} twice")
        seen.add(seat)


def _check_teams(state: game_pb2.GameState, path: str) -> None:
    """Seat.team: 0 plays alone; a partnership's number is shared by its members."""
    members = Counter(seat.team for seat in state.seats)
    for i, seat in enumerate(state.seats):
        if seat.team and members[seat.team] < 2:
            raise InvalidInput(f"{path}.seats[{i}].team", f"team {seat.team} has no partner")


def _check_acting_seats(game: Game, state: game_pb2.GameState, path: str) -> None:
    acting = state.acting_seats
    if len(acting) > len(state.seats):
        raise InvalidInput(
            f"{path}.acting_seats",
            f"lists {len(acting)} seats; the table has {len(state.seats)}",
        )
    expected = expected_acting_seats(game, state)
    if list(acting) != expected:
        raise InvalidInput(
            f"{path}.acting_seats", f"must be {expected} in this position; got {list(acting)}"
        )


def expected_acting_seats(game: Game, state: game_pb2.GameState) -> list[int]:
    """The seats that may move in this position: none once the deal is over."""
    if state.match.phase != game_pb2.MATCH_PHASE_DEAL_IN_PROGRESS:
        return []
    return game.acting_seats(state)


def holds_acting_seats(game: Game, state: game_pb2.GameState) -> bool:
    """Whether the state's own `acting_seats` are this server's: a state of
    schema 1 carries none, and those of an older rules version were made by
    its version's rules (its moves are played by these, which may let other
    seats act: UNO 5's U16). Such a state is not refused for them; they are
    computed again."""
    return state.schema_version >= 2 and state.rules_version == game.rules_version


def acting_seats(state: game_pb2.GameState, game: Game | None = None) -> list[int]:
    """The seats that may move in a validated state: its own list, or the
    list these rules give when the state's is not this server's
    (`holds_acting_seats`)."""
    if game is None:
        game = registry.find(state.game)
        assert game is not None, "acting_seats needs a validated state"
    if holds_acting_seats(game, state):
        return list(state.acting_seats)
    return expected_acting_seats(game, state)


def with_acting_seats(game: Game, state: game_pb2.GameState) -> game_pb2.GameState:
    """The state itself, or — when its acting seats are not this server's
    (`holds_acting_seats`) — a copy with the envelope these rules write, for
    the games' own code, which reads `acting_seats` from the state."""
    if holds_acting_seats(game, state):
        return state
    current = game_pb2.GameState()
    current.CopyFrom(state)
    set_acting_seats(game, current)
    return current


def set_acting_seats(game: Game, state: game_pb2.GameState) -> list[int]:
    """Write the envelope of a position this server produced: its schema and
    rules versions (an older state's move is played by these rules, so the
    answer says so) and its acting seats; returns the acting seats."""
    state.schema_version = SCHEMA_VERSION
    state.rules_version = game.rules_version
    acting = expected_acting_seats(game, state)
    state.acting_seats[:] = acting
    return acting


def _check_options(game: Game, options: Message, state_path: str) -> None:
    # Options hold no maps, so their plain serialization is canonical.
    key = (game.name, options.SerializeToString())
    if key in _checked_options:
        return
    path = f"{state_path}.options.{game.name}"
    game.catalogue.check(options, path)
    game.check_options(options, path)
    _checked_options.put(key)


def _check_seat(state: game_pb2.GameState, seat: int, path: str) -> None:
    if seat >= len(state.seats):
        raise InvalidInput(path, f"seat {seat} does not exist (the table has {len(state.seats)})")


def _check_move(game: Game, state: game_pb2.GameState, move: game_pb2.Move) -> None:
    _check_seat(state, move.seat, "move.seat")
    kind = move.WhichOneof("game_move")
    if kind is None:
        raise InvalidInput("move", "missing or empty move")
    if kind != game.name:
        raise InvalidInput(f"move.{kind}", f"a {kind} move, but the state is a {game.name} game")
    game.check_move_shape(move)


def _gate(game: Game, state: game_pb2.GameState, move: game_pb2.Move) -> None:
    """The refusals every game shares, before any rule of the game runs."""
    phase = state.match.phase
    if phase == game_pb2.MATCH_PHASE_MATCH_OVER:
        raise IllegalMove(game_pb2.REJECTION_REASON_MATCH_OVER, "the match is over", "engine",
                          common=True)  # fmt: skip
    if phase == game_pb2.MATCH_PHASE_DEAL_OVER:
        raise IllegalMove(
            game_pb2.REJECTION_REASON_DEAL_OVER,
            "the deal is over: call NextDeal",
            "engine",
            common=True,
        )
    if move.HasField("seen_move_number") and move.seen_move_number != state.move_number:
        raise IllegalMove(
            game_pb2.REJECTION_REASON_STALE_STATE,
            f"the move was made at move {move.seen_move_number}; the table is at move "
            f"{state.move_number}",
            "engine",
            common=True,
        )
    # The state's own list, copied in one C call (`in` on a repeated field
    # fetches its items one by one); computed when it is not this server's.
    if holds_acting_seats(game, state):
        acting = state.acting_seats[:]
    else:
        acting = expected_acting_seats(game, state)
    if move.seat not in acting:
        who = ", ".join(map(str, acting))
        raise IllegalMove(
            game_pb2.REJECTION_REASON_NOT_YOUR_TURN,
            f"seat {move.seat} may not act now (acting: seat {who})",
            "engine",
            common=True,
        )
    if state.move_number == UINT64_MAX:
        raise InvalidInput("state.move_number", "is at its maximum: no further move can be counted")


def _reject(response: service_pb2.ApplyMoveResponse, game: Game, illegal: IllegalMove) -> None:
    response.ClearField("state")
    rejection = response.rejection
    rejection.message = illegal.message
    rejection.rule = illegal.rule
    if illegal.common:
        rejection.reason = illegal.reason  # type: ignore[assignment]
    else:
        rejection.reason = game_pb2.REJECTION_REASON_GAME_RULE
        setattr(rejection, game.name, illegal.reason)


def apply_move(
    request: service_pb2.ApplyMoveRequest,
    into: service_pb2.ApplyMoveResponse | None = None,
    *,
    trusted: bool = False,
) -> service_pb2.ApplyMoveResponse:
    """Check a move and, when legal, play it on a copy of the state.

    `into` is an empty response to fill (a batch result) instead of a new one.
    `trusted` skips the validation of a state this engine produced (module
    docstring); the move is checked either way.
    """
    return apply_move_on(
        request.state,
        request.move,
        validate_only=request.validate_only,
        seat_events=request.seat_events,
        next_legal_moves=request.next_legal_moves,
        next_views=request.next_views,
        into=into,
        trusted=trusted,
    )


def apply_move_on(
    state: game_pb2.GameState,
    move: game_pb2.Move,
    *,
    validate_only: bool = False,
    seat_events: bool = False,
    next_legal_moves: bool = False,
    next_views: bool = False,
    into: service_pb2.ApplyMoveResponse | None = None,
    trusted: bool = False,
) -> service_pb2.ApplyMoveResponse:
    """`apply_move` with the request's fields as arguments: an in-process
    caller holding the state saves copying it into a request (the answer
    holds its own copy either way)."""
    game = _trusted_game(state) if trusted else check_state(state)
    codec = codec_of(game)
    notation = _checked_notation(game, codec, state, move)
    if codec.canonical is not None:
        # Another spelling of a move is read as the move (Game.canonical_move):
        # the gates, the rules, the notation and the events see its one spelling.
        canonical = codec.canonical(state, move)
        if canonical is not move:
            move = canonical
            notation = game.notation(move)
    response = service_pb2.ApplyMoveResponse() if into is None else into
    response.notation = notation
    after = response.state
    try:
        _gate(game, state, move)
        after.CopyFrom(state)
        events = game.apply(after, move)
    except IllegalMove as illegal:
        _reject(response, game, illegal)
        return response
    response.accepted = True
    if validate_only:
        response.ClearField("state")
        return response
    after.move_number += 1
    acting = set_acting_seats(game, after)
    response.events.extend(events)
    if seat_events:
        fill_seat_events(response.seat_events, events, len(after.seats))
    if next_legal_moves and after.move_number != UINT64_MAX:  # no move listed there
        # One parse of cached bytes instead of a message per move (move_codec.py).
        response.MergeFromString(codec.seat_moves_bytes(after, acting))
    if next_views and after.match.phase == game_pb2.MATCH_PHASE_DEAL_IN_PROGRESS:
        for seat in acting:
            fill_view(game, after, seat, response.next_views.add())
    return response


def _checked_notation(
    game: Game, codec: MoveCodec, state: game_pb2.GameState, move: game_pb2.Move
) -> str:
    """Check the move's seat and shape; its notation. A move seen before with
    a good shape (the same bytes) skips the game's shape check. The notation
    is the submitted move's own: the canonical spelling of a move may depend
    on the position (a lay-off's end), so it is never cached by these bytes."""
    move_bytes = move.SerializeToString()
    notation = codec.known_notation(move_bytes)
    if notation is None:
        _check_move(game, state, move)
        return codec.remember(move_bytes, move)
    _check_seat(state, move.seat, "move.seat")
    return notation


def _trusted_game(state: game_pb2.GameState) -> Game:
    game = registry.find(state.game)
    if game is None:
        raise InvalidInput("state.game", f"unknown game {state.game!r}")
    return game


def list_legal_moves(
    request: service_pb2.ListLegalMovesRequest, *, trusted: bool = False
) -> service_pb2.ListLegalMovesResponse:
    """Every legal move of one seat, with its notation, in canonical order;
    empty for a seat that may not act now."""
    state = request.state
    game = _trusted_game(state) if trusted else check_state(state)
    _check_seat(state, request.seat, "seat")
    state = with_acting_seats(game, state)
    response = service_pb2.ListLegalMovesResponse()
    if request.seat in state.acting_seats and state.move_number != UINT64_MAX:
        encoded = codec_of(game).legal_moves_bytes(state, request.seat, LIST_LEGAL_MOVES_TAG)
        response.MergeFromString(encoded)
    return response


def default_move(request: service_pb2.DefaultMoveRequest) -> service_pb2.DefaultMoveResponse:
    """The move a seat is deemed to make when the caller's clock runs out."""
    state = request.state
    game = check_state(state)
    _check_seat(state, request.seat, "seat")
    if state.match.phase != game_pb2.MATCH_PHASE_DEAL_IN_PROGRESS:
        raise FailedPrecondition("the deal is over: no seat has a move to default")
    state = with_acting_seats(game, state)
    if request.seat not in state.acting_seats:
        raise InvalidInput("seat", f"seat {request.seat} may not act now")
    if state.move_number == UINT64_MAX:
        raise InvalidInput("state.move_number", "is at its maximum: no further move can be counted")
    move = game.default_move(state, request.seat)
    response = service_pb2.DefaultMoveResponse()
    response.move.move.CopyFrom(move)
    response.move.notation = game.notation(move)
    return response


def get_view(request: service_pb2.GetViewRequest) -> service_pb2.GetViewResponse:
    """What one seat may see: no seed, other hands and the stock only counted."""
    state = request.state
    game = check_state(state)
    _check_seat(state, request.seat, "seat")
    response = service_pb2.GetViewResponse()
    fill_view(game, state, request.seat, response.view)
    return response


def fill_view(game: Game, state: game_pb2.GameState, seat: int, view: game_pb2.View) -> None:
    """Write what `seat` may see of `state` into the empty `view`."""
    view.seat = seat
    view.game = state.game
    view.rules_version = state.rules_version
    view.options.CopyFrom(state.options)
    view.seats.extend(state.seats)
    view.current_seat = state.current_seat
    view.move_number = state.move_number
    view.match.CopyFrom(state.match)
    view.acting_seats.extend(acting_seats(state, game))
    game.view(state, seat, view)


def view_text(view: game_pb2.View) -> str:
    """One line of what a view shows, in its game's words."""
    game = registry.find(view.game)
    if game is None:
        raise InvalidInput("view.game", f"unknown game {view.game!r}")
    return game.view_text(view)


def next_deal(request: service_pb2.NextDealRequest) -> service_pb2.NextDealResponse:
    """Deal the next deal of a match whose last deal is over."""
    game = check_state(request.state)
    phase = request.state.match.phase
    if phase == game_pb2.MATCH_PHASE_DEAL_IN_PROGRESS:
        raise FailedPrecondition("the deal is still in progress")
    if phase == game_pb2.MATCH_PHASE_MATCH_OVER:
        raise FailedPrecondition("the match is over")
    if request.state.match.deal_number == UINT32_MAX:
        raise InvalidInput("state.match.deal_number", "is at its maximum: no further deal")
    response = service_pb2.NextDealResponse()
    state = response.state
    state.CopyFrom(request.state)
    events = game.next_deal(state)
    set_acting_seats(game, state)
    response.events.extend(events)
    if request.seat_events:
        fill_seat_events(response.seat_events, events, len(state.seats))
    return response


def rejection_name(rejection: game_pb2.Rejection) -> str:
    """The stable name of a rejection's reason: the game's own reason for
    REJECTION_REASON_GAME_RULE (e.g. HUNDRED_AND_ONE_REJECTION_REASON_MUST_COVER),
    else the shared one (e.g. REJECTION_REASON_NOT_YOUR_TURN). Metrics label."""
    game = rejection.WhichOneof("game_reason")
    if rejection.reason == game_pb2.REJECTION_REASON_GAME_RULE and game is not None:
        enum = rejection.DESCRIPTOR.fields_by_name[game].enum_type
        value = enum.values_by_number.get(getattr(rejection, game)) if enum else None
        return value.name if value is not None else "UNKNOWN"
    shared = game_pb2.RejectionReason.DESCRIPTOR.values_by_number.get(rejection.reason)
    return shared.name if shared is not None else "UNKNOWN"


# AnalyseHand answers through this module like every other RPC (engine/analysis.py).
from croupier.engine.analysis import analyse_hand  # noqa: E402, F401
