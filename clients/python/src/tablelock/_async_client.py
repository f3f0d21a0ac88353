"""``tablelock.AsyncClient``: the API over asyncio (httpx, websockets)."""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import AsyncGenerator, Sequence
from pathlib import Path
from types import TracebackType
from typing import TypeVar

import httpx

from . import _calls as calls
from ._async_lock import AsyncTableLock
from ._calls import Call
from ._live import watch_live
from ._retry import Retry
from ._sync_client import CONNECT_TIMEOUT, DEFAULT_LEASE, DEFAULT_RETRY_FOR
from ._transport import Data, Endpoint, body, read_answer, unreachable
from ._types import ChangeRequest, FeedEvent, ImportReport, Row, RowFilter, RowSort

T = TypeVar("T")


class AsyncClient:
    """The asyncio twin of ``Client``: the same calls, awaited (and iterated with ``async for``)."""

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
        self._http = httpx.AsyncClient()

    @property
    def url(self) -> str:
        """The GraphQL endpoint called."""
        return self._endpoint.url

    async def close(self) -> None:
        await self._http.aclose()

    async def __aenter__(self) -> AsyncClient:
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        await self.close()

    def table_lock(
        self,
        tables: str | Sequence[str],
        lease: float | None = DEFAULT_LEASE,
        rows: Sequence[str] | None = None,
        wait: float | None = None,
    ) -> AsyncTableLock:
        """Holds ``tables`` while an ``async with`` block runs; see ``Client.table_lock``."""
        names, lease_seconds, wait_seconds, scope = calls.lock_arguments(tables, lease, wait, rows)
        return AsyncTableLock(self, names, lease_seconds, wait_seconds, scope)

    async def import_file(
        self, table: str, path: str | Path, dry_run: bool = True, format: str | None = None
    ) -> ImportReport:
        """Imports a file into ``table`` under a lock taken for the call and released after it."""
        async with self.table_lock(table) as lock:
            return await lock.import_file(path, dry_run=dry_run, format=format)

    async def rows(
        self,
        table: str,
        page_size: int = 100,
        filters: Sequence[RowFilter] | None = None,
        sort: Sequence[RowSort] | None = None,
    ) -> AsyncGenerator[Row, None]:
        """Every row of ``table`` (filtered, sorted), read a page at a time by keyset cursor."""
        after: str | None = None
        while True:
            page, after = await self._send(
                calls.rows_page(table, page_size, filters, sort, after, self.retry_for)
            )
            for row in page:
                yield row
            if after is None:
                return

    async def changes(
        self,
        after: str | None = None,
        tables: Sequence[str] | None = None,
        types: Sequence[str] | None = None,
        page_size: int = 100,
        poll_interval: float = 1.0,
    ) -> AsyncGenerator[FeedEvent, None]:
        """The change feed's events after ``after``, waiting for more at the end; see
        ``Client.changes``."""
        cursor = after
        while True:
            page = await self._send(
                calls.change_feed(cursor, page_size, tables, types, self.retry_for)
            )
            events, cursor = page
            for event in events:
                yield event
            if len(events) < page_size:
                await asyncio.sleep(poll_interval)

    async def wait_for_decision(
        self, request_id: str, timeout: float | None = None
    ) -> ChangeRequest:
        """Returns once change request ``request_id`` is decided or withdrawn; see
        ``Client.wait_for_decision``."""
        deadline = None if timeout is None else time.monotonic() + timeout
        read = calls.change_request(request_id, self.retry_for)
        first = await self._send(read)
        if first is None:
            raise calls.unknown_request(request_id)
        if first.state != "pending":
            return first
        news: asyncio.Queue[None] = asyncio.Queue()
        live = asyncio.create_task(
            watch_live(
                self._endpoint,
                calls.CHANGE_REQUEST_CHANGED,
                {"table": first.table},
                lambda event: news.put_nowait(None) if calls.decided_in(event, request_id) else None,
                lambda again: news.put_nowait(None),
            )
        )
        try:
            while True:
                remaining = None if deadline is None else max(0.0, deadline - time.monotonic())
                try:
                    await asyncio.wait_for(news.get(), remaining)
                except asyncio.TimeoutError:
                    raise TimeoutError(
                        f"Change request {request_id} was not decided within {timeout} s."
                    ) from None
                try:
                    request = await self._send(read)
                except Exception:
                    # Read again at the next connection.
                    continue
                if request is not None and request.state != "pending":
                    return request
        finally:
            live.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await live

    async def _send(self, call: Call[T]) -> T:
        """Sends ``call``, retrying failures that may pass with the same body until its deadline."""
        content = body(call.query, call.variables)
        retry = Retry(call.retry_for)
        timeout = httpx.Timeout(call.read_timeout, connect=CONNECT_TIMEOUT)
        while True:
            try:
                response = await self._http.post(
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
            await asyncio.sleep(retry.pause_after(outcome))
