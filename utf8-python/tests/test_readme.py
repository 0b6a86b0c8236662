"""Every Python block of the package's README and of the repository's,
run as it is from the repository's root: the examples say what they do."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1]
BLOCKS = [
    block
    for readme in (PACKAGE / "README.md", PACKAGE.parent / "README.md")
    for block in re.findall(r"```python\n(.*?)```", readme.read_text(), re.S)
]


def test_the_readme_has_its_examples() -> None:
    assert len(BLOCKS) >= 6


@pytest.mark.parametrize("block", BLOCKS, ids=[f"block{i}" for i in range(len(BLOCKS))])
def test_a_readme_block_runs(block: str) -> None:
    here = os.getcwd()
    os.chdir(PACKAGE.parent)
    try:
        exec(compile(block, "README.md", "exec"), {})
    finally:
        os.chdir(here)


def test_the_docstrings_examples_run() -> None:
    import doctest

    import utf8_automaton

    here = os.getcwd()
    os.chdir(PACKAGE.parent)
    try:
        failed, tried = doctest.testmod(utf8_automaton)
    finally:
        os.chdir(here)
    assert tried >= 3
    assert failed == 0
