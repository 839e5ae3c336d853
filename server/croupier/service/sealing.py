"""Sealed states: a GameState encrypted and authenticated by the server (AEAD).

A server started with sealing keys answers NewGame (when asked), and ApplyMove
and NextDeal on a sealed state, with the next state sealed: AES-256-GCM under
the key marked for sealing, bound to the caller's match id. It opens a blob
with any key it holds, so keys rotate without a flag day: add the new key
marked `seal`, keep the old one as `open` until the states it sealed are gone.

Blob layout (format 1), all of it covered by the tag:

    version (1 byte: 1) | key id length (1 byte) | key id (ASCII)
    | nonce (12 random bytes) | ciphertext of the GameState | tag (16 bytes)

The associated data is a fixed label, the header (version and key id) and
the match id, so a blob given with another match id, or with its key id
changed, does not open. Everything else (the game, its move number) is inside
the ciphertext. A blob that does not open is refused with PERMISSION_DENIED
(`SealRefused`) saying which check failed.

Keys, one per line (or separated by ";", for an environment variable):

    seal k2 <base64 of 32 random bytes>
    open k1 <base64 of 32 random bytes>

from `croupier serve --seal-keys FILE` (env CROUPIER_SEAL_KEYS_FILE) or, when
no file is named, the text itself in CROUPIER_SEAL_KEYS. Exactly one line
seals; every line opens. `croupier seal-keygen ID` prints a new line.
"""

from __future__ import annotations

import base64
import binascii
import os
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from cryptography.exceptions import InvalidTag
from cryptography.hazmat.primitives.ciphers.aead import AESGCM
from google.protobuf.message import DecodeError

from croupier.engine import api, registry
from croupier.engine.errors import FailedPrecondition, InvalidInput
from croupier.engine.validate_seats import check_seat_names
from croupier.v1 import game_pb2

FORMAT_VERSION = 1
KEY_BYTES = 32  # AES-256
NONCE_BYTES = 12
TAG_BYTES = 16
MAX_KEY_ID = 64
_KEY_ID = re.compile(r"[A-Za-z0-9._-]{1,64}")
_LABEL = b"croupier.v1.SealedState\x00"
# The shortest blob that could open: a one-letter key id, an empty state.
MIN_BLOB = 2 + 1 + NONCE_BYTES + TAG_BYTES
KEYS_ENV = "CROUPIER_SEAL_KEYS"


class SealRefused(Exception):
    """A sealed state that does not open, or a plain state where only sealed
    ones are taken: PERMISSION_DENIED (errors.py)."""


