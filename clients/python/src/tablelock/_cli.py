"""``python -m tablelock lock <table>... -- <command>``: the TypeScript CLI's ``lock``, in Python.

Runs the command while holding the tables; exits with its status, or with the TypeScript CLI's
codes (cli/exitCodes.ts) when the lock could not be had or was lost.
"""

from __future__ import annotations

import json
import math
import os
import re
import signal
import subprocess
import sys
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from types import FrameType

from ._errors import (
    BadUserInput,
    Forbidden,
    LockLost,
    LockUnavailable,
    TableNotFound,
    TablelockError,
    TablePartitioned,
    Unauthenticated,
)
from ._sync_client import DEFAULT_LEASE, Client

#: What ``tablelock`` exits with besides the command's own status (sysexits.h where one fits).
EXIT_OK = 0
EXIT_REFUSED = 1
EXIT_USAGE = 64
EXIT_UNAVAILABLE = 69
EXIT_SOFTWARE = 70
EXIT_LOCK_BUSY = 75
EXIT_LOCK_LOST = 76
EXIT_NOT_EXECUTABLE = 126
EXIT_NOT_FOUND = 127

DEFAULT_GRACE = 10.0

USAGE = """Usage: python -m tablelock lock <table>... [--rows 11,12] [--wait 5m] [--lease 2m] [--grace 10s] [--pass-api-key] -- <command> [args...]

  Runs <command> while holding the tables (all or nothing), renewing the lease.
  It gets TABLELOCK_TOKEN (one table), TABLELOCK_TOKENS ({"table":"token",...}) and
  TABLELOCK_URL; TABLELOCK_API_KEY only with --pass-api-key.
  If the lock is lost, the command gets SIGTERM, then SIGKILL after --grace.

Options:
  --url <url>        the API, e.g. https://tablelock.example.com (default: TABLELOCK_URL)
  --api-key <key>    the API key (default: TABLELOCK_API_KEY; the variable keeps it out of ps)
  --rows <values>    a row scope of the one table: values of its row-lock column, comma-separated

Durations: 90 or 90s, 5m, 1h, 500ms. Exit status: the command's own when it ran; 75 the lock
could not be had in time; 76 the lock was lost while it ran; 64 wrong usage, unknown table or
bad key; 69 the API could not be reached; 70 the API failed; 1 any other refusal.
"""


class UsageError(Exception):
    """The command line was used wrongly: the message says how to use it instead."""


_UNIT_SECONDS = {"ms": 0.001, "s": 1.0, "m": 60.0, "h": 3600.0}


def parse_duration(text: str, flag: str) -> float:
    """``90``, ``90s``, ``1.5m``, ``2h``, ``500ms`` in seconds; a bare number is seconds."""
    match = re.fullmatch(r"(\d+(?:\.\d+)?)(ms|s|m|h)?", text.strip())
    if not match:
        raise UsageError(f'{flag} takes a duration such as 90s, 5m or 1h, not "{text}".')
    return float(match[1]) * _UNIT_SECONDS[match[2] or "s"]


def parse_seconds(text: str, flag: str) -> int:
    """A duration in whole seconds, as the API takes them (rounded up)."""
    return math.ceil(round(parse_duration(text, flag), 6))


@dataclass(frozen=True)
class LockArguments:
    tables: list[str]
    command: list[str]
    url: str
    api_key: str
    wait: int | None = None
    lease: int | None = None
    grace: float = DEFAULT_GRACE
    pass_api_key: bool = False
    #: A row scope (``--rows 11,12``): values of the one table's row-lock column.
    rows: list[str] | None = None


_VALUE_FLAGS = ("--wait", "--lease", "--grace", "--url", "--api-key", "--rows")


def parse_lock_arguments(args: Sequence[str], environ: Mapping[str, str]) -> LockArguments:
    """``lock``'s arguments; the API's address and key from the flags, else the environment."""
    split = args.index("--") if "--" in args else len(args)
    command = list(args[split + 1 :])
    values: dict[str, str] = {}
    tables: list[str] = []
    pass_api_key = False
    own = list(args[:split])
    while own:
        arg = own.pop(0)
        name, equals, value = arg.partition("=")
        if name in _VALUE_FLAGS:
            if not equals:
                if not own:
                    raise UsageError(f"{name} needs a value.")
                value = own.pop(0)
            values[name] = value
        elif arg == "--pass-api-key":
            pass_api_key = True
        elif arg.startswith("-"):
            raise UsageError(f"Unknown option {arg}.")
        else:
            tables.append(arg)
    if not tables:
        raise UsageError("Name the tables to lock: tablelock lock <table>... -- <command>")
    if not command:
        raise UsageError("Give the command to run after --: tablelock lock <table>... -- <command>")
    url = values.get("--url") or environ.get("TABLELOCK_URL")
    api_key = values.get("--api-key") or environ.get("TABLELOCK_API_KEY")
    if not url:
        raise UsageError("Say where the API is: TABLELOCK_URL or --url.")
    if not re.match(r"https?://[^/]", url):
        raise UsageError(f"{url} is not a URL (e.g. http://127.0.0.1:4000).")
    if not api_key:
        raise UsageError("Give an API key: TABLELOCK_API_KEY or --api-key.")
    return LockArguments(
        tables=tables,
        command=command,
        url=url,
        api_key=api_key,
        wait=parse_seconds(values["--wait"], "--wait") if "--wait" in values else None,
        lease=parse_seconds(values["--lease"], "--lease") if "--lease" in values else None,
        grace=parse_duration(values["--grace"], "--grace") if "--grace" in values else DEFAULT_GRACE,
        rows=[value.strip() for value in values["--rows"].split(",")] if "--rows" in values else None,
        pass_api_key=pass_api_key,
    )


