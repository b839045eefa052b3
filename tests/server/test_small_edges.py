"""Small edges of the lobby: an option number too big for a float is a ``400`` like every other
bad option (P4), ``time_limit`` has a maximum, and an ``Origin`` whose scheme is not the exact
lower-case ``http`` or ``https`` a browser sends is refused (A6)."""

from __future__ import annotations

import pytest
from starlette.testclient import TestClient

from cardtable import load
from cardtable.core.errors import ConfigError
from cardtable.server.edge import origin_allowed

HUGE = "1" + "0" * 400


@pytest.mark.parametrize(("game", "option"), [("trash", "time_limit"), ("spit", "spit_delay"),
                                              ("spit", "slap_timeout")])
def test_p4_an_integer_too_big_for_a_float_answers_400(client: TestClient, game: str, option: str):
    body = '{"game": "' + game + '", "options": {"' + option + '": ' + HUGE + "}}"
    r = client.post("/api/tables", content=body, headers={"content-type": "application/json"})
    assert r.status_code == 400, r.text
    assert r.json()["error"] == "bad_options" and option in r.json()["message"]
    assert client.get("/api/tables").status_code == 200


def test_p4_tr_v2_time_limit_has_a_maximum():
    with pytest.raises(ConfigError, match="time_limit"):
        load("trash", time_limit=10.0**7)
    with pytest.raises(ConfigError, match="too large"):
        load("trash", time_limit=10**400)
    assert load("trash", time_limit=3600).options.time_limit == 3600.0


@pytest.mark.parametrize("origin", ["HTTP://127.0.0.1:8000", "Http://127.0.0.1:8000", "hTTps://good.example"])
def test_a6_an_origin_scheme_is_compared_exactly(origin: str):
    allow = frozenset({"https://good.example"})
    assert not origin_allowed(origin, "127.0.0.1:8000", allow)
    assert origin_allowed(origin.lower(), "127.0.0.1:8000", allow)


def test_a6_an_upper_case_scheme_is_refused_at_the_lobby_and_the_socket(client: TestClient):
    r = client.post("/api/tables", json={"game": "trash"}, headers={"origin": "HTTP://testserver"})
    assert r.status_code == 403 and r.json()["error"] == "origin"
    same = client.post("/api/tables", json={"game": "trash"}, headers={"origin": "http://testserver"})
    assert same.status_code == 201


def test_ld4_a_client_that_hangs_up_halfway_through_its_body_is_a_clear_refusal_not_a_traceback():
    """A POST whose client disconnects while its body is read is refused like any bad request
    (nobody reads the answer; nothing is logged as a server error)."""
    import asyncio

    from starlette.requests import Request

    from cardtable.server.edge import read_body
    from cardtable.server.lobby import LobbyError

    messages = [{"type": "http.request", "body": b'{"ga', "more_body": True}, {"type": "http.disconnect"}]

    async def receive() -> dict:  # type: ignore[type-arg]
        return messages.pop(0)

    scope = {"type": "http", "method": "POST", "path": "/api/tables", "query_string": b"",
             "headers": [(b"host", b"127.0.0.1"), (b"origin", b"http://127.0.0.1"), (b"content-length", b"100")]}
    with pytest.raises(LobbyError) as refused:
        asyncio.run(read_body(Request(scope, receive), frozenset()))
    assert refused.value.code == "cut_off" and refused.value.status == 400
