#!/usr/bin/env python3
"""The conformance kit's runner for the Python client (conformance/README.md, "Runner protocol").

Reads one JSON request per line on stdin, answers one JSON line on stdout, calling only the
public API of the installed ``tablelock`` package: ``Client`` by default, ``AsyncClient`` with
TABLELOCK_RUNNER_ASYNC=1. Lock blocks stay open across requests on exit stacks, entered at
``lock.enter`` and left at ``lock.exit``; their renewals and live watching go on in between.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import json
import os
import signal
import subprocess
import sys
import tempfile
import threading
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import psycopg

import tablelock

Args = dict[str, Any]


class WorkFailed(RuntimeError):
    """What a block that fails on its own raises (``lock.exit`` with ``fail``)."""

    code = "WORK_FAILED"


def error_answer(error: BaseException) -> dict[str, Any]:
    code = getattr(error, "code", None) or "RUNNER_ERROR"
    extensions = getattr(error, "extensions", None) or {"code": code}
    return {"code": code, "type": type(error).__name__, "message": str(error), "extensions": extensions}


def save_value(result: tablelock.SaveResult) -> dict[str, Any]:
    return {
        "saved": result.saved,
        "inserted": result.inserted,
        "updated": result.updated,
        "deleted": result.deleted,
        "rowErrors": [dataclasses.asdict(error) for error in result.row_errors],
    }


def import_value(report: tablelock.ImportReport) -> dict[str, Any]:
    return {"id": report.id, "applied": report.applied, "counts": dataclasses.asdict(report.counts)}


def submit_value(result: tablelock.SubmitResult) -> dict[str, Any]:
    return {"submitted": result.submitted, "requestId": result.request_id}


def state_value(lost: tablelock.LockLost | None) -> dict[str, Any]:
    return {"lost": lost is not None, "code": lost.code if lost is not None else None}


def rows_value(rows: list[tablelock.Row]) -> dict[str, Any]:
    return {
        "count": len(rows),
        "first": rows[0]["key"] if rows else None,
        "last": rows[-1]["key"] if rows else None,
    }


def changes_value(events: list[tablelock.FeedEvent]) -> dict[str, Any]:
    return {
        "events": [{"table": event["table"], "type": event["type"]} for event in events],
        "cursor": events[-1]["cursor"] if events else None,
    }


def decision_value(request: tablelock.ChangeRequest) -> dict[str, Any]:
    return {"state": request.state, "decidedBy": request.decided_by}


def client_options(args: Args) -> dict[str, Any]:
    options: dict[str, Any] = {"api_key": args["apiKey"]}
    if args.get("retryForSeconds") is not None:
        options["retry_for"] = args["retryForSeconds"]
    return options


def lock_options(args: Args) -> dict[str, Any]:
    options: dict[str, Any] = {"wait": args.get("wait"), "rows": args.get("rows")}
    if "lease" in args:
        options["lease"] = args["lease"]
    return options


class Files:
    """Import files: written where the runner keeps them, under the name the scenario gives."""

    def __init__(self) -> None:
        self._folder = tempfile.TemporaryDirectory(prefix="tablelock-runner-")

    def write(self, args: Args) -> Path:
        path = Path(self._folder.name) / Path(args["fileName"]).name
        path.write_text(args["content"], encoding="utf-8")
        return path


class Processes:
    """The CLI's runs (``cli.*``), their stdout collected in a thread each."""

    def __init__(self) -> None:
        self._running: dict[str, tuple[subprocess.Popen[bytes], list[bytes], threading.Thread]] = {}

    def start(self, args: Args) -> None:
        environment = {
            **os.environ,
            "TABLELOCK_URL": args["url"],
            "TABLELOCK_API_KEY": args["apiKey"],
        }
        process = subprocess.Popen(
            [sys.executable, "-m", "tablelock", "lock", *args["tables"], "--", *args["command"]],
            env=environment,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
        )
        output: list[bytes] = []
        stdout = process.stdout
        assert stdout is not None
        reader = threading.Thread(target=lambda: output.append(stdout.read()), daemon=True)
        reader.start()
        self._running[args["process"]] = (process, output, reader)

    def signal(self, args: Args) -> None:
        process, _, _ = self._running[args["process"]]
        process.send_signal(signal.Signals[args["signal"]])

    def wait(self, args: Args) -> dict[str, Any]:
        process, output, reader = self._running.pop(args["process"])
        status = process.wait()
        reader.join()
        return {
            "exitCode": status if status >= 0 else None,
            "signal": signal.Signals(-status).name if status < 0 else None,
            "stdout": b"".join(output).decode(errors="replace").strip(),
        }

    def handle(self, op: str, args: Args) -> Any:
        if op == "cli.start":
            return self.start(args)
        if op == "cli.signal":
            return self.signal(args)
        if op == "cli.wait":
            return self.wait(args)
        raise ValueError(f"Unknown op {op}.")

    def end(self) -> None:
        for process, _, reader in self._running.values():
            process.kill()
            process.wait()
            reader.join()
        self._running.clear()


