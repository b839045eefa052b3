"""The fair deal on the page (Chromium, docs/fairness.md): the page commits to a seed of its own
when the person sits, shows the server commitment during the game, reveals its seed once every
seat has committed, and after the end its verify panel checks every seed against its
commitment (OK); the record it offers is one ``cardtable verify`` accepts."""

from __future__ import annotations

import json
import urllib.request
from typing import Any

from cardtable.records.fairness import verify
from cardtable.records.record import Record
from tests.server.netserver import Server

from .browser import sync_api
from .test_table_flow import play_until


def test_h_fair_the_page_commits_shows_the_commitment_and_verifies_after_the_end(server: Server, watched: Any):
    created = server.post("/api/tables", game="trash", options={"target_size": 6})
    table_id, host = created["table"]["id"], created["host"]
    commitment = created["table"]["fair"]["server_commitment"]
    w = watched()
    page = w.page
    page.goto(server.http + "/")
    page.evaluate("([k, v]) => localStorage.setItem(k, JSON.stringify(v))", [f"ct.host.{table_id}", host])
    page.goto(f"{server.http}/t/{table_id}")
    sync_api.expect(page.get_by_test_id("fair-commitment")).to_have_text(commitment)  # before anyone sits
    page.get_by_test_id("name-0").fill("Ada")
    page.get_by_test_id("sit-0").click()
    sync_api.expect(page.get_by_test_id("seats").locator("li.me")).to_contain_text("Ada")
    fair = server.get(f"/api/tables/{table_id}")["table"]["fair"]
    assert fair["seat_commitments"][0] is not None and fair["server_made"] == [False, False]
    assert fair["seat_seeds"] == [None, None]  # nothing revealed before every seat has committed
    page.get_by_test_id("bot-1").click()
    sync_api.expect(page.get_by_test_id("start")).to_be_enabled()
    page.get_by_test_id("start").click()
    sync_api.expect(page.get_by_test_id("layout-0")).to_be_visible()
    info = server.get(f"/api/tables/{table_id}")["table"]
    assert info["status"] == "playing" and info["fair"]["server_seed"] is None
    kept = page.evaluate(f"() => JSON.parse(localStorage.getItem('ct.fair.{table_id}.0'))")
    assert kept["seed"] == info["fair"]["seat_seeds"][0] and kept["server"] == commitment  # the page's own seed
    sync_api.expect(page.get_by_test_id("fair-commitment")).to_have_text(commitment)  # during the game
    sync_api.expect(page.get_by_test_id("fair-short")).to_be_visible()
    sync_api.expect(page.get_by_test_id("fair-short")).to_have_text(commitment[:12] + "…")
    check = page.get_by_test_id("fair-check")
    play_until(page, lambda: check.count() > 0)
    sync_api.expect(check).to_have_attribute("data-ok", "true")
    sync_api.expect(check).to_contain_text("OK")
    panel = page.get_by_test_id("fair-panel")
    seed = server.get(f"/api/tables/{table_id}")["table"]["fair"]["server_seed"]
    sync_api.expect(panel).to_contain_text(seed)
    sync_api.expect(panel).to_contain_text(f"cardtable verify cardtable-trash-{table_id}.json")
    with urllib.request.urlopen(f"{server.http}/api/tables/{table_id}/record") as r:
        record = Record.from_json(json.loads(r.read()))
    assert verify(record).game == "trash"
    assert not w.errors, w.errors
