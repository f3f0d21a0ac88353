"""Each API call as data: its operation, variables, how long it is retried, how its answer reads.

The sync and async clients send a ``Call`` the same way and hand its data to ``parse``; the
idempotency key is drawn here, once per call, so that every retry carries the same one.
"""

from __future__ import annotations

import base64
import math
import uuid
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Generic, TypeVar

from ._errors import NotFound
from ._types import (
    ChangeRequest,
    FeedEvent,
    ImportCounts,
    ImportReport,
    Row,
    RowChanges,
    RowError,
    RowFilter,
    RowSort,
    SaveResult,
    SubmitResult,
)

T = TypeVar("T")

#: Beyond a wait in line: how long an answer may take to come back.
ANSWER_TIMEOUT = 60.0


@dataclass(frozen=True)
class Call(Generic[T]):
    query: str
    variables: Mapping[str, Any]
    #: Seconds failures that may pass are retried.
    retry_for: float
    parse: Callable[[dict[str, Any]], T]
    #: Seconds to wait for the answer.
    read_timeout: float = ANSWER_TIMEOUT


def idempotency_key() -> str:
    return str(uuid.uuid4())


_ROW_ERRORS = "rowErrors { change index column code message }"

_REQUEST_OUTCOME = """
  id table state author decidedBy decidedAt decisionComment
  changedRows { action key code message }
  token
"""


def acquire(
    tables: Sequence[str],
    lease: int | None,
    wait: int | None,
    retry_for: float,
    rows: Sequence[str] | None = None,
) -> Call[dict[str, str]]:
    """One mutation for all tables, all or nothing: one idempotency key, so a retry after a
    lost answer gets the first answer's grant instead of acquiring again. ``rows``: a row scope
    of the one table (values of its row-lock column) instead of the whole table."""
    variables: dict[str, Any] = {
        "leaseSeconds": lease,
        "wait": wait,
        "idempotencyKey": idempotency_key(),
    }
    timeout = ANSWER_TIMEOUT + (wait or 0)
    # A retry may wait in line anew: the deadline makes room for a whole wait.
    retry = retry_for + (wait or 0)
    if len(tables) == 1:
        return Call(
            """mutation AcquireTableLock($table: String!, $leaseSeconds: Int, $wait: Int, $idempotencyKey: String, $rows: [String!]) {
  acquireTableLock(table: $table, leaseSeconds: $leaseSeconds, wait: $wait, idempotencyKey: $idempotencyKey, rows: $rows) { table token }
}""",
            {**variables, "table": tables[0], "rows": None if rows is None else list(rows)},
            retry,
            lambda data: {data["acquireTableLock"]["table"]: data["acquireTableLock"]["token"]},
            timeout,
        )
    return Call(
        """mutation AcquireTableLocks($tables: [String!]!, $leaseSeconds: Int, $wait: Int, $idempotencyKey: String) {
  acquireTableLocks(tables: $tables, leaseSeconds: $leaseSeconds, wait: $wait, idempotencyKey: $idempotencyKey) { table token }
}""",
        {**variables, "tables": list(tables)},
        retry,
        lambda data: {grant["table"]: grant["token"] for grant in data["acquireTableLocks"]},
        timeout,
    )


def renew(table: str, token: str, lease: int, retry_for: float) -> Call[None]:
    return Call(
        """mutation RenewTableLock($table: String!, $token: String!, $leaseSeconds: Int) {
  renewTableLock(table: $table, token: $token, leaseSeconds: $leaseSeconds) { token }
}""",
        {"table": table, "token": token, "leaseSeconds": lease},
        retry_for,
        lambda data: None,
    )


def release(table: str, token: str, retry_for: float) -> Call[None]:
    return Call(
        """mutation ReleaseTableLock($table: String!, $token: String!, $idempotencyKey: String) {
  releaseTableLock(table: $table, token: $token, idempotencyKey: $idempotencyKey) { name status }
}""",
        {"table": table, "token": token, "idempotencyKey": idempotency_key()},
        retry_for,
        lambda data: None,
    )


