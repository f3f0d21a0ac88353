"""The client's own logic: URLs, backoff, lock arguments, the hold's bookkeeping, graphql-ws."""

from __future__ import annotations

import json

import pytest

import tablelock
from tablelock._calls import lock_arguments
from tablelock._hold import HoldState, ends_acquisition
from tablelock._live import LiveSession, reconnect_pause
from tablelock._retry import FIRST_PAUSE, LONGEST_PAUSE, Retry, backoff
from tablelock._transport import Endpoint, Transient


@pytest.mark.parametrize(
    ("url", "http", "live"),
    [
        ("http://h:4000", "http://h:4000/graphql", "ws://h:4000/graphql"),
        ("http://h:4000/", "http://h:4000/graphql", "ws://h:4000/graphql"),
        ("http://h:4000/graphql", "http://h:4000/graphql", "ws://h:4000/graphql"),
        ("https://h/tablelock/graphql/", "https://h/tablelock/graphql", "wss://h/tablelock/graphql"),
        ("https://h/tablelock", "https://h/tablelock/graphql", "wss://h/tablelock/graphql"),
    ],
)
def test_urls(url: str, http: str, live: str) -> None:
    endpoint = Endpoint.of(url, "key")
    assert (endpoint.url, endpoint.live_url) == (http, live)
    assert endpoint.headers["authorization"] == "Bearer key"
    assert endpoint.connection_params == {"authorization": "Bearer key"}


def test_a_session_cookie_travels_as_a_cookie() -> None:
    endpoint = Endpoint.of("http://h", session_cookie="s3")
    assert endpoint.headers["cookie"] == "tablelock_session=s3"
    assert endpoint.live_headers == {"cookie": "tablelock_session=s3"}
    assert "authorization" not in endpoint.headers


def test_bad_urls_and_credentials() -> None:
    with pytest.raises(ValueError):
        tablelock.Client("ftp://h", api_key="k")
    with pytest.raises(TypeError):
        tablelock.Client("http://h")
    with pytest.raises(TypeError):
        tablelock.Client("http://h", api_key="k", session_cookie="s")


def test_backoff_doubles_from_a_quarter_second_up_to_five_with_jitter() -> None:
    assert backoff(0, lambda: 1.0) == FIRST_PAUSE
    assert backoff(0, lambda: 0.0) == FIRST_PAUSE / 2
    assert [backoff(tries, lambda: 1.0) for tries in range(7)] == [0.25, 0.5, 1, 2, 4, 5, 5]
    assert backoff(1000, lambda: 1.0) == LONGEST_PAUSE
    for tries in range(30):
        assert FIRST_PAUSE / 2 <= backoff(tries) <= LONGEST_PAUSE


def test_retry_gives_up_once_the_next_try_would_begin_past_the_deadline() -> None:
    now = [0.0]
    failure = Transient(tablelock.OutcomeUnknown("OUTCOME_UNKNOWN", "unknown"))
    retry = Retry(2.0, clock=lambda: now[0])
    pauses = []
    with pytest.raises(tablelock.OutcomeUnknown):
        while True:
            pause = retry.pause_after(failure)
            pauses.append(pause)
            now[0] += pause
    assert sum(pauses) <= 2.0 and len(pauses) >= 2


def test_retry_waits_as_long_as_the_api_asks() -> None:
    retry = Retry(60.0, clock=lambda: 0.0)
    failure = Transient(tablelock.ServiceUnavailable("SERVICE_UNAVAILABLE", "away"), 7.0)
    assert retry.pause_after(failure) == 7.0
    with pytest.raises(tablelock.ServiceUnavailable):
        Retry(5.0, clock=lambda: 0.0).pause_after(failure)


def test_reconnect_pauses_stay_within_ten_seconds() -> None:
    assert all(0.25 <= reconnect_pause(n) <= 15 for n in range(40))
    assert reconnect_pause(50, lambda: 0.5) == 10.0


def test_a_row_scope_is_of_one_table_and_a_list_of_values() -> None:
    client = tablelock.Client("http://127.0.0.1:9", api_key="k")
    with pytest.raises(TypeError, match="one table"):
        client.table_lock(["products", "suppliers"], rows=["11"])
    with pytest.raises(TypeError, match="one table"):
        tablelock.AsyncClient("http://127.0.0.1:9", api_key="k").table_lock("p", rows="11")
    assert lock_arguments("products", 60, None, [11, "12"]) == (["products"], 60, None, ["11", "12"])


