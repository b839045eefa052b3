"""Running events over the server's tables (docs/tournaments.md, "Running"; ids T8–T10).

The runner looks at every open and running event every :attr:`Runner.tick` seconds
(:meth:`Runner.step`): it starts the events that are due, makes each round's tables, starts a
table once its people are there, reads the results of finished games and pairs the next round
when the last game of a round has ended. Everything it knows of a running event is the event's
``progress`` in the store, written after each change, and the tables in the action log; so a
restart loses nothing: the new process reads both and goes on (T9). On a cluster one node runs
the events at a time; each write of a progress goes through only if the event's row is still as
this node read it at the start of its step (:meth:`Runner._save`), so a node paused past its role
that wakes in the middle of a step writes nothing over what the node running them since wrote.

**Tables.** A round's tables have ids made of the event's id, the round and the table's number,
so a round made twice (a restart between making its tables and storing the round) finds its
tables again instead of making new ones. Their seats are filled when they are made: a person's
seat token is an HMAC of the seat under the event's secret (:func:`seat_token`; the entrant asks
for it with their session, ``GET /api/events/{id}/seat``), a bot's seat holds its level. A table
starts once every person at it is connected; after :attr:`Runner.no_show` seconds it is a no-show:

- Swiss: the absent lose the game without play (a forfeit; if both are absent both lose) and the
  table is never started: once the event's progress says so it is closed (:meth:`Runner._close`);
- duplicate: the table starts anyway and a stand-in bot plays the absent seat (the others still
  play the event's deals); the absent scores no matchpoint on those boards, which count against
  them. A person who leaves a duplicate game in progress is treated so from then on: the boards
  of every deal not finished when they left, which their stand-in finished, count against them.

A person with two no-shows is dropped: no longer paired (Swiss), a bot in their seat (duplicate).

**Duplicate rounds.** Every table of a round plays one game of Trex of the event's ``deals``
(the whole game, a kingdom, or a set number: the tables' option ``deals``, TX-V10); only the
deals every table has played are compared.

**Deals.** Swiss tables deal from a fair-deal protocol of their own, every seed made by the
server (the server's commitment is public from the table's creation). Every table of a duplicate
round deals from one protocol derived from the event's secret (:func:`round_deal`): the
commitment of each round's server seed is public from the event's creation, before anyone
registered (:func:`commitments`), and each table's record carries the seeds, so ``cardtable
verify`` checks that every table played the committed deals. While a duplicate round is played,
its tables are sealed (:meth:`Runner.is_sealed`): no spectator, record, replay or review, since a table
that is ahead would show deals another has still to play; the comparison of a deal across tables
is published only once every table has finished it.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import re
import sys
import time
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any, cast

from ...core.chance import SCHEME
from ...records.fairness import FairDeal
from ...tournaments import BYE, Board, Game, duplicate_seating, matchpoints, pair_round, seeded, standings
from ..commands import Attach, Leave, Look, Start
from ..lobby import LobbyError
from ..ports import LogError
from ..protocol import CLOSE_FORFEITED
from ..seating import seat_for_token
from ..store import CLOSED, BadRow, SeatRow, TableRow, token_hash
from .service import Events
from .store import EventRow, progress_text

if TYPE_CHECKING:
    from ..cluster import RemoteTable
    from ..hub import Hub
    from ..players import Players
    from ..tables import Table

    Located = Table | RemoteTable

class Superseded(LogError):
    """An event's row changed since this node read it: another node runs the events now."""


NO_SHOW = 120.0
"""Seconds a table waits for its people before a no-show, unless the server is told otherwise
(``cardtable serve --no-show SECONDS``)."""
WATCHER = "event-runner"
"""The connection id the runner watches its tables as (no socket: its frames go nowhere)."""
DROP_AFTER = 2
"""No-shows after which a person is dropped from the event."""
FILL_BOT = {"trex": "medium", "spit": "expert", "trash": "medium"}
"""The bot that fills a short duplicate table, or a Swiss field when the event asks for bots."""


_EVENT_TABLE = re.compile(r"(.+)-r(\d+)-\d+")
"""A table of an event: ``{event}-r{round}-{number}`` (:func:`table_id`)."""
SEAL_READ_KEPT = 1.0
"""Seconds an event's row read for :meth:`Runner.is_sealed` is kept: a table of a duplicate round
is sealed from before it is made until its round is done, never sealed again after, so a row
kept this long only keeps a table sealed a second longer."""


