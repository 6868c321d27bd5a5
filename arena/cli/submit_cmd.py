"""``arena submit DIR`` and ``arena developer ...``: a bot developer's side of the developer service."""

from __future__ import annotations

import subprocess
import sys
import time
from datetime import UTC, datetime
from pathlib import Path

import click
from rich.markup import escape
from rich.table import Table

from .common import SECONDS, BadInput, address_arg, console, err_console
from .outputs import printable
from .progress import step

SERVER_HELP = "The developer service [env ARENA_DEV_SERVER; default 127.0.0.1:50061]."
TOKEN_HELP = "Developer token [env ARENA_DEV_TOKEN; default: the one `arena developer register` saved]."


def _server(value: str | None) -> str:
    from ..submissions.client import DEFAULT_SERVER

    return value or DEFAULT_SERVER


def _client(server: str | None, token: str | None):
    from ..submissions.client import DevClient, find_token

    return DevClient(_server(server), find_token(token))


def _when(ms: int) -> str:
    return datetime.fromtimestamp(ms / 1000, UTC).strftime("%Y-%m-%d %H:%M:%S") if ms else ""


def _versions_table(versions) -> Table:
    table = Table("version", "status", "runtime", "games", "submitted (UTC)", "reason")
    colour = {"active": "green", "failed": "red", "building": "yellow", "suspended": "magenta"}
    for v in versions:
        st = f"[{colour.get(v.status, 'dim')}]{v.status}[/]"
        table.add_row(
            escape(v.name),
            st,
            v.runtime,
            ", ".join(v.games) or "all",
            _when(v.submitted_unix_ms),
            escape(v.reason),
        )
    return table


def _suspended_hint(versions) -> None:
    """Where a suspended version's crashes can be read (its own output in its latest matches)."""
    for v in versions:
        if v.status == "suspended":
            console.print(f"what {escape(v.name)} wrote in its latest matches: arena developer logs "
                          f"{escape(v.name)}", highlight=False)


def server_option(fn):
    return click.option(
        "--server", default=None, envvar="ARENA_DEV_SERVER", callback=address_arg, help=SERVER_HELP
    )(fn)


def token_option(fn):
    return click.option("--token", default=None, help=TOKEN_HELP)(fn)


