"""``arena tournament create|run|status|cancel|list``: organize tournaments, watch them, read crosstables."""
from __future__ import annotations

import contextlib
import time
from collections.abc import Iterator
from typing import TYPE_CHECKING

import click
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn
from rich.table import Table

from .common import COUNT, BadInput, console, parse_options
from .progress import LineProgress, progress

if TYPE_CHECKING:
    from ..store import queries


def _fmt_eta(p) -> str:
    if p.eta_s is None:
        return "ETA -:--"
    s = int(p.eta_s)
    return f"ETA {s // 60}:{s % 60:02d}"


def progress_bar() -> Progress | LineProgress:
    return progress(TextColumn("[bold]{task.description}"), BarColumn(), MofNCompleteColumn(),
                    TextColumn("{task.fields[detail]}"), console=console)


def progress_detail(p) -> str:
    failed = f"[red]{p.failed} failed[/red]" if p.failed else "0 failed"
    waiting = f" ([yellow]{p.waiting} waiting for referee[/yellow])" if getattr(p, "waiting", 0) else ""
    return f"{p.done} done, {p.running} running{waiting}, {failed}, {p.per_minute:.0f}/min, {_fmt_eta(p)}"


def print_failures(tid: int, limit: int = 10) -> None:
    """Failed matches with their reasons, and how to retry them."""
    from ..store import open_store, queries

    fails = queries.failures(open_store(), tid, limit=limit + 1)
    for f in fails[:limit]:
        console.print(f"[red]match {f.match_id} (#{f.number}) failed:[/red] {f.reason}", highlight=False)
    if len(fails) > limit:
        console.print(f"... and more (arena tournament status {tid})", highlight=False)
    if fails:
        console.print(f"retry them on their own seeds with: arena tournament retry {tid}", highlight=False)


@contextlib.contextmanager
def referee_for(executors: set[str]) -> Iterator[None]:
    """Matches played by a referee on the embedded default need one: start it when none is configured."""
    from ..config import settings

    cfg = settings()
    if "referee" not in executors or cfg.referees or cfg.broker_url:
        yield
        return
    from ..demo import exit_on_sigterm, local_referee

    exit_on_sigterm()
    with local_referee() as ref:
        console.print(f"started a local referee on {ref.address} (log: {ref.log_path}); {ref.hosted}",
                      highlight=False)
        yield


def run_tournaments(tids: list[int], *, workers: int | None = None, show_progress: bool = True,
                    labels: dict[int, str] | None = None) -> dict[int, queries.Progress]:
    """Drive tournaments with a live progress bar each; returns their final progress."""
    from ..scheduling.driver import dispatcher_from_env, drive_many
    from ..store import open_store, queries

    store = open_store()
    views: dict[int, queries.TournamentView] = {}
    for tid in tids:
        v = queries.tournament(store, tid)
        if v is None:
            raise BadInput(f"no tournament {tid}")
        views[tid] = v
    with referee_for({v.executor for v in views.values()}):
        dispatcher = dispatcher_from_env(workers)
        try:
            if not show_progress:
                return drive_many(store, tids, dispatcher)
            with progress_bar() as bar:
                tasks = {tid: bar.add_task((labels or {}).get(tid, f"#{tid} {views[tid].game}"),
                                           total=views[tid].progress.total,
                                           detail="starting")
                         for tid in tids}

                def show(progress: dict[int, queries.Progress]) -> None:
                    for tid, p in progress.items():
                        bar.update(tasks[tid], completed=p.finished, detail=progress_detail(p))

                return drive_many(store, tids, dispatcher, on_progress=show)
        finally:
            dispatcher.close()