def _mac(secret: str, label: str) -> bytes:
    return hmac.new(bytes.fromhex(secret), label.encode(), hashlib.sha256).digest()


def seat_token(secret: str, table_id: str, seat: int) -> str:
    """The token of ``seat`` at an event's table: 32 URL-safe characters, like the lobby's."""
    return base64.urlsafe_b64encode(_mac(secret, f"seat:{table_id}:{seat}")[:24]).decode()


def table_id(event_id: str, round_number: int, index: int) -> str:
    return f"{event_id}-r{round_number}-{index}"


def round_deal(row: EventRow, round_number: int) -> FairDeal:
    """The fair-deal protocol every table of duplicate round ``round_number`` (1 first) deals
    from: its server seed and seat seeds derived from the event's secret."""
    server = _mac(row.secret, f"server:{round_number}")
    seeds = [_mac(row.secret, f"seat-seed:{round_number}:{s}").hex() for s in range(4)]
    return FairDeal.from_json({
        "scheme": SCHEME, "seats": 4, "server_seed": server.hex(),
        "seat_commitments": [hashlib.sha256(bytes.fromhex(s)).hexdigest() for s in seeds],
        "seat_seeds": seeds, "server_made": [True] * 4})


def commitments(row: EventRow) -> list[str]:
    """The commitments of a duplicate event's rounds' server seeds (public from its creation)."""
    if row.kind != "duplicate":
        return []
    return [round_deal(row, r).commitment() for r in range(1, row.rounds + 1)]


def _server_fair(seats: int) -> dict[str, Any]:
    deal = FairDeal.new(seats)
    for s in range(seats):
        deal.add_bot_seat(s)
    return deal.to_json()