def save_rows(table: str, token: str, changes: RowChanges, retry_for: float) -> Call[SaveResult]:
    return Call(
        f"""mutation SaveRows($table: String!, $token: String!, $changes: RowChanges!, $idempotencyKey: String) {{
  saveRows(table: $table, token: $token, changes: $changes, idempotencyKey: $idempotencyKey) {{
    saved inserted updated deleted {_ROW_ERRORS}
  }}
}}""",
        {"table": table, "token": token, "changes": changes, "idempotencyKey": idempotency_key()},
        retry_for,
        lambda data: _save_result(data["saveRows"]),
    )


#: The import formats by file suffix.
IMPORT_FORMATS = {".csv": "CSV", ".xlsx": "XLSX"}


def import_rows(
    table: str,
    token: str,
    path: str | Path,
    dry_run: bool,
    format: str | None,
    retry_for: float,
) -> Call[ImportReport]:
    """importRows has no idempotency key; it is retried all the same, as it matches rows by key:
    a file imported twice finds its rows unchanged the second time."""
    file = Path(path)
    kind = (format or IMPORT_FORMATS.get(file.suffix.lower(), "")).upper()
    if kind not in IMPORT_FORMATS.values():
        raise ValueError(f"{file.name}: say format='CSV' or 'XLSX' (or name it .csv / .xlsx).")
    return Call(
        """mutation ImportRows($table: String!, $token: String!, $fileName: String!, $format: ImportFormat!, $contentBase64: String!, $dryRun: Boolean) {
  importRows(table: $table, token: $token, fileName: $fileName, format: $format, contentBase64: $contentBase64, dryRun: $dryRun) {
    id table applied counts { create update unchanged error total }
  }
}""",
        {
            "table": table,
            "token": token,
            "fileName": file.name,
            "format": kind,
            "contentBase64": base64.b64encode(file.read_bytes()).decode("ascii"),
            "dryRun": dry_run,
        },
        retry_for,
        lambda data: _import_report(data["importRows"]),
    )


def submit(
    table: str,
    token: str,
    changes: RowChanges | None,
    import_dry_run_id: str | None,
    comment: str | None,
    keep_editing: bool,
) -> Call[SubmitResult]:
    """Sent once: sent again after a lost answer, it would find the lock moved to the request."""
    return Call(
        f"""mutation SubmitChangeRequest($table: String!, $token: String!, $changes: RowChanges, $importDryRunId: ID, $comment: String, $keepEditing: Boolean) {{
  submitChangeRequest(table: $table, token: $token, changes: $changes, importDryRunId: $importDryRunId, comment: $comment, keepEditing: $keepEditing) {{
    submitted request {{ {_REQUEST_OUTCOME} }} {_ROW_ERRORS}
  }}
}}""",
        {
            "table": table,
            "token": token,
            "changes": changes,
            "importDryRunId": import_dry_run_id,
            "comment": comment,
            "keepEditing": keep_editing,
        },
        0.0,
        lambda data: _submit_result(data["submitChangeRequest"]),
    )


def rows_page(
    table: str,
    page_size: int,
    filters: Sequence[RowFilter] | None,
    sort: Sequence[RowSort] | None,
    after: str | None,
    retry_for: float,
) -> Call[tuple[list[Row], str | None]]:
    """A page of rows and the cursor of the next one (None after the last page)."""

    def parse(data: dict[str, Any]) -> tuple[list[Row], str | None]:
        page = data["rows"]
        rows: list[Row] = page["rows"]
        more = len(rows) >= page_size and page["endCursor"] is not None
        return rows, page["endCursor"] if more else None

    return Call(
        """query Rows($table: String!, $limit: Int, $sort: [RowSort!], $filter: [RowFilter!], $after: String) {
  rows(table: $table, limit: $limit, sort: $sort, filter: $filter, after: $after) {
    rows { key version values } endCursor
  }
}""",
        {
            "table": table,
            "limit": page_size,
            "sort": list(sort) if sort is not None else None,
            "filter": list(filters) if filters is not None else None,
            "after": after,
        },
        retry_for,
        parse,
    )


