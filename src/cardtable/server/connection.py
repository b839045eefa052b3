"""The transport of one client socket: an ordered outbound queue drained by a writer task.

Nothing here knows the game: a table hands :class:`Outgoing` frames (already filtered to
what their reader may see) to :meth:`Connection.push`, which never blocks the table.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
from collections import deque
from collections.abc import Awaitable, Callable
from typing import Any

from .protocol import CLOSE_SLOW, dumps

MAX_QUEUE = 256
SEND_TIMEOUT = 20.0
MAX_MERGED_EVENTS = 500

_JITTER = random.Random()
"""Spreads spectators' state sends over time (timing only, never the game): a generator of its
own, seeded from the system, not the global one (F2)."""


class Outgoing:
    """A frame to send, turned into JSON text once however many connections send it
    (one spectator projection goes to every spectator: LD6)."""

    __slots__ = ("_text", "data")

    def __init__(self, data: dict[str, Any]) -> None:
        self.data = data
        self._text: str | None = None

    @classmethod
    def from_text(cls, text: str) -> Outgoing:
        """A frame that arrived as JSON text (from another server process): sent as it is."""
        out = cls(json.loads(text))
        out._text = text
        return out

    @property
    def text(self) -> str:
        if self._text is None:
            self._text = dumps(self.data)
        return self._text


class Connection:
    """One client socket: an outbound queue drained in order by a writer task.

    :meth:`push` never blocks the table. Whole-state frames (``state``,
    ``table``) are pushed with a ``latest`` key: a queued one that has not been
    sent yet is dropped for the newer one, so a spectator or a player who reads
    slowly gets the newest state rather than a backlog (LD5, LD6). A client that
    still lets :data:`MAX_QUEUE` frames pile up (its own acks and errors), or
    whose socket takes :data:`SEND_TIMEOUT` seconds to take one frame, is
    closed with ``CLOSE_SLOW`` and resumes by version.
    """

    def __init__(
        self,
        send: Callable[[str], Awaitable[None]],
        close: Callable[[int, str], Awaitable[None]],
        lang: str = "en",
    ) -> None:
        self._send = send
        self._close = close
        self.lang = lang
        self.seat: int | None = None
        self.pace = 0.0  # seconds a state frame waits before it is sent (spectators)
        self.closed = False
        # (latest key or None, frame) or (close code, reason)
        self.queue: deque[tuple[str | None, Outgoing] | tuple[int, str]] = deque()
        self._ready = asyncio.Event()
        self.task: asyncio.Task[None] | None = None

    def start(self) -> None:
        self.task = asyncio.get_running_loop().create_task(self._writer())

    def push(self, frame: dict[str, Any] | Outgoing, latest: str | None = None) -> None:
        """Queue ``frame``; with ``latest``, in place of a queued unsent frame of that key
        (a replaced ``state`` hands its events on, so the client's log misses nothing)."""
        if self.closed:
            return
        out = frame if isinstance(frame, Outgoing) else Outgoing(frame)
        if latest is not None:
            for i, (key, older) in enumerate(self.queue):
                if key == latest:
                    del self.queue[i]
                    if latest == "state" and isinstance(older, Outgoing):
                        out = Outgoing(_with_events_of(older.data, out.data))
                    break
        item: tuple[str | None, Outgoing] = (latest, out)
        if len(self.queue) >= MAX_QUEUE:
            self.queue.clear()  # it will not be read: the close goes out first
            self.close_soon(CLOSE_SLOW, "slow consumer")
            return
        self.queue.append(item)
        self._ready.set()

    def drop(self, latest: str) -> None:
        """Forget a queued unsent frame of key ``latest`` (an undo: a ``state`` of the line taken
        back is not sent, nor are its events merged into the state after the undo)."""
        for i, (key, _) in enumerate(self.queue):
            if key == latest:
                del self.queue[i]
                return

    def close_soon(self, code: int, reason: str = "") -> None:
        """Send what is queued, then close with ``code``."""
        if not self.closed:
            self.closed = True
            self.queue.append((code, reason))
            self._ready.set()

    async def _writer(self) -> None:
        try:
            while True:
                if not self.queue:
                    self._ready.clear()
                    await self._ready.wait()
                    continue
                index = 0
                if self.pace and self.queue[0][0] == "state":
                    # A spectator's state waits a moment: the players' frames and the next action
                    # go first, states that come meanwhile replace it, and the sends to many
                    # spectators are spread out rather than one burst (LD6). Other frames already
                    # queued (a pong, a chat line) go before it; one that comes during the wait
                    # follows it, at most 45 ms late.
                    index = next((i for i, item in enumerate(self.queue) if item[0] != "state"), -1)
                    if index < 0:
                        await asyncio.sleep(self.pace * (0.5 + _JITTER.random()))
                        if not self.queue:
                            continue
                        index = 0
                key, payload = self.queue[index]
                del self.queue[index]
                if isinstance(key, int):
                    with contextlib.suppress(Exception):
                        await self._close(key, str(payload))
                    return
                text = payload.text if isinstance(payload, Outgoing) else str(payload)
                try:
                    await asyncio.wait_for(self._send(text), SEND_TIMEOUT)
                except TimeoutError:
                    self.closed = True
                    with contextlib.suppress(Exception):
                        await asyncio.wait_for(self._close(CLOSE_SLOW, "slow consumer"), 1.0)
                    return
        except Exception:  # the socket went away; the reader side cleans up
            self.closed = True


def _with_events_of(older: dict[str, Any], newer: dict[str, Any]) -> dict[str, Any]:
    """``newer`` (a state frame) carrying ``older``'s events before its own: the events since
    the last state the client received. The frames may be shared: nothing is changed in place."""
    before = older.get("view", {}).get("events")
    view = newer.get("view")
    if not before or not isinstance(view, dict) or not isinstance(view.get("events"), list):
        return newer
    events = (before + view["events"])[-MAX_MERGED_EVENTS:]
    return {**newer, "view": {**view, "events": events}}
