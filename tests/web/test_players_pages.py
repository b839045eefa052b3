"""The players' pages in Chromium, on the server's app with the players' routes mounted (served by
uvicorn in a thread of the test): sign up (keeping the games played in this browser), log out,
log in, the profile with its rating chart and replay links, the leaderboard, in English, Spanish,
Portuguese and Arabic, with no script or CSP error."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import httpx
import pytest

from cardtable.core.game import Outcome
from cardtable.server.client import GameClient
from tests.server.helpers import wait
from tests.server.players_fixtures import make_app

from .browser import SHOTS, sync_api
from .threaded import Served


def only_the_refused_login(errors: list[str]) -> list[str]:
    """The page's errors less the one Chromium logs for the wrong password's 401 answer."""
    refused = [e for e in errors if "status of 401" in e]
    assert len(refused) == 1, errors
    return [e for e in errors if e not in refused]


@pytest.fixture
def served(tmp_path: Path, browser: Any) -> Iterator[Served]:
    s = Served(*make_app(tmp_path))
    yield s
    s.stop()


def test_signup_login_profile_in_the_browser(served: Served, watched: Any):
    """Sign up keeping the game played in this browser (its seat token), see the profile, log
    out, fail a login with a wrong password (one message for any mistake), log in, and read the
    profile's rating chart and replay link, then the leaderboard."""
    table = served.post("/api/tables", {"game": "spit", "preset": "standard"})["table"]["id"]
    token = served.post(f"/api/tables/{table}/sit", {"seat": 0, "name": "Ana"})["token"]
    w = watched()
    page = w.page
    page.goto(served.http + "/account")
    page.evaluate("([k, v]) => localStorage.setItem(k, JSON.stringify(v))",
                  [f"ct.seat.{table}", {"seat": 0, "token": token}])  # as the lobby keeps a seat
    page.evaluate("() => localStorage.setItem('ct.lang', 'en')")
    page.goto(served.http + "/account")
    signup = page.get_by_test_id("signup")
    sync_api.expect(signup.get_by_test_id("keep-games")).to_be_checked()
    page.screenshot(path=str(SHOTS / "players-account.png"))
    signup.get_by_test_id("username").fill("Ana")
    signup.get_by_test_id("password").fill("a long passphrase")
    signup.get_by_test_id("signup-submit").click()
    sync_api.expect(page.get_by_test_id("profile-name")).to_have_text("Ana")
    ana = served.players.accounts.named("Ana")
    assert ana is not None and served.players.seat_accounts(table, 2) == [ana.id, None]  # the kept game
    # the server records the table when it finishes (the lead's hook); two rated games against a bot
    served.players.record_result(table, "spit", [ana.id, "expert"], Outcome((1.0, 0.0), (0,), "SP-25"))
    served.players.record_result("second", "spit", ["expert", ana.id], Outcome((0.0, 1.0), (1,), "SP-25"))
    page.get_by_test_id("nav-account").click()
    sync_api.expect(page.get_by_test_id("logged-in")).to_contain_text("Ana")
    page.get_by_test_id("logout").click()
    sync_api.expect(page.get_by_test_id("nav-account")).to_have_text("Log in")
    login = page.get_by_test_id("login")
    login.get_by_test_id("username").fill("ana")
    login.get_by_test_id("password").fill("wrong password")
    login.get_by_test_id("login-submit").click()
    sync_api.expect(page.get_by_test_id("login-error")).to_have_text("Wrong username or password.")
    login.get_by_test_id("password").fill("a long passphrase")
    login.get_by_test_id("login-submit").click()
    sync_api.expect(page.get_by_test_id("profile-name")).to_have_text("Ana")
    sync_api.expect(page.get_by_test_id("rating-spit")).to_contain_text("provisional")
    points = page.get_by_test_id("rating-line").get_attribute("points")
    assert points is not None and len(points.split()) == 2
    results = page.get_by_test_id("result")
    sync_api.expect(results).to_have_count(2)
    sync_api.expect(results.nth(1).get_by_test_id("replay-link")).to_have_attribute("href", f"/t/{table}/replay?seat=0")
    page.screenshot(path=str(SHOTS / "players-profile.png"))
    page.get_by_test_id("nav-leaderboard").click()
    page.get_by_test_id("board-spit").click()
    rows = page.get_by_test_id("board-row")
    sync_api.expect(rows).to_have_count(2)
    assert {rows.nth(i).locator("a").inner_text() for i in range(2)} == {"Ana", "expert"}
    page.screenshot(path=str(SHOTS / "players-leaderboard.png"))
    assert only_the_refused_login(w.errors) == []


