"""How long to pause between tries of a failure that may pass, and when to give up."""

from __future__ import annotations

import random
import time
from collections.abc import Callable

from ._transport import Transient

FIRST_PAUSE = 0.25
LONGEST_PAUSE = 5.0


def backoff(tries: int, rand: Callable[[], float] = random.random) -> float:
    """The pause after ``tries`` earlier failed tries: doubling from 0.25 s up to 5 s, with jitter.

    Jittered so that clients that lost the API together do not all come back at the same moment.
    """
    return min(LONGEST_PAUSE, FIRST_PAUSE * 2.0 ** min(tries, 16)) * (0.5 + rand() / 2)


class Retry:
    """The retries of one call: ``pause_after`` each failure says how long to wait, or raises it."""

    def __init__(self, retry_for: float, clock: Callable[[], float] = time.monotonic) -> None:
        self._clock = clock
        self._deadline = clock() + max(0.0, retry_for)
        self._tries = 0

    def pause_after(self, failure: Transient) -> float:
        """Seconds to wait before the next try; the failure itself once that try would begin late."""
        pause = max(backoff(self._tries), failure.retry_after or 0.0)
        self._tries += 1
        if self._clock() + pause > self._deadline:
            raise failure.error
        return pause


class Stopped(Exception):
    """The call's retries were stopped from outside (the lock's renewals ended)."""
