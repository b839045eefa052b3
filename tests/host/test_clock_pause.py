"""The pausable clock behind Spit's pause when a player drops (R9)."""

from __future__ import annotations

from cardtable.host.clock import PausableClock, VirtualClock


def test_r9_a_paused_clock_stands_still_and_goes_on_from_where_it_stopped():
    base = VirtualClock(100.0)
    clock = PausableClock(base)
    assert clock.now() == 100.0 and not clock.paused
    base.advance(2.0)
    clock.pause()
    clock.pause()  # pausing twice is one pause
    base.advance(30.0)
    assert clock.paused and clock.now() == 102.0
    clock.resume()
    assert clock.now() == 102.0
    base.advance(1.5)
    assert clock.now() == 103.5
    clock.resume()  # resuming a running clock changes nothing
    clock.pause()
    base.advance(4.0)
    clock.resume()
    base.advance(0.5)
    assert clock.now() == 104.0
