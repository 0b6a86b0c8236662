"""The ``utf8`` namespace on Polars expressions and series.

Importing this module registers it::

    import polars as pl
    import utf8_automaton.polars  # noqa: F401

    df.with_columns(
        ok=pl.col("s").utf8.is_valid(),
        at=pl.col("s").utf8.error_offset(),
        text=pl.col("s").utf8.to_string(errors="null"),
    )

It is a namespace over this package's Arrow functions, not a native Polars
plugin: each batch Polars hands over crosses as Arrow (Polars' own
buffers, no copy) and comes back as Arrow. A native plugin would need the
``polars`` crates compiled into the wheel, several times this package's
build; the Arrow crossing costs little beside the check. The expressions
are elementwise, so they run in lazy and streaming queries.
"""

from __future__ import annotations

import polars as pl
import pyarrow as pa

from . import invalid_rows, is_valid, to_string

__all__ = ["Utf8Expr", "Utf8Series"]


def _is_valid(series: pl.Series, ruleset: str) -> pl.Series:
    return pl.Series(series.name, is_valid(series, ruleset), dtype=pl.Boolean)


def _error_offset(series: pl.Series, ruleset: str) -> pl.Series:
    """Each bad value's ``valid_up_to``; null for a valid or null value."""
    offsets: list[int | None] = [None] * len(series)
    for bad in invalid_rows(series, ruleset).select(["row", "valid_up_to"]).to_pylist():
        offsets[bad["row"]] = bad["valid_up_to"]
    return pl.Series(series.name, offsets, dtype=pl.Int64)


def _to_string(series: pl.Series, errors: str) -> pl.Series:
    converted = to_string(series, errors)
    if isinstance(converted, pa.ChunkedArray) and converted.num_chunks == 0:
        return pl.Series(series.name, [], dtype=pl.String)
    return pl.Series(series.name, converted)


@pl.api.register_expr_namespace("utf8")
class Utf8Expr:
    """``pl.col(...).utf8``: the checks of ``utf8_automaton`` as expressions."""

    def __init__(self, expr: pl.Expr) -> None:
        self._expr = expr

    def is_valid(self, ruleset: str = "rfc3629") -> pl.Expr:
        """Whether each value is valid (null stays null)."""
        return self._expr.map_batches(
            lambda s: _is_valid(s, ruleset), return_dtype=pl.Boolean, is_elementwise=True
        )

    def error_offset(self, ruleset: str = "rfc3629") -> pl.Expr:
        """The byte offset of each bad value's first error; null where valid."""
        return self._expr.map_batches(
            lambda s: _error_offset(s, ruleset), return_dtype=pl.Int64, is_elementwise=True
        )

    def to_string(self, errors: str = "raise") -> pl.Expr:
        """Binary as strings: ``errors`` is ``"raise"``, ``"null"`` or ``"replace"``."""
        return self._expr.map_batches(
            lambda s: _to_string(s, errors), return_dtype=pl.String, is_elementwise=True
        )


@pl.api.register_series_namespace("utf8")
class Utf8Series:
    """``series.utf8``: the same checks on a series."""

    def __init__(self, series: pl.Series) -> None:
        self._series = series

    def is_valid(self, ruleset: str = "rfc3629") -> pl.Series:
        return _is_valid(self._series, ruleset)

    def error_offset(self, ruleset: str = "rfc3629") -> pl.Series:
        return _error_offset(self._series, ruleset)

    def to_string(self, errors: str = "raise") -> pl.Series:
        return _to_string(self._series, errors)