def answer(request_id: Any, outcome: Callable[[], Any]) -> None:
    try:
        line = {"id": request_id, "ok": True, "value": outcome()}
    except Exception as error:
        line = {"id": request_id, "ok": False, "error": error_answer(error)}
    print(json.dumps(line), flush=True)


class SyncRunner:
    def __init__(self) -> None:
        self.clients: dict[str, tablelock.Client] = {}
        self.locks: dict[str, tablelock.TableLock] = {}
        self.blocks: dict[str, contextlib.ExitStack] = {}
        self.files = Files()
        self.processes = Processes()

    def handle(self, op: str, args: Args) -> Any:
        if op == "connect":
            self.clients[args["client"]] = tablelock.Client(args["url"], **client_options(args))
            return None
        if op == "lock.enter":
            lock = self.clients[args["client"]].table_lock(args["tables"], **lock_options(args))
            block = contextlib.ExitStack()
            block.enter_context(lock)
            self.locks[args["lock"]], self.blocks[args["lock"]] = lock, block
            return {"tokens": lock.tokens}
        if op == "lock.save":
            return save_value(self.locks[args["lock"]].save_rows(args["changes"], args.get("table")))
        if op == "lock.useIn":
            with psycopg.connect(args["databaseUrl"]) as conn:
                self.locks[args["lock"]].use_in(conn)
                rowcount = conn.execute(args["sql"]).rowcount
            return {"rowcount": rowcount}
        if op == "lock.importFile":
            report = self.locks[args["lock"]].import_file(
                self.files.write(args), args.get("table"), dry_run=args.get("dryRun", True)
            )
            return import_value(report)
        if op == "lock.submit":
            result = self.locks[args["lock"]].submit_for_approval(
                args.get("changes"), args.get("table"), comment=args.get("comment")
            )
            return submit_value(result)
        if op == "lock.state":
            return state_value(self.locks[args["lock"]].lost)
        if op == "lock.exit":
            del self.locks[args["lock"]]
            with self.blocks.pop(args["lock"]):
                if args.get("fail"):
                    raise WorkFailed("The work in the lock block failed.")
            return None
        if op == "client.rows":
            client = self.clients[args["client"]]
            return rows_value(list(client.rows(args["table"], page_size=args.get("pageSize", 100))))
        if op == "client.importFile":
            report = self.clients[args["client"]].import_file(
                args["table"], self.files.write(args), dry_run=args.get("dryRun", True)
            )
            return import_value(report)
        if op == "client.changes":
            limit = args["limit"]
            events: list[tablelock.FeedEvent] = []
            if limit > 0:
                feed = self.clients[args["client"]].changes(
                    args.get("after"), args.get("tables"), args.get("types"), page_size=limit
                )
                for event in feed:
                    events.append(event)
                    if len(events) == limit:
                        break
            return changes_value(events)
        if op == "client.waitForDecision":
            return decision_value(self.clients[args["client"]].wait_for_decision(args["id"]))
        if op == "reset":
            return self.reset()
        return self.processes.handle(op, args)

    def reset(self) -> None:
        """Leaves every block still open (its errors ignored), ends every command, closes the clients."""
        self.processes.end()
        for block in self.blocks.values():
            with contextlib.suppress(Exception):
                block.close()
        for client in self.clients.values():
            client.close()
        self.blocks.clear()
        self.locks.clear()
        self.clients.clear()

    def run(self) -> None:
        try:
            for line in sys.stdin:
                if line.strip():
                    request = json.loads(line)
                    answer(request.get("id"), lambda: self.handle(request["op"], request.get("args") or {}))
        finally:
            self.reset()


