"""``tablelock.Client``: the API over blocking HTTP (httpx) and a WebSocket thread."""

from __future__ import annotations

import queue
import threading
import time
from collections.abc import Iterator, Sequence
from pathlib import Path
from types import TracebackType
from typing import TypeVar

import httpx

from . import _calls as calls
from ._calls import Call
from ._live import LiveThread
from ._lock import TableLock
from ._retry import Retry, Stopped
from ._transport import Data, Endpoint, body, read_answer, unreachable
from ._types import ChangeRequest, FeedEvent, ImportReport, Row, RowFilter, RowSort

T = TypeVar("T")

DEFAULT_RETRY_FOR = 30.0
DEFAULT_LEASE = 60.0
CONNECT_TIMEOUT = 10.0


class Client:
    """A client of the tablelock API at ``url`` (its ``/graphql`` may be left out).

    Calls with an API key (``Authorization: Bearer <key>``) or a browser session's cookie.
    ``retry_for``: seconds that failures which may pass (no answer, SERVICE_UNAVAILABLE,
    OUTCOME_UNKNOWN, HTTP 502/503/504) are retried, each retry with the same idempotency key.
    """

    def __init__(
        self,
        url: str,
        api_key: str | None = None,
        *,
        session_cookie: str | None = None,
        retry_for: float = DEFAULT_RETRY_FOR,
    ) -> None:
        self._endpoint = Endpoint.of(url, api_key, session_cookie)
        self.retry_for = retry_for
        self._http = httpx.Client()

    @property
    def url(self) -> str:
        """The GraphQL endpoint called."""
        return self._endpoint.url

    def close(self) -> None:
        self._http.close()

    def __enter__(self) -> Client:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self.close()

    def table_lock(
        self,
        tables: str | Sequence[str],
        lease: float | None = DEFAULT_LEASE,
        rows: Sequence[str] | None = None,
        wait: float | None = None,
    ) -> TableLock:
        """Holds ``tables`` (one, or several: all or nothing) while a ``with`` block runs.

        ``lease``: seconds (the API takes 15-3600 by default), renewed every third of it; None:
        no expiry (admin keys only). ``wait``: seconds to wait in line while the tables are busy;
        None: LOCK_CONFLICT at once. ``rows``: a row scope instead of the whole table: values
        of its row-lock column (one table only); others may hold other values at once.
        """
        names, lease_seconds, wait_seconds, scope = calls.lock_arguments(tables, lease, wait, rows)
        return TableLock(self, names, lease_seconds, wait_seconds, scope)

    def import_file(
        self, table: str, path: str | Path, dry_run: bool = True, format: str | None = None
    ) -> ImportReport:
        """Imports a file into ``table`` under a lock taken for the call and released after it."""
        with self.table_lock(table) as lock:
            return lock.import_file(path, dry_run=dry_run, format=format)

    def rows(
        self,
        table: str,
        page_size: int = 100,
        filters: Sequence[RowFilter] | None = None,
        sort: Sequence[RowSort] | None = None,
    ) -> Iterator[Row]:
        """Every row of ``table`` (filtered, sorted), read a page at a time by keyset cursor."""
        after: str | None = None
        while True:
            page, after = self._send(
                calls.rows_page(table, page_size, filters, sort, after, self.retry_for)
            )
            yield from page
            if after is None:
                return

    def changes(
        self,
        after: str | None = None,
        tables: Sequence[str] | None = None,
        types: Sequence[str] | None = None,
        page_size: int = 100,
        poll_interval: float = 1.0,
    ) -> Iterator[FeedEvent]:
        """The change feed's events after cursor ``after`` (None: from the first kept); at the
        end it waits for more, for as long as the caller iterates. Save an event's ``cursor``
        once handled and pass it as ``after`` after a restart: nothing is skipped."""
        cursor = after
        while True:
            page = self._send(
                calls.change_feed(cursor, page_size, tables, types, self.retry_for)
            )
            events, cursor = page
            yield from events
            if len(events) < page_size:
                time.sleep(poll_interval)

    def wait_for_decision(self, request_id: str, timeout: float | None = None) -> ChangeRequest:
        """Returns once change request ``request_id`` is decided or withdrawn (TimeoutError after
        ``timeout`` seconds). Listens to ``changeRequestChanged`` and reads the request at every
        connection: a decision made while the connection was down is not missed."""
        deadline = None if timeout is None else time.monotonic() + timeout
        read = calls.change_request(request_id, self.retry_for)
        first = self._send(read)
        if first is None:
            raise calls.unknown_request(request_id)
        if first.state != "pending":
            return first
        news: queue.SimpleQueue[None] = queue.SimpleQueue()
        live = LiveThread(
            self._endpoint,
            calls.CHANGE_REQUEST_CHANGED,
            {"table": first.table},
            lambda event: news.put(None) if calls.decided_in(event, request_id) else None,
            lambda again: news.put(None),
        )
        live.start()
        try:
            while True:
                remaining = None if deadline is None else max(0.0, deadline - time.monotonic())
                try:
                    news.get(timeout=remaining)
                except queue.Empty:
                    raise TimeoutError(
                        f"Change request {request_id} was not decided within {timeout} s."
                    ) from None
                try:
                    request = self._send(read)
                except Exception:
                    # Read again at the next connection.
                    continue
                if request is not None and request.state != "pending":
                    return request
        finally:
            live.stop()

    def _send(self, call: Call[T], stop: threading.Event | None = None) -> T:
        """Sends ``call``, retrying failures that may pass with the same body until its deadline."""
        content = body(call.query, call.variables)
        retry = Retry(call.retry_for)
        timeout = httpx.Timeout(call.read_timeout, connect=CONNECT_TIMEOUT)
        while True:
            try:
                response = self._http.post(
                    self._endpoint.url,
                    content=content,
                    headers=dict(self._endpoint.headers),
                    timeout=timeout,
                )
                outcome = read_answer(
                    self._endpoint,
                    response.status_code,
                    response.headers.get("retry-after"),
                    response.text,
                )
            except httpx.TransportError as error:
                outcome = unreachable(self._endpoint, error)
            if isinstance(outcome, Data):
                return call.parse(outcome.data)
            pause = retry.pause_after(outcome)
            if stop is None:
                time.sleep(pause)
            elif stop.wait(pause):
                raise Stopped
