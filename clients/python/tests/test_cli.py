"""The command line's arguments, environment and exit codes (as cli/exitCodes.ts has them)."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

import tablelock
from tablelock._cli import (
    LockArguments,
    UsageError,
    command_environment,
    exit_code_of,
    parse_duration,
    parse_lock_arguments,
    status_of,
)

ENV = {"TABLELOCK_URL": "http://127.0.0.1:4000", "TABLELOCK_API_KEY": "tlk_x"}


def test_durations() -> None:
    assert parse_duration("90", "--wait") == 90
    assert parse_duration("90s", "--wait") == 90
    assert parse_duration("1.5m", "--wait") == 90
    assert parse_duration("2h", "--wait") == 7200
    assert parse_duration("500ms", "--wait") == 0.5
    with pytest.raises(UsageError, match='--wait takes a duration such as 90s, 5m or 1h, not "soon"'):
        parse_duration("soon", "--wait")


def test_lock_arguments_from_flags_and_environment() -> None:
    arguments = parse_lock_arguments(
        ["products", "suppliers", "--wait", "5m", "--lease=2m", "--grace", "3s", "--", "etl", "--wait", "1"],
        ENV,
    )
    assert arguments == LockArguments(
        tables=["products", "suppliers"],
        command=["etl", "--wait", "1"],
        url="http://127.0.0.1:4000",
        api_key="tlk_x",
        wait=300,
        lease=120,
        grace=3.0,
    )
    flagged = parse_lock_arguments(
        ["--url", "https://t.example", "--api-key", "k2", "--pass-api-key", "p", "--", "x"], {}
    )
    assert (flagged.url, flagged.api_key, flagged.pass_api_key) == ("https://t.example", "k2", True)
    assert parse_lock_arguments(["p", "--wait", "1500ms", "--", "x"], ENV).wait == 2


@pytest.mark.parametrize(
    ("args", "env", "message"),
    [
        (["--", "x"], ENV, "Name the tables"),
        (["products"], ENV, "Give the command to run after --"),
        (["products", "--"], ENV, "Give the command to run after --"),
        (["products", "--", "x"], {"TABLELOCK_API_KEY": "k"}, "TABLELOCK_URL or --url"),
        (["products", "--", "x"], {"TABLELOCK_URL": "http://h"}, "TABLELOCK_API_KEY or --api-key"),
        (["products", "--", "x"], {**ENV, "TABLELOCK_URL": "h:4000"}, "is not a URL"),
        (["products", "--frobnicate", "--", "x"], ENV, "Unknown option --frobnicate"),
        (["products", "--wait"], ENV, "--wait needs a value"),
    ],
)
def test_usage_errors(args: list[str], env: dict[str, str], message: str) -> None:
    with pytest.raises(UsageError, match=message):
        parse_lock_arguments(args, env)


def test_the_command_gets_the_tokens_and_not_the_key() -> None:
    arguments = parse_lock_arguments(["products", "--", "x"], ENV)
    one = command_environment(arguments, {"products": "7"}, {**ENV, "PATH": "/bin"})
    assert one["TABLELOCK_TOKEN"] == "7"
    assert json.loads(one["TABLELOCK_TOKENS"]) == {"products": "7"}
    assert one["TABLELOCK_URL"] == "http://127.0.0.1:4000" and one["PATH"] == "/bin"
    assert "TABLELOCK_API_KEY" not in one
    two = command_environment(arguments, {"a": "1", "b": "2"}, {"TABLELOCK_TOKEN": "stale"})
    assert "TABLELOCK_TOKEN" not in two and two["TABLELOCK_TOKENS"] == '{"a":"1","b":"2"}'
    passing = parse_lock_arguments(["products", "--pass-api-key", "--", "x"], ENV)
    assert command_environment(passing, {"products": "7"}, ENV)["TABLELOCK_API_KEY"] == "tlk_x"


@pytest.mark.parametrize(
    ("error", "status"),
    [
        (UsageError("x"), 64),
        (tablelock.error_of("LOCK_CONFLICT", "x"), 75),
        (tablelock.error_of("LOCK_WAIT_TIMEOUT", "x"), 75),
        (tablelock.error_of("ALREADY_IN_LINE", "x"), 75),
        (tablelock.error_of("TOO_MANY_WAITERS", "x"), 75),
        (tablelock.error_of("LOCK_LOST", "x"), 76),
        (tablelock.error_of("BAD_USER_INPUT", "x"), 64),
        (tablelock.error_of("TABLE_NOT_FOUND", "x"), 64),
        (tablelock.error_of("TABLE_PARTITIONED", "x"), 64),
        (tablelock.error_of("UNAUTHENTICATED", "x"), 64),
        (tablelock.error_of("FORBIDDEN", "x"), 64),
        (tablelock.error_of("NETWORK_ERROR", "x"), 69),
        (tablelock.error_of("SERVICE_UNAVAILABLE", "x"), 69),
        (tablelock.error_of("OUTCOME_UNKNOWN", "x"), 69),
        (tablelock.error_of("INTERNAL_SERVER_ERROR", "x"), 70),
        (tablelock.error_of("GRAPHQL_VALIDATION_FAILED", "x"), 70),
        (tablelock.error_of("TABLE_FROZEN", "x"), 1),
        (RuntimeError("x"), 70),
    ],
)
def test_exit_codes(error: BaseException, status: int) -> None:
    assert exit_code_of(error) == status


def test_a_signal_ends_with_128_plus_its_number() -> None:
    assert status_of(-15) == 143 and status_of(3) == 3


def test_the_module_runs_as_a_command() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "tablelock", "lock", "products", "--", "true"],
        env={
            **{name: value for name, value in os.environ.items() if not name.startswith("TABLELOCK_")},
            "TABLELOCK_API_KEY": "k",
        },
        capture_output=True,
        text=True,
        timeout=30,
    )
    assert done.returncode == 64
    assert "TABLELOCK_URL or --url" in done.stderr
    assert subprocess.run([sys.executable, "-m", "tablelock", "--help"], capture_output=True).returncode == 0
