"""``arena worker``: a Celery worker playing tournament matches from Redis."""
from __future__ import annotations

import click

from .common import COUNT, BadInput, console


def bot_modes(timeout_s: float = 3.0) -> list[str]:
    """How this worker's matches run their bots, one line per way: through each configured referee
    (its hosted mode: sandboxed / UNSANDBOXED / refused, as it reports it) and in-process."""
    from referee.client import RefereeClient
    from referee.matchspec import RefereeUnavailable

    from ..config import settings

    cfg = settings()
    lines = []
    for address in cfg.referees:
        client = RefereeClient(address, cfg.organizer_token)
        try:
            hosted = client.status(timeout_s)["hosted"] or "hosted bots: not run by this referee"
        except RefereeUnavailable:
            hosted = "not reachable now (its hosted mode is unknown until it answers)"
        except Exception as exc:  # noqa: BLE001 - a wrong token etc.: the line says so, the worker still starts
            hosted = f"status refused ({type(exc).__name__}); its hosted mode is unknown"
        finally:
            client.close()
        lines.append(f"executor referee: referee {address}: {hosted}")
    if not cfg.referees:
        lines.append("executor referee: no referee configured (ARENA_REFEREE); such matches wait for one")
    lines.append("executor inprocess: bots play inside this worker, UNSANDBOXED (built-in and module:Class "
                 "agents)")
    return lines


def register(cli: click.Group) -> None:
    @cli.command("worker")
    @click.option("--broker", envvar="ARENA_BROKER_URL", default=None,
                  help="Celery broker URL [env ARENA_BROKER_URL], e.g. redis://127.0.0.1:6379/0.")
    @click.option("--queue", "-Q", envvar="ARENA_QUEUE", default="arena", show_default=True)
    @click.option("--concurrency", "-c", type=COUNT, default=None,
                  help="Worker processes (default: CPU count).")
    @click.option("--loglevel", "-l", default="warning", show_default=True)
    @click.option("--hostname", "-n", default=None, help="Celery node name (default: arena@<host>:<pid>).")
    @click.option("--beat", "-B", is_flag=True,
                  help="Also run the schedule: the continuous ladder's matchmaker every ARENA_LADDER_TICK_S "
                       "(one worker with --beat per installation).")
    def worker(broker: str | None, queue: str, concurrency: int | None, loglevel: str, hostname: str | None,
               beat: bool) -> None:
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
        if beat:
            from ..config import arena_home

            home = arena_home()
            home.mkdir(parents=True, exist_ok=True)
            argv += ["--beat", "--schedule", str(home / f"beat-{queue}")]
        console.print(f"arena worker on {queue} ({broker.split('@')[-1]}), store {store.safe_url}",
                      highlight=False)
        for line in bot_modes():
            console.print(line, highlight=False)
        app.worker_main(argv)
