"""The Python client's lock cycle for `pnpm bench` (bench/src/scenarios/clientLockCycle.ts).

Run with the venv the bench installs the client's wheel into:
    python lock_cycle.py <url> <clients> <api keys as JSON> <tables as JSON>
Each line read on stdin asks for a closed-loop window of that many milliseconds; its answer, one
JSON line, has the shape of the bench's WindowResult. Client i enters and leaves
``client.table_lock(tables[i])`` back to back, in a thread of its own.
"""

from __future__ import annotations

import json
import math
import sys
import threading
import time

import tablelock

LEASE_SECONDS = 60


def percentile(sorted_latencies: list[float], fraction: float) -> float:
    """Nearest rank, as the bench's latency.ts."""
    if not sorted_latencies:
        return 0.0
    return sorted_latencies[max(0, math.ceil(fraction * len(sorted_latencies)) - 1)]


def window(clients: list[tablelock.Client], tables: list[str], duration_ms: float) -> dict[str, object]:
    latencies: list[float] = []
    errors: list[str] = []
    guard = threading.Lock()
    start = time.perf_counter()
    end = start + duration_ms / 1000

    def loop(index: int) -> None:
        while time.perf_counter() < end:
            began = time.perf_counter()
            try:
                with clients[index].table_lock(tables[index], lease=LEASE_SECONDS):
                    pass
                failure = None
            except tablelock.TablelockError as error:
                failure = f"{error.code}: {error}"
            with guard:
                latencies.append((time.perf_counter() - began) * 1000)
                if failure:
                    errors.append(failure)

    threads = [threading.Thread(target=loop, args=(i,)) for i in range(len(clients))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    seconds = time.perf_counter() - start
    ordered = sorted(latencies)
    result: dict[str, object] = {
        "clients": len(clients),
        "operations": len(latencies),
        "opsPerSecond": len(latencies) / seconds,
        "errors": len(errors),
        "refused": 0,
        "latencyMs": {
            "p50": percentile(ordered, 0.5),
            "p95": percentile(ordered, 0.95),
            "p99": percentile(ordered, 0.99),
            "max": ordered[-1] if ordered else 0.0,
        },
    }
    if errors:
        result["firstError"] = errors[0]
    return result


def main() -> None:
    url, count, keys, tables = sys.argv[1], int(sys.argv[2]), json.loads(sys.argv[3]), json.loads(sys.argv[4])
    clients = [tablelock.Client(url, api_key=keys[i]) for i in range(count)]
    try:
        for line in sys.stdin:
            if line.strip():
                print(json.dumps(window(clients, tables, float(line))), flush=True)
    finally:
        for client in clients:
            client.close()


if __name__ == "__main__":
    main()
