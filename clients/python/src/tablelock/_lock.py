"""``with client.table_lock(...) as lock``: tables held while a block runs (sync)."""

from __future__ import annotations

import dataclasses
import threading
import time
from pathlib import Path
from types import TracebackType
from typing import TYPE_CHECKING, Any

from . import _calls as calls
from ._errors import LockLost, TablelockError
from ._hold import HeldLock, HoldState
from ._live import LiveThread
from ._retry import Stopped
from ._signals import SignalGuard, Terminated
from ._types import ImportReport, RowChanges, SaveResult, SubmitResult

if TYPE_CHECKING:
    import psycopg

    from ._sync_client import Client

#: How long a release is retried while the API cannot be reached.
RELEASE_RETRY = 30.0
#: The same when the process is about to end: it should not linger for long.
RELEASE_BEFORE_EXIT_RETRY = 5.0
#: How long the acquisition asked again after a stop waits for its answer (see _take_back).
TAKE_BACK_TIMEOUT = 2.0

USE_LOCK = "SELECT tablelock.use_lock(%s, %s)"


class TableLock(HeldLock):
    """Holds its tables from ``__enter__`` to ``__exit__``: renews the lease in a thread every
    third of it, and learns at once (``lockChanged``) when an admin or the lease sweeper ends it.

    Once lost, every call of the block raises ``LockLost``, and so does ``__exit__`` if the
    block otherwise succeeded.
    """

    def __init__(
        self,
        client: Client,
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
        self._stopped = threading.Event()
        self._renew_now = threading.Event()
        self._renewals: threading.Thread | None = None
        self._live: LiveThread | None = None
        self._released = False

    def save_rows(self, changes: RowChanges, table: str | None = None) -> SaveResult:
        """Saves ``changes`` (inserts, updates, deletes: all or nothing) behind the table's token."""
        hold = self._hold
        table, token = hold.held(table)
        retry_for = hold.save_retry_for(table, self._client.retry_for)
        try:
            return self._client._send(calls.save_rows(table, token, changes, retry_for))
        except TablelockError as error:
            hold.failed(table, error)
            raise

    def import_file(
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
            return self._client._send(call)
        except TablelockError as error:
            hold.failed(table, error)
            raise

    def submit_for_approval(
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
            result = self._client._send(
                calls.submit(table, token, changes, import_dry_run_id, comment, keep_editing)
            )
        except BaseException as error:
            hold.handed_over(table, False)
            hold.failed(table, error)
            raise
        hold.handed_over(table, result.submitted)
        return result

    def use_in(self, conn: psycopg.Connection[Any]) -> None:
        """Shows the lock to the database's write guard in ``conn``'s current transaction
        (``tablelock.use_lock`` for each table held); then write the tables in it and commit."""
        held = self._hold.in_hand()
        with conn.cursor() as cursor:
            for table, token in held:
                cursor.execute(USE_LOCK, (table, token))

    def __enter__(self) -> TableLock:
        acquire = calls.acquire(
            self._tables, self._lease, self._wait, self._client.retry_for, self._rows
        )
        try:
            tokens = self._client._send(acquire)
        except TablelockError:
            raise
        except BaseException:
            # Stopped while the answer was on its way (SIGTERM to the command line as the API
            # granted): the grant may stand, with nobody to release it until its lease ends.
            self._take_back(acquire)
            raise
        hold = self._state = HoldState(tokens, self._lease)
        # Granted: from here on, whatever stops the start (a signal, say SIGTERM to the command
        # line just after its grant) releases what was granted, as the block's end would.
        try:
            self._signals.install()
            if hold.renewal_interval is not None:
                self._renewals = threading.Thread(
                    target=self._renew, name="tablelock-renewals", daemon=True
                )
                self._renewals.start()
            self._live = LiveThread(
                self._client._endpoint,
                calls.LOCK_CHANGED,
                {"table": self._tables[0] if len(self._tables) == 1 else None},
                lambda data: hold.saw_change(data.get("lockChanged") or {}),
                # Changes made while the connection was down were not announced: a renewal tells.
                lambda again: self._renew_now.set() if again else None,
            )
            self._live.start()
        except BaseException as stopped:
            self.__exit__(type(stopped), stopped, stopped.__traceback__)
            raise
        return self

    def _take_back(self, acquire: calls.Call[dict[str, str]]) -> None:
        """Asks once more with the acquisition's key, briefly: a grant the first ask got comes
        back as its answer (a refusal or a first ask that never arrived grants nothing or
        anew) and is released. Anything that stops this ends it: it is only a courtesy."""
        again = dataclasses.replace(acquire, retry_for=0, read_timeout=TAKE_BACK_TIMEOUT)
        try:
            tokens = self._client._send(again)
            for table, token in tokens.items():
                self._client._send(calls.release(table, token, RELEASE_BEFORE_EXIT_RETRY))
        except BaseException:
            pass

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        ending = isinstance(exc, (KeyboardInterrupt, Terminated))
        try:
            failure = self._release(RELEASE_BEFORE_EXIT_RETRY if ending else RELEASE_RETRY)
        finally:
            self._signals.uninstall()
        # The block's own failure is the one to report; the lease ends a lock the release missed.
        if exc is not None:
            return
        if self._hold.lost is not None:
            raise self._hold.lost
        if failure is not None:
            raise failure

    def _release(self, retry_for: float) -> TablelockError | None:
        """Stops renewing and watching, and releases every table not lost or handed over."""
        if self._released:
            return None
        self._released = True
        self._stopped.set()
        self._renew_now.set()
        if self._live is not None:
            self._live.stop()
        failure: TablelockError | None = None
        for table, token in self._hold.to_release():
            try:
                self._client._send(calls.release(table, token, retry_for))
            except LockLost:
                continue
            except TablelockError as error:
                failure = failure or error
        return failure

    def _renew(self) -> None:
        hold = self._hold
        interval = hold.renewal_interval
        while not self._stopped.is_set():
            self._renew_now.wait(interval)
            self._renew_now.clear()
            for table, token, retry_for in hold.renewals_due():
                if self._stopped.is_set():
                    return
                sent_at = time.monotonic()
                call = calls.renew(table, token, hold.lease or 0, retry_for)
                try:
                    self._client._send(call, self._stopped)
                except Stopped:
                    return
                except Exception as error:
                    # A renewal in flight at the release is abandoned, whatever it answers.
                    if self._stopped.is_set():
                        return
                    if not isinstance(error, TablelockError):
                        raise
                    hold.renewal_failed(table, error)
                else:
                    hold.renewed(table, sent_at)