def change_feed(
    after: str | None,
    page_size: int,
    tables: Sequence[str] | None,
    types: Sequence[str] | None,
    retry_for: float,
) -> Call[tuple[list[FeedEvent], str]]:
    """A page of the change feed and the cursor to read on from."""
    return Call(
        """query ChangeFeed($after: String, $first: Int, $tables: [String!], $types: [String!]) {
  changeFeed(after: $after, first: $first, tables: $tables, types: $types) {
    events { id table type at data cursor } endCursor
  }
}""",
        {
            "after": after,
            "first": page_size,
            "tables": list(tables) if tables is not None else None,
            "types": list(types) if types is not None else None,
        },
        retry_for,
        lambda data: (data["changeFeed"]["events"], data["changeFeed"]["endCursor"]),
    )


def change_request(request_id: str, retry_for: float) -> Call[ChangeRequest | None]:
    return Call(
        f"""query ChangeRequest($id: ID!) {{ changeRequest(id: $id) {{ {_REQUEST_OUTCOME} }} }}""",
        {"id": request_id},
        retry_for,
        lambda data: change_request_of(data["changeRequest"]),
    )


LOCK_CHANGED = """subscription LockChanged($table: String) {
  lockChanged(table: $table) { action table actor editor token reason }
}"""

CHANGE_REQUEST_CHANGED = f"""subscription ChangeRequestChanged($table: String) {{
  changeRequestChanged(table: $table) {{ {_REQUEST_OUTCOME} }}
}}"""


def _row_errors(items: list[dict[str, Any]]) -> list[RowError]:
    return [
        RowError(item["change"], item["index"], item.get("column"), item["code"], item["message"])
        for item in items
    ]


def _save_result(answer: dict[str, Any]) -> SaveResult:
    return SaveResult(
        answer["saved"],
        answer["inserted"],
        answer["updated"],
        answer["deleted"],
        _row_errors(answer["rowErrors"]),
    )


def _import_report(answer: dict[str, Any]) -> ImportReport:
    counts = answer["counts"]
    return ImportReport(
        answer["id"],
        answer["table"],
        answer["applied"],
        ImportCounts(
            counts["create"], counts["update"], counts["unchanged"], counts["error"], counts["total"]
        ),
    )


def change_request_of(answer: dict[str, Any] | None) -> ChangeRequest | None:
    if answer is None:
        return None
    return ChangeRequest(
        answer["id"],
        answer["table"],
        answer["state"],
        answer["author"],
        answer.get("decidedBy"),
        answer.get("decidedAt"),
        answer.get("decisionComment"),
        answer.get("changedRows") or [],
        answer.get("token"),
    )


def _submit_result(answer: dict[str, Any]) -> SubmitResult:
    return SubmitResult(
        answer["submitted"],
        change_request_of(answer.get("request")),
        _row_errors(answer["rowErrors"]),
    )


def lock_arguments(
    tables: str | Sequence[str],
    lease: float | None,
    wait: float | None,
    rows: Sequence[str] | None,
) -> tuple[list[str], int | None, int | None, list[str] | None]:
    """``table_lock``'s arguments as the API takes them: whole seconds, rounded up; a row scope
    as a list of values, of one table only."""
    names = [tables] if isinstance(tables, str) else list(tables)
    if not names:
        raise ValueError("table_lock needs at least one table.")
    if rows is not None and (isinstance(rows, str) or len(names) != 1):
        raise TypeError("rows: a list of values of the row-lock column of one table.")
    return (
        names,
        None if lease is None else math.ceil(lease),
        None if wait is None else math.ceil(wait),
        None if rows is None else [str(value) for value in rows],
    )


def decided_in(event: dict[str, Any], request_id: str) -> bool:
    """Whether a ``changeRequestChanged`` event says request ``request_id`` is decided.

    News, not the answer: the caller reads the request, which the API answers once durable.
    """
    request = event.get("changeRequestChanged")
    return (
        isinstance(request, dict)
        and request.get("id") == request_id
        and request.get("state") != "pending"
    )


def unknown_request(request_id: str) -> NotFound:
    return NotFound("NOT_FOUND", f"No change request has the id {request_id}.")