@pytest.mark.parametrize(("lang", "words"), [("es", ("Crear una cuenta", "Usuario o contraseña incorrectos.")),
                                             ("pt", ("Criar uma conta", "Usuário ou senha incorretos.")),
                                             ("ar", ("إنشاء حساب", "اسم المستخدم أو كلمة المرور غير صحيحة."))])
def test_the_account_page_in_every_language(served: Served, watched: Any, lang: str, words: tuple[str, str]):
    """Four languages: the account page and its error in Spanish, Portuguese and Arabic (right to
    left); the leaderboard's headings too."""
    w = watched(width=390, phone=True)
    page = w.page
    page.goto(served.http + "/account")
    page.evaluate("(l) => localStorage.setItem('ct.lang', l)", lang)
    page.goto(served.http + "/account")
    sync_api.expect(page.get_by_test_id("signup").locator("h2")).to_have_text(words[0])
    assert page.evaluate("() => document.documentElement.dir") == ("rtl" if lang == "ar" else "ltr")
    login = page.get_by_test_id("login")
    login.get_by_test_id("username").fill("nobody")
    login.get_by_test_id("password").fill("wrong password")
    login.get_by_test_id("login-submit").click()
    sync_api.expect(page.get_by_test_id("login-error")).to_have_text(words[1])
    page.goto(served.http + "/leaderboard/trash")
    sync_api.expect(page.get_by_test_id("board-empty")).to_be_visible()
    assert page.locator("h1").inner_text() != "Leaderboard: Trash"
    if lang == "ar":
        page.screenshot(path=str(SHOTS / "players-leaderboard-ar.png"))
    assert only_the_refused_login(w.errors) == []


def finished_trash(served: Served) -> str:
    """Two random bots play a Trash game to its end while a spectator watches (bots alone wait
    for one); the table's id."""
    created = served.post("/api/tables", {"game": "trash"})
    table_id, host = created["table"]["id"], created["host"]
    for seat in (0, 1):
        served.post(f"/api/tables/{table_id}/bot", {"host": host, "seat": seat, "bot": "random"})
    served.post(f"/api/tables/{table_id}/start", {"host": host})

    async def watch() -> None:
        async with GameClient(served.http.replace("http", "ws", 1), table_id) as spectator:
            await spectator.until(lambda f: f["type"] == "state" and f["view"]["outcome"] is not None)

    with ThreadPoolExecutor(1) as pool:  # Playwright's sync API holds this thread's event loop
        pool.submit(asyncio.run, asyncio.wait_for(watch(), 120)).result()
    status = lambda: httpx.get(f"{served.http}/api/tables/{table_id}").json()["table"]["status"]  # noqa: E731
    wait("the game's end", lambda: status() == "over")
    return table_id


def in_lang(page: Any, served: Served, lang: str) -> None:
    page.goto(served.http + "/account")
    page.evaluate("(l) => localStorage.setItem('ct.lang', l)", lang)


def person(served: Served, name: str) -> int:
    """An account made by the server's own call (the page makes them with a password)."""
    return served.players.accounts.store.add_account("person", name, name.casefold(), None).id


def test_p_profile_the_review_link_opens_the_replay_page_with_its_review_panel(served: Served, watched: Any):
    """A finished Trash game on Ana's profile: its Review link is the replay page's (the seat
    she held, the Review panel open), not the review API's JSON."""
    table = finished_trash(served)
    ana = person(served, "Ana")
    served.players.record_result(table, "trash", ["expert", ana], Outcome((0.0, 1.0), (1,), "TR-9"))
    w = watched()
    page = w.page
    in_lang(page, served, "en")
    page.goto(served.http + "/players/Ana")
    link = page.get_by_test_id("result").get_by_test_id("review-link")
    sync_api.expect(link).to_have_attribute("href", f"/t/{table}/replay?seat=1&review=1")
    link.click()
    page.wait_for_url(f"**/t/{table}/replay?seat=1*")
    sync_api.expect(page.get_by_test_id("replay-seat")).to_have_value("1")
    panel = page.get_by_test_id("review")
    sync_api.expect(panel).to_be_visible()
    sync_api.expect(panel.get_by_test_id("review-summary")).to_be_visible(timeout=60_000)
    assert not w.errors, w.errors


