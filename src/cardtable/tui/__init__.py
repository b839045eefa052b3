"""cardtable.tui: terminal play with Textual, a client of :mod:`cardtable.host`.

The app shell (:mod:`.app`) holds what every game shares: seats (humans and
bots), the hot-seat cover screen, help, hints, save and resume, languages. Each
game brings one table widget in ``cardtable.tui.games.<game>``; a game without
one is played on the generic table (legal actions as buttons, events as a log).

Nothing here imports Textual at package import time: :mod:`.seats` and
:mod:`.session` are plain Python, so the command line can check its arguments
(and fail with one line) before the app starts.
"""
