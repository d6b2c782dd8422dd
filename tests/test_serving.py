"""Every connection sends its answers at once, with one worker or several."""

from __future__ import annotations

import asyncio
import socket
from concurrent.futures import ThreadPoolExecutor

from app.serving import no_delay


def test_connections_of_a_shared_listening_socket_get_no_delay() -> None:
    """With ``--workers`` uvicorn shares a listening socket made without a protocol number;
    asyncio then leaves Nagle's algorithm on for its connections (an answer's second
    segment waits 40 ms for the client's delayed ACK). The protocol turns it off."""

    async def main() -> tuple[int, int]:
        listener = socket.socket(socket.AF_INET)  # as uvicorn makes it for its workers
        listener.bind(("127.0.0.1", 0))
        listener.listen()
        states: list[int] = []
        accepted = asyncio.Event()

        class Probe(asyncio.Protocol):
            def connection_made(self, transport: asyncio.BaseTransport) -> None:
                sock = transport.get_extra_info("socket")
                states.append(sock.getsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY))
                no_delay(transport)
                states.append(sock.getsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY))
                transport.close()
                accepted.set()

        server = await asyncio.get_running_loop().create_server(Probe, sock=listener)
        _, writer = await asyncio.open_connection(*listener.getsockname())
        await asyncio.wait_for(accepted.wait(), 5)
        writer.close()
        server.close()
        await server.wait_closed()
        return states[0], states[1]

    # In a thread of its own: the browser tests leave an event loop running in this one.
    with ThreadPoolExecutor(1) as thread:
        before, after = thread.submit(asyncio.run, main()).result(30)
    assert before == 0  # what asyncio leaves: the 40 ms stall this guards against
    assert after != 0


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
