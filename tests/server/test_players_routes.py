"""The players' HTTP routes on the server's app: session cookies, session fixation, CSRF, the
Origin rule, login limits per address and per account, login enumeration, account deletion, and
the games a new account brings from the browser."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from cardtable.server.players.limits import Limits
from cardtable.server.players.sessions import COOKIE, SECURE_COOKIE
from cardtable.server.store import token_hash
from tests.server.players_fixtures import JSON, client, login, make_app, signup


@pytest.fixture
def made(tmp_path: Path) -> Iterator[tuple[Any, Any, Any]]:
    app, store, players = make_app(tmp_path)
    with client(app) as c:  # the lifespan runs once, in this client
        yield app, c, players
    players.close()
    store.close()


def plant(c: Any, value: str) -> None:
    """Put a session cookie into a client's jar as the server would have set it."""
    c.cookies.set(COOKIE, value, domain="testserver.local")


def me(c: Any) -> Any:
    return c.get("/api/players/me").json()


def post(c: Any, path: str, body: dict[str, Any] | None = None, csrf: str | None = None, **headers: str) -> Any:
    sent = {**JSON, **headers}
    if csrf is not None:
        sent["X-CSRF-Token"] = csrf
    return c.post(f"/api/players/{path}", json=body or {}, headers=sent)


def test_session_cookie_is_httponly_samesite_strict_and_secure_over_https(tmp_path: Path):
    """Session cookie: HttpOnly and SameSite=Strict, Path=/; over https it is Secure and named
    __Host-… (no subdomain can set it); over plain http it cannot be Secure."""
    app, store, players = make_app(tmp_path)
    c = client(app)
    r = c.post("/api/players/signup", json={"username": "Ana", "password": "password1"}, headers=JSON)
    cookie = r.headers["set-cookie"]
    assert cookie.startswith(f"{COOKIE}=") and "HttpOnly" in cookie and "SameSite=strict" in cookie
    assert "Path=/" in cookie and "Secure" not in cookie
    s = client(app, base_url="https://testserver")
    r = s.post("/api/players/login", json={"username": "Ana", "password": "password1"},
               headers={"Origin": "https://testserver"})
    # the server's Origin rule allows only its own http origin unless told: a TLS proxy names it
    assert r.status_code == 403
    app2, store2, players2 = make_app(tmp_path / "tls", allow_origins=("https://testserver",))
    s = client(app2, base_url="https://testserver")
    r = s.post("/api/players/signup", json={"username": "Ana", "password": "password1"},
               headers={"Origin": "https://testserver"})
    cookie = r.headers["set-cookie"]
    assert cookie.startswith(f"{SECURE_COOKIE}=") and "Secure" in cookie and "HttpOnly" in cookie
    assert me(s)["account"]["username"] == "Ana"
    planted = client(app2, base_url="https://testserver")  # a plain cookie set over http or by a subdomain
    planted.cookies.set(COOKIE, s.cookies[SECURE_COOKIE], domain="testserver.local")
    assert me(planted)["account"] is None  # over https only the __Host- cookie is a session
    for p, st in ((players, store), (players2, store2)):
        p.close()
        st.close()


def test_session_ids_are_kept_only_as_digests(made: Any, tmp_path: Path):
    """Session storage: the database holds the SHA-256 of a session id, never the id."""
    _, c, _ = made
    signup(c, "Ana")
    raw = c.cookies[COOKIE]
    db = sqlite3.connect(str(tmp_path / "server.sqlite3"))
    digests = [d for (d,) in db.execute("SELECT digest FROM player_sessions")]
    db.close()
    assert digests == [token_hash(raw)]


def test_session_fixation_a_planted_session_id_dies_at_login(made: Any):
    """Session fixation: logging in always starts a new session and ends the one the request
    carried, so an id an attacker planted before the login is worth nothing after it."""
    app, c, _ = made
    signup(c, "Mallory")
    planted = c.cookies[COOKIE]  # the attacker's own live session id, set in the victim's browser
    signup(client(app, "10.0.0.2"), "Victim", "victim password")
    victim = client(app, "10.0.0.3")
    plant(victim, planted)
    assert login(victim, "Victim", "victim password").status_code == 200
    fresh = victim.cookies[COOKIE]
    assert fresh != planted
    attacker = client(app, "10.0.0.4")
    plant(attacker, planted)
    assert me(attacker) == {"account": None, "csrf": None}
    assert me(victim)["account"]["username"] == "Victim"