@dataclass(frozen=True)
class Keyring:
    """The keys of one server: `sealing` seals, every key in `keys` opens."""

    keys: Mapping[str, bytes] = field(repr=False)  # secrets: never in a repr or log
    sealing: str = ""

    def __post_init__(self) -> None:
        if self.sealing not in self.keys:
            raise ValueError(f"the sealing key {self.sealing!r} is not among the keys")
        # One AESGCM object per key, built once (a frozen dataclass: set it anyway).
        object.__setattr__(self, "_ciphers", {k: AESGCM(v) for k, v in self.keys.items()})
        header = bytes([FORMAT_VERSION, len(self.sealing)]) + self.sealing.encode()
        object.__setattr__(self, "_header", header)

    @classmethod
    def parse(cls, text: str, where: str = "sealing keys") -> Keyring:
        """Read the key lines of `text` (module docstring); ValueError names
        the line at fault, never a key's bytes."""
        keys: dict[str, bytes] = {}
        sealing: list[str] = []
        entries = [e.strip() for line in text.splitlines() for e in line.split(";")]
        for number, entry in enumerate(entries, 1):
            if not entry or entry.startswith("#"):
                continue
            words = entry.split()
            if len(words) != 3 or words[0] not in ("seal", "open"):
                raise ValueError(
                    f"{where}, entry {number}: expected 'seal ID BASE64' or 'open ID BASE64'"
                )
            use, key_id, encoded = words
            if not _KEY_ID.fullmatch(key_id):
                raise ValueError(
                    f"{where}, entry {number}: a key id is 1 to {MAX_KEY_ID} of A-Z a-z 0-9 . _ -"
                )
            if key_id in keys:
                raise ValueError(f"{where}, entry {number}: key {key_id!r} is listed twice")
            try:
                key = base64.b64decode(encoded, validate=True)
            except (binascii.Error, ValueError):
                raise ValueError(f"{where}, entry {number}: the key is not base64") from None
            if len(key) != KEY_BYTES:
                raise ValueError(
                    f"{where}, entry {number}: key {key_id!r} has {len(key)} bytes; "
                    f"AES-256 takes {KEY_BYTES}"
                )
            keys[key_id] = key
            if use == "seal":
                sealing.append(key_id)
        if not keys:
            raise ValueError(f"{where}: no key")
        if len(sealing) != 1:
            raise ValueError(
                f"{where}: exactly one key is marked 'seal' (the others 'open'); got {len(sealing)}"
            )
        return cls(keys, sealing[0])

    def seal(self, state: bytes, match_id: str, nonce: bytes | None = None) -> bytes:
        """The blob of a serialized GameState for `match_id`. `nonce` is for
        reproducible test data only: a server always draws a random one."""
        nonce = os.urandom(NONCE_BYTES) if nonce is None else nonce
        header: bytes = self._header  # type: ignore[attr-defined]
        cipher: AESGCM = self._ciphers[self.sealing]  # type: ignore[attr-defined]
        return header + nonce + cipher.encrypt(nonce, state, _aad(header, match_id))

    def open(self, blob: bytes, match_id: str) -> bytes:
        """The serialized GameState inside `blob`; SealRefused when it does not open."""
        if len(blob) < MIN_BLOB:
            raise SealRefused(
                f"sealed_state.blob: {len(blob)} bytes is too short for a sealed state "
                f"(at least {MIN_BLOB}): truncated or not a sealed state"
            )
        if blob[0] != FORMAT_VERSION:
            raise SealRefused(
                f"sealed_state.blob: format version {blob[0]} is unknown (this server "
                f"writes {FORMAT_VERSION}): altered or not a sealed state"
            )
        end = 2 + blob[1]
        key_bytes = blob[2:end]
        key_id = key_bytes.decode("ascii", errors="replace")
        if blob[1] == 0 or len(blob) < end + NONCE_BYTES + TAG_BYTES:
            raise SealRefused("sealed_state.blob: truncated (its header is incomplete)")
        cipher = self._ciphers.get(key_id)  # type: ignore[attr-defined]
        if cipher is None or not key_bytes.isascii():
            held = ", ".join(sorted(self.keys))
            raise SealRefused(
                f"sealed_state.blob: sealed with key {key_id[:MAX_KEY_ID]!r}, which this "
                f"server does not hold (it holds {held})"
            )
        nonce = blob[end : end + NONCE_BYTES]
        try:
            return bytes(
                cipher.decrypt(nonce, blob[end + NONCE_BYTES :], _aad(blob[:end], match_id))
            )
        except InvalidTag:
            raise SealRefused(
                f"sealed_state: the blob does not open with key {key_id!r} for match_id "
                f"{match_id[:MAX_KEY_ID]!r}: it was altered or truncated, or sealed for "
                "another match"
            ) from None


def _aad(header: bytes, match_id: str) -> bytes:
    return _LABEL + header + match_id.encode()


def new_key_line(key_id: str, use: str = "seal") -> str:
    """A key line with 32 fresh random bytes (`croupier seal-keygen`)."""
    if not _KEY_ID.fullmatch(key_id):
        raise ValueError(f"a key id is 1 to {MAX_KEY_ID} of A-Z a-z 0-9 . _ -; got {key_id!r}")
    return f"{use} {key_id} {base64.b64encode(os.urandom(KEY_BYTES)).decode()}"


