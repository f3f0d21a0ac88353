"""``async with client.table_lock(...) as lock``: tables held while a block runs (asyncio)."""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import time
from pathlib import Path
from types import TracebackType
from typing import TYPE_CHECKING, Any

from . import _calls as calls
from ._errors import LockLost, TablelockError
from ._hold import HeldLock, HoldState
from ._live import watch_live
from ._lock import RELEASE_BEFORE_EXIT_RETRY, RELEASE_RETRY, TAKE_BACK_TIMEOUT, USE_LOCK
from ._signals import SignalGuard
from ._types import ImportReport, RowChanges, SaveResult, SubmitResult

if TYPE_CHECKING:
    import psycopg

    from ._async_client import AsyncClient


class AsyncTableLock(HeldLock):
    """Holds its tables from ``__aenter__`` to ``__aexit__``: renews the lease in a task every
    third of it, and learns at once (``lockChanged``) when an admin or the lease sweeper ends it.

    Once lost, every call of the block raises ``LockLost``, and so does ``__aexit__`` if the
    block otherwise succeeded.
    """

    _block = "async with"

    def __init__(
        self,
        client: AsyncClient,
        tables: list[str],
        lease: int | None,
        wait: int | None,
        rows: list[str] | None = None,
    ) -> None:
        self._client = client
        self._tables = tables
        self._lease = lease
        self._wait = wait
        self._rows = rows
        self._state: HoldState | None = None
        self._signals = SignalGuard()
        self._renew_now = asyncio.Event()
        self._tasks: list[asyncio.Task[None]] = []
        self._released = False

    async def save_rows(self, changes: RowChanges, table: str | None = None) -> SaveResult:
        """Saves ``changes`` (inserts, updates, deletes: all or nothing) behind the table's token."""
        hold = self._hold
        table, token = hold.held(table)
        retry_for = hold.save_retry_for(table, self._client.retry_for)
        try:
            return await self._client._send(calls.save_rows(table, token, changes, retry_for))
        except TablelockError as error:
            hold.failed(table, error)
            raise

    async def import_file(
        self,
        path: str | Path,
        table: str | None = None,
        dry_run: bool = True,
        format: str | None = None,
    ) -> ImportReport:
        """Imports a CSV or XLSX file into the table: a dry run (kept for review) unless told not."""
        hold = self._hold
        table, token = hold.held(table)
        call = calls.import_rows(table, token, path, dry_run, format, self._client.retry_for)
        try:
            return await self._client._send(call)
        except TablelockError as error:
            hold.failed(table, error)
            raise

    async def submit_for_approval(
        self,
        changes: RowChanges | None = None,
        table: str | None = None,
        comment: str | None = None,
        import_dry_run_id: str | None = None,
        keep_editing: bool = False,
    ) -> SubmitResult:
        """Makes the changes (or an import's dry run) a change request for another person to
        approve. Once submitted, the table's lock waits with the request: this block renews
        and releases it no more."""
        hold = self._hold
        table, token = hold.held(table)
        hold.hand_over(table)
        try:
            result = await self._client._send(
                calls.submit(table, token, changes, import_dry_run_id, comment, keep_editing)
            )
        except BaseException as error:
            hold.handed_over(table, False)
            hold.failed(table, error)
            raise
        hold.handed_over(table, result.submitted)
        return result

    async def use_in(self, conn: psycopg.AsyncConnection[Any]) -> None:
        """Shows the lock to the database's write guard in ``conn``'s current transaction
        (``tablelock.use_lock`` for each table held); then write the tables in it and commit."""
        held = self._hold.in_hand()
        async with conn.cursor() as cursor:
            for table, token in held:
                await cursor.execute(USE_LOCK, (table, token))

    async def __aenter__(self) -> AsyncTableLock:
        acquire = calls.acquire(
            self._tables, self._lease, self._wait, self._client.retry_for, self._rows
        )
        try:
            tokens = await self._client._send(acquire)
        except TablelockError:
            raise
        except BaseException:
            # Cancelled while the answer was on its way: the grant may stand (see TableLock).
            await self._take_back(acquire)
            raise
        hold = self._state = HoldState(tokens, self._lease)
        # Granted: from here on, whatever stops the start (a cancel, a signal) releases what was
        # granted, as the block's end would.
        try:
            self._signals.install_async(asyncio.current_task())
            if hold.renewal_interval is not None:
                self._tasks.append(asyncio.create_task(self._renew()))
            self._tasks.append(
                asyncio.create_task(
                    watch_live(
                        self._client._endpoint,
                        calls.LOCK_CHANGED,
                        {"table": self._tables[0] if len(self._tables) == 1 else None},
                        lambda data: hold.saw_change(data.get("lockChanged") or {}),
                        # Changes made while the connection was down were not announced: a renewal tells.
                        lambda again: self._renew_now.set() if again else None,
                    )
                )
            )
        except BaseException as stopped:
            await self.__aexit__(type(stopped), stopped, stopped.__traceback__)
            raise
        return self

    async def _take_back(self, acquire: calls.Call[dict[str, str]]) -> None:
        """TableLock._take_back: the grant the first ask may have got, asked for and released."""
        again = dataclasses.replace(acquire, retry_for=0, read_timeout=TAKE_BACK_TIMEOUT)
        try:
            tokens = await self._client._send(again)
            for table, token in tokens.items():
                await self._client._send(calls.release(table, token, RELEASE_BEFORE_EXIT_RETRY))
        except BaseException:
            pass

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        ending = self._signals.received is not None or isinstance(exc, KeyboardInterrupt)
        try:
            failure = await self._release(RELEASE_BEFORE_EXIT_RETRY if ending else RELEASE_RETRY)
        finally:
            self._signals.uninstall()
        # The block's own failure is the one to report; the lease ends a lock the release missed.
        if exc is not None:
            return
        if self._hold.lost is not None:
            raise self._hold.lost
        if failure is not None:
            raise failure

    async def _release(self, retry_for: float) -> TablelockError | None:
        """Stops renewing and watching, and releases every table not lost or handed over."""
        if self._released:
            return None
        self._released = True
        for task in self._tasks:
            task.cancel()
        for task in self._tasks:
            with contextlib.suppress(asyncio.CancelledError):
                await task
        outcomes = await asyncio.gather(
            *(
                self._client._send(calls.release(table, token, retry_for))
                for table, token in self._hold.to_release()
            ),
            return_exceptions=True,
        )
        for outcome in outcomes:
            if isinstance(outcome, LockLost):
                continue
            if isinstance(outcome, BaseException):
                if isinstance(outcome, TablelockError):
                    return outcome
                raise outcome
        return None

    async def _renew(self) -> None:
        hold = self._hold
        while True:
            with contextlib.suppress(asyncio.TimeoutError):
                await asyncio.wait_for(self._renew_now.wait(), hold.renewal_interval)
            self._renew_now.clear()
            await asyncio.gather(
                *(self._renew_one(table, token, retry_for) for table, token, retry_for in hold.renewals_due())
            )

    async def _renew_one(self, table: str, token: str, retry_for: float) -> None:
        hold = self._hold
        sent_at = time.monotonic()
        try:
            await self._client._send(calls.renew(table, token, hold.lease or 0, retry_for))
        except TablelockError as error:
            hold.renewal_failed(table, error)
        else:
            hold.renewed(table, sent_at)