def command_environment(
    arguments: LockArguments, tokens: Mapping[str, str], environ: Mapping[str, str]
) -> dict[str, str]:
    """The command's environment: ours, with the API's URL and the fencing tokens. The API key
    only when asked for (``--pass-api-key``): it outlives the lock and may lock any table, so a
    job that only needs the tokens should not hold it."""
    environment = dict(environ)
    environment["TABLELOCK_URL"] = arguments.url
    environment["TABLELOCK_TOKENS"] = json.dumps(dict(tokens), separators=(",", ":"))
    environment.pop("TABLELOCK_API_KEY", None)
    environment.pop("TABLELOCK_TOKEN", None)
    if arguments.pass_api_key:
        environment["TABLELOCK_API_KEY"] = arguments.api_key
    if len(tokens) == 1:
        environment["TABLELOCK_TOKEN"] = next(iter(tokens.values()))
    return environment


def exit_code_of(error: BaseException) -> int:
    """The exit status for a failure of the command line itself."""
    if isinstance(error, UsageError):
        return EXIT_USAGE
    if not isinstance(error, TablelockError):
        return EXIT_SOFTWARE
    if isinstance(error, LockUnavailable):
        return EXIT_LOCK_BUSY
    if isinstance(error, LockLost):
        return EXIT_LOCK_LOST
    if isinstance(
        error, (BadUserInput, TableNotFound, TablePartitioned, Unauthenticated, Forbidden)
    ):
        return EXIT_USAGE
    if error.code in ("NETWORK_ERROR", "SERVICE_UNAVAILABLE", "OUTCOME_UNKNOWN"):
        return EXIT_UNAVAILABLE
    if error.code in ("INTERNAL_SERVER_ERROR", "GRAPHQL_PARSE_FAILED", "GRAPHQL_VALIDATION_FAILED"):
        return EXIT_SOFTWARE
    return EXIT_REFUSED


def status_of(returncode: int) -> int:
    """A shell's exit status: the command's own code, or 128 + the signal that ended it."""
    return 128 - returncode if returncode < 0 else returncode


class _StopWaiting(Exception):
    def __init__(self, signum: int) -> None:
        super().__init__(f"Received {signal.Signals(signum).name}.")
        self.signum = signum


def lock_command(args: Sequence[str]) -> int:
    arguments = parse_lock_arguments(args, os.environ)
    program = arguments.command[0]
    running: subprocess.Popen[bytes] | None = None
    received: int | None = None
    stopped_as_lost = False
    status: int | None = None

    # Passed on to the command, which ends when it chooses; then the lock is released. Before
    # it runs, a signal stops the wait for the lock.
    def forward(signum: int, frame: FrameType | None) -> None:
        nonlocal received
        received = signum
        if running is None:
            raise _StopWaiting(signum)
        if running.poll() is None:
            running.send_signal(signum)

    previous = {signum: signal.signal(signum, forward) for signum in (signal.SIGINT, signal.SIGTERM)}
    try:
        with Client(arguments.url, arguments.api_key) as client:
            lease = arguments.lease if arguments.lease is not None else DEFAULT_LEASE
            with client.table_lock(
                arguments.tables, lease=lease, wait=arguments.wait, rows=arguments.rows
            ) as lock:
                environment = command_environment(arguments, lock.tokens, os.environ)
                try:
                    running = subprocess.Popen(arguments.command, env=environment)
                except OSError as error:
                    print(f"tablelock: cannot run {program}: {error.strerror}", file=sys.stderr)
                    return EXIT_NOT_FOUND if isinstance(error, FileNotFoundError) else EXIT_NOT_EXECUTABLE
                kill_at = math.inf
                while status is None:
                    try:
                        status = status_of(running.wait(timeout=0.1))
                    except subprocess.TimeoutExpired:
                        pass
                    if lock.lost is not None and not stopped_as_lost:
                        print(
                            f"tablelock: {lock.lost} Stopping {program} "
                            f"(SIGTERM, SIGKILL after {arguments.grace:g} s).",
                            file=sys.stderr,
                        )
                        stopped_as_lost = True
                        running.terminate()
                        kill_at = time.monotonic() + arguments.grace
                    if time.monotonic() > kill_at and running.poll() is None:
                        running.kill()
            return status
    except LockLost as error:
        if not stopped_as_lost:
            print(f"tablelock: {error}", file=sys.stderr)
        return EXIT_LOCK_LOST
    except _StopWaiting as stop:
        return 128 + stop.signum
    except TablelockError as error:
        if status is not None:
            print(
                f"tablelock: {program} ended, but the lock could not be released ({error}); "
                "it ends when its lease runs out.",
                file=sys.stderr,
            )
            return status
        if received is not None:
            return 128 + received
        raise
    finally:
        for signum, handler in previous.items():
            signal.signal(signum, handler)


def _asks_for_help(args: Sequence[str]) -> bool:
    """--help or -h among the command line's own arguments (not the locked command's)."""
    own = args[: args.index("--")] if "--" in args else args
    return any(arg in ("--help", "-h") for arg in own)


def main(argv: Sequence[str] | None = None) -> int:
    """Runs the command line ``argv`` (default: ``sys.argv[1:]``); returns the exit status."""
    args = list(sys.argv[1:] if argv is None else argv)
    if not args or args[0] == "help" or _asks_for_help(args):
        sys.stdout.write(USAGE)
        return EXIT_USAGE if not args else EXIT_OK
    name, rest = args[0], args[1:]
    try:
        if name != "lock":
            raise UsageError(f"Unknown command {name}.")
        return lock_command(rest)
    except Exception as error:
        hint = " (python -m tablelock --help)" if isinstance(error, UsageError) else ""
        print(f"tablelock: {error}{hint}", file=sys.stderr)
        return exit_code_of(error)
