"""Async code run from sync callers (`invoke`, `stream`), also inside a running loop (Jupyter, LangServe
threads): on an event loop of its own in a thread, an anyio blocking portal."""

from __future__ import annotations

import queue
from typing import Any, AsyncIterator, Iterator

from anyio.from_thread import start_blocking_portal


def run_sync(coro: Any) -> Any:
    """Run a coroutine from sync code, also inside a running loop (Jupyter, LangServe threads).

    It runs on an event loop of its own in a thread (an anyio blocking portal); if the
    caller is interrupted (KeyboardInterrupt), the coroutine is cancelled, not left running.
    """

    async def await_it() -> Any:
        return await coro

    with start_blocking_portal() as portal:
        return portal.call(await_it)


def iterate_sync(agen: AsyncIterator[Any]) -> Iterator[Any]:
    """Iterate an async generator from sync code, item by item as they come.

    One task on a portal's event loop reads the whole generator (so its context stays one
    task's). When the caller stops early (closes this generator, or stops on an error), the
    portal cancels that task and, as its loop shuts down, every task the generator started:
    the pipeline stops at its next await instead of running on unread.
    """
    items: queue.Queue = queue.Queue()
    done = object()

    async def pump() -> None:
        try:
            async for item in agen:
                items.put(item)
        except Exception as exc:  # re-raised in the caller's thread; cancellation propagates
            items.put(exc)
        finally:
            items.put(done)

    with start_blocking_portal() as portal:
        portal.start_task_soon(pump)
        while (item := items.get()) is not done:
            if isinstance(item, Exception):
                raise item
            yield item
