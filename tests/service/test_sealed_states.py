"""Sealed states (service/sealing.py) through real servers: tampering of every
kind is PERMISSION_DENIED, keys rotate, a sealed match plays exactly like a
plain one, and an older sealed state of the same match (a replay) is the
holder's to refuse, with the stale-move guard's help."""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import grpc
import pytest

from croupier.engine import api
from croupier.service.config import ServerConfig
from croupier.service.sealing import Keyring, SealRefused, new_key_line
from croupier.service.server import ServerThread
from croupier.v1 import game_pb2, service_pb2, service_pb2_grpc

DENIED = grpc.StatusCode.PERMISSION_DENIED
K1, K2, K3 = (new_key_line(f"k{i}").split()[2] for i in (1, 2, 3))


def _keys(tmp: Path, name: str, *lines: str) -> str:
    path = tmp / name
    path.write_text("\n".join(lines) + "\n")
    return str(path)


@dataclass
class Servers:
    old: service_pb2_grpc.CroupierServiceStub  # seals with k1
    rotated: service_pb2_grpc.CroupierServiceStub  # seals with k2, still opens k1
    retired: service_pb2_grpc.CroupierServiceStub  # k2 only: k1 retired
    strict: service_pb2_grpc.CroupierServiceStub  # k1, sealed states only
    keyring: Keyring  # every key, to read blobs in the tests


@pytest.fixture(scope="module")
def servers(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Servers]:
    tmp = tmp_path_factory.mktemp("keys")
    configs = {
        "old": ServerConfig(port=0, grace=0.0, seal_keys=_keys(tmp, "old", f"seal k1 {K1}")),
        "rotated": ServerConfig(
            port=0, grace=0.0, seal_keys=_keys(tmp, "rot", f"seal k2 {K2}", f"open k1 {K1}")
        ),
        "retired": ServerConfig(port=0, grace=0.0, seal_keys=_keys(tmp, "ret", f"seal k2 {K2}")),
        "strict": ServerConfig(
            port=0, grace=0.0, seal_keys=_keys(tmp, "strict", f"seal k1 {K1}"), sealed_only=True
        ),
    }
    threads = {name: ServerThread(config) for name, config in configs.items()}
    channels = []
    stubs = {}
    try:
        for name, thread in threads.items():
            channel = grpc.insecure_channel(f"127.0.0.1:{thread.start()}")
            channels.append(channel)
            stubs[name] = service_pb2_grpc.CroupierServiceStub(channel)
        keyring = Keyring.parse(f"seal k1 {K1}; open k2 {K2}; open k3 {K3}")
        yield Servers(**stubs, keyring=keyring)
    finally:
        for channel in channels:
            channel.close()
        for thread in threads.values():
            if thread.port:
                thread.stop()


def _new(
    stub, match_id: str, game: str = "hundred_and_one", seats: int = 3, seed: int = 7
) -> service_pb2.NewGameResponse:
    request = service_pb2.NewGameRequest(
        game=game, seat_count=seats, seed=seed, seal=True, match_id=match_id
    )
    return stub.NewGame(request, timeout=10)


def _first_move(stub, sealed: service_pb2.SealedState) -> game_pb2.Move:
    seat = sealed.acting_seats[0]
    request = service_pb2.ListLegalMovesRequest(sealed_state=sealed, seat=seat)
    return stub.ListLegalMoves(request, timeout=10).moves[0].move


def _played(stub, match_id: str, moves: int, **new) -> list[service_pb2.SealedState]:
    """The sealed states of a match after 0, 1, ..., `moves` moves."""
    states = [_new(stub, match_id, **new).sealed_state]
    for _ in range(moves):
        move = _first_move(stub, states[-1])
        answer = stub.ApplyMove(
            service_pb2.ApplyMoveRequest(sealed_state=states[-1], move=move), timeout=10
        )
        assert answer.accepted and not answer.HasField("state")
        states.append(answer.sealed_state)
    return states


def _code(call, request) -> grpc.StatusCode:
    try:
        call(request, timeout=10)
    except grpc.RpcError as error:
        return error.code()  # type: ignore[attr-defined]
    return grpc.StatusCode.OK


# -- tampering ----------------------------------------------------------------------