class AsyncRunner:
    def __init__(self) -> None:
        self.clients: dict[str, tablelock.AsyncClient] = {}
        self.locks: dict[str, tablelock.AsyncTableLock] = {}
        self.blocks: dict[str, contextlib.AsyncExitStack] = {}
        self.files = Files()
        self.processes = Processes()

    async def handle(self, op: str, args: Args) -> Any:
        if op == "connect":
            self.clients[args["client"]] = tablelock.AsyncClient(args["url"], **client_options(args))
            return None
        if op == "lock.enter":
            lock = self.clients[args["client"]].table_lock(args["tables"], **lock_options(args))
            block = contextlib.AsyncExitStack()
            await block.enter_async_context(lock)
            self.locks[args["lock"]], self.blocks[args["lock"]] = lock, block
            return {"tokens": lock.tokens}
        if op == "lock.save":
            saved = await self.locks[args["lock"]].save_rows(args["changes"], args.get("table"))
            return save_value(saved)
        if op == "lock.useIn":
            async with await psycopg.AsyncConnection.connect(args["databaseUrl"]) as conn:
                await self.locks[args["lock"]].use_in(conn)
                rowcount = (await conn.execute(args["sql"])).rowcount
            return {"rowcount": rowcount}
        if op == "lock.importFile":
            report = await self.locks[args["lock"]].import_file(
                self.files.write(args), args.get("table"), dry_run=args.get("dryRun", True)
            )
            return import_value(report)
        if op == "lock.submit":
            submitted = await self.locks[args["lock"]].submit_for_approval(
                args.get("changes"), args.get("table"), comment=args.get("comment")
            )
            return submit_value(submitted)
        if op == "lock.state":
            return state_value(self.locks[args["lock"]].lost)
        if op == "lock.exit":
            del self.locks[args["lock"]]
            async with self.blocks.pop(args["lock"]):
                if args.get("fail"):
                    raise WorkFailed("The work in the lock block failed.")
            return None
        if op == "client.rows":
            client = self.clients[args["client"]]
            rows = [row async for row in client.rows(args["table"], page_size=args.get("pageSize", 100))]
            return rows_value(rows)
        if op == "client.importFile":
            report = await self.clients[args["client"]].import_file(
                args["table"], self.files.write(args), dry_run=args.get("dryRun", True)
            )
            return import_value(report)
        if op == "client.changes":
            limit = args["limit"]
            events: list[tablelock.FeedEvent] = []
            if limit > 0:
                feed = self.clients[args["client"]].changes(
                    args.get("after"), args.get("tables"), args.get("types"), page_size=limit
                )
                async for event in feed:
                    events.append(event)
                    if len(events) == limit:
                        break
                await feed.aclose()
            return changes_value(events)
        if op == "client.waitForDecision":
            return decision_value(await self.clients[args["client"]].wait_for_decision(args["id"]))
        if op == "cli.wait":
            # Off the loop: the lock blocks' renewals go on while the CLI runs.
            return await asyncio.get_running_loop().run_in_executor(None, self.processes.wait, args)
        if op == "reset":
            return await self.reset()
        return self.processes.handle(op, args)

    async def reset(self) -> None:
        """Leaves every block still open (its errors ignored), ends every command, closes the clients."""
        self.processes.end()
        for block in self.blocks.values():
            with contextlib.suppress(Exception):
                await block.aclose()
        for client in self.clients.values():
            await client.close()
        self.blocks.clear()
        self.locks.clear()
        self.clients.clear()

    async def run(self) -> None:
        loop = asyncio.get_running_loop()
        try:
            while line := await loop.run_in_executor(None, sys.stdin.readline):
                if line.strip():
                    request = json.loads(line)
                    value: Awaitable[Any] = self.handle(request["op"], request.get("args") or {})
                    try:
                        line_out = {"id": request.get("id"), "ok": True, "value": await value}
                    except Exception as error:
                        line_out = {"id": request.get("id"), "ok": False, "error": error_answer(error)}
                    print(json.dumps(line_out), flush=True)
        finally:
            await self.reset()


if __name__ == "__main__":
    if os.environ.get("TABLELOCK_RUNNER_ASYNC") == "1":
        asyncio.run(AsyncRunner().run())
    else:
        SyncRunner().run()
