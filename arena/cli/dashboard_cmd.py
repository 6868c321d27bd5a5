"""``arena dashboard``: the web dashboard (ladders, tournaments, matches, replays, live spectating)."""
from __future__ import annotations

import socket
from pathlib import Path

import click

from .common import PORT


def register(cli: click.Group) -> None:
    @cli.command("dashboard")
    @click.option("--host", default="127.0.0.1", show_default=True, help="Interface to listen on.")
    @click.option("--port", type=PORT, default=8000, show_default=True, help="Port (0 = pick a free one).")
    @click.option("--db-url", default=None, metavar="URL",
                  help="Store to read [default: ARENA_DB_URL, or the embedded SQLite in ARENA_HOME].")
    @click.option("--referee", default=None, metavar="HOST:PORT",
                  help="Referee whose public watch feed serves live matches [default: ARENA_REFEREE].")
    @click.option("--organizer-token", default=None, envvar="ARENA_ORGANIZER_TOKEN",
                  help="Token that organizer actions need (Authorization: Bearer ...) [env "
                       "ARENA_ORGANIZER_TOKEN].")
    @click.option("--replays", "replays_dir", type=click.Path(file_okay=False, exists=True, path_type=Path),
                  default=None, help="Browse the replay files in this directory instead of a store.")
    @click.option("--log-level", default="warning", show_default=True,
                  type=click.Choice(["critical", "error", "warning", "info", "debug"]))
    def dashboard(host: str, port: int, db_url: str | None, referee: str | None, organizer_token: str | None,
                  replays_dir: Path | None, log_level: str) -> None:
        """Serve the dashboard: pages at http://HOST:PORT/, the JSON API and its docs at /api/docs.

        Read-only for the public; anything that changes state needs the organizer token.
        """
        import uvicorn

        from dashboard.app import create_app

        app = create_app(db_url=db_url, referee=referee, organizer_token=organizer_token,
                         replays_dir=replays_dir)
        # "auto" picks httptools and uvloop when they are installed (several times the throughput of
        # h11 + asyncio on the cached ladder); no access log: a line per request costs as much as the answer.
        config = uvicorn.Config(app, host=host, port=port, log_level=log_level, access_log=False,
                                http="auto", loop="auto")
        server: uvicorn.Server
        if port == 0:
            class _Server(uvicorn.Server):
                """Prints the port actually bound once the server is up (tests and scripts read it)."""

                async def startup(self, sockets: list[socket.socket] | None = None) -> None:
                    await super().startup(sockets)
                    for s in self.servers:
                        for sock in s.sockets:
                            click.echo(f"dashboard listening on http://{host}:{sock.getsockname()[1]}/",
                                       err=True)
            server = _Server(config)
        else:
            click.echo(f"dashboard listening on http://{host}:{port}/", err=True)
            server = uvicorn.Server(config)
        server.run()