def test_tampering_of_every_kind_is_permission_denied(servers: Servers) -> None:
    """Every byte flipped, every bit flipped, every truncation, bytes added,
    the key id swapped for another key the server holds or one it does not,
    and blobs replayed across matches and games: 100 % PERMISSION_DENIED."""
    stub = servers.rotated  # holds k2 (seals) and k1
    states = _played(stub, "m-101", 6)
    blob = states[-1].blob
    scala = _played(stub, "m-scala40", 4, game="scala40", seats=4)[-1]
    move = _first_move(stub, states[-1])

    def apply(blob: bytes, match_id: str = "m-101") -> grpc.StatusCode:
        sealed = service_pb2.SealedState(match_id=match_id, blob=blob)
        return _code(stub.ApplyMove, service_pb2.ApplyMoveRequest(sealed_state=sealed, move=move))

    assert apply(blob) == grpc.StatusCode.OK  # the untouched blobs open
    scala_move = _first_move(stub, scala)
    request = service_pb2.ApplyMoveRequest(sealed_state=scala, move=scala_move)
    assert _code(stub.ApplyMove, request) == grpc.StatusCode.OK
    tried: dict[str, list[grpc.StatusCode]] = {}
    # Every byte flipped (all 8 bits), one call each.
    tried["byte flipped"] = [
        apply(blob[:i] + bytes([blob[i] ^ 0xFF]) + blob[i + 1 :]) for i in range(len(blob))
    ]
    # And every byte of a larger state (Scala 40, 4 seats), flipped.
    sb = scala.blob
    tried["byte flipped (Scala 40)"] = [
        apply(sb[:i] + bytes([sb[i] ^ 0xFF]) + sb[i + 1 :], "m-scala40") for i in range(len(sb))
    ]
    # Every truncation, down to nothing.
    tried["truncated"] = [apply(blob[:n]) for n in range(len(blob))]
    tried["bytes added"] = [apply(blob + b"\0"), apply(blob + bytes(16)), apply(b"\x01" + blob)]
    # The key id changed to another key the server holds (same length), to a
    # key it does not hold, and a blob sealed with a key it does not hold.
    assert blob[2:4] == b"k2"
    tried["key swapped"] = [apply(blob[:2] + b"k1" + blob[4:])]
    tried["unknown key"] = [
        apply(blob[:2] + b"k3" + blob[4:]),
        apply(Keyring.parse(f"seal k3 {K3}").seal(_open_k2(blob, "m-101"), "m-101")),
    ]
    # Replays across matches: the right blob with another match's id, every
    # state of one match given as another match of the same game and seed.
    other = _played(stub, "m-other", 6)
    tried["replay across matches"] = [apply(blob, "m-other"), apply(blob, "")] + [
        apply(s.blob, "m-101") for s in other
    ]
    tried["replay across games"] = [apply(scala.blob, "m-101"), apply(blob, "m-scala40")]
    # Every single bit, through ApplyMoveBatch (each item fails alone, with
    # the unary code).
    flips = [
        service_pb2.ApplyMoveRequest(
            sealed_state=service_pb2.SealedState(
                match_id="m-101", blob=blob[:i] + bytes([blob[i] ^ (1 << bit)]) + blob[i + 1 :]
            ),
            move=move,
        )
        for i in range(len(blob))
        for bit in range(8)
    ]
    codes = []
    for start in range(0, len(flips), 512):
        batch = service_pb2.ApplyMoveBatchRequest(items=flips[start : start + 512])
        for result in stub.ApplyMoveBatch(batch, timeout=60).results:
            assert result.WhichOneof("outcome") == "error"
            codes.append(grpc.StatusCode.PERMISSION_DENIED if result.error.code == 7 else None)
    tried["bit flipped (batch items)"] = codes

    total = sum(len(c) for c in tried.values())
    denied = sum(code == DENIED for c in tried.values() for code in c)
    summary = ", ".join(f"{kind} {len(c)}" for kind, c in tried.items())
    print(f"\ntamper suite: {denied}/{total} PERMISSION_DENIED ({summary}; blob {len(blob)} B)")
    assert denied == total, {k: [c for c in v if c != DENIED] for k, v in tried.items()}


def _open_k2(blob: bytes, match_id: str) -> bytes:
    return Keyring.parse(f"seal k2 {K2}").open(blob, match_id)