def test_logout_invalidates_the_session_server_side(made: Any):
    """Logout: the session is deleted on the server, so a copy of the cookie is dead too."""
    app, c, _ = made
    csrf = signup(c, "Ana")["csrf"]
    copy = c.cookies[COOKIE]
    r = post(c, "logout", csrf=csrf)
    assert r.status_code == 200 and COOKIE in r.headers["set-cookie"] and "Max-Age=0" in r.headers["set-cookie"]
    thief = client(app, "10.0.0.9")
    plant(thief, copy)
    assert me(thief)["account"] is None
    assert post(thief, "logout", csrf=csrf).json()["error"] == "no_session"


@pytest.mark.parametrize("path,body", [("logout", {}), ("delete", {"password": "password1"}),
                                       ("seats", {"seats": []})])
def test_csrf_every_change_of_a_session_needs_its_token(made: Any, path: str, body: dict[str, Any]):
    """CSRF: logout, delete and linking seats are refused (403 csrf) without the session's token,
    with a wrong one, or with another session's; and from another origin even with it."""
    app, c, _ = made
    csrf = signup(c, "Ana", "password1")["csrf"]
    other = signup(client(app, "10.0.0.2"), "Bob", "password1")["csrf"]
    for token in (None, "", "0" * 64, other, csrf + "x"):
        r = post(c, path, body, csrf=token)
        assert (r.status_code, r.json()["error"]) == (403, "csrf"), token
    r = c.post(f"/api/players/{path}", json=body, headers={**JSON, "X-CSRF-Token": "é".encode("latin-1") * 64})
    assert (r.status_code, r.json()["error"]) == (403, "csrf")  # a header that is not ASCII
    r = post(c, path, body, csrf=csrf, Origin="https://evil.example")
    assert (r.status_code, r.json()["error"]) == (403, "origin")
    assert me(c)["account"]["username"] == "Ana"  # nothing happened
    assert post(c, path, body, csrf=csrf).status_code == 200


def test_csrf_a_cross_site_form_cannot_log_in_or_sign_up(made: Any):
    """Login CSRF: a form of another site can post neither JSON nor our Origin: a form body is
    415, a foreign Origin 403, before any password is checked."""
    _, c, _ = made
    signup(c, "Ana", "password1")
    form = c.post("/api/players/login", data={"username": "Ana", "password": "password1"},
                  headers={"Origin": "http://testserver"})
    assert form.status_code == 415
    foreign = c.post("/api/players/login", json={"username": "Ana", "password": "password1"},
                     headers={"Origin": "https://evil.example"})
    assert (foreign.status_code, foreign.json()["error"]) == (403, "origin")
    no_origin_plain = c.post("/api/players/signup", content=b'{"username": "Zed", "password": "password1"}',
                             headers={"Content-Type": "text/plain"})
    assert no_origin_plain.status_code == 415


def test_login_enumeration_same_answer_for_unknown_name_and_wrong_password(made: Any):
    """Login enumeration: an unknown username and a wrong password get the same status and body."""
    _, c, _ = made
    signup(c, "Ana", "password1")
    unknown = login(c, "Nobody", "password1")
    wrong = login(c, "Ana", "wrong password")
    assert unknown.status_code == wrong.status_code == 401
    assert unknown.json() == wrong.json()
    assert login(c, "ANA", "password1").status_code == 200  # names are compared case-folded


def test_login_limit_per_address(tmp_path: Path):
    """Login limit per address: after the burst, one address is refused (429) whatever names it
    tries, while another address still logs in."""
    app, store, players = make_app(tmp_path, limits=Limits(login_address=(1e-6, 3), login_account=(1e-6, 100)))
    signup(client(app), "Ana", "password1")
    flooder = client(app, "10.0.0.66")
    codes = [login(flooder, f"name{k}", "password1").status_code for k in range(5)]
    assert codes == [401, 401, 401, 429, 429]
    assert login(flooder, "Ana", "password1").status_code == 429
    assert login(client(app, "10.0.0.7"), "Ana", "password1").status_code == 200
    players.close()
    store.close()


