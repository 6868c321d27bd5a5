"""``arena demo``: the whole platform on the embedded default, in one command."""
from __future__ import annotations

import time

import click
from rich.markup import escape

from .common import COUNT, PORT, console


def register(cli: click.Group) -> None:
    @cli.command("demo")
    @click.option("--games", "games_text", default="",
                  help="Comma-separated games (default: every registered game).")
    @click.option("--quick", is_flag=True, help="One deal per pairing (a smoke test).")
    @click.option("--deals", type=COUNT, default=None, help="Deals per pairing [2, or 1 with --quick].")
    @click.option("--no-dashboard", is_flag=True, help="Do not start the dashboard; exit after the ladders.")
    @click.option("--port", type=PORT, default=8000, show_default=True,
                  help="Dashboard port (a free one if taken).")
    @click.option("--executor", type=click.Choice(["referee", "inprocess"]), default="referee",
                  show_default=True, help="inprocess: no referee, bots play inside the workers (debugging).")
    @click.option("--workers", "-j", type=COUNT, default=None,
                  help="Local pool processes (default: CPU count).")
    @click.option("--no-search", is_flag=True,
                  help="Leave out the search bots (a third tier: the heuristic improved by playouts on "
                       "determinized samples): a quicker demo.")
    @click.option("--key", "deal_key", envvar="ARENA_DEAL_KEY", default=None, metavar="HEX",
                  help="The secret deal key (64 hex digits) to replay the same deals; default: a fresh "
                       "random key.")
    def demo(games_text: str, quick: bool, deals: int | None, no_dashboard: bool, port: int, executor: str,
             workers: int | None, deal_key: str | None, no_search: bool) -> None:
        """Start a referee and the dashboard, register hosted random, heuristic and search bots, run a
        round-robin for every game (watch it live on the dashboard), print the ladders, then keep serving
        the dashboard until Ctrl-C.

        Everything lives in ARENA_HOME (default ./.arena): run it again and the ladders grow.
        """
        import contextlib

        from referee.engine import game_ids

        from ..config import settings
        from ..demo import (
            create_demo_tournaments,
            dashboard_process,
            exit_on_sigterm,
            forfeits,
            local_referee,
        )
        from ..store import open_store
        from .common import game_arg
        from .tournament_cmd import print_ladder, run_tournaments

        if settings().broker_url:
            console.print("[yellow]ARENA_BROKER_URL is set: the demo's matches go to Celery workers "
                          "(start some with `arena worker`)[/yellow]")
        exit_on_sigterm()
        named = [g.strip() for g in games_text.split(",") if g.strip()]
        games = [game_arg(g, "--games").info.id for g in named] or game_ids()
        if deal_key is not None:
            from ..scheduling import deals as deal_keys

            try:
                deal_key = deal_keys.check_key(deal_key)
            except deal_keys.BadKey as e:
                raise click.BadParameter(str(e), param_hint="--key") from None
        store = open_store()
        console.print(f"store: {store.safe_url}", highlight=False)
        t0 = time.monotonic()
        use_referee = executor == "referee" and not settings().referees
        with contextlib.ExitStack() as stack:
            if use_referee:
                ref = stack.enter_context(local_referee())
                console.print(f"referee listening on {ref.address} (log: {ref.log_path}); {ref.hosted}",
                              highlight=False)
            tids = create_demo_tournaments(store, games, deals=deals or (1 if quick else 2),
                                           executor=executor, deal_key=deal_key, search=not no_search)
            # The dashboard comes up first, so the matches can be watched live while the ladders fill
            # (it finds the referee through ARENA_REFEREE, which local_referee has just set).
            url = None if no_dashboard else stack.enter_context(dashboard_process(port))
            if url is not None:
                console.print(f"[bold green]dashboard: {url}[/bold green]  (matches live now; ladders "
                              "and replays as they finish)")
            total = run_tournaments(list(tids), workers=workers, labels={t: g for t, g in tids.items()})
            elapsed = time.monotonic() - t0
            done = sum(p.done for p in total.values())
            failed = sum(p.failed for p in total.values())
            console.print(f"{done} matches played, {failed} failed, in {elapsed:.1f}s", highlight=False)
            for g in games:
                print_ladder(g)
            lost = forfeits(store, tids)
            if lost.count:
                where = f"; the referee's log: {ref.log_path}" if use_referee else ""
                console.print(f"[yellow]{lost.count} of {lost.done} matches ended by forfeit[/yellow] "
                              f"(the demo's own bots should not forfeit{where}):", highlight=False)
                for line in lost.reasons:
                    console.print(f"  {escape(line)}", highlight=False)
            if failed:
                from ..store import queries

                for tid in tids:
                    for mv in queries.matches(store, tournament_id=tid, status="failed", limit=2).items:
                        console.print(f"[red]{mv.game} match {mv.id} failed:[/red] {escape(mv.reason or '')}",
                                      highlight=False)
            if lost.all:
                raise click.ClickException("every demo match ended by forfeit: its bots could not play "
                                           "(the ladders above are all draws)")
            if no_dashboard:
                if failed:
                    raise click.ClickException(f"{failed} demo match(es) failed")
                return
            if url is None:
                console.print("no dashboard installed yet; skipping it (the ladders above are in the store)")
                return
            console.print(f"\n[bold green]dashboard: {url}[/bold green]  (ladders, tournaments, replays; "
                          "Ctrl-C to stop)")
            try:
                while True:
                    time.sleep(1)
            except KeyboardInterrupt:
                console.print("stopping")
