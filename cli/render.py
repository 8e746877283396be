"""The text view, for the commands that still import it from here.

The board diagram, the one-line summary, the games table and the clock lines
are a view of the match: :mod:`bgledger.projections.views.text`.
"""

from __future__ import annotations

from bgledger.projections.views.text import (
    board_diagram,
    break_lines,
    brief,
    clock_line,
    drift_text,
    figures_text,
    games_table,
    resolve_viewer,
    stop_reason,
    time_lines,
    time_of_day,
)

__all__ = [
    "board_diagram",
    "break_lines",
    "brief",
    "clock_line",
    "drift_text",
    "figures_text",
    "games_table",
    "resolve_viewer",
    "stop_reason",
    "time_lines",
    "time_of_day",
]
