"""The README's examples run as written."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

from typer.testing import CliRunner

from ghillie.cli import app

README = (Path(__file__).parent.parent / "README.md").read_text(encoding="utf-8")


def test_the_python_example_runs() -> None:
    blocks = re.findall(r"```python\n(.*?)```", README, re.DOTALL)
    assert blocks
    for block in blocks:
        exec(compile(block, "README.md", "exec"), {})


def test_the_odds_examples_run() -> None:
    commands = re.findall(r"^\.venv/bin/ghillie (odds .*)$", README, re.MULTILINE)
    assert commands
    for command in commands:
        result = CliRunner().invoke(app, shlex.split(command))
        assert result.exit_code == 0, result.output
