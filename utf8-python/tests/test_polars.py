"""The Polars namespace, eager, lazy and streaming."""

from __future__ import annotations

import pytest

pl = pytest.importorskip("polars")
import utf8_automaton as u8  # noqa: E402
import utf8_automaton.polars  # noqa: E402, F401

CUT = [b"ok", b"caf\xc3", b"\xa9lait", None, b"fine"]


def frame() -> "pl.DataFrame":
    return pl.DataFrame({"s": pl.Series(CUT, dtype=pl.Binary), "n": range(5)})


def test_expressions_eager() -> None:
    out = frame().with_columns(
        ok=pl.col("s").utf8.is_valid(),
        at=pl.col("s").utf8.error_offset(),
        null=pl.col("s").utf8.to_string(errors="null"),
        fixed=pl.col("s").utf8.to_string(errors="replace"),
    )
    assert out["ok"].to_list() == [True, False, False, None, True]
    assert out["at"].to_list() == [None, 3, 0, None, None]
    assert out["null"].to_list() == ["ok", None, None, None, "fine"]
    assert out["fixed"].to_list() == ["ok", "caf\ufffd", "\ufffdlait", None, "fine"]


@pytest.mark.parametrize("engine", ["in-memory", "streaming"])
def test_expressions_lazy(engine: str) -> None:
    query = frame().lazy().filter(~pl.col("s").utf8.is_valid()).select("n")
    assert query.collect(engine=engine)["n"].to_list() == [1, 2]


def test_raise_names_the_row() -> None:
    with pytest.raises(u8.InvalidUtf8Error, match="row 1"):
        frame().select(pl.col("s").utf8.to_string())


def test_series_namespace_and_views() -> None:
    # Polars keeps strings as views: a string Series crosses as string_view.
    series = pl.Series("t", ["café", "lait", None])
    assert series.utf8.is_valid().to_list() == [True, True, None]
    assert pl.Series(CUT, dtype=pl.Binary).utf8.error_offset().to_list() == [None, 3, 0, None, None]
