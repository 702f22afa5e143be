"""The docs as written work: each command of the Commands page's block runs in a copy of the project
and does what it is there to show.

Each subcommand has a checker in ``CHECKS`` that looks at what the command wrote or printed and
derives what it should be from the command's own inputs (rows of the input files, the contest's
``.out`` file, the rules reference), so a README command without a checker fails.
"""

from __future__ import annotations

import csv
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from math import comb
from pathlib import Path

import pyarrow as pa
import pyarrow.csv as pacsv
import pyarrow.parquet as pq
import pytest

from pipeline.cli import cli
from pipeline.formats import histories

from .conftest import ROOT
from .rules import RANKS, SUITS, best_value
from .test_equity import reference_equity
from .test_larvis import reference_strength

PAGE = (ROOT / "docs" / "commands.md").read_text(encoding="utf-8")
#: Seconds one README command may take before it counts as hung (the slowest takes a few).
COMMAND_TIMEOUT = 300
#: Rows of a hold'em run checked against the rules reference (tests/rules.py), which is slow.
REFERENCE_ROWS = 200
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


def commands_section() -> list[str]:
    """The command lines of the first shell block of the Commands page, comments dropped."""
    block = re.search(r"```sh\n(.*?)```", PAGE, re.S).group(1)
    lines = [re.sub(r"\s+#.*$", "", line).strip() for line in block.splitlines()]
    return [line for line in lines if line]


COMMANDS = commands_section()


def readme_comment(command: str) -> str | None:
    """The comment after ``command`` on its line of the page, if any."""
    found = re.search(re.escape(command) + r"[ \t]+# ([^\n]*)", PAGE)
    return found.group(1).strip() if found else None


# --- what a command did ------------------------------------------------------------------------

@dataclass
class Ran:
    """One README command after it ran: its parsed command line, its output, the files it wrote."""

    command: str
    name: str  # the subcommand
    params: dict  # the command line as click parses it, defaults included
    stdin: str | None  # the file after '<', if any
    stdout: str
    stderr: str
    cwd: Path
    written: set[Path]  # files (relative to cwd) created or rewritten by the command

    def path(self, name: str | os.PathLike) -> Path:
        return self.cwd / name

    def wrote(self, name: str | os.PathLike) -> Path:
        """The path of a file the command must have written just now."""
        path = Path(name)
        assert path in self.written, f"{self.command}: did not write {path} (wrote {sorted(self.written)})"
        return self.cwd / path


def parse(command: str) -> tuple[str, list[str], str | None]:
    """The subcommand, its arguments and the file redirected to standard input."""
    words = shlex.split(command)
    assert words[0] == "pokerpipe", command
    stdin = None
    if "<" in words:
        at = words.index("<")
        stdin = words[at + 1]
        del words[at:at + 2]
    assert not {">", ">>", "|", "&&", ";"} & set(words), f"{command}: teach parse() this shell syntax"
    return words[1], words[2:], stdin


def files_under(folder: Path) -> dict[Path, tuple[int, int, int]]:
    return {path.relative_to(folder): (stat.st_ino, stat.st_mtime_ns, stat.st_size)
            for path in folder.rglob("*") if path.is_file() for stat in [path.stat()]}


# --- what the inputs hold, counted without pokerpipe -------------------------------------------

DATA_SUFFIXES = {".csv", ".parquet"}
PHH_SUFFIXES = {".phh", ".phhs"}


def input_files(path: Path) -> list[Path]:
    """A `run` input as the README describes it: a file, or a folder's data files directly inside
    and its hand histories (PHH files, PokerStars logs) anywhere below."""
    if path.is_file():
        return [path]
    return sorted({p for p in path.iterdir() if p.suffix in DATA_SUFFIXES}
                  | {p for p in path.rglob("*") if p.suffix in PHH_SUFFIXES}
                  | {p for p in path.rglob("*.txt") if is_pokerstars_log(p)})


def is_pokerstars_log(path: Path) -> bool:
    return path.read_bytes().removeprefix(b"\xef\xbb\xbf").startswith(b"PokerStars ")


