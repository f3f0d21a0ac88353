"""What the calls take and give, as the API's GraphQL types have them."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal, TypedDict


class RowInsert(TypedDict):
    #: Column values as text (None for NULL); columns left out get their default.
    values: dict[str, str | None]


class RowUpdate(TypedDict):
    #: The primary key, as ``rows`` returns it.
    key: dict[str, Any]
    #: The version read (a save naming an older one is a ROW_CONFLICT).
    version: str
    #: Only the changed columns.
    values: dict[str, str | None]


class RowDelete(TypedDict):
    key: dict[str, Any]
    version: str


class RowChanges(TypedDict, total=False):
    """The GraphQL input ``RowChanges``: saved all or nothing."""

    inserts: list[RowInsert]
    updates: list[RowUpdate]
    deletes: list[RowDelete]


class Row(TypedDict):
    """A row as read: ``values`` maps column names to values as text (None for NULL)."""

    key: dict[str, Any]
    version: str
    values: dict[str, str | None]


class RowSort(TypedDict):
    column: str
    direction: Literal["asc", "desc"]


class _FilteredColumn(TypedDict):
    column: str
    #: equals, notEquals, contains, startsWith, lessThan, ..., isNull, isNotNull.
    operator: str


class RowFilter(_FilteredColumn, total=False):
    #: Compared as the column's type; not used by isNull / isNotNull.
    value: str | None


class FeedEvent(TypedDict):
    """One event of the change feed; pass ``cursor`` as ``after`` to read on after it."""

    id: str
    table: str
    type: str
    at: str
    data: dict[str, Any] | None
    cursor: str


@dataclass(frozen=True)
class RowError:
    """Why one change could not be saved; ``index`` is its position in its list of changes."""

    change: str
    index: int
    column: str | None
    code: str
    message: str


@dataclass(frozen=True)
class SaveResult:
    """What a save did: all or nothing; ``row_errors`` say why not (ROW_CONFLICT, NOT_NULL, ...)."""

    saved: bool
    inserted: int
    updated: int
    deleted: int
    row_errors: list[RowError] = field(default_factory=list)


@dataclass(frozen=True)
class ImportCounts:
    create: int
    update: int
    unchanged: int
    error: int
    total: int


@dataclass(frozen=True)
class ImportReport:
    """What a file does (a dry run, kept for ``applyImport``) or did (``applied``) to a table."""

    id: str
    table: str
    applied: bool
    counts: ImportCounts


@dataclass(frozen=True)
class ChangeRequest:
    """A change request, as submitted or as its decision left it."""

    id: str
    table: str
    #: pending, applied, rejected, sent_back or withdrawn.
    state: str
    author: str
    decided_by: str | None
    decided_at: str | None
    decision_comment: str | None
    changed_rows: list[dict[str, Any]]
    #: For its author: the lock's token when the lock came back to them (keep_editing).
    token: str | None


@dataclass(frozen=True)
class SubmitResult:
    """``submitted`` with the request (wait for it with ``wait_for_decision``); else the row errors."""

    submitted: bool
    request: ChangeRequest | None
    row_errors: list[RowError] = field(default_factory=list)

    @property
    def request_id(self) -> str | None:
        return self.request.id if self.request else None
