"""One GraphQL subscription over graphql-ws (``graphql-transport-ws``), kept up for as long as it
is wanted: the connection comes back by itself after any break.

``LiveSession`` is the protocol, without I/O; ``LiveThread`` (sync) and ``watch_live`` (async)
carry it over a WebSocket. ``on_connected`` hears each connection, the first included: what was
announced while it was down was not heard, and the caller reads it instead.
"""

from __future__ import annotations

import asyncio
import json
import random
import threading
from collections.abc import Callable, Mapping
from typing import Any

from websockets.asyncio.client import connect as connect_async
from websockets.exceptions import WebSocketException
from websockets.sync.client import connect as connect_sync
from websockets.typing import Subprotocol

from ._transport import Endpoint

SUBPROTOCOL = Subprotocol("graphql-transport-ws")
LONGEST_RECONNECT_PAUSE = 10.0
#: The one subscription a session carries.
SUBSCRIPTION_ID = "1"

OnData = Callable[[dict[str, Any]], None]
OnConnected = Callable[[bool], None]


def reconnect_pause(retries: int, rand: Callable[[], float] = random.random) -> float:
    return min(LONGEST_RECONNECT_PAUSE, 0.5 * 2.0 ** min(retries, 16)) * (0.5 + rand())


class LiveSession:
    """The protocol of one connection: what to send, and what each message from the API means."""

    def __init__(self, endpoint: Endpoint, query: str, variables: Mapping[str, Any]) -> None:
        self._init = json.dumps({"type": "connection_init", "payload": dict(endpoint.connection_params)})
        self._subscribe = json.dumps(
            {
                "id": SUBSCRIPTION_ID,
                "type": "subscribe",
                "payload": {"query": query, "variables": dict(variables)},
            }
        )

    def opening(self) -> str:
        return self._init

    def receive(self, text: str | bytes) -> tuple[list[str], bool, dict[str, Any] | None]:
        """(messages to send, whether the connection was just acknowledged, the data of an event)."""
        try:
            message = json.loads(text)
        except ValueError:
            return [], False, None
        kind = message.get("type") if isinstance(message, dict) else None
        if kind == "connection_ack":
            return [self._subscribe], True, None
        if kind == "ping":
            return [json.dumps({"type": "pong"})], False, None
        if kind == "next" and message.get("id") == SUBSCRIPTION_ID:
            payload = message.get("payload")
            data = payload.get("data") if isinstance(payload, dict) else None
            return [], False, data if isinstance(data, dict) else None
        # "error" (a refused subscription, e.g. a revoked key) and "complete": whoever listens
        # still learns what happened from the reads and renewals it makes anyway.
        return [], False, None


#: What a broken or refused connection raises; the connection is tried again after a pause.
_CONNECTION_FAILURES = (OSError, TimeoutError, WebSocketException)


class LiveThread:
    """The subscription in a daemon thread, until ``stop``; callbacks run in that thread."""

    def __init__(
        self,
        endpoint: Endpoint,
        query: str,
        variables: Mapping[str, Any],
        on_data: OnData,
        on_connected: OnConnected,
    ) -> None:
        self._endpoint = endpoint
        self._query = query
        self._variables = variables
        self._on_data = on_data
        self._on_connected = on_connected
        self._stopped = threading.Event()
        self._socket_lock = threading.Lock()
        self._socket: Any = None
        self._thread = threading.Thread(target=self._run, name="tablelock-live", daemon=True)

    def start(self) -> None:
        self._thread.start()

    def stop(self) -> None:
        self._stopped.set()
        with self._socket_lock:
            socket = self._socket
        if socket is not None:
            socket.close()
        # A start cut short (a signal) may have left no thread to wait for.
        if self._thread.ident is not None:
            self._thread.join(timeout=5)

    def _run(self) -> None:
        retries = 0
        first = True
        while not self._stopped.is_set():
            try:
                with connect_sync(
                    self._endpoint.live_url,
                    subprotocols=[SUBPROTOCOL],
                    additional_headers=self._endpoint.live_headers,
                ) as socket:
                    with self._socket_lock:
                        self._socket = socket
                    if self._stopped.is_set():
                        return
                    session = LiveSession(self._endpoint, self._query, self._variables)
                    socket.send(session.opening())
                    for text in socket:
                        replies, connected, data = session.receive(text)
                        for reply in replies:
                            socket.send(reply)
                        if connected:
                            retries = 0
                            self._on_connected(not first)
                            first = False
                        if data is not None:
                            self._on_data(data)
            except _CONNECTION_FAILURES:
                pass
            finally:
                with self._socket_lock:
                    self._socket = None
            if self._stopped.wait(reconnect_pause(retries)):
                return
            retries += 1


async def watch_live(
    endpoint: Endpoint,
    query: str,
    variables: Mapping[str, Any],
    on_data: OnData,
    on_connected: OnConnected,
) -> None:
    """The subscription, until the task running it is cancelled."""
    retries = 0
    first = True
    while True:
        try:
            async with connect_async(
                endpoint.live_url,
                subprotocols=[SUBPROTOCOL],
                additional_headers=endpoint.live_headers,
            ) as socket:
                session = LiveSession(endpoint, query, variables)
                await socket.send(session.opening())
                async for text in socket:
                    replies, connected, data = session.receive(text)
                    for reply in replies:
                        await socket.send(reply)
                    if connected:
                        retries = 0
                        on_connected(not first)
                        first = False
                    if data is not None:
                        on_data(data)
        except _CONNECTION_FAILURES:
            pass
        await asyncio.sleep(reconnect_pause(retries))
        retries += 1