def rows_in(path: Path) -> int:
    """Data rows (hands, for PHH) of one input file."""
    if path.suffix == ".csv":
        lines = [line for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
        return len(lines) - 1  # the header
    if path.suffix == ".parquet":
        return pq.read_metadata(path).num_rows
    if path.suffix == ".phh":
        return 1
    if path.suffix == ".phhs":
        return len(re.findall(r"^\[\d+\]\s*$", path.read_text(encoding="utf-8"), re.M))
    if path.suffix == ".txt" and is_pokerstars_log(path):  # a hand starts at each header line
        return len(re.findall(r"^(?:\ufeff)?PokerStars ", path.read_text(encoding="utf-8"), re.M))
    raise AssertionError(f"rows_in() cannot count the rows of {path}: teach it")


def read_text_table(path: Path) -> pa.Table:
    """A Parquet file, or a CSV file with every column as text (empty, not null, where missing)."""
    if path.suffix == ".parquet":
        return pq.read_table(path)
    names = pacsv.read_csv(path).column_names
    return pacsv.read_csv(path, convert_options=pacsv.ConvertOptions(
        column_types=dict.fromkeys(names, pa.string()), strings_can_be_null=False))


def csv_rows(path: Path) -> list[dict[str, str]]:
    with open(path, newline="", encoding="utf-8") as handle:
        return list(csv.DictReader(handle))


def seats(columns: list[str]) -> list[str]:
    return [name for name in columns if re.fullmatch(r"p\d+", name)]


def is_card(text: str) -> bool:
    return len(text) == 2 and text[0] in RANKS and text[1] in SUITS


def reference_winners(board: list[str], holes: dict[str, str]) -> str:
    """The winning seats of a finished deal by the plain rules, as pokerpipe writes them (``1 3``)."""
    values = {int(seat[1:]): best_value(board + hole.split()) for seat, hole in holes.items() if hole}
    top = max(values.values())
    return " ".join(str(seat) for seat, value in sorted(values.items()) if value == top)


# --- the checkers, one per subcommand ----------------------------------------------------------

def check_run(ran: Ran) -> None:
    params = ran.params
    files = [file for name in params["inputs"] for file in input_files(ran.path(name))]
    read = sum(rows_in(file) for file in files)
    summary = json.loads(ran.wrote(Path(params["outdir"]) / "summary.json").read_text())
    # An input entry of several one-hand files lists them, each one row.
    rows_by_file = {}
    for entry in summary["inputs"]:
        if "files" in entry:
            assert entry["rows"] == len(entry["files"]) and entry["path"] == entry["files"][0]
            rows_by_file.update({ran.path(name): 1 for name in entry["files"]})
        else:
            rows_by_file[ran.path(entry["path"])] = entry["rows"]
    assert rows_by_file == {f: rows_in(f) for f in files}
    assert summary["rows_read"] == read > 0
    apart = sum(summary.get(f"rows_{name}", 0) for name in histories.SET_APART)
    assert summary["rows_read"] == summary["rows_scored"] + apart + summary["rows_rejected"]
    assert f"{summary['rows_read']:,} rows read: {summary['rows_scored']:,} scored" in ran.stderr

    winners = read_text_table(ran.wrote(Path(params["outdir"]) / f"winners.{params['output_format']}"))
    rejects = csv_rows(ran.wrote(Path(params["outdir"]) / "rejects.csv"))
    assert winners.num_rows == summary["rows_scored"] > 0
    assert len(rejects) == summary["rows_rejected"]
    scored = [int(row) for row in winners["row"].to_pylist()]
    rejected = {int(reject["row"]) for reject in rejects}
    assert scored == sorted(set(scored)) and not rejected & set(scored)
    assert set(scored) | rejected <= set(range(1, read + 1))

    rows = winners.to_pylist()
    if summary["expected"]:  # inputs with recorded results: each one was checked
        recorded = [row for row in rows if row["expected"]]
        assert summary["expected"]["checked"] == len(recorded) > 0
        assert summary["expected"]["mismatched"] == 0
        result = "winner" if "winner" in winners.column_names else "winners"
        assert [row[result] for row in recorded] == [row["expected"] for row in recorded]
    else:  # the column is there all the same, empty
        assert all(row["expected"] in ("", None) for row in rows)

    if all(file.suffix in DATA_SUFFIXES for file in files) and summary["game"] == "holdem":
        check_deals_against_the_rules(files, rows, best_five=params["best_five"])
    else:
        assert not params["best_five"], "teach check_run() --best-five on these inputs"


def check_deals_against_the_rules(files: list[Path], winners: list[dict], *, best_five: bool) -> None:
    """The first rows' winners (and best five cards) are those of the rules reference."""
    deals = [row for file in files for row in read_text_table(file).to_pylist()]
    assert len(deals) == len(winners), "hold'em inputs without rejects: one winners row per deal"
    for deal, got in list(zip(deals, winners))[:REFERENCE_ROWS]:
        board = deal["board"].split()
        holes = {seat: deal[seat] or "" for seat in seats(list(deal))}
        assert got["winners"] == reference_winners(board, holes), (deal, got)
        for seat, hole in holes.items():
            if not best_five:
                assert f"{seat}_best" not in got
                continue
            cards, best = board + hole.split(), got[f"{seat}_best"].split()
            if not hole:
                assert best == [] and not got[f"{seat}_hand"]
                continue
            assert len(best) == 5 and set(best) <= set(cards), (deal, seat, best)
            assert best_value(best) == best_value(cards), (deal, seat, best)
            category = got[f"{seat}_category"]
            assert got[f"{seat}_hand"].startswith(category) or \
                (category == "Straight Flush" and got[f"{seat}_hand"] == "Royal Flush"), got


def check_generate(ran: Ran) -> None:
    params = ran.params
    table = read_text_table(ran.wrote(params["path"]))
    assert table.num_rows == params["rows"]
    assert f"{params['rows']:,}" in ran.stderr
    assert params["game"] == "holdem", "teach check_generate() this game"
    assert table.column_names == ["board", *(f"p{seat}" for seat in range(1, params["players"] + 1))]
    for deal in table.to_pylist():
        cards = " ".join(deal.values()).split()
        assert len(deal["board"].split()) == 5 and all(len(deal[s].split()) == 2 for s in seats(list(deal)))
        assert all(map(is_card, cards)) and len(set(cards)) == len(cards), deal


def check_compare(ran: Ran) -> None:
    params = ran.params
    hand1, hand2 = (params["hand1"], params["hand2"]) if params["hand1"] else params["hands"]
    said = readme_comment(ran.command)
    assert said, f"{ran.command}: the README says what compare prints in a comment"
    printed = ran.stdout.strip()
    assert re.match(r"(Tie|Hand 1|Hand 2)\b", said).group(1) == printed, (said, printed)
    one, two = reference_strength(hand1), reference_strength(hand2)
    assert printed == ("Hand 1" if one > two else "Hand 2" if two > one else "Tie")


def check_contest(ran: Ran) -> None:
    source = ran.params["file"] or ran.stdin
    judged = ran.path(source).with_suffix(".out")
    assert ran.stdout.splitlines() == judged.read_text(encoding="utf-8").splitlines()


def check_stats(ran: Ran) -> None:
    """Every category of the run's categories.csv is printed, with its count, once per scope."""
    folder = ran.path(ran.params["results"])
    categories = [row for row in csv_rows(folder / "categories.csv") if row["players"] == "all"]
    names = {row["category"] for row in categories}
    printed = Counter()
    for line in ran.stdout.splitlines():
        found = re.match(r"\s*(\D+?)\s+(\d+)\s", line)
        if found and found.group(1) in names:
            printed[found.group(1), int(found.group(2))] += 1
    assert printed == Counter((row["category"], int(row["count"])) for row in categories)
    summary = json.loads((folder / "summary.json").read_text())
    first_seats = sum(int(row["count"]) for row in categories if row["scope"] == "first_seat")
    assert first_seats == summary["rows_scored"]  # one first seat per deal
    if ran.params["plot_path"]:
        assert ran.wrote(ran.params["plot_path"]).read_bytes().startswith(PNG_SIGNATURE)


def check_equity(ran: Ran) -> None:
    params = ran.params
    if params["hands"]:
        check_one_deal_equity(ran)
        return
    [source] = [ran.path(name) for name in params["inputs"]]
    out = Path(params["outdir"])
    summary = json.loads(ran.wrote(out / "summary.json").read_text())
    assert summary["rows_read"] == summary["rows_scored"] + summary["rows_rejected"] == rows_in(source)
    assert len(csv_rows(ran.wrote(out / "rejects.csv"))) == summary["rows_rejected"]
    spots = read_text_table(source).to_pylist()
    players = seats(list(spots[0]))
    table = read_text_table(ran.wrote(out / f"equity.{params['output_format']}"))
    every_seat = [f"p{seat}" for seat in range(1, 11)]  # whatever seats the input has
    assert table.column_names == ["row", "runouts", "exact", *(f"{seat}_{what}" for seat in every_seat
                                                               for what in ("equity", "equity_se"))]
    rows = table.to_pylist()
    assert [int(row["row"]) for row in rows] == list(range(1, len(spots) + 1))
    for spot, row in zip(spots, rows):
        board = spot["board"].split()
        hands = {seat: spot[seat].split() for seat in players if spot[seat]}
        exact = len(board) >= 3 or params["exact"]
        assert str(row["exact"]).lower() == str(exact).lower(), row
        unseen = 52 - len(board) - 2 * len(hands)
        assert int(row["runouts"]) == (comb(unseen, 5 - len(board)) if exact else params["samples"]), row
        assert all(row[f"{seat}_equity"] in ("", None) for seat in players if seat not in hands), row
        got = [float(row[f"{seat}_equity"]) for seat in hands]
        assert sum(got) == pytest.approx(1), row
        if exact:
            reference = reference_equity(board, list(hands.values()))
            assert got == pytest.approx([float(share) for share in reference]), (spot, row)
            assert all(row[f"{seat}_equity_se"] in ("", None) for seat in hands), row
        else:
            assert all(float(row[f"{seat}_equity_se"]) > 0 for seat in hands), row


def check_one_deal_equity(ran: Ran) -> None:
    hands = [[hand[i:i + 2] for i in range(0, len(hand), 2)] for hand in ran.params["hands"]]
    board = ran.params["board"].split()
    assert len(board) >= 3, "teach check_one_deal_equity() sampled (preflop) deals"
    reference = reference_equity(board, hands)
    lines = ran.stdout.splitlines()
    assert len(lines) == len(hands)
    for line, hand, share in zip(lines, hands, reference):
        cards, equity = line.rsplit(maxsplit=1)
        assert cards.split() == hand
        assert float(equity) == pytest.approx(float(share), abs=5e-5)
    unseen = 52 - len(board) - 2 * len(hands)
    assert ran.stderr.strip() == f"{comb(unseen, 5 - len(board)):,} every run-out"


CHECKS: dict[str, Callable[[Ran], None]] = {
    "run": check_run,
    "generate": check_generate,
    "compare": check_compare,
    "contest": check_contest,
    "stats": check_stats,
    "equity": check_equity,
}


# --- the tests ---------------------------------------------------------------------------------

def test_the_section_has_every_command():
    used = {parse(line)[0] for line in COMMANDS}
    assert used == set(cli.commands)


@pytest.fixture(scope="module")
def project_copy(tmp_path_factory) -> Path:
    """The project's data folder as `make run` leaves it: data/raw and an empty data/processed."""
    copy = tmp_path_factory.mktemp("readme")
    shutil.copytree(ROOT / "data" / "raw", copy / "data" / "raw")
    (copy / "data" / "processed").mkdir()
    return copy


@pytest.mark.parametrize("command", COMMANDS)
def test_readme_command_runs(project_copy, command, monkeypatch):
    name, args, stdin = parse(command)
    assert name in CHECKS, f"no checker for `pokerpipe {name}`: add one to CHECKS"
    # Where `make run` installs pokerpipe, the interpreter running these tests lives.
    env = {**os.environ, "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}"}
    before = files_under(project_copy)
    done = subprocess.run(["bash", "-c", command], cwd=project_copy, env=env, capture_output=True,
                          text=True, timeout=COMMAND_TIMEOUT)
    assert done.returncode == 0, f"{command}\n{done.stdout[-1000:]}\n{done.stderr[-2000:]}"
    assert "Traceback" not in done.stderr
    after = files_under(project_copy)
    written = {path for path, stat in after.items() if before.get(path) != stat}
    monkeypatch.chdir(project_copy)  # the command line's paths are relative to it
    params = cli.commands[name].make_context(name, list(args)).params
    CHECKS[name](Ran(command, name, params, stdin, done.stdout, done.stderr, project_copy, written))