def test_p_profile_and_leaderboard_page_through_older_games_and_lower_places(served: Served, watched: Any):
    """53 finished games on a profile: 50 on the first page, the 3 older ones on the next, with
    links both ways; a leaderboard of 52 players: places 51 and 52 on its second page."""
    ana = person(served, "Ana")
    for i in range(53):
        served.players.record_result(f"g{i:02d}", "spit", [ana, "expert"], Outcome((1.0, 0.0), (0,), "SP-25"))
    for i in range(50):  # 51 people and the bot on the Spit leaderboard
        served.players.record_result(f"o{i:02d}", "spit", [person(served, f"Player{i:02d}"), "expert"],
                                     Outcome((0.0, 1.0), (1,), "SP-25"))
    w = watched()
    page = w.page
    in_lang(page, served, "en")
    page.goto(served.http + "/players/Ana")
    results = page.get_by_test_id("result")
    sync_api.expect(results).to_have_count(50)
    sync_api.expect(page.get_by_test_id("page-prev")).to_have_count(0)
    page.get_by_test_id("page-next").click()
    page.wait_for_url("**/players/Ana?page=1")
    sync_api.expect(results).to_have_count(3)
    sync_api.expect(page.get_by_test_id("page-number")).to_have_text("page 2")
    sync_api.expect(page.get_by_test_id("page-next")).to_have_count(0)
    assert results.nth(2).get_by_test_id("replay-link").get_attribute("href") == "/t/g00/replay?seat=0"  # the oldest
    page.get_by_test_id("page-prev").click()
    page.wait_for_url("**/players/Ana")
    sync_api.expect(results).to_have_count(50)
    page.goto(served.http + "/leaderboard/spit")
    rows = page.get_by_test_id("board-row")
    sync_api.expect(rows).to_have_count(50)
    page.get_by_test_id("page-next").click()
    page.wait_for_url("**/leaderboard/spit?page=1")
    sync_api.expect(rows).to_have_count(2)
    assert [rows.nth(i).locator("td").first.inner_text() for i in range(2)] == ["51", "52"]
    sync_api.expect(page.get_by_test_id("page-next")).to_have_count(0)
    page.get_by_test_id("page-prev").click()
    page.wait_for_url("**/leaderboard/spit")
    sync_api.expect(rows).to_have_count(50)
    assert not w.errors, w.errors


def test_p_ar_the_rating_charts_labels_stay_inside_the_chart(served: Served, watched: Any):
    """In Arabic (right to left) the chart's lowest and highest ratings are drawn inside it, not
    cut off at its left edge."""
    ana = person(served, "Ana")
    served.players.record_result("t1", "spit", [ana, "expert"], Outcome((1.0, 0.0), (0,), "SP-25"))
    served.players.record_result("t2", "spit", [ana, "expert"], Outcome((0.0, 1.0), (1,), "SP-25"))
    w = watched()
    page = w.page
    in_lang(page, served, "ar")
    page.goto(served.http + "/players/Ana")
    chart = page.get_by_test_id("rating-chart")
    sync_api.expect(chart).to_be_visible()
    box = chart.bounding_box()
    labels = chart.locator("text")
    sync_api.expect(labels).to_have_count(2)
    for i in range(2):
        label = labels.nth(i).bounding_box()
        assert box["x"] <= label["x"] and label["x"] + label["width"] <= box["x"] + box["width"], (box, label)
    page.get_by_test_id("game-spit").screenshot(path=str(SHOTS / "players-chart-ar.png"))
    assert not w.errors, w.errors


def test_p_deleting_the_account_says_log_in_in_the_header_at_once(served: Served, watched: Any):
    """Once the account is deleted the header no longer names it: "Log in" at once, no reload."""
    w = watched()
    page = w.page
    in_lang(page, served, "en")
    page.goto(served.http + "/account")
    signup = page.get_by_test_id("signup")
    signup.get_by_test_id("username").fill("Dora")
    signup.get_by_test_id("password").fill("a long passphrase")
    signup.get_by_test_id("signup-submit").click()
    sync_api.expect(page.get_by_test_id("nav-profile")).to_have_text("Dora")
    page.get_by_test_id("nav-account").click()
    remove = page.get_by_test_id("delete")
    remove.get_by_test_id("password").fill("a long passphrase")
    remove.get_by_test_id("delete-submit").click()
    sync_api.expect(page.get_by_test_id("deleted")).to_be_visible()
    sync_api.expect(page.get_by_test_id("nav-account")).to_have_text("Log in")
    sync_api.expect(page.get_by_test_id("nav-profile")).to_have_count(0)
    assert not w.errors, w.errors


