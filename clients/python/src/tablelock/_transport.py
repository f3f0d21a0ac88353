"""Where the API is, what one POST sends, and what its answer means: no I/O here.

The sync and async clients both send what ``Endpoint.body`` builds and read what comes back
with ``read_answer``; only the sending differs.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit, urlunsplit

from ._errors import NetworkError, TablelockError, error_of

SESSION_COOKIE = "tablelock_session"

#: Answers that may pass: the database is away, or may not have kept a change (a retry with the
#: same idempotency key, which every change sends, learns what happened).
PASSING_CODES = frozenset({"SERVICE_UNAVAILABLE", "OUTCOME_UNKNOWN"})

#: What a proxy or a restarting server answers while the API is briefly away.
PASSING_HTTP_STATUSES = frozenset({502, 503, 504})


@dataclass(frozen=True)
class Data:
    """An answer with data."""

    data: dict[str, Any]


@dataclass(frozen=True)
class Transient:
    """A failure that may pass if the same request is sent again."""

    error: TablelockError
    #: Seconds the API asked to wait, if it did.
    retry_after: float | None = None


Outcome = Data | Transient


@dataclass(frozen=True)
class Endpoint:
    """The API's GraphQL address (HTTP and WebSocket) and the credentials to present there."""

    url: str
    live_url: str
    headers: Mapping[str, str]
    #: graphql-ws ``connection_init`` payload: an API key travels there, not in a header.
    connection_params: Mapping[str, str]

    @staticmethod
    def of(url: str, api_key: str | None = None, session_cookie: str | None = None) -> Endpoint:
        """The endpoint at ``url`` (its ``/graphql`` may be left out), with one of the credentials."""
        if (api_key is None) == (session_cookie is None):
            raise TypeError("Give exactly one of api_key and session_cookie.")
        parts = urlsplit(url)
        if parts.scheme not in ("http", "https") or not parts.netloc:
            raise ValueError(f"{url} is not an http(s) URL (e.g. http://127.0.0.1:4000).")
        path = parts.path.rstrip("/")
        if not path.endswith("/graphql"):
            path = f"{path}/graphql"
        http_url = urlunsplit((parts.scheme, parts.netloc, path, parts.query, ""))
        live_scheme = "wss" if parts.scheme == "https" else "ws"
        live_url = urlunsplit((live_scheme, parts.netloc, path, parts.query, ""))
        headers = {"content-type": "application/json", "accept": "application/json"}
        if api_key is not None:
            headers["authorization"] = f"Bearer {api_key}"
            return Endpoint(http_url, live_url, headers, {"authorization": f"Bearer {api_key}"})
        headers["cookie"] = f"{SESSION_COOKIE}={session_cookie}"
        return Endpoint(http_url, live_url, headers, {})

    @property
    def live_headers(self) -> dict[str, str]:
        """Headers of the WebSocket upgrade: a session cookie counts there (an API key does not)."""
        cookie = self.headers.get("cookie")
        return {"cookie": cookie} if cookie else {}


def body(query: str, variables: Mapping[str, Any]) -> bytes:
    """The POST body of one operation. Built once per call: every retry sends the same bytes."""
    return json.dumps({"query": query, "variables": variables}).encode()


def read_answer(endpoint: Endpoint, status: int, retry_after: str | None, text: str) -> Outcome:
    """What an HTTP answer means: data, or a failure that may pass; anything else is raised."""
    answer = _parse_json(text)
    errors = answer.get("errors") if isinstance(answer, dict) else None
    if isinstance(errors, list) and errors:
        first = errors[0] if isinstance(errors[0], dict) else {}
        extensions = first.get("extensions")
        extensions = extensions if isinstance(extensions, dict) else {}
        code = str(extensions.get("code") or "INTERNAL_SERVER_ERROR")
        path = first.get("path")
        error = error_of(
            code,
            str(first.get("message") or code),
            extensions or {"code": code},
            path if isinstance(path, list) else None,
        )
        if code not in PASSING_CODES:
            raise error
        return Transient(error, _seconds(extensions.get("retryAfterSeconds")))
    data = answer.get("data") if isinstance(answer, dict) else None
    if status == 200 and isinstance(data, dict):
        return Data(data)
    error = NetworkError("NETWORK_ERROR", f"HTTP {status} from {endpoint.url}, not a GraphQL answer.")
    if status not in PASSING_HTTP_STATUSES:
        raise error
    return Transient(error, _seconds(retry_after))


def unreachable(endpoint: Endpoint, cause: BaseException) -> Transient:
    """No answer: a failure that may pass, the connection's exception kept as the cause."""
    reason = str(cause) or type(cause).__name__
    error = NetworkError("NETWORK_ERROR", f"Cannot reach {endpoint.url}: {reason}")
    error.__cause__ = cause
    return Transient(error)


def _parse_json(text: str) -> Any:
    try:
        return json.loads(text)
    except ValueError:
        return None


def _seconds(value: object) -> float | None:
    if isinstance(value, bool):
        return None
    if isinstance(value, (int, float)):
        return float(value)
    if isinstance(value, str):
        try:
            return float(value)
        except ValueError:
            return None
    return None
