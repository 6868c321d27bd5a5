"""``arena referee``: run the gRPC referee; ``arena referee add-bot|revoke-bot|bots|status|gen-proto``."""
from __future__ import annotations

import json
import os
import secrets
from pathlib import Path

import click

from .common import COUNT, NON_NEGATIVE, SECONDS, BadInput, address_arg, console


def _load_games(specs: tuple[str, ...]) -> None:
    """``--load-game module:ATTR`` registers extra games (tests, plugins) in this process."""
    from referee.engine import register
    from referee.engine.registry import _load

    for spec in specs:
        register(_load(spec))


def register(cli: click.Group) -> None:
    @cli.group("referee", invoke_without_command=True)
    @click.option("--address", default="127.0.0.1:50051", show_default=True, envvar="ARENA_REFEREE_LISTEN",
                  callback=address_arg,
                  help="host:port to listen on (port 0 = any free port).")
    @click.option("--organizer-token", envvar="ARENA_ORGANIZER_TOKEN", default=None,
                  help="Token for organizer calls [env ARENA_ORGANIZER_TOKEN; generated and printed if "
                       "absent].")
    @click.option("--tls-cert", type=click.Path(exists=True, dir_okay=False), default=None,
                  help="PEM certificate.")
    @click.option("--tls-key", type=click.Path(exists=True, dir_okay=False), default=None,
                  help="PEM private key.")
    @click.option("--db-url", envvar="ARENA_DB_URL", default=None,
                  help="Database for bot tokens [env ARENA_DB_URL; default sqlite in $ARENA_HOME].")
    @click.option("--load-game", "load_games", multiple=True, metavar="MODULE:ATTR",
                  help="Register an extra game (e.g. tests.fixtures.sealed_bids:GAME).")
    @click.option("--ready-file", type=click.Path(dir_okay=False, path_type=Path), default=None,
                  help="Write {address, port, pid} as JSON here once listening (for scripts and tests).")
    @click.option("--max-strikes", type=COUNT, default=None, help="Strikes before a seat forfeits [3].")
    @click.option("--reasks", type=NON_NEGATIVE, default=None, help="Re-asks after a wrong answer [1].")
    @click.option("--reconnect-grace", type=SECONDS, default=None,
                  help="Seconds a disconnected seat waits [5].")
    @click.option("--hosted-cpu-s", type=NON_NEGATIVE, default=None,
                  help="CPU seconds per hosted bot (0 = no limit) [600].")
    @click.option("--hosted-memory-mb", type=COUNT, default=None, help="Memory per hosted bot in MiB [4096].")
    @click.option("--hosted-pids", type=COUNT, default=None, help="Processes per hosted bot's sandbox [256].")
    @click.option("--hosted-wall-s", type=click.FloatRange(min=0, min_open=True), default=None,
                  help="Wall seconds a hosted bot may live [3600].")
    @click.option("--unsandboxed-hosted-bots", is_flag=True, default=False,
                  envvar="ARENA_UNSANDBOXED_HOSTED_BOTS",
                  help="Without bwrap/user namespaces, run hosted bots anyway (TRUSTED CODE ONLY: no "
                       "isolation) [env ARENA_UNSANDBOXED_HOSTED_BOTS=1].")
    @click.option("--live-wait", type=SECONDS, default=None,
                  help="Seconds RunMatch waits for live bots [10].")
    @click.option("--flood-rate", type=click.FloatRange(min=0, min_open=True), default=None,
                  help="Unsolicited messages per second a bot session may send [200].")
    @click.option("--flood-burst", type=COUNT, default=None, help="Burst allowed above --flood-rate [400].")
    @click.pass_context
    def referee(ctx: click.Context, address: str, organizer_token: str | None, tls_cert: str | None,
                tls_key: str | None, db_url: str | None, load_games: tuple[str, ...], ready_file: Path | None,
                max_strikes: int | None, reasks: int | None, reconnect_grace: float | None,
                hosted_cpu_s: int | None, hosted_memory_mb: int | None, hosted_pids: int | None,
                hosted_wall_s: float | None, unsandboxed_hosted_bots: bool, live_wait: float | None,
                flood_rate: float | None, flood_burst: int | None) -> None:
        """Run the referee: bots connect over gRPC, organizers run matches (docs/protocol.md).

        Example: ARENA_ORGANIZER_TOKEN=secret arena referee --address 0.0.0.0:50051
        """
        ctx.ensure_object(dict)
        ctx.obj["db_url"] = db_url
        if ctx.invoked_subcommand is not None:
            return
        import asyncio
        import logging

        from referee.service.config import RefereeConfig
        from referee.service.server import serve
        from referee.service.tokens import TokenStore

        _load_games(load_games)
        if bool(tls_cert) != bool(tls_key):
            raise click.UsageError("--tls-cert and --tls-key go together")
        cfg = RefereeConfig()
        for name, value in [("max_strikes", max_strikes), ("reasks", reasks),
                            ("reconnect_grace_s", reconnect_grace), ("hosted_cpu_s", hosted_cpu_s),
                            ("hosted_memory_mb", hosted_memory_mb), ("live_wait_s", live_wait),
                            ("flood_rate", flood_rate), ("flood_burst", flood_burst),
                            ("hosted_pids", hosted_pids), ("hosted_wall_s", hosted_wall_s)]:
            if value is not None:
                setattr(cfg, name, value)
        cfg.allow_unsandboxed_hosted = unsandboxed_hosted_bots
        os.umask(0o077)  # [sandbox] the store, keys and logs this referee writes: its own user only
        if not organizer_token:
            organizer_token = secrets.token_urlsafe(24)
            console.print(
                f"organizer token (set ARENA_ORGANIZER_TOKEN to choose one): [bold]{organizer_token}[/bold]")
        root = logging.getLogger()
        if root.level > logging.INFO:
            logging.getLogger("referee").setLevel(logging.INFO)
            if not root.handlers:
                logging.basicConfig(format="%(asctime)s %(levelname)s %(name)s: %(message)s")

        from referee.service.sandbox import support

        mode = support(unsandboxed_hosted_bots)
        console.print(mode.describe(), highlight=False)

        def ready(port: int) -> None:
            host = address.rpartition(":")[0] or "127.0.0.1"
            console.print(f"referee listening on {host}:{port}", highlight=False)
            if ready_file is not None:
                tmp = ready_file.with_suffix(".tmp")
                tmp.write_text(json.dumps({"address": f"{host}:{port}", "port": port, "pid": os.getpid(),
                                           "hosted_mode": mode.mode, "hosted": mode.describe()}))
                tmp.replace(ready_file)

        try:
            asyncio.run(serve(address, organizer_token=organizer_token, config=cfg, store=TokenStore(db_url),
                              tls_cert=tls_cert, tls_key=tls_key, ready=ready))
        except RuntimeError as exc:
            # grpc raises a bare RuntimeError when the port cannot be bound (in use, bad host)
            if "bind" not in str(exc):
                raise
            raise click.ClickException(
                f"cannot listen on {address} (in use, or not an address of this machine)") \
                from None

    @referee.command("add-bot")
    @click.argument("name")
    @click.option("--games", default="", help="Comma-separated game ids (default: all).")
    @click.pass_context
    def add_bot(ctx: click.Context, name: str, games: str) -> None:
        """Register a bot in the referee's database and print its token (shown once)."""
        from referee.service.tokens import BadBotName, BotExists, TokenStore

        try:
            token = TokenStore(ctx.obj.get("db_url")).register(name, [g for g in games.split(",") if g])
        except (BadBotName, BotExists) as exc:
            raise BadInput(str(exc)) from None
        console.print(f"bot [bold]{name}[/bold] registered; its token (shown once):")
        click.echo(token)

    @referee.command("revoke-bot")
    @click.argument("name")
    @click.option("--referee", "address", default=None, envvar="ARENA_REFEREE", callback=address_arg,
                  help="A running referee to revoke it on: its connected sessions get Goodbye and end "
                       "[env ARENA_REFEREE].")
    @click.option("--organizer-token", envvar="ARENA_ORGANIZER_TOKEN", default=None,
                  help="With --referee: its organizer token [env ARENA_ORGANIZER_TOKEN].")
    @click.pass_context
    def revoke_bot(ctx: click.Context, name: str, address: str | None, organizer_token: str | None) -> None:
        """Revoke a bot's token. With a running referee (--referee, or ARENA_REFEREE and
        ARENA_ORGANIZER_TOKEN set) the referee does it and ends the bot's connected sessions at once;
        otherwise only the database is changed and a referee refuses the token from its next Hello."""
        if address and organizer_token:
            from referee.client import BotNotFound, RefereeClient

            with RefereeClient(address, organizer_token) as client:
                try:
                    closed = client.revoke_bot(name)
                except BotNotFound:
                    raise BadInput(f"no registered bot named {name!r} on the referee at {address}") from None
            console.print(f"bot {name} revoked on {address}; {closed} connected session(s) ended",
                          highlight=False)
            return
        from referee.service.tokens import TokenStore, UnknownBotName

        try:
            TokenStore(ctx.obj.get("db_url")).revoke(name)
        except UnknownBotName:
            raise BadInput(f"no registered bot named {name!r}") from None
        console.print(f"bot {name} revoked in the database (a running referee refuses it from its next "
                      "Hello; pass --referee to end its connected sessions now)", highlight=False)

    @referee.command("bots")
    @click.pass_context
    def list_bots(ctx: click.Context) -> None:
        """Bots registered in the referee's database."""
        from referee.service.tokens import TokenStore

        for rec in TokenStore(ctx.obj.get("db_url")).all():
            console.print(f"{rec.name}\t{','.join(rec.games) or 'all games'}")

    @referee.command("status")
    @click.option("--referee", "address", default="127.0.0.1:50051", envvar="ARENA_REFEREE",
                  show_default=True, callback=address_arg)
    @click.option("--organizer-token", envvar="ARENA_ORGANIZER_TOKEN", required=True)
    def status(address: str, organizer_token: str) -> None:
        """Ask a running referee for its status, bots and matches."""
        from referee.client import RefereeClient

        with RefereeClient(address, organizer_token) as c:
            console.print_json(json.dumps({"status": c.status(), "bots": c.list_bots(),
                                           "matches": c.list_matches()}))

    @referee.command("watch")
    @click.argument("match_id")
    @click.option("--referee", "address", default="127.0.0.1:50051", envvar="ARENA_REFEREE",
                  show_default=True, callback=address_arg)
    @click.option("--organizer-token", envvar="ARENA_ORGANIZER_TOKEN", required=True)
    @click.option("--delay", type=SECONDS, default=0.0, help="Spectator delay in seconds.")
    def watch(match_id: str, address: str, organizer_token: str, delay: float) -> None:
        """Print the public frames of a running match as JSON lines."""
        from referee.client import RefereeClient

        with RefereeClient(address, organizer_token) as c:
            for frame in c.watch(match_id, delay):
                click.echo(json.dumps(frame))

    @referee.command("gen-proto")
    def gen_proto() -> None:
        """Regenerate the Python stubs in referee/protocol/ from proto/arena/v1/*.proto."""
        from referee.protocol import gen

        gen.main()