# A finished Swiss event of four (two bots), as GET /api/events/<id> answers it: five columns of
# standings, the widest table of the events' pages.
EVENT = {
    "event": {"id": "EVT1", "name": "Friday Swiss", "kind": "swiss", "game": "trash", "preset": "d2_kings",
              "options": {"decks": 1, "wild_mode": "kings"}, "rated": False, "rounds": 2, "deals": None,
              "starts_at": 1796685300.0, "when_full": True, "max_entrants": 4, "bots": True, "creator": "Ana",
              "status": "over", "created": 1796685216.0, "entrants": 2},
    "entrants": [{"username": "Ana", "registered": 1796685217.5}, {"username": "Beaes", "registered": 1796685231.3}],
    "commitments": [], "now": 1796686876.0, "deals": [],
    "rounds": [{"number": 1, "done": True, "bye": None, "sealed": False, "games": [
        {"table": "EVT1-r1-0", "players": ["Ana", "medium 1"], "points": [1.0, 0.0], "forfeit": False, "void": False,
         "done": None},
        {"table": "EVT1-r1-1", "players": ["Beaes", "medium 2"], "points": [1.0, 0.0], "forfeit": False, "void": False,
         "done": None}]}],
    "standings": [
        {"place": p, "player": who, "name": name, "score": score, "buchholz": 2.0, "sonneborn_berger": sb,
         "played": 2, "won": int(score), "byes": 0, "dropped": False}
        for p, who, name, score, sb in [(1, "a5", "Beaes", 2.0, 2.0), (2, "a4", "Ana", 1.0, 0.0),
                                        (2, "b1", "medium 2", 1.0, 0.0), (4, "b0", "medium 1", 0.0, 0.0)]],
}


@pytest.mark.parametrize("lang", ["es", "pt", "ar"])
def test_phone_390_the_leaderboard_event_standings_and_replay_do_not_scroll_sideways(
        served: Served, watched: Any, lang: str):
    """At phone width (390 px) in Spanish, Portuguese and Arabic, no page is wider than the
    screen: a leaderboard with provisional people and a bot, an event's Swiss standings (five
    columns), a replay's seat menu (its spectator entry the longest) and its step buttons."""
    table = finished_trash(served)
    ana = person(served, "Ana")
    served.players.record_result(table, "trash", [ana, "expert"], Outcome((1.0, 0.0), (0,), "TR-9"))
    w = watched(width=390, phone=True)
    page = w.page
    page.route("**/api/events/EVT1", lambda route: route.fulfill(
        status=200, content_type="application/json", body=json.dumps(EVENT)))
    in_lang(page, served, lang)
    wide = "() => [document.documentElement.scrollWidth, document.documentElement.clientWidth]"
    page.goto(served.http + "/leaderboard/trash")
    sync_api.expect(page.get_by_test_id("board-row")).to_have_count(2)
    width, screen = page.evaluate(wide)
    assert width <= screen, ("leaderboard", width, screen)
    page.goto(served.http + "/events/EVT1")
    sync_api.expect(page.get_by_test_id("standing")).to_have_count(4)
    width, screen = page.evaluate(wide)
    assert width <= screen, ("standings", width, screen)
    standings = page.get_by_test_id("standings").bounding_box()
    assert standings["x"] >= 0 and standings["x"] + standings["width"] <= screen, standings
    page.goto(f"{served.http}/t/{table}/replay?seat=none")
    sync_api.expect(page.get_by_test_id("replay-step")).to_contain_text("0")
    width, screen = page.evaluate(wide)
    assert width <= screen, ("replay", width, screen)
    first, step = page.get_by_test_id("replay-first"), page.get_by_test_id("replay-next")
    assert first.bounding_box()["height"] <= step.bounding_box()["height"] + 1  # "|◀" on one line, as "▶"
    page.screenshot(path=str(SHOTS / f"phone-replay-{lang}.png"))
    assert not w.errors, w.errors
