"""Install hints: every message that names an install command gives one that works from anywhere.

pokerpipe is on no package index, so ``pip install 'pokerpipe[dask]'`` fails wherever it is typed,
and ``pip install -e .`` works only from the project root: a hint names the dependency itself, as
the project declares it (``pip install 'dask[distributed]'``, ``pip install matplotlib``).  The
messages are read where they are shown: an error of a process that finds the module not installed,
a ``--help`` text; and every hint in the package, the notebooks and the benchmarks is read from the
source.
"""

from __future__ import annotations

import importlib.util
import json
import os
import re
import shlex
import subprocess
import sys
import tomllib

import pytest

from pipeline.runs import cluster, report

from .conftest import RAW, ROOT, run_hiding

#: Where hints are written: the package (messages, --help texts, docstrings), notebooks, benchmarks.
SCANNED = sorted([*(ROOT / "pipeline").rglob("*.py"), *(ROOT / "notebooks").glob("*.ipynb"),
                  *(ROOT / "bench").glob("*.py")])
#: A hint as written in the source: what follows ``pip install`` up to the end of the string, the
#: parenthesis or the code span it stands in.
HINT = re.compile(r"pip install ([^\n\"`)]*)")
#: A requirement's name and extras, as pyproject.toml and pip spell them.
REQUIREMENT = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]*(?:\[[^\]]*\])?")


def declared() -> set[str]:
    """The requirements of pyproject.toml (dependencies and every extra), name and extras only."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    requirements = [*project["dependencies"], *(r for extra in project["optional-dependencies"].values()
                                                for r in extra)]
    return {normalized(REQUIREMENT.match(r).group()) for r in requirements}


def normalized(requirement: str) -> str:
    return re.sub(r"[-_.]+", "-", requirement).lower()


def hints() -> dict[str, list[str]]:
    """Each scanned file (relative path) and the arguments of each ``pip install`` it names."""
    found: dict[str, list[str]] = {}
    for path in SCANNED:
        text = path.read_text(encoding="utf-8")
        if path.suffix == ".ipynb":  # the cells' text, not its JSON escapes
            text = "\n".join("".join(cell["source"]) for cell in json.loads(text)["cells"])
        for match in HINT.finditer(text):
            found.setdefault(str(path.relative_to(ROOT)), []).append(match.group(1).rstrip(".,;: "))
    return found


def test_no_hint_names_pokerpipe_or_a_path_of_the_project():
    assert SCANNED and any(path.suffix == ".ipynb" for path in SCANNED)
    named = [str(path.relative_to(ROOT)) for path in SCANNED
             if "pokerpipe[" in path.read_text(encoding="utf-8")]
    assert not named, f"pokerpipe is on no package index: 'pokerpipe[...]' in {named}"
    wrong = []
    for where, arguments in hints().items():
        for argument in arguments:
            for word in shlex.split(argument):
                if word.startswith("-") or "{" in word:  # an option, a value filled in when shown
                    continue
                if not REQUIREMENT.fullmatch(word) or normalized(word).startswith("pokerpipe"):
                    wrong.append(f"{where}: pip install {argument}")
    assert not wrong, f"hints that work only from the project root, or not at all: {wrong}"


def test_each_hint_names_a_requirement_the_project_declares():
    requirements = declared()
    named = {normalized(word) for arguments in hints().values() for argument in arguments
             for word in shlex.split(argument) if REQUIREMENT.fullmatch(word)}
    assert named - requirements == set(), f"not requirements of pyproject.toml: {named - requirements}"
    # The scan reads the hints that are there: the dask engine's, the plot's, the benchmarks' peers.
    assert {"dask[distributed]", "matplotlib", "eval7", "treys", "phevaluator", "pokerkit"} <= named


def test_the_dask_engine_without_dask_names_what_to_install(tmp_path):
    done = run_hiding(["distributed", "dask"], "-m", "pipeline", "run", RAW / "games.csv",
                      "-o", tmp_path / "out", "--engine", "dask")
    assert (done.returncode, done.stdout) == (1, "")
    assert done.stderr == ("Error: the dask engine needs dask.distributed (No module named 'distributed'): "
                           "pip install 'dask[distributed]'\n")
    assert not (tmp_path / "out").exists()


@pytest.mark.parametrize("command, hint", [("run", cluster.INSTALL_HINT),
                                           ("stats", report.PLOT_INSTALL_HINT)])
def test_the_help_names_what_installs_an_optional_dependency(command, hint):
    assert hint == {"run": "pip install 'dask[distributed]'", "stats": "pip install matplotlib"}[command]
    # As a terminal of 80 columns or more shows it (click wraps help at 78 columns then).
    done = subprocess.run([sys.executable, "-m", "pipeline", command, "--help"], capture_output=True,
                          text=True, env={**os.environ, "COLUMNS": "120"}, timeout=60)
    assert done.returncode == 0, done.stderr
    # On one line of the help, so that it can be copied as it stands.
    assert [line for line in done.stdout.splitlines() if hint in line], done.stdout


def _bench(name: str):
    spec = importlib.util.spec_from_file_location(name, ROOT / "bench" / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_bench_equity_without_eval7_names_what_to_install():
    done = run_hiding(["eval7"], ROOT / "bench" / "bench_equity.py", "--quick")
    assert done.returncode == 1 and done.stdout == ""
    assert done.stderr == "eval7 is not installed: pip install eval7\n"


def test_bench_run_without_the_console_script_names_how_to_install_it(tmp_path, monkeypatch):
    bench_run = _bench("bench_run")
    python = tmp_path / "some env" / "bin" / "python"
    monkeypatch.setattr(sys, "executable", str(python))
    with pytest.raises(bench_run.Failure) as failure:
        bench_run.pokerpipe_command()
    # The interpreter that runs the benchmark and the project's own folder, both absolute: the
    # command works from any folder.
    assert str(failure.value) == (f"{python.parent / 'pokerpipe'} not found: install pokerpipe beside this "
                                  f"Python: {shlex.quote(str(python))} -m pip install -e "
                                  f"{shlex.quote(str(ROOT))}")
