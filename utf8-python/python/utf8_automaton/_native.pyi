"""The compiled module; ``utf8_automaton``'s functions wrap these."""

from typing import Any

import pyarrow as pa

class InvalidUtf8Error(ValueError):
    """A value that is not valid under the ruleset."""

    column: str
    """The column's path (``""`` for a lone array)."""
    row: int
    """The row, counted from the first across chunks."""
    valid_up_to: int
    """How many bytes of the value are valid before the error."""
    error_len: int | None
    """The invalid sequence's length; ``None`` where the value ends inside a character."""
    bytes: bytes
    """The invalid bytes (at most 4), or the cut character's."""
    ruleset: str
    """The ruleset's name."""

def is_valid(data: Any, ruleset: str = "rfc3629") -> tuple[list[pa.Array], bool]: ...
def validate(data: Any, ruleset: str = "rfc3629") -> None: ...
def invalid_rows(data: Any, ruleset: str = "rfc3629") -> pa.RecordBatch: ...
def to_string(data: Any, errors: str = "raise") -> tuple[list[pa.Array], bool]: ...
def rulesets() -> list[str]: ...
def check_parquet(
    paths: list[str], strings_only: bool = False, ruleset: str = "rfc3629", threads: int = 1
) -> pa.RecordBatch: ...
