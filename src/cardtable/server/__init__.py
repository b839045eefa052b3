"""Browser play: the ASGI app (lobby, tables, WebSocket) over the host, and its store.

The server imports Starlette and uvicorn (``pip install 'cardtable[web]'``);
:mod:`cardtable.server.cli` adds ``cardtable serve`` and imports them only when
that command runs.
"""
