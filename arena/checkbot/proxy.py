"""A TCP proxy in front of the referee that can drop every connection through it (a network cut).

The checked bot connects to the proxy; ``cut()`` closes both ends of every open connection, as a
lost network would, while new connections (the bot reconnecting) go through as before.
"""
from __future__ import annotations

import socket
import threading


class CutProxy:
    def __init__(self, target: str) -> None:
        host, _, port = target.rpartition(":")
        self.target = (host or "127.0.0.1", int(port))
        self.server = socket.create_server(("127.0.0.1", 0))
        self.address = f"127.0.0.1:{self.server.getsockname()[1]}"
        self.connections: list[tuple[socket.socket, socket.socket]] = []
        self.accepted = 0
        self.lock = threading.Lock()
        self.closed = False
        threading.Thread(target=self._accept, name="checkbot-proxy", daemon=True).start()

    def _accept(self) -> None:
        while not self.closed:
            try:
                client, _ = self.server.accept()
            except OSError:
                return
            try:
                upstream = socket.create_connection(self.target, timeout=10)
                upstream.settimeout(None)
            except OSError:
                client.close()
                continue
            with self.lock:
                self.connections.append((client, upstream))
                self.accepted += 1
            for a, b in ((client, upstream), (upstream, client)):
                threading.Thread(target=self._pump, args=(a, b), daemon=True).start()

    @staticmethod
    def _pump(src: socket.socket, dst: socket.socket) -> None:
        try:
            while data := src.recv(65536):
                dst.sendall(data)
        except OSError:
            pass
        finally:
            for s in (src, dst):
                try:
                    s.shutdown(socket.SHUT_RDWR)
                except OSError:
                    pass

    def cut(self) -> int:
        """Drop every open connection; returns how many were cut."""
        with self.lock:
            conns, self.connections = self.connections, []
        for pair in conns:
            for s in pair:
                try:
                    s.shutdown(socket.SHUT_RDWR)
                except OSError:
                    pass
                s.close()
        return len(conns)

    def close(self) -> None:
        self.closed = True
        self.cut()
        self.server.close()

    def __enter__(self) -> CutProxy:  # noqa: PYI034
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
