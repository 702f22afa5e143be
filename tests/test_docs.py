"""The README as written works: each command of its Commands section runs in a copy of the project."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from .conftest import ROOT

README = (ROOT / "README.md").read_text(encoding="utf-8")


def commands_section() -> list[str]:
    """The command lines of the first shell block under '## Commands', comments dropped."""
    section = README.split("\n## Commands\n", 1)[1]
    block = re.search(r"```sh\n(.*?)```", section, re.S).group(1)
    lines = [re.sub(r"\s+#.*$", "", line).strip() for line in block.splitlines()]
    return [line for line in lines if line]


COMMANDS = commands_section()


def test_the_section_has_every_command():
    used = {line.split()[1] for line in COMMANDS}
    assert used == {"run", "generate", "compare", "contest", "stats", "equity"}


@pytest.fixture(scope="module")
def project_copy(tmp_path_factory) -> Path:
    """The project's data folder as `make run` leaves it: data/raw and an empty data/processed."""
    copy = tmp_path_factory.mktemp("readme")
    shutil.copytree(ROOT / "data" / "raw", copy / "data" / "raw")
    (copy / "data" / "processed").mkdir()
    return copy


@pytest.mark.parametrize("command", COMMANDS)
def test_readme_command_runs(project_copy, command):
    # Where `make run` installs pokerpipe, the interpreter running these tests lives.
    env = {**os.environ, "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}"}
    done = subprocess.run(["bash", "-c", command], cwd=project_copy, env=env, capture_output=True,
                          text=True, timeout=300)
    assert done.returncode == 0, f"{command}\n{done.stdout[-1000:]}\n{done.stderr[-2000:]}"
    assert "Traceback" not in done.stderr
    comment = re.search(re.escape(command) + r"\s+# (Tie|Hand 1|Hand 2)\b", README)
    if comment:  # the README says what it prints
        assert done.stdout.strip() == comment.group(1)