def print_crosstable(tid: int) -> None:
    """Score of each row bot against each column opponent (wins + draws/2 over games, pairwise by rank)."""
    from ..store import open_store, queries

    store = open_store()
    t = queries.tournament(store, tid)
    if t is None:
        raise BadInput(f"no tournament {tid}")
    h2h = queries.head_to_head(store, t.game, tournament_id=tid)
    if not h2h.players:
        console.print("no results yet")
        return
    rows = sorted(h2h.players, key=lambda p: (p.startswith("scenario:"), p))
    table = Table("", *rows, "total", title=f"#{tid} {t.name}: crosstable (score %, W-D-L)")
    for a in rows:
        cells, tw, td, tl = [], 0, 0, 0
        for b in rows:
            w, d, l_ = h2h.cells.get(a, {}).get(b, [0, 0, 0])
            tw, td, tl = tw + w, td + d, tl + l_
            cells.append("" if a == b or not (w + d + l_)
                         else f"{(w + d / 2) / (w + d + l_):.0%} {w}-{d}-{l_}")
        n = tw + td + tl
        table.add_row(a, *cells, f"{(tw + td / 2) / n:.0%}" if n else "")
    console.print(table)


def print_pairings(tid: int) -> None:
    """Which pairings share deals (paired: luck cancels) and which got independent deals, and why."""
    from ..store import open_store, queries

    ps = queries.pairings(open_store(), tid)
    paired = [p.group for p in ps if p.paired]
    single = [p.group for p in ps if not p.paired]
    if paired:
        console.print(f"paired deals: {', '.join(paired)}", highlight=False)
    if single:
        console.print(f"independent deals (a bot that can remember a deal, or --deals independent): "
                      f"{', '.join(single)}", highlight=False)


def print_luck(tid: int) -> None:
    from .. import luck
    from ..store import open_store, queries

    rows = luck.report(queries.deal_results(open_store(), tid))
    if not rows:
        console.print("luck report: not enough finished deals (two complete units per pairing at least)")
        return
    table = Table("pairing", "deals", "units", "orders", "mean score", "var/game", "var/unit",
                  "var/unit if independent", "ratio",
                  title=f"#{tid} luck report (score of the pairing's first bot)")
    for r in rows:
        table.add_row(r.pairing, "paired" if r.paired else "independent", str(r.units), str(r.orders),
                      f"{r.mean:.3f}", f"{r.var_game:.4f}", f"{r.var_unit:.4f}", f"{r.var_indep:.4f}",
                      f"{r.ratio:.2f}" if r.ratio is not None else "-")
    console.print(table)
    pooled = luck.pooled(rows)
    if pooled and pooled[1] > 0:
        console.print(f"pooled: variance per unit {pooled[0]:.4f} vs {pooled[1]:.4f} with independent seat "
                      f"orders (ratio {pooled[0] / pooled[1]:.2f}: one unit is worth "
                      f"{pooled[1] / max(pooled[0], 1e-12):.2f} "
                      f"independent ones)", highlight=False)


def print_ladder(game: str, *, top: int | None = None, label: str | None = None) -> None:
    """A published ladder: ``game`` is a ladder id (the game, or ``game@seats``)."""
    from ..store import open_store, queries

    lv = queries.ladder(open_store(), game)
    if not lv.rows:
        console.print(f"no rated results for {label or game} yet")
        return
    table = Table("#", "player", "Elo", "95% interval", "games", "W", "D", "L",
                  title=f"{label or game} ladder",
                  caption=f"({lv.results} results, anchored to {lv.anchor or 'the mean'} = 0)")
    for i, r in enumerate(lv.rows[:top] if top else lv.rows, 1):
        table.add_row(str(i), r.player, f"{r.rating:+.0f}", f"[{r.lo:+.0f}, {r.hi:+.0f}]", str(r.games),
                      str(r.wins), str(r.draws), str(r.losses))
    console.print(table)


