"""The retry loop against a real local HTTP server that fails the first requests."""

from __future__ import annotations

import asyncio
import json
import time

import pytest

import tablelock
from conftest import FakeApi

OUTCOME_UNKNOWN = (
    503,
    {"errors": [{"message": "The outcome is unknown.", "extensions": {"code": "OUTCOME_UNKNOWN"}}]},
)
UNAVAILABLE = (
    503,
    {
        "errors": [
            {
                "message": "The database cannot be reached.",
                "extensions": {"code": "SERVICE_UNAVAILABLE", "retryAfterSeconds": 0.1},
            }
        ]
    },
)
BAD_GATEWAY = (502, b"<html>bad gateway</html>")
GRANT = (200, {"data": {"acquireTableLock": {"table": "products", "token": "42"}}})
RELEASED = (200, {"data": {"releaseTableLock": {"name": "products", "status": "normal"}}})
SAVED = (
    200,
    {"data": {"saveRows": {"saved": True, "inserted": 1, "updated": 0, "deleted": 0, "rowErrors": []}}},
)
ROWS = (200, {"data": {"rows": {"rows": [{"key": {"id": "1"}, "version": "7", "values": {}}], "endCursor": "c1"}}})


def test_an_acquisition_is_retried_with_the_same_key_and_body(fake_api: FakeApi) -> None:
    fake_api.script.play("drop", OUTCOME_UNKNOWN, BAD_GATEWAY, GRANT)
    client = tablelock.Client(fake_api.url, api_key="k", retry_for=10)
    lock = client.table_lock("products", lease=None)
    with lock:
        assert lock.tokens == {"products": "42"}
        acquisitions = fake_api.script.bodies[:4]
        assert len(set(acquisitions)) == 1
        keys = {request["variables"]["idempotencyKey"] for request in fake_api.script.requests}
        assert len(keys) == 1 and len(next(iter(keys))) == 36
        assert fake_api.script.headers[0]["authorization"] == "Bearer k"

        fake_api.script.play(UNAVAILABLE, "drop", SAVED)
        result = lock.save_rows({"inserts": [{"values": {"name": "x"}}]})
        assert result == tablelock.SaveResult(True, 1, 0, 0, [])
        saves = fake_api.script.requests
        assert len(saves) == 3
        assert len({save["variables"]["idempotencyKey"] for save in saves}) == 1
        fake_api.script.play(RELEASED)
    release = fake_api.script.requests[0]
    assert "releaseTableLock" in release["query"]
    assert release["variables"]["token"] == "42"
    client.close()


def test_each_call_draws_its_own_key(fake_api: FakeApi) -> None:
    fake_api.script.play(GRANT)
    with tablelock.Client(fake_api.url, api_key="k") as client:
        with client.table_lock("products", lease=None) as lock:
            fake_api.script.play(SAVED)
            lock.save_rows({})
            lock.save_rows({})
            fake_api.script.play(RELEASED)
    keys = [json.loads(body)["variables"]["idempotencyKey"] for body in fake_api.script.bodies]
    assert len(keys) == 4 and len(set(keys)) == 4


def test_failures_that_pass_end_as_the_last_one_after_the_deadline(fake_api: FakeApi) -> None:
    fake_api.script.play(OUTCOME_UNKNOWN)
    started = time.monotonic()
    with tablelock.Client(fake_api.url, api_key="k", retry_for=0.6) as client:
        with pytest.raises(tablelock.OutcomeUnknown) as raised:
            list(client.rows("products"))
    assert time.monotonic() - started < 2
    assert len(fake_api.script.bodies) >= 2
    assert raised.value.code == "OUTCOME_UNKNOWN"


def test_a_dead_server_is_a_network_error_with_its_cause() -> None:
    with tablelock.Client("http://127.0.0.1:9", api_key="k", retry_for=0.3) as client:
        with pytest.raises(tablelock.NetworkError) as raised:
            list(client.rows("products"))
    assert raised.value.code == "NETWORK_ERROR"
    assert "Cannot reach http://127.0.0.1:9/graphql" in str(raised.value)
    assert raised.value.__cause__ is not None


def test_a_refusal_is_not_retried(fake_api: FakeApi) -> None:
    fake_api.script.play(
        (200, {"errors": [{"message": "No master table is named nope.", "extensions": {"code": "TABLE_NOT_FOUND"}}]})
    )
    with tablelock.Client(fake_api.url, api_key="k") as client:
        with pytest.raises(tablelock.TableNotFound, match="No master table is named nope."):
            client.table_lock("nope").__enter__()
    assert len(fake_api.script.bodies) == 1