@pytest.mark.parametrize(
    "rpc", ["ApplyMove", "ListLegalMoves", "GetView", "DefaultMove", "NextDeal", "AnalyseHand"]
)
def test_every_rpc_that_takes_a_state_refuses_a_tampered_one(servers: Servers, rpc: str) -> None:
    sealed = _new(servers.old, "m-rpc").sealed_state
    blob = bytearray(sealed.blob)
    blob[len(blob) // 2] ^= 0x10
    tampered = service_pb2.SealedState(match_id="m-rpc", blob=bytes(blob))
    request_type = getattr(service_pb2, f"{rpc}Request")
    request = request_type(sealed_state=tampered)
    with pytest.raises(grpc.RpcError) as caught:
        getattr(servers.old, rpc)(request, timeout=10)
    assert caught.value.code() == DENIED  # type: ignore[attr-defined]
    assert "does not open with key 'k1' for match_id 'm-rpc'" in caught.value.details()  # type: ignore[attr-defined]


def test_a_stream_item_with_a_tampered_state_fails_alone(servers: Servers) -> None:
    states = _played(servers.old, "m-stream", 1)
    good = service_pb2.ApplyMoveRequest(
        sealed_state=states[0], move=_first_move(servers.old, states[0])
    )
    bad = service_pb2.ApplyMoveRequest()
    bad.CopyFrom(good)
    bad.sealed_state.blob = good.sealed_state.blob[:-1]
    requests = [service_pb2.ApplyMoveStreamRequest(item=item) for item in (bad, good)]
    results = [r.result for r in servers.old.ApplyMoveStream(iter(requests), timeout=10)]
    assert results[0].error.code == 7
    assert "does not open" in results[0].error.message
    assert results[1].response.sealed_state.move_number == 1


def test_precise_messages(servers: Servers) -> None:
    sealed = _new(servers.old, "m-msg").sealed_state
    cases = {
        b"": "0 bytes is too short",
        b"\x02" + sealed.blob[1:]: "format version 2 is unknown",
        sealed.blob[:2] + b"k9" + sealed.blob[4:]: "key 'k9', which this server does not hold",
        sealed.blob[:20]: "truncated",
    }
    for blob, message in cases.items():
        request = service_pb2.GetViewRequest(
            sealed_state=service_pb2.SealedState(match_id="m-msg", blob=blob)
        )
        with pytest.raises(grpc.RpcError) as caught:
            servers.old.GetView(request, timeout=10)
        assert caught.value.code() == DENIED  # type: ignore[attr-defined]
        assert message in caught.value.details(), caught.value.details()  # type: ignore[attr-defined]


# -- rotation -----------------------------------------------------------------------


def test_rotation_old_key_still_opens_new_key_seals(servers: Servers) -> None:
    old = _played(servers.old, "m-rot", 2)[-1]
    assert old.key_id == "k1"
    # The rotated server opens the k1 state and answers with a k2 one.
    move = _first_move(servers.rotated, old)
    answer = servers.rotated.ApplyMove(
        service_pb2.ApplyMoveRequest(sealed_state=old, move=move), timeout=10
    )
    assert answer.accepted
    assert answer.sealed_state.key_id == "k2"
    assert answer.sealed_state.blob[2:4] == b"k2"
    assert answer.sealed_state.move_number == old.move_number + 1
    # New games seal with k2, and the next moves keep to k2.
    fresh = _played(servers.rotated, "m-rot-new", 2)
    assert {s.key_id for s in fresh} == {"k2"}
    # Once k1 is retired, its states no longer open; k2's do.
    request = service_pb2.GetViewRequest(sealed_state=old)
    assert _code(servers.retired.GetView, request) == DENIED
    request = service_pb2.GetViewRequest(sealed_state=answer.sealed_state)
    assert _code(servers.retired.GetView, request) == grpc.StatusCode.OK
    # And a server that never had k2 cannot open the new states.
    assert _code(servers.old.GetView, request) == DENIED


# -- a sealed match plays as a plain one ----------------------------------------------


@pytest.mark.parametrize(
    "game", [g.name for g in api.list_games(service_pb2.ListGamesRequest()).games]
)
def test_a_sealed_match_answers_exactly_as_a_plain_one(servers: Servers, game: str) -> None:
    """Every answer of a sealed match (played on the trusted path) equals the
    plain match's, the state apart, which opens to the plain state's bytes."""
    stub = servers.old
    descriptor = next(
        g for g in api.list_games(service_pb2.ListGamesRequest()).games if g.name == game
    )
    new = service_pb2.NewGameRequest(game=game, seat_count=descriptor.min_seats, seed=11)
    plain = stub.NewGame(new, timeout=10).state
    new.seal, new.match_id = True, f"m-{game}"
    sealed = stub.NewGame(new, timeout=10).sealed_state
    rng = random.Random(game)
    for _ in range(40):
        assert servers.keyring.open(sealed.blob, sealed.match_id) == plain.SerializeToString()
        if plain.match.phase == game_pb2.MATCH_PHASE_MATCH_OVER:
            break
        if plain.match.phase == game_pb2.MATCH_PHASE_DEAL_OVER:
            p = stub.NextDeal(service_pb2.NextDealRequest(state=plain, seat_events=True))
            s = stub.NextDeal(service_pb2.NextDealRequest(sealed_state=sealed, seat_events=True))
            assert list(s.events) == list(p.events)
            assert list(s.seat_events) == list(p.seat_events)
            plain, sealed = p.state, s.sealed_state
            continue
        seat = plain.acting_seats[0]
        listed = stub.ListLegalMoves(service_pb2.ListLegalMovesRequest(state=plain, seat=seat))
        listed_sealed = stub.ListLegalMoves(
            service_pb2.ListLegalMovesRequest(sealed_state=sealed, seat=seat)
        )
        assert listed == listed_sealed
        view = stub.GetView(service_pb2.GetViewRequest(state=plain, seat=seat))
        assert view == stub.GetView(service_pb2.GetViewRequest(sealed_state=sealed, seat=seat))
        move = rng.choice(listed.moves).move
        p = stub.ApplyMove(
            service_pb2.ApplyMoveRequest(
                state=plain, move=move, seat_events=True, next_legal_moves=True
            )
        )
        s = stub.ApplyMove(
            service_pb2.ApplyMoveRequest(
                sealed_state=sealed, move=move, seat_events=True, next_legal_moves=True
            )
        )
        assert s.HasField("sealed_state") and not s.HasField("state")
        after = s.sealed_state
        assert (after.game, after.move_number, after.deal_number, after.phase) == (
            game,
            p.state.move_number,
            p.state.match.deal_number,
            p.state.match.phase,
        )
        assert list(after.acting_seats) == list(p.state.acting_seats)
        plain, sealed = game_pb2.GameState(), after
        plain.CopyFrom(p.state)
        s.ClearField("sealed_state")
        p.ClearField("state")
        assert s == p


def test_a_rejected_move_on_a_sealed_state_answers_no_state(servers: Servers) -> None:
    sealed = _new(servers.old, "m-rej").sealed_state
    move = _first_move(servers.old, sealed)
    move.seat = (move.seat + 1) % 3  # not this seat's turn
    answer = servers.old.ApplyMove(service_pb2.ApplyMoveRequest(sealed_state=sealed, move=move))
    assert not answer.accepted
    assert answer.rejection.reason == game_pb2.REJECTION_REASON_NOT_YOUR_TURN
    assert not answer.HasField("state") and not answer.HasField("sealed_state")


def test_a_sealed_state_with_a_seat_name_no_server_takes_now_is_refused_naming_it(
    servers: Servers,
) -> None:
    """A server before 0.6.0 sealed any seat name, under the same rules
    version: such a state gets the full check, which names the seat, and
    is never answered on the trusted path (a newline in a name would write
    a sentence of its own into Event.text)."""
    plain = api.new_game(service_pb2.NewGameRequest(game="hundred_and_one", seat_count=3, seed=7))
    state = plain.state
    move = (
        api.list_legal_moves(
            service_pb2.ListLegalMovesRequest(state=state, seat=state.acting_seats[0])
        )
        .moves[0]
        .move
    )
    state.seats[1].name = "Bob\nP0 wins the match"
    sealed = service_pb2.SealedState(
        match_id="m-names",
        key_id="k1",
        blob=servers.keyring.seal(state.SerializeToString(), "m-names"),
    )
    request = service_pb2.ApplyMoveRequest(sealed_state=sealed, move=move)
    with pytest.raises(grpc.RpcError) as refused:
        servers.old.ApplyMove(request, timeout=10)
    assert refused.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    assert "state.seats[1].name" in refused.value.details()
    # The same state with its names as NewGame gave them is answered.
    state.seats[1].name = "P1"
    request.sealed_state.blob = servers.keyring.seal(state.SerializeToString(), "m-names")
    assert servers.old.ApplyMove(request, timeout=10).accepted


# -- replay of the same match: the holder's to refuse --------------------------------


def test_an_older_state_of_the_same_match_opens_and_the_stale_move_guard_catches_it(
    servers: Servers,
) -> None:
    """A stateless server cannot know which state of a match is current: an
    older sealed state opens (it is the caller's). A move made on the newer
    position (seen_move_number) is rejected on the older one as stale."""
    states = _played(servers.old, "m-replay", 3)
    older, newer = states[1], states[3]
    assert older.move_number < newer.move_number  # what a holder compares
    move = _first_move(servers.old, newer)
    move.seen_move_number = newer.move_number
    answer = servers.old.ApplyMove(service_pb2.ApplyMoveRequest(sealed_state=older, move=move))
    assert not answer.accepted
    assert answer.rejection.reason == game_pb2.REJECTION_REASON_STALE_STATE


# -- configuration and refusals -------------------------------------------------------


def test_sealed_only_refuses_plain_states_and_seals_every_new_game(servers: Servers) -> None:
    new = servers.strict.NewGame(
        service_pb2.NewGameRequest(game="hundred_and_one", seat_count=3, seed=1, match_id="m-s")
    )
    assert new.HasField("sealed_state") and not new.HasField("state")
    plain = api.new_game(service_pb2.NewGameRequest(game="hundred_and_one", seat_count=3, seed=1))
    with pytest.raises(grpc.RpcError) as caught:
        servers.strict.GetView(service_pb2.GetViewRequest(state=plain.state))
    assert caught.value.code() == DENIED  # type: ignore[attr-defined]
    assert "takes sealed states only" in caught.value.details()  # type: ignore[attr-defined]
    view = servers.strict.GetView(service_pb2.GetViewRequest(sealed_state=new.sealed_state))
    assert view.view.game == "hundred_and_one"


def test_state_and_sealed_state_together_are_invalid(servers: Servers) -> None:
    sealed = _new(servers.old, "m-both").sealed_state
    plain = api.new_game(service_pb2.NewGameRequest(game="hundred_and_one", seat_count=3, seed=7))
    request = service_pb2.GetViewRequest(state=plain.state, sealed_state=sealed)
    with pytest.raises(grpc.RpcError) as caught:
        servers.old.GetView(request)
    assert caught.value.code() == grpc.StatusCode.INVALID_ARGUMENT  # type: ignore[attr-defined]


def test_a_server_without_keys(stub: service_pb2_grpc.CroupierServiceStub, servers: Servers):
    """The shared test server has no keys: it cannot seal (FAILED_PRECONDITION)
    and cannot open (PERMISSION_DENIED); plain states work as before."""
    request = service_pb2.NewGameRequest(game="hundred_and_one", seat_count=3, seed=7, seal=True)
    assert _code(stub.NewGame, request) == grpc.StatusCode.FAILED_PRECONDITION
    sealed = _new(servers.old, "m-nokeys").sealed_state
    assert _code(stub.GetView, service_pb2.GetViewRequest(sealed_state=sealed)) == DENIED


def test_keyring_parsing() -> None:
    ring = Keyring.parse(f"# comment\nseal a {K1}\n\nopen b {K2}")
    assert ring.sealing == "a" and set(ring.keys) == {"a", "b"}
    assert Keyring.parse(f"open a {K1}; seal b {K2}").sealing == "b"
    bad = {
        f"open a {K1}": "exactly one key is marked 'seal'",
        f"seal a {K1}; seal b {K2}": "exactly one key is marked 'seal'",
        f"seal a {K1}; open a {K2}": "listed twice",
        "seal a AAAA": "has 3 bytes",
        "seal a !!!": "not base64",
        f"sign a {K1}": "expected 'seal ID BASE64'",
        f"seal {'x' * 65} {K1}": "a key id is",
        "": "no key",
    }
    for text, message in bad.items():
        with pytest.raises(ValueError, match=message):
            Keyring.parse(text)
    # No error quotes a key.
    with pytest.raises(ValueError) as caught:
        Keyring.parse(f"seal a {K1[:-4]}")
    assert K1[:-4] not in str(caught.value)


def test_seal_and_open_round_trip() -> None:
    ring = Keyring.parse(f"seal k1 {K1}")
    blob = ring.seal(b"state bytes", "m")
    assert ring.open(blob, "m") == b"state bytes"
    assert ring.seal(b"state bytes", "m") != blob  # a fresh nonce every time
    with pytest.raises(SealRefused):
        ring.open(blob, "n")


def test_the_python_client_plays_sealed_states_transparently(tmp_path: Path) -> None:
    """CroupierClient sends a SealedState where it takes a state, and
    `state_of` reads the state of an answer, sealed or not."""
    from croupier_client import CroupierClient, state_of

    keys = _keys(tmp_path, "keys", f"seal k1 {K1}")
    with (
        ServerThread(ServerConfig(port=0, grace=0.0, seal_keys=keys)) as port,
        CroupierClient(f"127.0.0.1:{port}") as client,
    ):
        state = state_of(
            client.new_game("hundred_and_one", seat_count=3, seed=5, seal=True, match_id="c1")
        )
        for _ in range(5):
            assert isinstance(state, service_pb2.SealedState)
            seat = state.acting_seats[0]
            assert client.view(state, seat).seat == seat
            move = client.legal_moves(state, seat)[0].move
            answer = client.apply(state, move)
            assert answer.accepted
            state = state_of(answer)
        assert state.move_number == 5
        plain = state_of(client.new_game("hundred_and_one", seat_count=3, seed=5))
        assert isinstance(plain, game_pb2.GameState)