def register(cli: click.Group) -> None:
    @cli.group("tournament")
    def tournament() -> None:
        """Create, run, watch and cancel tournaments."""

    @tournament.command("create")
    @click.argument("game_id", metavar="GAME")
    @click.option("--bots", "-b", required=True, help="Comma-separated registered bot names.")
    @click.option("--format", "fmt", default="auto", show_default=True,
                  type=click.Choice(["auto", "round_robin", "rotation", "cooperative", "gauntlet"]),
                  help="auto: round_robin for 2 seats, rotation for more, cooperative for team games.")
    @click.option("--seats", "-n", default=None,
                  help="Seats per match (cooperative: comma-separated seat counts). "
                       "Default: the game's own (Greyport: 3), else 2 where allowed.")
    @click.option("--games", "-g", type=COUNT, default=2, show_default=True,
                  help="Deals per pairing/group (each played in every seat order).")
    @click.option("--seed", type=int, default=0, show_default=True,
                  help="A public label mixed into every deal (the deals themselves come from a secret key).")
    @click.option("--deals", "deal_mode", type=click.Choice(["auto", "paired", "independent"]),
                  default="auto", show_default=True,
                  help="auto: seat orders share a deal where every bot is hosted (cannot "
                                          "remember it) or the game has no hidden information.")
    @click.option("--key", "deal_key", envvar="ARENA_DEAL_KEY", default=None, metavar="HEX",
                  help="The secret deal key (64 hex digits) to reproduce a run; default: a fresh random key.")
    @click.option("--subject", default=None, help="Gauntlet: the bot under test.")
    @click.option("--mixed", is_flag=True, help="Cooperative: also mixed teams (every multiset of bots).")
    @click.option("--option", "-o", "option_items", multiple=True, metavar="KEY=VALUE", help="A game option.")
    @click.option("--per-decision-ms", type=COUNT, default=None, help="Time control per decision (ms).")
    @click.option("--executor", type=click.Choice(["referee", "inprocess"]), default="referee",
                  show_default=True,
                  help="inprocess: play in the worker with the bots' in-process agents (debugging).")
    @click.option("--name", default="", help="A name for the tournament.")
    @click.option("--run", "run_now", is_flag=True, help="Run it right away (like `arena tournament run`).")
    def create(game_id: str, bots: str, fmt: str, seats: str | None, games: int, seed: int,
               subject: str | None, mixed: bool, option_items: tuple[str, ...], per_decision_ms: int | None,
               executor: str, name: str, run_now: bool, deal_mode: str, deal_key: str | None) -> None:
        """Schedule a tournament of GAME (every match and its seed are fixed now)."""
        from ..store import open_store, ops, queries

        try:
            seat_counts = tuple(int(x) for x in seats.split(",")) if seats else ()
        except ValueError:
            raise click.BadParameter(f"{seats!r} is not a seat count (or a list of them)",
                                     param_hint="--seats") from None
        req = ops.TournamentRequest(
            game=game_id, bots=tuple(b.strip() for b in bots.split(",") if b.strip()), format=fmt,
            seats=seat_counts, games_per_pairing=games, seed=seed, options=parse_options(option_items),
            subject=subject, mixed_teams=mixed, executor=executor, name=name,
            time_control={"per_decision_ms": per_decision_ms} if per_decision_ms else None,
            deals=deal_mode, deal_key=deal_key)
        store = open_store()
        tid = ops.create_tournament(store, req)
        t = queries.tournament(store, tid)
        assert t is not None
        console.print(f"tournament [bold]#{tid}[/bold] created: {t.game} {t.format}, seats {t.seats}, "
                      f"{len(t.bots)} bots, {t.progress.total} matches", highlight=False)
        print_pairings(tid)
        if run_now:
            _run(tid, None, True)
        else:
            console.print(f"run it with: arena tournament run {tid}")

    def _run(tid: int, workers: int | None, show: bool) -> None:
        t0 = time.monotonic()
        final = run_tournaments([tid], workers=workers, show_progress=show)[tid]
        console.print(f"#{tid}: {final.done} done, {final.failed} failed, {final.cancelled} cancelled "
                      f"in {time.monotonic() - t0:.1f}s", highlight=False)
        print_crosstable(tid)
        print_failures(tid, limit=3)

    @tournament.command("run")
    @click.argument("tid", type=int, metavar="ID")
    @click.option("--workers", "-j", type=COUNT, default=None,
                  help="Local pool processes (embedded default; ignored with ARENA_BROKER_URL).")
    @click.option("--no-progress", is_flag=True, help="No live progress bar.")
    def run(tid: int, workers: int | None, no_progress: bool) -> None:
        """Play tournament ID to the end (resumes an interrupted one), then print its crosstable.

        With ARENA_BROKER_URL set, matches go to Celery workers (`arena worker`); otherwise a local
        process pool plays them.
        """
        _run(tid, workers, not no_progress)

    @tournament.command("status")
    @click.argument("tid", type=int, metavar="ID", required=False)
    @click.option("--crosstable/--no-crosstable", default=True)
    def status(tid: int | None, crosstable: bool) -> None:
        """Progress of tournament ID (or a list of recent tournaments)."""
        from ..store import open_store, queries

        store = open_store()
        if tid is None:
            page = queries.tournaments(store, limit=20)
            table = Table("id", "name", "game", "format", "status", "matches", "done", "failed")
            for t in page.items:
                table.add_row(str(t.id), t.name, t.game, t.format, t.status_text, str(t.progress.total),
                              str(t.progress.done), str(t.progress.failed))
            console.print(table if page.items
                          else "no tournaments yet: arena tournament create GAME --bots a,b")
            return
        t = queries.tournament(store, tid)
        if t is None:
            raise BadInput(f"no tournament {tid}")
        p = t.progress
        console.print(f"#{t.id} {t.name}: {t.game} {t.format}, seats {t.seats}, status "
                      f"[bold]{t.status_text}[/bold]\n"
                      f"{p.finished}/{p.total} finished: {progress_detail(p)}", highlight=False)
        print_pairings(tid)
        if t.deal_key:
            console.print(f"deal key (published): {t.deal_key}  (check: arena tournament verify {tid})",
                          highlight=False)
        if crosstable:
            print_crosstable(tid)
        print_failures(tid)

    @tournament.command("retry")
    @click.argument("tid", type=int, metavar="ID")
    @click.option("--run", "run_now", is_flag=True,
                  help="Run the tournament right away (like `arena tournament run`).")
    def retry(tid: int, run_now: bool) -> None:
        """Queue tournament ID's failed matches again, on their own seeds.

        They go to the front of the queue."""
        from ..store import open_store, ops

        n = ops.retry_failed(open_store(), tid)
        console.print(f"tournament #{tid}: {n} failed match(es) queued again", highlight=False)
        if run_now and n:
            _run(tid, None, True)
        elif n:
            console.print(f"run it with: arena tournament run {tid}", highlight=False)

    @tournament.command("cancel")
    @click.argument("tid", type=int, metavar="ID")
    def cancel(tid: int) -> None:
        """Cancel tournament ID: queued matches are dropped; running ones finish and count."""
        from ..store import open_store, ops

        n = ops.cancel_tournament(open_store(), tid)
        console.print(f"tournament #{tid} cancelled ({n} queued matches dropped)")

    @tournament.command("verify")
    @click.argument("tid", type=int, metavar="ID")
    def verify(tid: int) -> None:
        """Recompute every match seed of finished tournament ID from its published deal key."""
        from ..scheduling import deals
        from ..store import open_store, queries

        store = open_store()
        if queries.tournament(store, tid) is None:
            raise BadInput(f"no tournament {tid}")
        published = queries.deals(store, tid)
        if published is None:
            raise click.ClickException(f"tournament {tid} is not over: its deal key is published when every "
                                       "match is finished")
        key, label, rows = published
        bad = deals.verify(key, label, [(str(r.match_id), r.deal, r.seed) for r in rows])
        for b in bad:
            console.print(f"[red]match {b.match}: seed {b.stored} != HMAC(key, {label}, {b.deal!r}) = "
                          f"{b.expected}[/red]", highlight=False)
        if bad:
            raise SystemExit(1)
        console.print(f"#{tid}: all {len(rows)} seeds verified: seed = HMAC-SHA256(key, "
                      f"\"{label}\\x1f<deal>\")"
                      f"[:4] & 0x7fffffff with key {key}", highlight=False)

    @tournament.command("report")
    @click.argument("tid", type=int, metavar="ID")
    def report(tid: int) -> None:
        """Crosstable, pairings and the luck report of tournament ID (published results only)."""
        from ..store import open_store, queries

        t = queries.tournament(open_store(), tid)
        if t is None:
            raise BadInput(f"no tournament {tid}")
        console.print(f"#{t.id} {t.name}: {t.game} {t.format}, seats {t.seats}, {t.status}, "
                      f"deals {t.deal_mode}", highlight=False)
        print_pairings(tid)
        print_crosstable(tid)
        print_luck(tid)
