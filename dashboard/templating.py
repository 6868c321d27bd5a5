"""Jinja2 helpers: inline-SVG sparklines and interval bars, number formatting, query strings.

Everything that builds markup here uses numbers only; strings from bots go through
autoescaping in the templates.
"""
from __future__ import annotations

from typing import Any
from urllib.parse import quote, urlencode

from jinja2 import Environment
from markupsafe import Markup


def sparkline(values: list[float], width: int = 120, height: int = 28) -> Markup:
    """An inline SVG line of a rating history, with the last point marked."""
    if len(values) < 2:
        return Markup(f'<svg class="spark" width="{width:d}" height="{height:d}" role="img" '
                      'aria-label="no history yet"></svg>')
    lo, hi = min(values), max(values)
    span = (hi - lo) or 1.0
    pad = 3
    pts = []
    for i, v in enumerate(values):
        x = pad + i * (width - 2 * pad) / (len(values) - 1)
        y = pad + (1 - (v - lo) / span) * (height - 2 * pad)
        pts.append((x, y))
    path = " ".join(f"{x:.1f},{y:.1f}" for x, y in pts)
    trend = "up" if values[-1] >= values[0] else "down"
    lx, ly = pts[-1]
    return Markup(
        f'<svg class="spark spark-{trend}" width="{width}" height="{height}" viewBox="0 0 {width} {height}" '
        f'role="img" aria-label="rating history from {values[0]:.0f} to {values[-1]:.0f}">'
        f'<polyline points="{path}" fill="none" stroke-width="1.6" stroke-linejoin="round"/>'
        f'<circle cx="{lx:.1f}" cy="{ly:.1f}" r="2.4"/></svg>')


def interval_bar(lo: float, hi: float, rating: float, lo_all: float, hi_all: float,
                 width: int = 110) -> Markup:
    """The rating's confidence interval on a shared axis for the whole ladder."""
    span = (hi_all - lo_all) or 1.0

    def x(v: float) -> float:
        return 4 + (min(max(v, lo_all), hi_all) - lo_all) / span * (width - 8)
    return Markup(
        f'<svg class="ci" width="{width}" height="14" viewBox="0 0 {width} 14" role="img" '
        f'aria-label="95% interval {lo:.0f} to {hi:.0f}"><line x1="4" y1="7" x2="{width - 4}" y2="7" '
        f'class="ci-axis"/>'
        f'<rect x="{x(lo):.1f}" y="3" width="{max(2.0, x(hi) - x(lo)):.1f}" height="8" rx="4" '
        f'class="ci-band"/>'
        f'<circle cx="{x(rating):.1f}" cy="7" r="3" class="ci-dot"/></svg>')


def query(base: dict[str, Any] | None = None, **changes: Any) -> str:
    """A query string from ``base`` with ``changes`` applied (None drops a key)."""
    params = {k: v for k, v in {**(base or {}), **changes}.items() if v is not None}
    return "?" + urlencode(params) if params else ""


def pct(n: float, d: float) -> str:
    return f"{100 * n / d:.0f}%" if d else "–"


def install(env: Environment) -> None:
    env.filters["sparkline"] = sparkline
    env.filters["urlpart"] = lambda s: quote(str(s), safe="")
    env.filters["signed"] = lambda v: f"{v:+.0f}"
    env.globals["interval_bar"] = interval_bar
    env.globals["query"] = query
    env.globals["pct"] = pct