def load_keyring(path: str, environ: Mapping[str, str] | None = None) -> Keyring | None:
    """The keys of the file at `path`, else those of CROUPIER_SEAL_KEYS, else
    None (no sealing). ValueError when they cannot be read or are malformed."""
    environ = os.environ if environ is None else environ
    if path:
        try:
            text = Path(path).read_text()
        except OSError as error:
            raise ValueError(f"cannot read the sealing keys {path}: {error.strerror}") from None
        return Keyring.parse(text, path)
    text = environ.get(KEYS_ENV, "")
    return Keyring.parse(text, KEYS_ENV) if text.strip() else None


class Sealer:
    """What the handlers do with sealed states: open a request's (into its
    `state` field), say whether the engine may trust it, and seal an answer's."""

    def __init__(self, keyring: Keyring | None, required: bool = False) -> None:
        if required and keyring is None:
            raise ValueError("taking sealed states only needs sealing keys")
        self.keyring = keyring
        self.required = required

    def open(self, request: Any) -> bool:
        """Put the state of `request.sealed_state` into `request.state`;
        whether the request was sealed. Refuses a plain state when sealed
        ones are required, and a request that gives both."""
        if not request.HasField("sealed_state"):
            if self.required:
                raise SealRefused(
                    "state: this server takes sealed states only (sealed_state); "
                    "a plain state is refused"
                )
            return False
        if request.HasField("state"):
            raise InvalidInput("sealed_state", "give state or sealed_state, not both")
        if self.keyring is None:
            raise SealRefused(
                "sealed_state: this server holds no sealing keys (croupier serve --seal-keys)"
            )
        sealed = request.sealed_state
        plain = self.keyring.open(sealed.blob, sealed.match_id)
        try:
            request.state.ParseFromString(plain)
        except DecodeError:  # only a holder of the key could make such a blob
            raise SealRefused("sealed_state: the blob opens but holds no game state") from None
        return True

    def describe(self) -> str:
        """For the start-up log: off, or the key ids (never a key)."""
        if self.keyring is None:
            return "off"
        opening = ", ".join(sorted(set(self.keyring.keys) - {self.keyring.sealing}))
        only = "; sealed states only" if self.required else ""
        return (
            f"seals with {self.keyring.sealing}" + (f", opens {opening}" if opening else "") + only
        )

    def must_seal_new_game(self, request: Any) -> bool:
        if not (request.seal or self.required):
            return False
        if self.keyring is None:
            raise FailedPrecondition(
                "seal: this server holds no sealing keys (croupier serve --seal-keys)"
            )
        return True

    def close(self, response: Any, match_id: str) -> None:
        """Move `response.state` into `response.sealed_state`, sealed."""
        assert self.keyring is not None, "only a server with keys seals"
        state = response.state
        sealed = response.sealed_state
        sealed.match_id = match_id
        sealed.blob = self.keyring.seal(state.SerializeToString(), match_id)
        sealed.key_id = self.keyring.sealing
        sealed.game = state.game
        sealed.move_number = state.move_number
        sealed.deal_number = state.match.deal_number
        sealed.phase = state.match.phase
        sealed.acting_seats.extend(state.acting_seats)
        response.ClearField("state")


def trusted(state: game_pb2.GameState) -> bool:
    """Whether an opened state may skip validation: it was sealed by a server
    of this schema and of its game's rules version (an older server's state
    gets the full check, and a migration if the engine has one), and its
    seat names pass today's check. Servers before 0.6.0 took any seat name
    without a rules version to tell their states apart, and a name is
    written into every sentence of the answer (a newline could forge one):
    a state whose names fail gets the full check, which refuses it naming
    the seat. The names a NewGame gives by default pass at a list compare."""
    if state.schema_version != api.SCHEMA_VERSION:
        return False
    game = registry.find(state.game)
    if game is None or state.rules_version != game.rules_version:
        return False
    try:
        check_seat_names([seat.name for seat in state.seats], str)
    except InvalidInput:
        return False
    return True