def test_login_limit_per_account_says_nothing_about_which_names_exist(tmp_path: Path):
    """Login limit per account: guesses at one name from many addresses are refused after the
    burst; an unknown name is limited exactly like a real one (no enumeration through the limit),
    and other names are not affected."""
    app, store, players = make_app(tmp_path, limits=Limits(login_address=(1e-6, 100), login_account=(1e-6, 2)))
    signup(client(app), "Ana", "password1")
    for name in ("Ana", "Ghost"):
        answers = [login(client(app, f"10.1.{k}.1"), name, "wrong password") for k in range(4)]
        assert [a.status_code for a in answers] == [401, 401, 429, 429], name
        assert answers[2].json() == {"error": "rate_limited", "message": "too many logins; wait a little"}
    assert login(client(app, "10.2.0.1"), "ana", "password1").status_code == 429  # the same name, folded
    signup(client(app, "10.3.0.1"), "Bea", "password1")
    assert login(client(app, "10.3.0.2"), "Bea", "password1").status_code == 200
    players.close()
    store.close()


def test_login_limit_per_account_holds_for_every_spelling_of_the_name(tmp_path: Path):
    """Login limit per account: spellings that log into the same account (case, spaces, invisible
    characters) count against the same limit, so varying them does not buy more guesses."""
    app, store, players = make_app(tmp_path, limits=Limits(login_address=(1e-6, 100), login_account=(1e-6, 3)))
    signup(client(app), "Ana Maria", "password1")
    spellings = ["Ana Maria", "ana maria", " ANA  MARIA ", "Ana\u200b Maria"]
    codes = [login(client(app, f"10.4.{k}.1"), name, "wrong password").status_code for k, name in enumerate(spellings)]
    assert codes == [401, 401, 401, 429]
    players.close()
    store.close()


def test_signup_limit_per_address(tmp_path: Path):
    """Account creation limit: one address makes a burst of accounts, then 429. A sign-up refused
    for its name or password costs none of it (a person mending a name is not locked out)."""
    app, store, players = make_app(tmp_path, limits=Limits(signup_address=(1e-6, 2)))
    c = client(app, "10.0.0.5")
    for bad, code in (({"username": "x"}, "bad_username"), ({"username": "expert"}, "reserved_username"),
                      ({"username": "Nine", "password": "short"}, "bad_password")):
        r = c.post("/api/players/signup", json={"password": "password1", **bad}, headers=JSON)
        assert (r.status_code, r.json()["error"]) == (400, code)
    signup(c, "One")
    signup(c, "Two")
    r = c.post("/api/players/signup", json={"username": "Three", "password": "password1"}, headers=JSON)
    assert (r.status_code, r.json()["error"]) == (429, "rate_limited")
    signup(client(app, "10.0.0.6"), "Three")
    players.close()
    store.close()


def test_account_deletion_over_http_keeps_the_games_anonymous(made: Any):
    """Account deletion: the password is asked again (a wrong one deletes nothing); afterwards the
    session is gone, the profile is 404, and the seat's name in the action log is the anonymous
    label, while the game itself stays."""
    _, c, players = made
    table = c.post("/api/tables", json={"game": "spit", "preset": "standard"}, headers=JSON).json()
    sat = c.post(f"/api/tables/{table['table']['id']}/sit", json={"seat": 0, "name": "Ana"}, headers=JSON).json()
    csrf = signup(c, "Ana", "password1", seats=[{"table": table["table"]["id"], "seat": 0, "token": sat["token"]}])
    r = post(c, "delete", {"password": "wrong password"}, csrf=csrf["csrf"])
    assert r.status_code == 401 and me(c)["account"]["username"] == "Ana"
    r = post(c, "delete", {"password": "password1"}, csrf=csrf["csrf"])
    assert r.json() == {"account": None, "anonymized": 1}
    assert me(c)["account"] is None
    assert c.get("/api/players/profile/Ana").status_code == 404
    seat = c.get(f"/api/tables/{table['table']['id']}").json()["table"]["seats"][0]
    row = players.log.table(table["table"]["id"])
    assert row.seats[0].name.startswith("anonymous-") and row.seats[0].token_hash == token_hash(sat["token"])
    assert seat["kind"] == "human"


