"""``arena devserver``: the developer service (bot submission over gRPC, builds, smoke tests)."""

from __future__ import annotations

import json
import os
import signal
import sys
import threading
from pathlib import Path

import click

from .common import BadInput, address_arg, console


def register(cli: click.Group) -> None:
    @cli.command("devserver")
    @click.option(
        "--address",
        default="127.0.0.1:50061",
        show_default=True,
        envvar="ARENA_DEV_LISTEN",
        callback=address_arg,
        help="host:port to listen on (port 0 = any free port) [env ARENA_DEV_LISTEN].",
    )
    @click.option(
        "--referee",
        "referee",
        default=None,
        envvar="ARENA_REFEREE",
        callback=address_arg,
        help="Referee the smoke tests play on [env ARENA_REFEREE; default: a private one].",
    )
    @click.option(
        "--organizer-token",
        envvar="ARENA_ORGANIZER_TOKEN",
        default=None,
        help="With --referee: its organizer token [env ARENA_ORGANIZER_TOKEN].",
    )
    @click.option(
        "--load-game",
        "load_games",
        multiple=True,
        metavar="MODULE:ATTR",
        help="Register an extra game (e.g. tests.fixtures.sealed_bids:GAME).",
    )
    @click.option(
        "--ready-file",
        type=click.Path(dir_okay=False, path_type=Path),
        default=None,
        help="Write {address, port, pid} as JSON here once listening.",
    )
    def devserver(
        address: str,
        referee: str | None,
        organizer_token: str | None,
        load_games: tuple[str, ...],
        ready_file: Path | None,
    ) -> None:
        """Run the developer service: developers register, upload bot packages (`arena submit`), and
        each version is built and smoke-tested in the sandbox, then enters play as <dev>/<bot>@<n>.

        Settings (ARENA_DEV_REGISTRATION, ARENA_DEV_PACKAGE_MB, ...): see docs/submitting.md.
        Packages live in $ARENA_HOME/packages; versions in the store (ARENA_DB_URL).

        Example: ARENA_DEV_REGISTRATION=open arena devserver --address 0.0.0.0:50061
        """
        from referee.engine import register as register_game
        from referee.engine.registry import _load

        from ..config import arena_home
        from ..store import open_store
        from ..submissions.service import LazyReferee, create_server
        from ..submissions.settings import DevSettings, SettingsError

        for spec in load_games:
            register_game(_load(spec))
        if referee and not organizer_token:
            raise BadInput("--referee needs --organizer-token (or ARENA_ORGANIZER_TOKEN)")
        try:
            settings = DevSettings.from_env()
        except SettingsError as exc:
            raise BadInput(str(exc)) from None
        store = open_store()
        packages = arena_home().resolve() / "packages"
        lazy = LazyReferee(referee, organizer_token)
        try:
            server, port, pipeline = create_server(store, packages, settings, lazy, address)
        except (OSError, RuntimeError) as exc:
            raise click.ClickException(f"cannot listen on {address} ({exc})") from None
        host = address.rpartition(":")[0] or "127.0.0.1"
        console.print(
            f"developer service listening on {host}:{port} (registration: {settings.registration}; "
            f"packages in {packages})",
            highlight=False,
        )
        if ready_file is not None:
            tmp = ready_file.with_suffix(".tmp")
            tmp.write_text(json.dumps({"address": f"{host}:{port}", "port": port, "pid": os.getpid()}))
            tmp.replace(ready_file)
        stop = threading.Event()
        for sig in (signal.SIGTERM, signal.SIGINT):
            signal.signal(sig, lambda *_: stop.set())
        stop.wait()
        server.stop(grace=2).wait()
        pipeline.close()
        lazy.close()
        # a smoke match in flight would hold the exit until it ends: its version is marked failed
        # at the next start (every write so far is committed)
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(0)
