"""A small asyncio client of the game WebSocket, for tests, benchmarks and scripted players.

>>> # async with GameClient("ws://127.0.0.1:8000", table_id, token) as c: await c.play_to_end()
"""

from __future__ import annotations

import asyncio
import json
import random
import time
from collections.abc import Callable
from types import TracebackType
from typing import Any


class GameClient:
    """One seat (or a spectator without a token) on one table."""

    def __init__(self, base: str, table_id: str, token: str | None = None, *, lang: str = "en",
                 origin: str | None = None) -> None:
        self.url = f"{base.rstrip('/')}/ws/{table_id}"
        self.token = token
        self.lang = lang
        self.origin = origin
        self.ws: Any = None
        self.seat: int | None = None
        self.version = -1
        self.view: dict[str, Any] | None = None
        self.table: dict[str, Any] | None = None  # the lobby's public facts: seats, status, pause
        self.frames: list[dict[str, Any]] = []
        self.seq = 0
        self.latencies: list[float] = []
        self.close_code: int | None = None
        self.lost_races = 0

    async def connect(self, since: int | None = None) -> dict[str, Any]:
        from websockets.asyncio.client import connect

        kwargs: dict[str, Any] = {"max_size": 2**20, "compression": None}
        if self.origin is not None:
            kwargs["origin"] = self.origin
        self.ws = await connect(self.url, **kwargs)
        hello: dict[str, Any] = {"type": "hello", "lang": self.lang}
        if self.token is not None:
            hello["token"] = self.token
        if since is not None:
            hello["since"] = since
        await self.ws.send(json.dumps(hello))
        welcome = await self.recv()
        if welcome["type"] != "welcome":
            raise RuntimeError(f"no welcome: {welcome}")
        self.seat = welcome["seat"]
        self.table = welcome["table"]
        self.seq = max(self.seq, welcome.get("seq", 0))
        return welcome

    async def __aenter__(self) -> GameClient:
        await self.connect()
        return self

    async def __aexit__(self, t: type[BaseException] | None, e: BaseException | None, tb: TracebackType | None) -> None:
        await self.close()

    async def close(self) -> None:
        if self.ws is not None:
            await self.ws.close()

    async def recv(self) -> dict[str, Any]:
        """The next frame (the latest state is kept in :attr:`view`)."""
        from websockets.exceptions import ConnectionClosed

        try:
            text = await self.ws.recv()
        except ConnectionClosed as exc:
            self.close_code = exc.rcvd.code if exc.rcvd is not None else None
            raise
        frame: dict[str, Any] = json.loads(text)
        self.frames.append(frame)
        if frame["type"] == "state":
            self.version = frame["version"]
            self.view = frame["view"]
        elif frame["type"] == "table":
            self.table = frame["table"]
        return frame

    def paused(self) -> bool:
        """A real-time game standing still (a player is away, or the countdown runs)."""
        return self.table is not None and self.table.get("pause") is not None

    async def wait_unpaused(self) -> None:
        while self.paused():
            await self.recv()

    async def until(self, test: Callable[[dict[str, Any]], bool]) -> dict[str, Any]:
        while True:
            frame = await self.recv()
            if test(frame):
                return frame

    def my_turn(self) -> bool:
        v = self.view
        return v is not None and v["outcome"] is None and bool(v["legal_actions"])

    def over(self) -> bool:
        return self.view is not None and self.view["outcome"] is not None

    async def wait_turn(self) -> None:
        """Frames until this seat may act or the game is over."""
        while not (self.my_turn() or self.over()):
            await self.recv()

    async def act(self, action: str) -> dict[str, Any]:
        """Send an action and wait for its ``ack`` (or ``error``); records the latency.

        The action carries the version it was chosen on, so a Spit action
        overtaken by another arrival comes back as ``lost_race``. After an ack
        (or a ``lost_race``) the state it names has been received too.
        """
        self.seq += 1
        seq = self.seq
        msg: dict[str, Any] = {"type": "act", "seq": seq, "action": action}
        if self.version >= 0:
            msg["version"] = self.version
        t0 = time.perf_counter()
        await self.ws.send(json.dumps(msg))
        reply = await self.until(lambda f: f["type"] in ("ack", "error") and f.get("seq") == seq)
        self.latencies.append(time.perf_counter() - t0)
        version = reply.get("version")
        if isinstance(version, int) and version > self.version:
            await self.until(lambda f: f["type"] == "state" and f["version"] >= version)
        return reply

    async def undo(self) -> dict[str, Any]:
        """Ask to take back this seat's last move (a table with undo, against bots only): the
        ``undo`` frame, after which the state it names has been received too, or the ``error``."""
        await self.ws.send(json.dumps({"type": "undo"}))
        reply = await self.until(lambda f: f["type"] == "undo" or (f["type"] == "error" and "seq" not in f))
        if reply["type"] == "undo":
            await self.until(lambda f: f["type"] == "state" and f["version"] == reply["version"])
        return reply

    async def play_to_end(
        self,
        rng: random.Random | None = None,
        limit: int = 100_000,
        *,
        choose: Callable[[dict[str, Any], random.Random], str] | None = None,
        think: float = 0.0,
    ) -> dict[str, Any]:
        """Play until the game is over and return the outcome.

        ``choose(view, rng)`` picks the action (a random legal one by default),
        ``think`` seconds after the state it looks at arrived. In a real-time game
        an action overtaken by another arrival (``lost_race``) is chosen again
        from the newer state, and nothing is sent while the table is paused;
        any other refusal is an error.
        """
        rng = rng or random.Random()
        pick = choose or (lambda view, r: r.choice(view["legal_actions"]))
        self.lost_races = 0
        for _ in range(limit):
            await self.wait_turn()
            if self.over():
                break
            if self.paused():
                await self.wait_unpaused()
                continue
            if think:
                await asyncio.sleep(think)
                await self.drain()
                if not self.my_turn():
                    continue
            assert self.view is not None
            reply = await self.act(pick(self.view, rng))
            if reply["type"] == "error":
                if reply["code"] == "paused":
                    continue  # the table frame saying so comes with it or has come
                if reply["code"] != "lost_race":
                    raise RuntimeError(f"a legal action was refused: {reply}")
                self.lost_races += 1
            elif reply.get("queued"):  # held back by the one-hand interval: the next state shows it
                await self.until(lambda f: f["type"] == "state")
        assert self.view is not None
        outcome: dict[str, Any] = self.view["outcome"]
        return outcome

    async def drain(self) -> None:
        """Read every frame that has already arrived (so :attr:`view` is the newest state)."""
        while True:
            try:
                await asyncio.wait_for(self.recv(), 0.001)
            except TimeoutError:
                return
