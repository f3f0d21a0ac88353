"""What a lock block knows about the tables it holds: tokens, leases, losses and hand-overs.

No I/O: the sync and async lock blocks feed it what their renewals, saves and the live
``lockChanged`` events answer, and ask it what to renew, how long to retry, what to release.
It is called from the renewal and live threads as well as the block's, hence the mutex.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Mapping
from typing import Any

from ._errors import LockLost, TablelockError


def ends_acquisition(change: Mapping[str, Any], token: str) -> bool:
    """Whether a ``lockChanged`` event ends the acquisition under ``token``."""
    action = change.get("action")
    changed = change.get("token")
    if action in ("release", "expire", "force_release"):
        return changed == token
    # A take-over is a newer acquisition that displaces the current one.
    if action == "take_over" and isinstance(changed, str):
        try:
            return int(changed) > int(token)
        except ValueError:
            return False
    return False


def lost_lock_error(change: Mapping[str, Any]) -> LockLost:
    """The LOCK_LOST for an event that ended the caller's lock, worded as the API words it."""
    table, actor, reason = change.get("table"), change.get("actor"), change.get("reason")
    because = f" (reason: {reason})" if reason else ""
    action = change.get("action")
    if action == "expire":
        how = f"your lock on {table} expired: its lease ran out without renewal"
    elif action == "force_release":
        how = f"{actor} force-released your lock on {table}{because}"
    elif action == "take_over":
        how = f"{actor} took over {table}{because}"
    else:
        how = f"your lock on {table} was released by {actor}"
    return LockLost(
        "LOCK_LOST",
        f"You no longer hold the lock: {how}.",
        {"code": "LOCK_LOST", "table": table, "action": action, "actor": actor, "reason": reason},
    )


class HoldState:
    """The tables of one lock block, from the grant to the release."""

    def __init__(
        self,
        tokens: Mapping[str, str],
        lease: int | None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.tokens: dict[str, str] = dict(tokens)
        self.lease = lease
        self.lost: LockLost | None = None
        self._clock = clock
        self._mutex = threading.Lock()
        self._lost_tables: set[str] = set()
        # Tables whose lock went (or is going) to a change request: neither lost nor released here.
        self._handed_over: set[str] = set()
        now = clock()
        # By the local clock, and late by the acquisition's round trip: only for giving up.
        self._lease_ends = {table: now + lease for table in tokens} if lease else {}
        self._renewing = dict(tokens) if lease else {}
        self._lost_listeners: list[Callable[[LockLost], None]] = []

    @property
    def renewal_interval(self) -> float | None:
        """A third of the lease: two renewals may fail before it runs out."""
        return self.lease / 3 if self.lease else None

    def on_lost(self, listener: Callable[[LockLost], None]) -> None:
        """Calls ``listener`` once, when the lock is first lost (at once if it is already)."""
        with self._mutex:
            lost = self.lost
            if lost is None:
                self._lost_listeners.append(listener)
        if lost is not None:
            listener(lost)

    def check(self) -> None:
        if self.lost is not None:
            raise self.lost

    def held(self, table: str | None) -> tuple[str, str]:
        """The table meant (``None``: the only one held) and its token; the lock must not be lost."""
        self.check()
        if table is None:
            if len(self.tokens) != 1:
                raise ValueError(f"This lock holds {', '.join(self.tokens)}: say which table.")
            table = next(iter(self.tokens))
        token = self.tokens.get(table)
        if token is None or table in self._handed_over:
            raise ValueError(f"{table} is not held by this lock ({', '.join(self.tokens)}).")
        return table, token

    def in_hand(self) -> list[tuple[str, str]]:
        """(table, token) of every table the block may write; the lock must not be lost."""
        self.check()
        with self._mutex:
            return [(t, token) for t, token in self.tokens.items() if t not in self._handed_over]

    def lose(self, table: str, error: LockLost) -> None:
        with self._mutex:
            if table in self._handed_over or table in self._lost_tables:
                return
            self._lost_tables.add(table)
            self._renewing.pop(table, None)
            first = self.lost is None
            if first:
                self.lost = error
            listeners, self._lost_listeners = self._lost_listeners, []
        for listener in listeners:
            listener(error)

    def saw_change(self, change: Mapping[str, Any]) -> None:
        """A ``lockChanged`` event: the lock is lost if it ended this block's acquisition."""
        table = change.get("table")
        token = self.tokens.get(table) if isinstance(table, str) else None
        if token is not None and isinstance(table, str) and ends_acquisition(change, token):
            self.lose(table, lost_lock_error(change))

    def failed(self, table: str, error: BaseException) -> None:
        """A save's or submission's failure: LOCK_LOST there loses the lock."""
        if isinstance(error, LockLost):
            self.lose(table, error)

    def renewals_due(self) -> list[tuple[str, str, float]]:
        """(table, token, seconds its renewal may be retried: until the lease ends)."""
        with self._mutex:
            now = self._clock()
            return [
                (table, token, self._lease_ends[table] - now)
                for table, token in self._renewing.items()
            ]

    def renewed(self, table: str, sent_at: float) -> None:
        if self.lease:
            with self._mutex:
                self._lease_ends[table] = sent_at + self.lease

    def renewal_failed(self, table: str, error: TablelockError) -> None:
        """LOCK_LOST is a loss; anything else only once no renewal can come before the lease ends."""
        if isinstance(error, LockLost):
            self.lose(table, error)
            return
        interval = self.renewal_interval or 0.0
        if self._clock() + interval < self._lease_ends.get(table, 0.0):
            return
        lost = LockLost(
            "LOCK_LOST",
            f"Could not renew the lock on {table} before its lease ran out: {error}",
            {"code": "LOCK_LOST", "table": table},
        )
        lost.__cause__ = error
        self.lose(table, lost)

    def save_retry_for(self, table: str, retry_for: float) -> float:
        """At least ``retry_for``; longer while the lease outlasts it (the lock is still ours)."""
        lease_end = self._lease_ends.get(table)
        return max(retry_for, lease_end - self._clock()) if lease_end is not None else retry_for

    def hand_over(self, table: str) -> None:
        """From the moment a submission is sent: a renewal that meets the moved lock is no loss."""
        with self._mutex:
            self._handed_over.add(table)

    def handed_over(self, table: str, submitted: bool) -> None:
        with self._mutex:
            if submitted:
                self._renewing.pop(table, None)
            else:
                self._handed_over.discard(table)

    def to_release(self) -> list[tuple[str, str]]:
        with self._mutex:
            self._renewing.clear()
            return [
                (table, token)
                for table, token in self.tokens.items()
                if table not in self._lost_tables and table not in self._handed_over
            ]


class HeldLock:
    """What a lock block shows of its hold, sync and async alike: the tokens, whether it is lost."""

    _state: HoldState | None
    #: How the block is written, for the error when the lock is used outside it.
    _block = "with"

    @property
    def tokens(self) -> dict[str, str]:
        """The fencing token of each table held, by table name."""
        return dict(self._hold.tokens)

    @property
    def lost(self) -> LockLost | None:
        """Why the lock was lost (force release, take-over, expiry), or None while it is held."""
        return self._hold.lost

    def check(self) -> None:
        """Raises ``LockLost`` if the lock was lost."""
        self._hold.check()

    @property
    def _hold(self) -> HoldState:
        if self._state is None:
            raise RuntimeError(f"Use the lock inside its {self._block} block.")
        return self._state