class Runner:
    """Runs ``events`` over ``hub``'s tables. ``players``: each person's seat is linked to their
    account (their profile lists the game). ``no_show``: seconds a table waits for its people.
    ``clock``: seconds since the epoch (the start times' clock). ``lead``: on a cluster, whether
    this node runs the events now (one node at a time does, :meth:`step`); ``None``: it always does.

    On a cluster the runner reaches its tables wherever they are (:meth:`~..hub.Hub.locate`: a
    table this node owns, or another node's through its owner), reads them with one command
    (:class:`~..commands.Look`) and starts them, watches them and seats their stand-ins with
    forwarded commands. The other nodes read the sealed and forfeited tables from the store
    (:meth:`refresh`), for their gate."""

    def __init__(self, events: Events, hub: Hub, players: Players | None = None, *, no_show: float = NO_SHOW,
                 tick: float = 0.5, clock: Callable[[], float] = time.time,
                 lead: Callable[[], Awaitable[bool]] | None = None) -> None:
        self.events = events
        self.store = events.store
        self.hub = hub
        self.players = players
        self.no_show = no_show
        self.tick = tick
        self.clock = clock
        self.lead = lead
        self.leading = lead is None
        self.sealed: set[str] = set()
        """Tables of a duplicate round being played, as this node knows them (:meth:`is_sealed`
        also knows the others, from their ids)."""
        self._seal_reads: dict[str, tuple[float, EventRow | None]] = {}
        self.forfeited: set[str] = set()
        """Tables closed without play by a no-show: out of the lobby, nobody sits at them or starts them."""
        self._read: dict[str, tuple[str, str | None]] = {}
        """Each event's status and progress text as this node last read or wrote them (:meth:`_save`)."""
        self.record: Callable[[Table], None] = self.table_finished
        """How a finished table's result is recorded (:func:`~.routes.with_events` adds the server's
        own record to :meth:`table_finished`): at once, or for a sealed table at its round's end."""
        self.seal_all()

    def seal_all(self) -> None:
        """The sealed tables as the store has them, and the tables of no-shows closed (at start,
        after a restart, and when this node begins to run the events)."""
        self.refresh()
        for row in self.store.events(("running", "over"), 1000):
            for rnd in (row.progress or {}).get("rounds", []):
                for g in rnd["games"]:
                    if g.get("forfeit") or g.get("void"):
                        try:
                            self._close(g["table"])
                        except (LogError, BadRow) as exc:  # kept out all the same; its row closed at a later start
                            print(f"cardtable serve: event {row.id}: {exc}", file=sys.stderr)

    def refresh(self) -> None:
        """The sealed tables as the store has them, and the forfeited tables of the running events
        added to :attr:`forfeited` (what a node that does not run the events gates by)."""
        sealed: set[str] = set()
        for row in self.store.events(("running",), 1000):
            rounds = (row.progress or {}).get("rounds") or []
            if row.kind == "duplicate" and rounds and not rounds[-1].get("done"):
                sealed |= {g["table"] for g in rounds[-1]["games"]}
            self.forfeited |= {g["table"] for rnd in rounds for g in rnd["games"] if g.get("forfeit") or g.get("void")}
        self.sealed = sealed

    def is_sealed(self, table_id: str) -> bool:
        """Whether ``table_id`` is a table of a duplicate round not done yet: no spectator,
        record, replay or review. Known here (:attr:`sealed`), else read from its id
        (``{event}-r{round}-{number}``) and the event's row: a duplicate event whose round of
        that number is not done, or not made yet, so a table is sealed from before it exists, on
        every node, whatever this node has heard of the round. A row that cannot be read now
        seals it."""
        if table_id in self.sealed:
            return True
        m = _EVENT_TABLE.fullmatch(table_id)
        if m is None:
            return False
        now = time.monotonic()
        kept = self._seal_reads.get(m.group(1))
        if kept is None or now - kept[0] > SEAL_READ_KEPT:
            try:
                kept = (now, self.store.event(m.group(1)))
            except LogError:
                return True
            if len(self._seal_reads) >= 1000:
                self._seal_reads.clear()
            self._seal_reads[m.group(1)] = kept
        row = kept[1]
        if row is None or row.kind != "duplicate" or row.status in ("over", "cancelled"):
            return False
        rounds = (row.progress or {}).get("rounds") or []
        number = int(m.group(2))
        return number > len(rounds) or not rounds[number - 1].get("done")

    def _close(self, table_id: str) -> None:
        """A table that will never be played (a no-show), once the event's progress that says so
        is stored: out of memory and the lobby, its sockets closed 4010 (its pages stop
        reconnecting and say why), kept so by :class:`~.routes.EventGate`, and
        :data:`~..store.CLOSED` in the log, so that no restart and no other process loads it again
        (a row an earlier version left ``open`` is closed when the runner starts)."""
        self.forfeited.add(table_id)
        self.hub.drop(table_id, CLOSE_FORFEITED)
        found = self.hub.runner.call(lambda: self.hub.store.table(table_id))
        if found is not None and found.status == "open":
            self.hub.runner.call(lambda: self.hub.store.set_status(table_id, CLOSED))

    # ------------------------------------------------------------- the loop
    async def keep_lead(self) -> None:
        """On a cluster, whether this node runs the events, the role taken or held again: called
        every :attr:`tick` by a loop of its own, so that a slow :meth:`step` (a table's owner
        changing under it) never lets the role run out while this node lives."""
        if self.lead is None:
            return
        leading = await self.lead()
        if leading and not self.leading:  # from now on this node runs them: as after a restart
            self.seal_all()
        self.leading = leading

    async def step(self) -> None:
        """One look at every open and running event, if this node runs the events (else the
        sealed and forfeited tables read again, :meth:`refresh`)."""
        if not self.leading:
            return self.refresh()
        rows = self.store.events(("open", "running"), 1000)
        self._read = {row.id: (row.status, progress_text(row.progress)) for row in rows}
        for row in rows:
            try:
                if row.status == "open":
                    await self._maybe_start(row)
                else:
                    await self._tend(row)
            except Superseded as exc:  # another node runs them: this one reads them again once it does
                print(f"cardtable serve: event {row.id}: {exc}", file=sys.stderr)
                if self.lead is not None:
                    self.leading = False
                return
            except (LogError, LobbyError, BadRow) as exc:  # the store or a table is not usable now: next tick
                print(f"cardtable serve: event {row.id}: {exc}", file=sys.stderr)

    def _save(self, row: EventRow, status: str, progress: dict[str, Any]) -> None:
        """``row``'s new status and progress stored, if the row is still as this node read it at
        the start of its step or last wrote it (else :class:`Superseded`, and nothing written)."""
        if not self.store.set_progress(row.id, status, progress, was=self._read.get(row.id)):
            raise Superseded("changed by another node since this one read it; not written")
        self._read[row.id] = (status, progress_text(progress))

    # ------------------------------------------------------------- starting
    async def _maybe_start(self, row: EventRow) -> None:
        entrants = self.store.entrants(row.id)
        now = self.clock()
        due = row.starts_at is not None and now >= row.starts_at
        full = row.when_full and len(entrants) >= row.max_entrants
        if not (due or full):
            return
        if len(entrants) < 2:
            self._save(row, "cancelled", {"reason": "fewer than two entrants at the start"})
            return
        ratings = self._ratings(row.game, [e.account_id for e in entrants])
        people: dict[str, dict[str, Any]] = {
            f"a{e.account_id}": {"id": f"a{e.account_id}", "name": e.username, "account": e.account_id,
                                 "rating": ratings.get(e.account_id)} for e in entrants}
        order = seeded(list(people), {f"a{a}": r for a, r in ratings.items()})
        field: list[dict[str, Any]] = [people[p] for p in order]
        size = len(field)
        if row.kind == "duplicate":
            size = -(-size // 4) * 4  # bots make up the last table
        elif row.bots:
            size = row.max_entrants  # bots fill the field
        level = FILL_BOT[row.game]
        for i in range(size - len(field)):
            field.append({"id": f"b{i}", "name": f"{level} {i + 1}", "bot": level})
        progress: dict[str, Any] = {"field": field, "rounds": [], "dropped": [], "no_shows": {}, "boards": [],
                                    "started": now}
        await self._new_round(row, progress)

    def _ratings(self, game: str, accounts: list[int]) -> dict[int, float]:
        """Each rated account's rating in ``game`` (mu − 3σ, as the leaderboard ranks); none
        without the players layer."""
        if self.players is None:
            return {}
        out: dict[int, float] = {}
        for account in accounts:
            found = self.players.rating(account, game)
            if found is not None:
                out[account] = round(found.mu - 3 * found.sigma, 2)
        return out

    # ------------------------------------------------------------- rounds
    async def _new_round(self, row: EventRow, progress: dict[str, Any]) -> None:
        number = len(progress["rounds"]) + 1
        field = {p["id"]: p for p in progress["field"]}
        dropped = set(progress["dropped"])
        games: list[dict[str, Any]] = []
        bye = None
        if row.kind == "swiss":
            ids = [p["id"] for p in progress["field"]]
            history = swiss_games(progress)
            ranked = [s.player for s in standings(ids, history) if s.player not in dropped]
            if len(ranked) < 2:
                return self._finish(row, progress)
            pairing = pair_round(ranked, history, number)
            bye = pairing.bye
            for i, pair in enumerate(pairing.games):
                tid = table_id(row.id, number, i)
                await self._table(row, tid, [field[p] for p in pair], _server_fair(2), dropped)
                games.append({"table": tid, "players": list(pair), "points": None, "forfeit": False})
        else:
            ids = [p["id"] for p in progress["field"]]
            deal = round_deal(row, number).to_json()
            for i, seats in enumerate(duplicate_seating(ids, number - 1)):
                tid = table_id(row.id, number, i)
                await self._table(row, tid, [field[p] for p in seats], deal, dropped)
                games.append({"table": tid, "players": list(seats), "done": False, "absent": [],
                              "stand_ins": [s for s, p in enumerate(seats) if p in dropped]})
            self.sealed |= {g["table"] for g in games}
        progress["rounds"].append({"number": number, "started": self.clock(), "games": games, "bye": bye,
                                   "deals_done": [], "done": False})
        self._save(row, "running", progress)

    async def _table(self, row: EventRow, tid: str, players: list[dict[str, Any]], fair: dict[str, Any],
                     dropped: set[str]) -> None:
        """The table ``tid`` with ``players`` in its seats (made unless it exists already; on a
        cluster, owned by this node)."""
        if await self.hub.locate(tid) is not None:
            return
        seats = []
        for s, p in enumerate(players):
            if "bot" in p or p["id"] in dropped:
                seats.append(SeatRow(s, "bot", p.get("bot") or FILL_BOT[row.game]))
            else:
                seats.append(SeatRow(s, "human", p["name"], token_hash(seat_token(row.secret, tid, s))))
        table = TableRow(id=tid, game=row.game, preset=row.preset, options=row.options, seed=None,
                         bot_seed=int.from_bytes(_mac(row.secret, f"bots:{tid}")[:8], "big") >> 1,
                         host_hash=token_hash(seat_token(row.secret, tid, -1)), status="open", created=time.time(),
                         seats=seats, fair=fair)
        self.hub.runner.call(lambda: self.hub.store.create_table(table))
        if self.players is not None:
            for s, p in enumerate(players):
                if "account" in p and p["id"] not in dropped:
                    self.players.link_seat(p["account"], tid, s, token=seat_token(row.secret, tid, s))
        await self.hub.locate(tid)

    async def _tend(self, row: EventRow) -> None:
        progress = row.progress or {}
        if not progress.get("rounds"):
            return await self._new_round(row, progress)
        rnd = progress["rounds"][-1]
        await self._tend_round(row, progress, rnd)
        for g in rnd["games"]:  # the progress is stored: the tables of its no-shows are closed
            if (g.get("forfeit") or g.get("void")) and g["table"] not in self.forfeited:
                self._close(g["table"])

    async def _tend_round(self, row: EventRow, progress: dict[str, Any], rnd: dict[str, Any]) -> None:
        """The last round's tables looked at; the progress stored if it changed (the next round
        made, or the event finished, after its last game)."""
        changed = False
        for g in rnd["games"]:
            if g.get("points") is not None or g.get("done"):
                continue
            table = await self.hub.locate(g["table"])
            if table is None:
                continue
            changed |= await self._tend_table(row, progress, rnd, g, table)
        if row.kind == "duplicate":
            looks = await self._looks(rnd)
            changed |= self._note_leavers(rnd, looks)
            changed |= self._compare(row, progress, rnd, looks)
        if all(g.get("points") is not None or g.get("done") for g in rnd["games"]) and await self._record_sealed(rnd):
            rnd["done"] = True
            self.sealed -= {g["table"] for g in rnd["games"]}
            if len(progress["rounds"]) >= row.rounds:
                return self._finish(row, progress)
            return await self._new_round(row, progress)
        if changed:
            self._save(row, "running", progress)

    async def _tend_table(self, row: EventRow, progress: dict[str, Any], rnd: dict[str, Any], g: dict[str, Any],
                          table: Located) -> bool:
        look = await table.ask(Look(WATCHER))
        status = look["status"]
        if status == "playing" and not look["watched"]:
            # a table whose seats are all bots (bots paired together, or stand-ins for people who
            # left) waits for a spectator before its bots move: the event watches its tables
            await table.ask(Attach(WATCHER, None, None, "en"))
        if status == "open":
            people = [s for s, kind in enumerate(look["kinds"]) if kind != "bot"]  # an opened seat's person too
            absent = [s for s in people if s not in look["online"]]
            if not absent:
                await table.ask(Start())
                await table.ask(Attach(WATCHER, None, None, "en"))
                return False
            if self.clock() - rnd["started"] < self.no_show:
                return False
            for s in absent:
                self._no_show(progress, g["players"][s])
            if row.kind == "swiss":
                g["points"] = [0.0 if s in absent else 1.0 for s in range(2)]
                g["forfeit"] = True  # closed once this is stored (:meth:`_tend`)
                return True
            if "open" in look["kinds"]:
                g["done"] = g["void"] = True  # a seat was opened (it cannot start): not played, nobody scores
                return True
            await table.ask(Start())
            await table.ask(Attach(WATCHER, None, None, "en"))
            for s in absent:
                await table.ask(Leave(seat_token(row.secret, table.id, s)))
            g["absent"] = absent
            return True
        if status != "over" or look["winners"] is None:  # the look comes after every write before it
            return False
        if row.kind == "swiss":
            # a person who left the game in progress loses it, whatever their stand-in did (as
            # the ratings rank them last); two who left both lose. A person's seat that a bot
            # holds now was left, also when the table has been loaded again since.
            kinds = look["kinds"]
            left = set(look["left"]) | {s for s, entrant in enumerate(g["players"])
                                        if entrant.startswith("a") and kinds[s] == "bot"}
            winners = set(look["winners"])
            if left:
                g["points"] = [0.0 if s in left else 1.0 for s in range(2)]
            else:
                g["points"] = [1.0, 0.0] if winners == {0} else [0.0, 1.0] if winners == {1} else [0.5, 0.5]
        else:
            g["done"] = True
        return True

    def _no_show(self, progress: dict[str, Any], player: str) -> None:
        count = progress["no_shows"].get(player, 0) + 1
        progress["no_shows"][player] = count
        if count >= DROP_AFTER and player not in progress["dropped"]:
            progress["dropped"].append(player)

    # ------------------------------------------------------------- duplicate comparisons
    async def _looks(self, rnd: dict[str, Any]) -> dict[str, dict[str, Any]]:
        """A look (:class:`~..commands.Look`) at each table of the round that was not void and
        can be reached now, by table."""
        out = {}
        for g in rnd["games"]:
            table = None if g.get("void") else await self.hub.locate(g["table"])
            if table is not None:
                out[g["table"]] = await table.ask(Look(WATCHER))
        return out

    def _note_leavers(self, rnd: dict[str, Any], looks: dict[str, dict[str, Any]]) -> bool:
        """The people who left a duplicate table in progress, noted once each with the deals their
        table had finished then (``g["left"]``: hand → deal numbers): the later deals are their
        stand-in's, and :meth:`_compare` counts them as an absent person's boards."""
        changed = False
        for g in rnd["games"]:
            look = looks.get(g["table"])
            if g.get("void") or look is None:
                continue
            noted = g.get("left", {})
            for hand in look["left"]:
                if (str(hand) in noted or hand in g.get("absent", [])
                        or not g["players"][hand].startswith("a")):  # a no-show is absent already
                    continue
                noted[str(hand)] = sorted(int(d) for d, *_ in look["deals"])
                g["left"] = noted
                changed = True
        return changed

    def _compare(self, row: EventRow, progress: dict[str, Any], rnd: dict[str, Any],
                 looks: dict[str, dict[str, Any]]) -> bool:
        """The deals every table of the round has finished, compared (each once)."""
        finished: list[dict[int, tuple[str, tuple[float, ...]]]] = []
        games = [g for g in rnd["games"] if not g.get("void")]
        if not games:
            return False
        for g in games:
            look = looks.get(g["table"])
            if look is None or look["status"] == "open":
                return False
            finished.append({int(d): (str(code), tuple(float(x) for x in deltas)) for d, code, deltas in look["deals"]})
        common = set(finished[0]).intersection(*finished[1:]) - set(rnd["deals_done"])
        if not common:
            return False
        for d in sorted(common):
            for g, deals in zip(games, finished, strict=True):
                code, deltas = deals[d]
                for hand, score in enumerate(deltas):
                    player = g["players"][hand]
                    left = g.get("left", {}).get(str(hand))
                    if hand in g.get("absent", []) or (left is not None and d not in left):
                        player = f"absent:{player}"  # a stand-in played their cards: it counts against them
                    elif g.get("stand_ins") and hand in g["stand_ins"]:
                        player = f"bot:{player}"  # dropped before this round: a bot held the seat
                    progress["boards"].append({"round": rnd["number"], "deal": d, "hand": hand, "table": g["table"],
                                               "player": player, "score": score, "contract": code})
            rnd["deals_done"].append(d)
        return True

    def waiting(self, table_id: str) -> bool:
        """``table_id`` is an event's table that has not started yet."""
        m = _EVENT_TABLE.fullmatch(table_id)
        if m is None:
            return False
        table = self.hub.tables.get(table_id)
        try:
            row = table.row if table is not None else self.hub.runner.call(lambda: self.hub.store.table(table_id))
            if row is None or row.status != "open":
                return False
            return self.store.event(m.group(1)) is not None
        except (LogError, BadRow):
            return True

    async def holds_seat(self, table_id: str, token: Any) -> bool:
        """``token`` holds a seat of the event's table ``table_id`` now (a person whose seat a bot
        took when they left holds none), as the table here has its seats, else the log."""
        if not isinstance(token, str):
            return False
        table = self.hub.tables.get(table_id)
        try:
            row = table.row if table is not None else await self.hub.runner.read(
                lambda: self.hub.store.table(table_id))
        except (LogError, BadRow):
            return False
        return row is not None and seat_for_token(row, token) is not None

    # ------------------------------------------------------------- ratings
    async def _record_sealed(self, rnd: dict[str, Any]) -> bool:
        """The results of a duplicate round's tables, recorded once every table has finished (a
        result on a profile, or a rating that moved, would tell the players of a slower table how
        the same deals went): before the round is marked done, so a stop in between records them
        at the next look (recording is idempotent per table). ``False`` while a table's end is
        not in the log yet (on a cluster, its owner writes it): the next look records it."""
        for g in rnd["games"]:
            if not self.is_sealed(g["table"]) or g.get("forfeit") or g.get("void"):
                continue
            table = await self.hub.locate(g["table"])
            match = getattr(table, "match", None)  # a table another node owns has none here
            if table is not None and match is None and getattr(table, "owner_node", None) is not None:
                return False
            if table is not None and match is not None and match.is_over:
                self.record(cast("Table", table))
        return True

    def table_finished(self, table: Table) -> None:
        """A table's game has ended (the hub's ``finished`` call, before the server records the
        result as casual): at a rated event's table the result moves the ratings. A person who
        left and whose seat a stand-in finished abandoned it (ranked last)."""
        m = _EVENT_TABLE.fullmatch(table.id)
        if m is None or self.players is None or table.match is None:
            return
        row = self.store.event(m.group(1))
        if row is None or not row.rated:
            return
        self.players.record_table(table, rated=True)  # who left and who held each seat, as any table

    # ------------------------------------------------------------- the end
    def _finish(self, row: EventRow, progress: dict[str, Any]) -> None:
        progress["final"] = final_standings(row, progress)
        progress["ended"] = self.clock()
        self._save(row, "over", progress)


def swiss_games(progress: dict[str, Any]) -> list[Game]:
    """The Swiss games played so far (byes included)."""
    out: list[Game] = []
    for rnd in progress.get("rounds", []):
        for g in rnd["games"]:
            if g.get("points") is not None:
                a, b = g["players"]
                out.append(Game(rnd["number"], a, b, (g["points"][0], g["points"][1]), bool(g.get("forfeit"))))
        if rnd.get("bye"):
            out.append(Game(rnd["number"], rnd["bye"], BYE))
    return out


def duplicate_score(row: EventRow, progress: dict[str, Any]) -> Any:
    """The matchpoints of the compared deals; an absent player's boards count against them."""
    boards = [Board((b["round"], b["deal"]), b["hand"], b["table"], b["player"], b["score"])
              for b in progress.get("boards", [])]
    score = matchpoints(boards, higher_better=not row.options.get("reverse_scores", False))
    for b in boards:
        if b.player.startswith("absent:"):
            who = b.player.removeprefix("absent:")
            others = sum(1 for o in boards if o.deal == b.deal and o.hand == b.hand) - 1
            score.tops[who] = score.tops.get(who, 0.0) + others
            score.matchpoints.setdefault(who, 0.0)
    return score


def final_standings(row: EventRow, progress: dict[str, Any]) -> list[dict[str, Any]]:
    """The standings as the page shows them (live during the event, final at its end)."""
    field = progress.get("field", [])
    ids = [p["id"] for p in field]
    names = {p["id"]: p["name"] for p in field}
    dropped = set(progress.get("dropped", []))
    if row.kind == "swiss":
        return [{"place": s.place, "player": s.player, "name": names[s.player], "score": s.score,
                 "buchholz": s.buchholz, "sonneborn_berger": s.sonneborn_berger, "played": s.played,
                 "won": s.won, "byes": s.byes, "dropped": s.player in dropped}
                for s in standings(ids, swiss_games(progress), dropped)]
    score = duplicate_score(row, progress)
    return [{"place": place, "player": p, "name": names[p], "percentage": round(pct, 2),
             "matchpoints": score.matchpoints.get(p, 0.0), "top": score.tops.get(p, 0.0), "dropped": p in dropped}
            for place, p, pct in score.ranking(ids)]
