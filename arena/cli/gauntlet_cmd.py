"""``arena gauntlet``: a bot against the field on paired deals, optionally stopped by an SPRT."""
from __future__ import annotations

import time

import click
from rich.table import Table

from .common import COUNT, NON_NEGATIVE, console, game_arg, parse_options


def _sprt_bounds(text: str | None) -> tuple[float, float] | None:
    if text is None:
        return None
    try:
        a, b = (float(x) for x in text.split(","))
    except ValueError:
        raise click.BadParameter(f"{text!r} is not ELO0,ELO1 (two numbers)", param_hint="--sprt") from None
    return a, b


def register(cli: click.Group) -> None:
    @cli.command("gauntlet")
    @click.argument("game_id", metavar="GAME")
    @click.option("--subject", "-s", required=True,
                  help="The bot under test (random, heuristic, module:Class, file.py:Class).")
    @click.option("--field", "-f", "field_text", default="random", show_default=True,
                  help="Comma-separated opponents; the subject meets them in turn.")
    @click.option("--seats", "-n", type=COUNT, default=None,
                  help="Seats per game (default: 2 where allowed).")
    @click.option("--units", "-u", type=COUNT, default=200, show_default=True,
                  help="At most this many units (one deal, the subject in every seat).")
    @click.option("--sprt", "sprt_text", default=None, metavar="ELO0,ELO1",
                  help="Stop as soon as an SPRT accepts H0 (subject is ELO0 stronger) or H1 (ELO1 stronger).")
    @click.option("--alpha", type=click.FloatRange(0, 1, min_open=True, max_open=True), default=0.05,
                  show_default=True, help="SPRT: false H1 rate.")
    @click.option("--beta", type=click.FloatRange(0, 1, min_open=True, max_open=True), default=0.05,
                  show_default=True, help="SPRT: false H0 rate.")
    @click.option("--key", "deal_key", envvar="ARENA_DEAL_KEY", default=None, metavar="HEX",
                  help="Deal key (64 hex digits) to replay a run; default: a fresh secret key.")
    @click.option("--jobs", "-j", type=NON_NEGATIVE, default=0,
                  help="Worker processes (default: one per core).")
    @click.option("--option", "-o", "option_items", multiple=True, metavar="KEY=VALUE", help="A game option.")
    def gauntlet_cmd(game_id: str, subject: str, field_text: str, seats: int | None, units: int,
                     sprt_text: str | None, alpha: float, beta: float, deal_key: str | None, jobs: int,
                     option_items: tuple[str, ...]) -> None:
        """Play SUBJECT against the field in GAME; with --sprt, stop when the test decides.

        Example: arena gauntlet dungeon_twister -s heuristic -f random --sprt 0,100
        """
        from .. import gauntlet
        from ..scheduling import default_seats
        from ..scheduling.deals import Dealer, check_key, new_key
        from ..sprt import Sprt, score_to_elo

        game = game_arg(game_id)
        if game.info.cooperative:
            raise click.BadParameter(
                f"{game.info.id} is cooperative: a gauntlet needs opponents (use arena eval)",
                param_hint="GAME")
        players = seats or default_seats(game.info)
        options = parse_options(option_items)
        game.new_state(players, options, 0)  # validate early: one clear error
        field_bots = [b.strip() for b in field_text.split(",") if b.strip()]
        if not field_bots:
            raise click.BadParameter("name at least one opponent", param_hint="--field")
        if units < 1:
            raise click.BadParameter("at least 1", param_hint="--units")
        bounds = _sprt_bounds(sprt_text)
        test = Sprt(bounds[0], bounds[1], alpha, beta) if bounds else None
        dealer = Dealer(check_key(deal_key) if deal_key else new_key())
        t0 = time.perf_counter()

        def progress(o: gauntlet.Outcome) -> None:
            llr = (f", LLR {o.llr:+.2f} in ({test.lower:.2f}, {test.upper:.2f})"
                   if test and o.llr is not None else "")
            console.print(f"{o.units} units, {o.games} games: score {o.score:.3f}{llr}", highlight=False)

        out = gauntlet.play(game.info.id, subject, field_bots, players, options, dealer, max_units=units,
                            test=test, workers=jobs or None, on_unit=progress)
        table = Table("opponent", "units", "score", "Elo",
                      title=f"{subject} in {game.info.name}, {players} seats")
        for opp, (n, score) in out.per_opponent.items():
            table.add_row(opp, str(n), f"{score:.3f}", f"{score_to_elo(score):+.0f}")
        console.print(table)
        if test is not None:
            verdict = {"H1": f"H1 accepted: the results favour {subject} being {test.elo1:+g} Elo over "
                             f"{test.elo0:+g} (false-H1 rate <= {alpha:g})",
                       "H0": f"H0 accepted: the results favour {subject} being {test.elo0:+g} Elo over "
                             f"{test.elo1:+g} (false-H0 rate <= {beta:g})",
                       None: f"undecided after {out.units} units (raise --units)"}[out.decision]
            console.print(f"SPRT [{test.elo0:g}, {test.elo1:g}] alpha {alpha:g} beta {beta:g}: {verdict}",
                          highlight=False)
        console.print(f"{out.games} games in {time.perf_counter() - t0:.1f}s; deal key {dealer.key}",
                      highlight=False)