def test_lock_arguments() -> None:
    assert lock_arguments("products", 60, None, None) == (["products"], 60, None, None)
    assert lock_arguments(("a", "b"), 14.2, 0.5, None) == (["a", "b"], 15, 1, None)
    assert lock_arguments(["a"], None, None, None) == (["a"], None, None, None)
    with pytest.raises(ValueError):
        lock_arguments([], 60, None, None)


def test_what_ends_an_acquisition() -> None:
    assert ends_acquisition({"action": "force_release", "token": "5"}, "5")
    assert ends_acquisition({"action": "expire", "token": "5"}, "5")
    assert not ends_acquisition({"action": "release", "token": "6"}, "5")
    assert ends_acquisition({"action": "take_over", "token": "6"}, "5")
    assert not ends_acquisition({"action": "take_over", "token": "5"}, "5")
    assert not ends_acquisition({"action": "take_over", "token": None}, "5")
    assert not ends_acquisition({"action": "save", "token": "5"}, "5")


def test_a_live_force_release_loses_the_lock_once() -> None:
    hold = HoldState({"products": "5"}, 60)
    heard: list[tablelock.LockLost] = []
    hold.on_lost(heard.append)
    hold.saw_change({"action": "save", "table": "products", "token": "5"})
    assert hold.lost is None
    change = {"action": "force_release", "table": "products", "token": "5", "actor": "ops", "reason": "x"}
    hold.saw_change(change)
    hold.saw_change(change)
    assert len(heard) == 1 and hold.lost is heard[0]
    assert str(hold.lost) == "You no longer hold the lock: ops force-released your lock on products (reason: x)."
    with pytest.raises(tablelock.LockLost):
        hold.held(None)
    assert hold.to_release() == [] and hold.renewals_due() == []


def test_a_renewal_failure_is_a_loss_only_when_the_lease_would_end_first() -> None:
    now = [0.0]
    hold = HoldState({"products": "5"}, 30, clock=lambda: now[0])
    hold.renewal_failed("products", tablelock.NetworkError("NETWORK_ERROR", "down"))
    assert hold.lost is None
    now[0] = 21.0
    hold.renewal_failed("products", tablelock.NetworkError("NETWORK_ERROR", "down"))
    assert isinstance(hold.lost, tablelock.LockLost)
    assert "before its lease ran out: down" in str(hold.lost)
    assert isinstance(hold.lost.__cause__, tablelock.NetworkError)


def test_a_save_is_retried_while_the_lease_lasts() -> None:
    now = [0.0]
    hold = HoldState({"products": "5"}, 120, clock=lambda: now[0])
    assert hold.save_retry_for("products", 30) == 120
    now[0] = 100
    assert hold.save_retry_for("products", 30) == 30
    hold.renewed("products", 100)
    assert hold.save_retry_for("products", 30) == 120


def test_a_submitted_table_is_neither_renewed_released_nor_lost() -> None:
    hold = HoldState({"a": "1", "b": "2"}, 60)
    with pytest.raises(ValueError, match="say which table"):
        hold.held(None)
    hold.hand_over("a")
    hold.handed_over("a", True)
    assert [table for table, _, _ in hold.renewals_due()] == ["b"]
    hold.lose("a", tablelock.LockLost("LOCK_LOST", "moved"))
    assert hold.lost is None
    assert hold.in_hand() == [("b", "2")]
    with pytest.raises(ValueError, match="not held by this lock"):
        hold.held("a")
    assert hold.to_release() == [("b", "2")]


def test_the_graphql_ws_protocol() -> None:
    session = LiveSession(Endpoint.of("http://h", "k"), "subscription { x }", {"table": "t"})
    assert json.loads(session.opening()) == {
        "type": "connection_init",
        "payload": {"authorization": "Bearer k"},
    }
    sends, connected, data = session.receive('{"type": "connection_ack"}')
    assert connected and data is None
    assert json.loads(sends[0]) == {
        "id": "1",
        "type": "subscribe",
        "payload": {"query": "subscription { x }", "variables": {"table": "t"}},
    }
    assert session.receive('{"type": "ping"}') == ([json.dumps({"type": "pong"})], False, None)
    event = {"id": "1", "type": "next", "payload": {"data": {"lockChanged": {"action": "expire"}}}}
    assert session.receive(json.dumps(event)) == ([], False, {"lockChanged": {"action": "expire"}})
    assert session.receive('{"id": "1", "type": "error", "payload": []}') == ([], False, None)
    assert session.receive("not json") == ([], False, None)
