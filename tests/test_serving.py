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
