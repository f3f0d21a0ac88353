"""Every error code of the API's SDL arrives as an exception that keeps the API's code and words."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import tablelock
from tablelock._transport import Data, Endpoint, Transient, read_answer

ERRORS_SDL = Path(__file__).parents[3] / "apps/api/src/graphql/schema/errors.graphql"

#: Codes a caller has no use branching on (the client's own mistakes): the generic class.
GENERIC = {
    "BAD_REQUEST",
    "PAYLOAD_TOO_LARGE",
    "GRAPHQL_PARSE_FAILED",
    "GRAPHQL_VALIDATION_FAILED",
    "PASSWORD_LOGIN_DISABLED",
    "TOO_MANY_SUBSCRIPTIONS",
}

EXPECTED = {
    "UNAUTHENTICATED": tablelock.Unauthenticated,
    "FORBIDDEN": tablelock.Forbidden,
    "BAD_USER_INPUT": tablelock.BadUserInput,
    "TOO_MANY_REQUESTS": tablelock.TooManyRequests,
    "TABLE_NOT_FOUND": tablelock.TableNotFound,
    "TABLE_PARTITIONED": tablelock.TablePartitioned,
    "TABLE_READ_ONLY": tablelock.TableReadOnly,
    "TABLE_FROZEN": tablelock.TableFrozen,
    "NOT_FOUND": tablelock.NotFound,
    "INVALID_TRANSITION": tablelock.InvalidTransition,
    "LOCK_CONFLICT": tablelock.LockConflict,
    "LOCK_WAIT_TIMEOUT": tablelock.LockWaitTimeout,
    "LOCK_LOST": tablelock.LockLost,
    "ALREADY_IN_LINE": tablelock.AlreadyInLine,
    "TOO_MANY_WAITERS": tablelock.TooManyWaiters,
    "IMPORT_TOO_LARGE": tablelock.ImportTooLarge,
    "IMPORT_BAD_FILE": tablelock.ImportBadFile,
    "IMPORT_NO_PRIMARY_KEY": tablelock.ImportNoPrimaryKey,
    "IMPORT_HAS_ERRORS": tablelock.ImportHasErrors,
    "IMPORT_ROWS_CHANGED": tablelock.ImportRowsChanged,
    "IMPORT_REJECTED": tablelock.ImportRejected,
    "APPROVAL_REQUIRED": tablelock.ApprovalRequired,
    "CHANGE_REQUEST_CLOSED": tablelock.ChangeRequestClosed,
    "CHANGE_REQUEST_ROWS_CHANGED": tablelock.ChangeRequestRowsChanged,
    "IDEMPOTENCY_KEY_REUSED": tablelock.IdempotencyKeyReused,
    "SERVICE_UNAVAILABLE": tablelock.ServiceUnavailable,
    "OUTCOME_UNKNOWN": tablelock.OutcomeUnknown,
    "INTERNAL_SERVER_ERROR": tablelock.InternalServerError,
}

ENDPOINT = Endpoint.of("http://api.test", "k")


def sdl_codes() -> list[str]:
    enum = re.search(r"enum ErrorCode \{(.*?)\n\}", ERRORS_SDL.read_text(), re.S)
    assert enum, f"no ErrorCode enum in {ERRORS_SDL}"
    return re.findall(r"^  ([A-Z_]+)$", enum.group(1), re.M)


def answer(code: str, message: str = "The API's words.", **extensions: object) -> str:
    import json

    return json.dumps(
        {"data": None, "errors": [{"message": message, "extensions": {"code": code, **extensions}}]}
    )


def test_the_sdl_codes_are_all_known_here() -> None:
    assert set(sdl_codes()) == set(EXPECTED) | GENERIC


@pytest.mark.parametrize("code", sorted(set(EXPECTED) | GENERIC))
def test_each_code_maps_to_its_exception(code: str) -> None:
    if code in ("SERVICE_UNAVAILABLE", "OUTCOME_UNKNOWN"):
        outcome = read_answer(ENDPOINT, 503, None, answer(code))
        assert isinstance(outcome, Transient)
        error: tablelock.TablelockError = outcome.error
    else:
        with pytest.raises(tablelock.TablelockError) as raised:
            read_answer(ENDPOINT, 200, None, answer(code))
        error = raised.value
    assert type(error) is EXPECTED.get(code, tablelock.TablelockError)
    assert error.code == code
    assert error.message == str(error) == "The API's words."
    assert error.extensions["code"] == code


def test_an_unknown_code_keeps_its_code() -> None:
    with pytest.raises(tablelock.TablelockError) as raised:
        read_answer(ENDPOINT, 200, None, answer("SOMETHING_NEW", "New."))
    assert type(raised.value) is tablelock.TablelockError
    assert raised.value.code == "SOMETHING_NEW"


def test_a_conflict_names_its_holders() -> None:
    blockers = [{"table": "suppliers", "editor": "alice"}]
    with pytest.raises(tablelock.LockConflict) as raised:
        read_answer(ENDPOINT, 200, None, answer("LOCK_CONFLICT", "Busy.", blockers=blockers))
    assert raised.value.holders == blockers
    assert isinstance(raised.value, tablelock.LockUnavailable)


def test_service_unavailable_says_when_to_come_back() -> None:
    outcome = read_answer(ENDPOINT, 503, None, answer("SERVICE_UNAVAILABLE", retryAfterSeconds=3))
    assert isinstance(outcome, Transient) and outcome.retry_after == 3.0


def test_gateway_failures_pass_and_other_statuses_do_not() -> None:
    for status in (502, 503, 504):
        outcome = read_answer(ENDPOINT, status, "2", "<html/>")
        assert isinstance(outcome, Transient)
        assert outcome.error.code == "NETWORK_ERROR" and outcome.retry_after == 2.0
    with pytest.raises(tablelock.NetworkError, match="HTTP 404"):
        read_answer(ENDPOINT, 404, None, "not found")


def test_data_is_data() -> None:
    assert read_answer(ENDPOINT, 200, None, '{"data": {"x": 1}}') == Data({"x": 1})