def test_rows_pages_by_cursor_until_a_short_page(fake_api: FakeApi) -> None:
    two = (200, {"data": {"rows": {"rows": [ROWS[1]["data"]["rows"]["rows"][0]] * 2, "endCursor": "c2"}}})
    fake_api.script.play(two, ROWS)
    with tablelock.Client(fake_api.url + "/graphql", api_key="k") as client:
        rows = list(client.rows("products", page_size=2))
    assert len(rows) == 3
    afters = [request["variables"]["after"] for request in fake_api.script.requests]
    assert afters == [None, "c2"]


async def test_the_async_client_retries_with_the_same_key(fake_api: FakeApi) -> None:
    fake_api.script.play("drop", UNAVAILABLE, GRANT)
    async with tablelock.AsyncClient(fake_api.url, api_key="k", retry_for=10) as client:
        async with client.table_lock("products", lease=None) as lock:
            assert lock.tokens == {"products": "42"}
            keys = {request["variables"]["idempotencyKey"] for request in fake_api.script.requests}
            assert len(keys) == 1
            fake_api.script.play(RELEASED)
    assert "releaseTableLock" in fake_api.script.requests[0]["query"]


class _SignalAtStart:
    """Stands in for the live watch: a signal lands as the lock starts watching (SIGTERM to the
    command line just after its grant: KeyboardInterrupt here, as SIGINT raises it)."""

    def __init__(self, *args: object) -> None:
        pass

    def start(self) -> None:
        raise KeyboardInterrupt

    def stop(self) -> None:
        pass


def test_a_signal_between_the_grant_and_the_block_releases_the_lock(
    fake_api: FakeApi, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("tablelock._lock.LiveThread", _SignalAtStart)
    fake_api.script.play(GRANT, RELEASED)
    client = tablelock.Client(fake_api.url, api_key="k", retry_for=10)
    with pytest.raises(KeyboardInterrupt):
        with client.table_lock("products", lease=None):
            pytest.fail("the block ran although the lock was never fully taken")
    release = fake_api.script.requests[-1]
    assert "releaseTableLock" in release["query"]
    assert release["variables"]["token"] == "42"
    client.close()


async def test_a_cancel_between_the_grant_and_the_block_releases_the_lock(
    fake_api: FakeApi, monkeypatch: pytest.MonkeyPatch
) -> None:
    def cancelled(*args: object, **kwargs: object) -> None:
        raise asyncio.CancelledError

    async with tablelock.AsyncClient(fake_api.url, api_key="k", retry_for=10) as client:
        lock = client.table_lock("products", lease=None)
        monkeypatch.setattr(lock._signals, "install_async", cancelled)
        fake_api.script.play(GRANT, RELEASED)
        with pytest.raises(asyncio.CancelledError):
            async with lock:
                pytest.fail("the block ran although the lock was never fully taken")
    release = fake_api.script.requests[-1]
    assert "releaseTableLock" in release["query"]
    assert release["variables"]["token"] == "42"


def test_a_signal_while_the_grant_is_on_its_way_releases_the_lock(fake_api: FakeApi) -> None:
    """SIGTERM to the command line as the API grants: the answer never reaches the lock, which
    asks again with the same key (the first answer's grant) and releases what was granted."""
    client = tablelock.Client(fake_api.url, api_key="k", retry_for=10)
    send = client._send
    interrupted: list[object] = []

    def signal_after_the_first_answer(call: object, stop: object = None) -> object:
        answer = send(call, stop)  # type: ignore[arg-type]
        if not interrupted:
            interrupted.append(call)
            raise KeyboardInterrupt
        return answer

    client._send = signal_after_the_first_answer  # type: ignore[method-assign]
    fake_api.script.play(GRANT, GRANT, RELEASED)
    with pytest.raises(KeyboardInterrupt):
        with client.table_lock("products", lease=None):
            pytest.fail("the block ran although the lock was never taken")
    first, again, release = fake_api.script.requests
    assert "acquireTableLock" in again["query"]
    assert again["variables"] == first["variables"]
    assert "releaseTableLock" in release["query"]
    assert release["variables"]["token"] == "42"
    client.close()


async def test_a_cancel_while_the_grant_is_on_its_way_releases_the_lock(fake_api: FakeApi) -> None:
    async with tablelock.AsyncClient(fake_api.url, api_key="k", retry_for=10) as client:
        send = client._send
        interrupted: list[object] = []

        async def cancel_after_the_first_answer(call: object, *args: object) -> object:
            answer = await send(call, *args)  # type: ignore[arg-type]
            if not interrupted:
                interrupted.append(call)
                raise asyncio.CancelledError
            return answer

        client._send = cancel_after_the_first_answer  # type: ignore[method-assign]
        fake_api.script.play(GRANT, GRANT, RELEASED)
        with pytest.raises(asyncio.CancelledError):
            async with client.table_lock("products", lease=None):
                pytest.fail("the block ran although the lock was never taken")
    first, again, release = fake_api.script.requests
    assert again["variables"] == first["variables"]
    assert "releaseTableLock" in release["query"]
    assert release["variables"]["token"] == "42"
