"""Just enough HTTP/2, by hand, to be a client no gRPC library would be: one
that opens gRPC calls and then stalls in the middle of a message, or opens
connections and never uses them. Plaintext, 127.0.0.1 only.

A frame is a 9-byte header (length, type, flags, stream id) and a payload
(RFC 9113 §4.1); headers are HPACK literals without indexing and without
Huffman coding (RFC 7541 §6.2.2), which every decoder must accept.
"""

from __future__ import annotations

import contextlib
import socket
import struct
import threading

PREFACE = b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n"
DATA, HEADERS, SETTINGS, PING = 0x0, 0x1, 0x4, 0x6
END_HEADERS, ACK = 0x4, 0x1


def frame(kind: int, flags: int, stream: int, payload: bytes = b"") -> bytes:
    return (
        struct.pack(">I", len(payload))[1:]
        + bytes([kind, flags])
        + struct.pack(">I", stream)
        + payload
    )


def _literal(name: str, value: str) -> bytes:
    """One header as an HPACK literal without indexing (names and values
    here are all shorter than 127 bytes, so each length is one byte)."""
    raw_name, raw_value = name.encode(), value.encode()
    assert len(raw_name) < 127 and len(raw_value) < 127
    return b"\x00" + bytes([len(raw_name)]) + raw_name + bytes([len(raw_value)]) + raw_value


def grpc_headers(port: int, path: str) -> bytes:
    """The HEADERS payload that starts a gRPC call of `path`."""
    fields = (
        (":method", "POST"),
        (":scheme", "http"),
        (":path", path),
        (":authority", f"127.0.0.1:{port}"),
        ("content-type", "application/grpc"),
        ("te", "trailers"),
    )
    return b"".join(_literal(name, value) for name, value in fields)


class StalledConnection:
    """A connection that opens `streams` calls of `path` and sends each the
    first `sent` bytes of a length-prefixed message of `claimed` bytes, then
    nothing more. It answers the server's SETTINGS and PINGs (a reader thread),
    so the server sees a live, well-behaved peer that is merely slow."""

    def __init__(self, port: int, path: str, streams: int, sent: int = 20, claimed: int = 1000):
        self.socket = socket.create_connection(("127.0.0.1", port), timeout=10)
        self.socket.settimeout(None)
        self._lock = threading.Lock()
        self._reader = threading.Thread(target=self._read, name="h2-reader", daemon=True)
        # The 5-byte gRPC message prefix (not compressed, `claimed` bytes
        # follow), then the start of that message.
        partial = (b"\x00" + struct.pack(">I", claimed) + b"\x0a" * claimed)[:sent]
        out = [PREFACE, frame(SETTINGS, 0, 0)]
        headers = grpc_headers(port, path)
        for i in range(streams):
            stream = 2 * i + 1
            out.append(frame(HEADERS, END_HEADERS, stream, headers))
            out.append(frame(DATA, 0, stream, partial))
        self._send(b"".join(out))
        self._reader.start()

    def _send(self, data: bytes) -> None:
        with self._lock:
            self.socket.sendall(data)

    def _read(self) -> None:
        buffer = b""
        try:
            while chunk := self.socket.recv(65536):
                buffer += chunk
                while len(buffer) >= 9:
                    length = int.from_bytes(buffer[:3], "big")
                    if len(buffer) < 9 + length:
                        break
                    kind, flags = buffer[3], buffer[4]
                    payload, buffer = buffer[9 : 9 + length], buffer[9 + length :]
                    if kind == SETTINGS and not flags & ACK:
                        self._send(frame(SETTINGS, ACK, 0))
                    elif kind == PING and not flags & ACK:
                        self._send(frame(PING, ACK, 0, payload))
        except OSError:
            pass  # closed by close() or by the server

    def close(self) -> None:
        with contextlib.suppress(OSError):
            self.socket.shutdown(socket.SHUT_RDWR)
        self.socket.close()
        self._reader.join(5)


def idle_connection(port: int, preface: bool) -> socket.socket:
    """A connection that sends nothing (or only the HTTP/2 preface and an
    empty SETTINGS) and never reads."""
    connection = socket.create_connection(("127.0.0.1", port), timeout=10)
    if preface:
        connection.sendall(PREFACE + frame(SETTINGS, 0, 0))
    return connection
