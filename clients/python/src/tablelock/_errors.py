"""The API's refusals as exceptions, one class per ``extensions.code`` a caller branches on."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, TypedDict


class Holder(TypedDict):
    """A table in the way and who edits it (``extensions.blockers``)."""

    table: str
    editor: str | None


class TablelockError(Exception):
    """A refusal by the API, or no answer from it (``NETWORK_ERROR``); ``code`` says which.

    ``str(error)`` is the API's own sentence. Codes without a class of their own (``BAD_REQUEST``,
    ``GRAPHQL_VALIDATION_FAILED``, ... and codes newer than this client) arrive as this class,
    their code kept.
    """

    code: str
    message: str
    extensions: dict[str, Any]
    path: tuple[str | int, ...] | None

    def __init__(
        self,
        code: str,
        message: str,
        extensions: Mapping[str, Any] | None = None,
        path: Sequence[str | int] | None = None,
    ) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.extensions = dict(extensions) if extensions is not None else {"code": code}
        self.path = tuple(path) if path is not None else None

    def __str__(self) -> str:
        return self.message

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.code!r}, {self.message!r})"


class Unauthenticated(TablelockError):
    """UNAUTHENTICATED: no valid API key or session (a revoked key, a typo)."""


class Forbidden(TablelockError):
    """FORBIDDEN: the key's role, or the table's policy, does not allow it."""


class BadUserInput(TablelockError):
    """BAD_USER_INPUT: an argument is malformed or out of range (a lease of 5 s); nothing changed."""


class TooManyRequests(TablelockError):
    """TOO_MANY_REQUESTS: ``retry_after`` seconds, as the API asks."""

    @property
    def retry_after(self) -> float | None:
        return _seconds(self.extensions.get("retryAfterSeconds"))


class TableNotFound(TablelockError):
    """TABLE_NOT_FOUND: no master table has that name."""


class TablePartitioned(TablelockError):
    """TABLE_PARTITIONED: tablelock neither locks nor guards partitioned tables."""


class TableReadOnly(TablelockError):
    """TABLE_READ_ONLY: the table's policy leaves it out of editing."""


class TableFrozen(TablelockError):
    """TABLE_FROZEN: an admin froze the table; ``extensions["reason"]`` says why."""


class NotFound(TablelockError):
    """NOT_FOUND: no such thing (a change request, an import dry run)."""


class InvalidTransition(TablelockError):
    """INVALID_TRANSITION: the lock is not in a state that allows it."""


class LockUnavailable(TablelockError):
    """The lock could not be had now; ``holders`` are the tables in the way and who edits them."""

    @property
    def holders(self) -> list[Holder]:
        blockers = self.extensions.get("blockers")
        return list(blockers) if isinstance(blockers, list) else []


class LockConflict(LockUnavailable):
    """LOCK_CONFLICT: someone holds a table (or an FK target) it needs."""


class LockWaitTimeout(LockUnavailable):
    """LOCK_WAIT_TIMEOUT: waited ``wait`` seconds in line and the tables were still not free."""


class AlreadyInLine(LockUnavailable):
    """ALREADY_IN_LINE: this key waits in line for the table already."""


class TooManyWaiters(LockUnavailable):
    """TOO_MANY_WAITERS: this key holds as many places in line as it may."""


class LockLost(TablelockError):
    """LOCK_LOST: the lock is no longer the caller's (released, expired, force-released, taken over)."""


class ImportRefused(TablelockError):
    """An import file that cannot be imported as it is; the subclass says why."""


class ImportTooLarge(ImportRefused):
    """IMPORT_TOO_LARGE: over 20 MB or 100,000 rows."""


class ImportBadFile(ImportRefused):
    """IMPORT_BAD_FILE: not CSV (UTF-8) or XLSX, or a header naming unknown columns."""


class ImportNoPrimaryKey(ImportRefused):
    """IMPORT_NO_PRIMARY_KEY: file rows cannot be matched to a table without a primary key."""


class ImportHasErrors(ImportRefused):
    """IMPORT_HAS_ERRORS: some rows have errors (see the dry run); nothing was written."""


