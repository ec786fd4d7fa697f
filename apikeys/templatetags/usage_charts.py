"""The admin's usage chart: server-side SVG, so no script or CDN is needed, and readable
without colour: admitted bars are solid, refused ones hatched, the limit a dashed line, each
named in a text legend; every bar has a ``<title>`` (its tooltip, read by screen readers), and
the figures follow as a table."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django import template

from apikeys.usage import UsageDay

register = template.Library()

WIDTH, HEIGHT = 900, 200
LEFT, RIGHT, BOTTOM, TOP = 48, 24, 20, 10  # room for the scale and the dates
PLOT_HEIGHT = HEIGHT - BOTTOM - TOP


@dataclass(frozen=True)
class Bar:
    day: UsageDay
    x: float
    width: float
    admitted_y: float
    admitted_height: float
    refused_y: float
    refused_height: float
    title: str
    label: str  # the date under the bar, on every seventh

    @property
    def middle(self) -> float:
        return round(self.x + self.width / 2, 2)


# The scale ends on one of these (times a power of ten): round, and not far above the data.
NICE = (1, 1.2, 1.5, 2, 2.5, 3, 4, 5, 6, 8, 10)


def _scale_top(days: list[UsageDay]) -> int:
    """A round number a little above both the busiest day and the highest limit."""
    highest = max(
        [d.admitted + d.refused + d.banned for d in days] + [d.per_day or 0 for d in days] + [1]
    )
    wanted = highest * 1.05
    power = 10 ** (len(str(int(wanted))) - 1)
    return next(int(n * power) for n in NICE if n * power >= wanted and n * power % 1 == 0)


def _title(day: UsageDay) -> str:
    refused = day.refused + day.banned
    text = f"{day.day:%a %d %b %Y}: {day.admitted:,} admitted, {refused:,} refused"
    if day.banned:
        text += f" ({day.banned:,} while banned)"
    if day.per_day:
        text += f"; limit {day.per_day:,} a day ({day.share_of_limit:.0f}% used)"
    return text


@register.inclusion_tag("admin/apikeys/account/usage_chart.html")
def usage_chart(days: list[UsageDay], caption: str, chart_id: str) -> dict[str, Any]:
    top = _scale_top(days)
    slot = (WIDTH - LEFT - RIGHT) / max(len(days), 1)

    def y(value: int) -> float:
        return round(TOP + PLOT_HEIGHT - PLOT_HEIGHT * value / top, 2)

    bars = []
    for index, day in enumerate(days):
        refused = day.refused + day.banned
        bars.append(
            Bar(
                day=day,
                x=round(LEFT + index * slot + slot * 0.15, 2),
                width=round(slot * 0.7, 2),
                admitted_y=y(day.admitted),
                admitted_height=round(PLOT_HEIGHT * day.admitted / top, 2),
                refused_y=y(day.admitted + refused),
                refused_height=round(PLOT_HEIGHT * refused / top, 2),
                title=_title(day),
                label=f"{day.day:%d %b}" if (len(days) - 1 - index) % 7 == 0 else "",
            )
        )
    # The limit line joins the days whose limit is known (those with requests, and today).
    limit_points = " ".join(
        f"{bar.x + bar.width / 2:.2f},{y(bar.day.per_day)}"
        for bar in bars
        if bar.day.per_day is not None
    )
    return {
        "bars": bars,
        "caption": caption,
        "chart_id": chart_id,
        "width": WIDTH,
        "height": HEIGHT,
        "left": LEFT,
        "right": WIDTH - RIGHT,
        "baseline": TOP + PLOT_HEIGHT,
        "top": TOP,
        "scale_top": f"{top:,}",
        "scale_middle": f"{top // 2:,}",
        "middle_y": y(top // 2),
        "limit_points": limit_points,
        "days": len(days),
        "rows": [_row(day) for day in days],
        "admitted": f"{sum(d.admitted for d in days):,}",
        "refused": f"{sum(d.refused + d.banned for d in days):,}",
    }


def _row(day: UsageDay) -> list[str]:
    share = day.share_of_limit
    return [
        day.day.isoformat(),
        f"{day.admitted:,}",
        f"{day.refused:,}",
        f"{day.banned:,}",
        "-" if day.per_day is None else f"{day.per_day:,}",
        "-" if share is None else f"{share:.0f}%",
    ]