def register(cli: click.Group) -> None:
    @cli.command("submit")
    @click.argument("directory", type=click.Path(exists=True, file_okay=False, path_type=Path))
    @server_option
    @token_option
    @click.option("--no-wait", is_flag=True, help="Return once uploaded (the build goes on).")
    @click.option(
        "--timeout",
        type=SECONDS,
        default=900,
        show_default=True,
        help="Seconds to wait for the build and smoke test.",
    )
    def submit(directory: Path, server: str | None, token: str | None, no_wait: bool, timeout: float) -> None:
        """Upload the bot in DIRECTORY (its arena-bot.toml says how) as a new version, and wait for its
        build and smoke test. Exit status 1 when the version fails.

        Example: arena new-bot --lang go mybot && arena submit mybot
        """
        from rich.progress import BarColumn, DownloadColumn, Progress, TransferSpeedColumn

        from ..submissions.manifest import load
        from ..submissions.pack import pack

        manifest = load(directory)
        client = _client(server, token)
        if manifest.vendor and not (directory / manifest.vendor_dir).exists():
            err_console.print(
                f"{manifest.vendor_dir}/ is missing: running `{escape(manifest.vendor)}` here "
                "(the build has no network)",
                highlight=False,
            )
            done = subprocess.run(manifest.vendor, shell=True, cwd=directory, check=False)
            if done.returncode != 0:
                raise click.ClickException(f"`{manifest.vendor}` failed with exit status {done.returncode}")
        data = pack(directory, manifest.exclude)
        with Progress(
            "upload",
            BarColumn(),
            DownloadColumn(),
            TransferSpeedColumn(),
            console=err_console,
            transient=True,
        ) as bar:
            task = bar.add_task("upload", total=len(data))
            v = client.submit(data, lambda n: bar.advance(task, n))
        console.print(
            f"submitted [bold]{escape(v.name)}[/bold] ({len(data) / 1024:.0f} KiB): {v.status}",
            highlight=False,
        )
        if no_wait:
            return
        deadline = time.monotonic() + timeout
        with step(f"building and smoke-testing {v.name}", console=err_console):
            while v.status == "building" and time.monotonic() < deadline:
                time.sleep(1.0)
                v = client.version(v.name)
        if v.status == "building":
            raise click.ClickException(
                f"{v.name} is still building after {timeout:g}s; see `arena developer versions`"
            )
        if v.status != "active":
            tail = "\n".join(v.log.rstrip().splitlines()[-15:])
            err_console.print(escape(printable(tail)), highlight=False)
            raise click.ClickException(
                f"{v.name} {v.status}: {v.reason} (full log: arena developer logs {v.name})"
            )
        console.print(
            f"{escape(v.name)} is [green]active[/green]: it plays rated matches from now on", highlight=False
        )

    @cli.group("developer")
    def developer() -> None:
        """Bot developers: register, follow your versions and their logs; organizers approve developers."""

    @developer.command("register")
    @click.argument("name")
    @server_option
    @click.option("--no-save", is_flag=True, help="Print the token only (do not save it).")
    def register_(name: str, server: str | None, no_save: bool) -> None:
        """Register developer NAME and print its token (shown once; saved for `arena submit`)."""
        from ..submissions.client import DevClient, save_token
        from ..submissions.developers import DeveloperError, check_name

        try:
            check_name(name)
        except DeveloperError as exc:
            raise BadInput(str(exc)) from None
        resp = DevClient(_server(server)).register(name)
        console.print(
            f"developer [bold]{escape(resp.name)}[/bold] registered ({resp.status}); its token (shown once):",
            highlight=False,
        )
        click.echo(resp.token)
        if not no_save:
            console.print(f"saved in {save_token(resp.token)} (arena submit reads it)", highlight=False)
        if resp.status == "pending":
            console.print(
                "an organizer must approve it first: arena developer approve " + resp.name, highlight=False
            )

    @developer.command("status")
    @server_option
    @token_option
    def status(server: str | None, token: str | None) -> None:
        """Who you are, and your bots' latest versions."""
        resp = _client(server, token).versions()
        console.print(
            f"developer [bold]{escape(resp.developer)}[/bold] ({resp.status}), "
            f"{len(resp.versions)} version(s)",
            highlight=False,
        )
        latest: dict[str, object] = {}
        for v in resp.versions:
            latest.setdefault(v.family, v)
        if latest:
            console.print(_versions_table(latest.values()))
            _suspended_hint(latest.values())

    @developer.command("versions")
    @click.argument("bot", required=False, default="")
    @server_option
    @token_option
    def versions(bot: str, server: str | None, token: str | None) -> None:
        """Every version of your bots (or of BOT), newest first."""
        resp = _client(server, token).versions(bot)
        if not resp.versions:
            console.print(f"no versions{' of ' + escape(bot) if bot else ''} yet", highlight=False)
            return
        console.print(_versions_table(resp.versions))
        _suspended_hint(resp.versions)

    @developer.command("logs")
    @click.argument("version")
    @click.option("--matches", type=click.IntRange(min=0, max=50), default=3, show_default=True,
                  help="Also what the bot wrote (stdout, stderr) in this many of its latest matches.")
    @server_option
    @token_option
    def logs(version: str, matches: int, server: str | None, token: str | None) -> None:
        """The build and smoke-test log of VERSION (mybot@3), then its own output in its latest matches
        (a crash's traceback): yours alone, and a match's only once every match dealt like it is played."""
        from ..store.health import SeatOutput
        from .outputs import print_outputs

        client = _client(server, token)
        v = client.version(version)
        console.print(
            f"{escape(v.name)}: {v.status}{' (' + escape(v.reason) + ')' if v.reason else ''}",
            highlight=False,
        )
        log_text = printable(v.log)   # the build's own output: shown, never obeyed by the terminal
        sys.stdout.write(log_text if log_text.endswith("\n") or not log_text else log_text + "\n")
        if matches:
            resp = client.outputs(v.name, matches)
            rows = [SeatOutput(o.match_id, o.game, o.seat, o.rank or None, o.forfeit,
                               datetime.fromtimestamp(o.finished_unix_ms / 1000, UTC) if o.finished_unix_ms
                               else None, o.text) for o in resp.outputs]
            print_outputs(rows, resp.sealed)

    @developer.command("retire")
    @click.argument("version")
    @server_option
    @token_option
    def retire(version: str, server: str | None, token: str | None) -> None:
        """Take VERSION (mybot@3) out of play for good; its matches and replays stay."""
        v = _client(server, token).retire(version)
        console.print(f"{escape(v.name)}: {v.status}", highlight=False)

    @developer.command("approve")
    @click.argument("name")
    def approve(name: str) -> None:
        """Organizer: let developer NAME submit (with ARENA_DEV_REGISTRATION=approval). Uses the store."""
        _organizer_set(name, "approved")

    @developer.command("disable")
    @click.argument("name")
    def disable(name: str) -> None:
        """Organizer: refuse every call of developer NAME from now on (its versions stay)."""
        _organizer_set(name, "disabled")

    @developer.command("list")
    def list_() -> None:
        """Organizer: every developer and its status (from the store)."""
        from ..store import open_store
        from ..submissions.developers import developers

        rows = developers(open_store())
        if not rows:
            console.print("no developers yet")
            return
        table = Table("developer", "status")
        for d in rows:
            table.add_row(escape(d.name), d.status)
        console.print(table)


def _organizer_set(name: str, status: str) -> None:
    from ..store import open_store
    from ..submissions.developers import DeveloperError, set_developer_status

    try:
        set_developer_status(open_store(), name, status)
    except DeveloperError as exc:
        raise BadInput(str(exc)) from None
    console.print(f"developer {escape(name)}: {status}", highlight=False)
