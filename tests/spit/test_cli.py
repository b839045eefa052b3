"""Terminal play: key handling, drawing, and a real session in a pseudo-terminal."""

from __future__ import annotations

import contextlib
import os
import re
import select
import signal
import sys
import time

import pytest

import cardtable
from cardtable.cli.spit_play import LEFT, RIGHT, Controller, play_spit, render, split_keys

from .util import piles, position


def test_split_keys_arrows_and_letters():
    assert split_keys("1\x1b[D2\x1b[Cx q") == ["1", LEFT, "2", RIGHT, "spit", "quit"]


def test_controller_select_then_play_fill_and_spit():
    st = position(piles("4H", "7C 9C"), piles("6D", "JD"), "2C", "2D", s0="5S", s1="KS")
    ctl = Controller(0)
    assert ctl.key("1", st.view(0)) is None and ctl.selected == 1
    assert str(ctl.key(LEFT, st.view(0))) == "0 play 1 4H S0"
    assert ctl.key("2", st.view(0)) is None
    assert str(ctl.key("3", st.view(0))) == "0 fill 2 9C 3"
    assert ctl.key(RIGHT, st.view(0)) is None and "Nothing of yours fits on S1" in ctl.message
    assert str(ctl.key("spit", st.view(0))) == "0 spit"
    st.play("0 spit")
    assert str(ctl.key("spit", st.view(0))) == "0 unspit"


def test_controller_slap():
    st = position(piles("4H"), piles("6D", "KD"), "2C", "2D", s0="5S", s1="TS")
    st.play("0 play 1 4H S0")
    assert str(Controller(0).key(RIGHT, st.view(0))) == "0 slap S1"


def test_render_shows_only_the_view():
    st = cardtable.load("spit").new_state(seed=2)
    text = render(st.view(0), Controller(0), color=False, log=["hello"], level="easy")
    assert "round 1" in text and "spit cards: 10" in text and "hello" in text


def test_play_spit_without_a_terminal_is_a_clean_error(capsys):
    assert play_spit(cardtable.load("spit"), seed=1, level="medium", color=False) == 2
    assert play_spit(cardtable.load("spit"), seed=1, level="nope", color=False) == 2
    assert "Traceback" not in capsys.readouterr().err


def plain(out: bytes) -> str:
    """A terminal's output without its escape sequences."""
    return re.sub(r"\x1b\[[0-9;?]*[a-zA-Z]", "", out.decode("utf-8", "replace"))


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="needs a Linux pty")
def test_play_spit_in_a_pseudo_terminal_quits_cleanly():
    import pty

    pid, fd = pty.fork()
    if pid == 0:  # the child plays, on the pty (not on pytest's captured streams)
        sys.stdin = open(0, encoding="utf-8")  # noqa: SIM115
        sys.stdout = open(1, "w", encoding="utf-8")  # noqa: SIM115
        sys.stderr = sys.stdout
        code = play_spit(cardtable.load("spit"), seed=5, level="expert", color=True)
        sys.stdout.flush()
        os._exit(code)
    out = b""

    def pump(seconds):
        nonlocal out
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            ready, _, _ = select.select([fd], [], [], 0.05)
            if ready:
                try:
                    out += os.read(fd, 65536)
                except OSError:
                    return

    deadline = time.monotonic() + 60  # bounded: a slow machine waits, a hung child fails
    while "round 1" not in plain(out):  # the game is drawn, the terminal in cbreak mode: keys count now
        assert time.monotonic() < deadline, out[-500:]
        pump(0.1)
    for key in (b"1", b"\x1b[D", b"2", b"\x1b[C", b" ", b"z"):
        os.write(fd, key)
        pump(0.1)
    status = None
    while status is None:  # q until the child has quit
        if time.monotonic() > deadline:
            os.kill(pid, signal.SIGKILL)
            os.waitpid(pid, 0)
            raise AssertionError(f"the game did not quit on q: {out[-500:]!r}")
        with contextlib.suppress(OSError):
            os.write(fd, b"q")
        pump(0.5)
        done, code = os.waitpid(pid, os.WNOHANG)
        status = code if done else None
    text = plain(out)
    assert os.waitstatus_to_exitcode(status) == 0
    assert "Traceback" not in text and "round 1" in text
