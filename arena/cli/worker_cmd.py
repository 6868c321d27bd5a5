"""``arena worker``: a Celery worker playing tournament matches from Redis."""
from __future__ import annotations

import click

from .common import COUNT, BadInput, console


def register(cli: click.Group) -> None:
    @cli.command("worker")
    @click.option("--broker", envvar="ARENA_BROKER_URL", default=None,
                  help="Celery broker URL [env ARENA_BROKER_URL], e.g. redis://127.0.0.1:6379/0.")
    @click.option("--queue", "-Q", envvar="ARENA_QUEUE", default="arena", show_default=True)
    @click.option("--concurrency", "-c", type=COUNT, default=None,
                  help="Worker processes (default: CPU count).")
    @click.option("--loglevel", "-l", default="warning", show_default=True)
    @click.option("--hostname", "-n", default=None, help="Celery node name (default: arena@<host>:<pid>).")
    def worker(broker: str | None, queue: str, concurrency: int | None, loglevel: str,
               hostname: str | None) -> None:
        """Play matches: takes one task per match from the queue, asks a referee (ARENA_REFEREE) to play it
        and records the result in the store (ARENA_DB_URL). Run as many as you like, anywhere."""
        import os

        if not broker:
            raise BadInput("no broker: set ARENA_BROKER_URL (e.g. redis://127.0.0.1:6379/0) or --broker")
        os.environ["ARENA_BROKER_URL"] = broker
        os.environ["ARENA_QUEUE"] = queue
        from ..scheduling.driver import BrokerUnavailable, CeleryDispatch
        from ..store import open_store

        try:
            CeleryDispatch(broker, queue)  # reachable?
        except BrokerUnavailable as exc:
            raise click.ClickException(str(exc)) from None
        store = open_store()  # reachable and migrated, before forking
        store.dispose()
        from ..celery_app import make_app

        app = make_app(broker, queue)
        argv = ["worker", "-Q", queue, "--loglevel", loglevel, "--without-gossip", "--without-mingle",
                "--without-heartbeat", "-n", hostname or f"arena@%h:{os.getpid()}"]
        if concurrency:
            argv += ["--concurrency", str(concurrency)]
        console.print(f"arena worker on {queue} ({broker.split('@')[-1]}), store {store.safe_url}",
                      highlight=False)
        app.worker_main(argv)