def test_a_new_account_keeps_the_games_played_in_that_browser(made: Any):
    """Games kept at signup: the seats whose tokens the page kept are linked when the action log
    holds their digests; a wrong token, another seat's token or an unknown table links nothing."""
    _, c, players = made
    tables = []
    for _ in range(2):
        t = c.post("/api/tables", json={"game": "trash", "preset": "standard"}, headers=JSON).json()["table"]["id"]
        token = c.post(f"/api/tables/{t}/sit", json={"seat": 0, "name": "Ana"}, headers=JSON).json()["token"]
        other = c.post(f"/api/tables/{t}/sit", json={"seat": 1, "name": "Bob"}, headers=JSON).json()["token"]
        tables.append((t, token, other))
    (t1, tok1, other1), (t2, tok2, _) = tables
    seats = [{"table": t1, "seat": 0, "token": tok1}, {"table": t2, "seat": 0, "token": tok2},
             {"table": t1, "seat": 1, "token": tok1},  # a token of another seat
             {"table": t2, "seat": 1, "token": "x" * 32}, {"table": "nope", "seat": 0, "token": tok1}]
    answer = signup(c, "Ana", seats=seats)
    assert answer["linked"] == [{"table": t1, "seat": 0}, {"table": t2, "seat": 0}]
    ana = players.accounts.named("Ana")
    assert players.seat_accounts(t1, 2) == [ana.id, None]
    bad = c.post("/api/players/signup", json={"username": "Bob", "password": "password1", "seats": [{"t": 1}]},
                 headers=JSON)
    assert (bad.status_code, bad.json()["error"]) == (400, "bad_seats")
    assert players.accounts.named("Bob") is None  # the refused request made no account
    later = post(c, "seats", {"seats": [{"table": t1, "seat": 1, "token": other1}]}, csrf=answer["csrf"])
    assert later.json() == {"linked": [{"table": t1, "seat": 1}]}


def test_bad_bodies_are_clear_errors(made: Any):
    """Bad input: unknown fields, non-objects, non-finite numbers and oversized bodies get a
    clear error and change nothing."""
    _, c, players = made
    cases = [({"username": "Ana", "password": "password1", "admin": True}, 400, "bad_request"),
             (["Ana"], 400, "bad_json"), ({"username": "Ana", "password": "x" * 5000}, 413, "too_big")]
    for body, status, code in cases:
        r = c.post("/api/players/signup", json=body, headers=JSON)
        assert (r.status_code, r.json()["error"]) == (status, code)
    r = c.post("/api/players/signup", content=b'{"username": NaN}',
               headers={**JSON, "Content-Type": "application/json"})
    assert r.json()["error"] == "bad_json"
    assert players.accounts.named("Ana") is None


def test_the_pages_are_served_with_the_servers_security_headers(made: Any):
    """Pages: /account, /players/<name> and /leaderboard[/<game>] are the static pages, under the
    app's content security policy (no inline script)."""
    _, c, _ = made
    for path, script in (("/account", "account.js"), ("/players/Ana", "profile.js"), ("/leaderboard", "leaderboard.js"),
                         ("/leaderboard/spit", "leaderboard.js")):
        r = c.get(path)
        assert r.status_code == 200 and f'src="/static/{script}"' in r.text, path
        assert "script-src 'self'" in r.headers["content-security-policy"]
        assert "<script>" not in r.text
    assert c.get("/static/account.js").status_code == 200
    assert c.get("/players/a/b").status_code == 200  # a name with a slash still has its page


def test_a_username_with_a_slash_has_a_profile(made: Any):
    """Names: the server's name rules allow "/", so the profile route takes it."""
    _, c, _ = made
    signup(c, "AC/DC")
    assert c.get("/api/players/profile/AC%2FDC").json()["account"]["username"] == "AC/DC"
    assert c.get("/api/players/profile/AC/DC").json()["account"]["username"] == "AC/DC"


def test_expired_sessions_are_refused_and_swept(tmp_path: Path):
    """Session lifetime: a session is refused once 30 days old, and sweep() forgets it."""
    now = [1_800_000_000.0]
    app, store, players = make_app(tmp_path, clock=lambda: now[0])
    c = client(app)
    signup(c, "Ana")
    now[0] += 29 * 86400
    assert me(c)["account"]["username"] == "Ana"
    signup(client(app, "10.0.0.2"), "Bob")
    now[0] += 2 * 86400
    assert players.sweep() == 1  # Ana's; Bob's has 28 days left
    assert me(c)["account"] is None
    players.close()
    store.close()
