"""A throw-away Redis (or Valkey) server for the test session: Debian's binary, no disk,
a free loopback port. The shared rate-limit lane runs against it."""

from __future__ import annotations

import shutil
import socket
import subprocess
import tempfile
import time


def binary() -> str | None:
    return shutil.which("valkey-server") or shutil.which("redis-server")


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


class RedisServer:
    def __init__(self, path: str) -> None:
        self.path = path
        self.port = _free_port()
        self.folder = tempfile.mkdtemp(prefix="solitaire-redis-")
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> None:
        """Start the server; on a free port taken meanwhile (by another test worker), again."""
        for attempt in range(3):
            try:
                self._start()
                return
            except RuntimeError:
                if self.process is not None and self.process.poll() is None:
                    self.process.kill()
                    self.process.wait(10)
                if attempt == 2:
                    raise
                self.port = _free_port()

    def _start(self) -> None:
        self.process = subprocess.Popen(
            [self.path, "--port", str(self.port), "--bind", "127.0.0.1", "--save", "",
             "--appendonly", "no", "--dir", self.folder, "--protected-mode", "yes"],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )  # fmt: skip
        deadline = time.monotonic() + 60  # a bound for liveness on a loaded machine
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"{self.path} exited with {self.process.returncode}")
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=1) as sock:
                    sock.sendall(b"PING\r\n")
                    if sock.recv(16).startswith(b"+PONG"):
                        return
            except OSError:
                time.sleep(0.05)
        raise RuntimeError("the server did not answer PING within 60 s")

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            self.process.wait(10)
        shutil.rmtree(self.folder, ignore_errors=True)
