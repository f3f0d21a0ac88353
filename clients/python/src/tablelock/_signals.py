"""SIGTERM and SIGINT while a lock block runs: release, then end the process by the signal.

Only when nothing else handles them (SIGTERM at SIG_DFL, SIGINT at Python's
``default_int_handler``) and only from the main thread: a program with its own handlers decides
itself when to end, and then leaves its blocks, which release.

Sync blocks leave SIGINT to Python (KeyboardInterrupt unwinds the block, and an uncaught one
ends the process by SIGINT) and turn SIGTERM into ``Terminated``, raised in the main thread.
Async blocks cancel the task running the block for either signal.
"""

from __future__ import annotations

import asyncio
import os
import signal
import threading
from types import FrameType


class Terminated(BaseException):
    """SIGTERM arrived while a lock block ran: unwinds the block, which releases, then the
    process ends by SIGTERM. A BaseException, so that ``except Exception`` does not swallow it."""

    def __init__(self, signum: int) -> None:
        super().__init__(f"Received {signal.Signals(signum).name}.")
        self.signum = signum


def end_by(signum: int) -> None:
    """Ends the process by ``signum``, as it would have ended without us."""
    signal.signal(signum, signal.SIG_DFL)
    os.kill(os.getpid(), signum)


def _unhandled(signum: int) -> bool:
    default = signal.default_int_handler if signum == signal.SIGINT else signal.SIG_DFL
    return signal.getsignal(signum) is default


class SignalGuard:
    """The exit signals of one lock block. ``received``: the signal that ends the process."""

    def __init__(self) -> None:
        self.received: int | None = None
        self._sync = False
        self._async: list[int] = []
        self._loop: asyncio.AbstractEventLoop | None = None

    def install(self) -> None:
        """For a sync block: SIGTERM raises ``Terminated`` in the main thread."""
        if threading.current_thread() is threading.main_thread() and _unhandled(signal.SIGTERM):
            signal.signal(signal.SIGTERM, self._raise_terminated)
            self._sync = True

    def install_async(self, task: asyncio.Task[object] | None) -> None:
        """For an async block: SIGTERM and SIGINT cancel ``task``, the one running the block."""
        if task is None or threading.current_thread() is not threading.main_thread():
            return
        loop = asyncio.get_running_loop()
        for signum in (signal.SIGTERM, signal.SIGINT):
            if _unhandled(signum):
                try:
                    loop.add_signal_handler(signum, self._cancel, signum, task)
                except (NotImplementedError, RuntimeError):
                    continue
                self._async.append(signum)
        self._loop = loop

    def uninstall(self) -> None:
        """Gives the signals back; then, if one arrived, the process ends by it."""
        if self._sync:
            signal.signal(signal.SIGTERM, signal.SIG_DFL)
            self._sync = False
        if self._loop is not None:
            for signum in self._async:
                self._loop.remove_signal_handler(signum)
            self._async = []
            self._loop = None
        if self.received is not None:
            end_by(self.received)

    def _raise_terminated(self, signum: int, frame: FrameType | None) -> None:
        # A second signal while the first is being handled (a release that hangs): end now.
        if self.received is not None:
            end_by(signum)
        self.received = signum
        raise Terminated(signum)

    def _cancel(self, signum: int, task: asyncio.Task[object]) -> None:
        if self.received is not None:
            end_by(signum)
        self.received = signum
        task.cancel(f"Received {signal.Signals(signum).name}.")
