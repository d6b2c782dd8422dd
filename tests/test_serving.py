"""Every connection sends its answers at once, with one worker or several; the served
process is tuned."""

from __future__ import annotations

import asyncio
import multiprocessing
import socket
import subprocess
import sys
from pathlib import Path

from app.serving import listening_socket


def nodelay_in_a_worker(listener: socket.socket) -> int:
    """In a spawned process, as uvicorn's workers get the socket: a connection accepted by
    asyncio, and its ``TCP_NODELAY`` as asyncio left it."""

    async def main() -> int:
        states: list[int] = []
        accepted = asyncio.Event()

        class Probe(asyncio.Protocol):
            def connection_made(self, transport: asyncio.BaseTransport) -> None:
                sock = transport.get_extra_info("socket")
                states.append(sock.getsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY))
                transport.close()
                accepted.set()

        server = await asyncio.get_running_loop().create_server(Probe, sock=listener)
        _, writer = await asyncio.open_connection(*listener.getsockname())
        await asyncio.wait_for(accepted.wait(), 20)
        writer.close()
        server.close()
        await server.wait_closed()
        return states[0]

    return asyncio.run(main())


def test_connections_of_the_shared_listening_socket_send_at_once() -> None:
    """With ``--workers`` uvicorn shares a listening socket made without a protocol number;
    asyncio then left Nagle's algorithm on for its connections (an answer's second segment
    waited 40 ms for the client's delayed ACK). Made with TCP's number, as here, asyncio
    turns it off on every connection by itself, in every worker process."""
    listener = listening_socket("127.0.0.1", 0)
    try:
        spawn = multiprocessing.get_context("spawn")  # as uvicorn starts its workers
        with spawn.Pool(1) as pool:
            assert pool.apply(nodelay_in_a_worker, (listener,)) != 0
    finally:
        listener.close()


def test_the_served_process_still_logs_every_field_its_format_shows() -> None:
    """tune_for_serving drops what log records hold but the format never shows; the access
    log line keeps its time, level, logger and message."""
    import gc
    import io
    import logging
    import logging.config

    from app.config import LOG_CONFIG
    from app.serving import GC_THRESHOLDS, tune_for_serving

    saved = (logging._srcfile, logging.logThreads, logging.logProcesses)
    saved_multi, thresholds = logging.logMultiprocessing, gc.get_threshold()
    try:
        tune_for_serving()
        assert gc.get_threshold() == GC_THRESHOLDS
        assert gc.get_freeze_count() > 0
        formatter = logging.Formatter(LOG_CONFIG["formatters"]["plain"]["format"])
        stream = io.StringIO()
        handler = logging.StreamHandler(stream)
        handler.setFormatter(formatter)
        logger = logging.getLogger("solitaire.access.test")
        logger.addHandler(handler)
        logger.setLevel(logging.INFO)
        logger.info('%s "%s %s" %d', "127.0.0.1", "POST", "/games/abcd…/actions", 200)
        logger.removeHandler(handler)
        line = stream.getvalue()
        assert line.endswith(
            ' INFO solitaire.access.test: 127.0.0.1 "POST /games/abcd…/actions" 200\n'
        )
        assert line[:4].isdigit()  # the time comes first
    finally:
        logging._srcfile, logging.logThreads, logging.logProcesses = saved
        logging.logMultiprocessing = saved_multi
        gc.unfreeze()
        gc.set_threshold(*thresholds)


STOPPING = """
import os, signal
from app.serving import on_stop
heard = []
signal.signal(signal.SIGTERM, lambda signum, frame: heard.append("server"))
on_stop(lambda: heard.append("streams"))
os.kill(os.getpid(), signal.SIGTERM)
signal.signal(signal.SIGINT, signal.default_int_handler)
on_stop(lambda: heard.append("never"))  # no server's handler for SIGINT: nothing chained
print(",".join(heard), signal.getsignal(signal.SIGINT) is signal.default_int_handler)
"""


def test_a_stop_ends_the_streams_first_then_runs_the_servers_own_handler() -> None:
    """In a process of its own: signals are heard in a main thread only."""
    root = Path(__file__).resolve().parent.parent
    done = subprocess.run(
        [sys.executable, "-c", STOPPING], cwd=root, capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["streams,server", "True"]
