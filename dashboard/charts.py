"""Line charts as data for a server-rendered SVG: no chart library, no CDN, nothing for
the Content-Security-Policy to block. The template draws what this computes."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from itertools import pairwise

WIDTH, HEIGHT = 560, 180
LEFT, RIGHT, TOP, BOTTOM = 48, 12, 12, 26  # room for the axis labels
X_TICKS = 4


@dataclass(frozen=True)
class Tick:
    position: float
    label: str


@dataclass(frozen=True)
class LineChart:
    title: str
    line: str  # polyline points "x,y x,y …"
    area: str  # the same line closed down to the axis, for the fill
    y_ticks: list[Tick]
    x_ticks: list[Tick]
    latest: str
    limit: Tick | None  # a horizontal line the values should stay under
    width: int = WIDTH
    height: int = HEIGHT

    @property
    def plot_left(self) -> int:
        return LEFT

    @property
    def plot_right(self) -> int:
        return WIDTH - RIGHT

    @property
    def plot_bottom(self) -> int:
        return HEIGHT - BOTTOM


def line_chart(
    title: str,
    points: Sequence[tuple[datetime, float]],
    unit: str = "",
    limit: float | None = None,
    *,
    steps: bool = False,
) -> LineChart | None:
    """A chart of ``points`` (time, value); None when there is nothing to draw. With
    ``steps`` a value holds until the next point (a count changes at a commit, it does
    not slide towards the next one)."""
    if not points:
        return None
    start, end = points[0][0].timestamp(), points[-1][0].timestamp()
    top = max([value for _, value in points] + ([limit] if limit is not None else []))
    top = _round_up(top)
    span = (end - start) or 1.0

    def x(moment: datetime) -> float:
        return round(LEFT + (WIDTH - LEFT - RIGHT) * (moment.timestamp() - start) / span, 1)

    def y(value: float) -> float:
        return round(HEIGHT - BOTTOM - (HEIGHT - TOP - BOTTOM) * value / top, 1)

    coords = [(x(moment), y(value)) for moment, value in points]
    if steps:
        coords = [
            corner
            for before, after in pairwise(coords)
            for corner in (before, (after[0], before[1]))
        ] + coords[-1:]
    if len(coords) == 1:  # one commit: a flat line across the plot
        coords = [(float(LEFT), coords[0][1]), (float(WIDTH - RIGHT), coords[0][1])]
    line = " ".join(f"{cx},{cy}" for cx, cy in coords)
    floor = HEIGHT - BOTTOM
    area = f"{coords[0][0]},{floor} {line} {coords[-1][0]},{floor}"
    count = _tick_count(top)
    y_ticks = [Tick(y(top * i / count), _number(top * i / count)) for i in range(count + 1)]
    moments = [points[0][0]] if start == end else [
        datetime.fromtimestamp(start + span * i / X_TICKS, tz=points[0][0].tzinfo)
        for i in range(X_TICKS + 1)
    ]  # fmt: skip
    x_ticks = [Tick(x(moment), moment.strftime("%d %b %Y")) for moment in moments]
    latest = f"{_number(points[-1][1])}{unit}"
    limit_tick = Tick(y(limit), f"limit {_number(limit)}") if limit is not None else None
    return LineChart(title, line, area, y_ticks, x_ticks, latest, limit_tick)


def _tick_count(top: float) -> int:
    """How many steps divide the axis into whole numbers (top is 1, 2 or 5 × 10ⁿ)."""
    return next((n for n in (5, 4, 2) if top >= n and (top / n).is_integer()), 1)


def _round_up(value: float) -> float:
    """A tidy top for the axis: 1, 2 or 5 times a power of ten, at least ``value``."""
    if value <= 0:
        return 1.0
    step = 1.0
    while step * 10 <= value:
        step *= 10
    for factor in (1, 2, 5, 10):
        if step * factor >= value:
            return step * factor
    return step * 10


def _number(value: float) -> str:
    return f"{value:,.0f}" if value >= 10 or value == int(value) else f"{value:.1f}"