class ImportRowsChanged(ImportRefused):
    """IMPORT_ROWS_CHANGED: rows changed since the dry run (``extensions["rows"]``)."""


class ImportRejected(ImportRefused):
    """IMPORT_REJECTED: the database refused the import as a whole (a CHECK, a UNIQUE)."""


class ApprovalRequired(TablelockError):
    """APPROVAL_REQUIRED: the table needs four eyes; use ``lock.submit_for_approval``."""


class ChangeRequestClosed(TablelockError):
    """CHANGE_REQUEST_CLOSED: the request is no longer pending (``extensions["state"]``)."""


class ChangeRequestRowsChanged(TablelockError):
    """CHANGE_REQUEST_ROWS_CHANGED: rows changed since submission; the request went back."""


class IdempotencyKeyReused(TablelockError):
    """IDEMPOTENCY_KEY_REUSED: the key was used before for a different request."""


class ServiceUnavailable(TablelockError):
    """SERVICE_UNAVAILABLE: the database is away (raised once the retries ran out)."""

    @property
    def retry_after(self) -> float | None:
        return _seconds(self.extensions.get("retryAfterSeconds"))


class OutcomeUnknown(TablelockError):
    """OUTCOME_UNKNOWN: the database may not have kept the change (after every retry)."""


class InternalServerError(TablelockError):
    """INTERNAL_SERVER_ERROR: a bug of the API; its log has ``extensions["requestId"]``."""


class NetworkError(TablelockError):
    """NETWORK_ERROR (the client's own code): no GraphQL answer, through every retry.

    The connection's own exception is its ``__cause__``.
    """


_CLASS_OF_CODE: dict[str, type[TablelockError]] = {
    "UNAUTHENTICATED": Unauthenticated,
    "FORBIDDEN": Forbidden,
    "BAD_USER_INPUT": BadUserInput,
    "TOO_MANY_REQUESTS": TooManyRequests,
    "TABLE_NOT_FOUND": TableNotFound,
    "TABLE_PARTITIONED": TablePartitioned,
    "TABLE_READ_ONLY": TableReadOnly,
    "TABLE_FROZEN": TableFrozen,
    "NOT_FOUND": NotFound,
    "INVALID_TRANSITION": InvalidTransition,
    "LOCK_CONFLICT": LockConflict,
    "LOCK_WAIT_TIMEOUT": LockWaitTimeout,
    "LOCK_LOST": LockLost,
    "ALREADY_IN_LINE": AlreadyInLine,
    "TOO_MANY_WAITERS": TooManyWaiters,
    "IMPORT_TOO_LARGE": ImportTooLarge,
    "IMPORT_BAD_FILE": ImportBadFile,
    "IMPORT_NO_PRIMARY_KEY": ImportNoPrimaryKey,
    "IMPORT_HAS_ERRORS": ImportHasErrors,
    "IMPORT_ROWS_CHANGED": ImportRowsChanged,
    "IMPORT_REJECTED": ImportRejected,
    "APPROVAL_REQUIRED": ApprovalRequired,
    "CHANGE_REQUEST_CLOSED": ChangeRequestClosed,
    "CHANGE_REQUEST_ROWS_CHANGED": ChangeRequestRowsChanged,
    "IDEMPOTENCY_KEY_REUSED": IdempotencyKeyReused,
    "SERVICE_UNAVAILABLE": ServiceUnavailable,
    "OUTCOME_UNKNOWN": OutcomeUnknown,
    "INTERNAL_SERVER_ERROR": InternalServerError,
    "NETWORK_ERROR": NetworkError,
}


def error_of(
    code: str,
    message: str,
    extensions: Mapping[str, Any] | None = None,
    path: Sequence[str | int] | None = None,
) -> TablelockError:
    """The exception for an error with ``code``: its own class, or TablelockError keeping the code."""
    return _CLASS_OF_CODE.get(code, TablelockError)(code, message, extensions, path)


def _seconds(value: object) -> float | None:
    return float(value) if isinstance(value, (int, float)) and not isinstance(value, bool) else None
