"""cardtable.tui: terminal play with Textual, a client of :mod:`cardtable.host`.

The app shell holds what every game shares: the app (:mod:`.app`), the table
screen (:mod:`.table_screen`: layout, log, help, hints, save, languages) with
its turn scheduler (:mod:`.turn_screen`) or its real-time pump
(:mod:`.realtime_screen`), and the screens over it (:mod:`.dialogs`: the hot-seat
cover, help, the result). Each game brings one table widget in
``cardtable.tui.games.<game>``; a game without one is played on the generic table
(legal actions as buttons, events as a log).

Nothing here imports Textual at package import time: :mod:`.seats` and
:mod:`.session` are plain Python, so the command line can check its arguments
(and fail with one line) before the app starts.
"""
