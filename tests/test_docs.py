"""The docs as written work: every shell example of the README and of docs/*.md runs in a copy of
the project and does what it is there to show.

A fenced block of a page whose language is a shell (```sh, ```bash) holds ``pokerpipe`` commands,
one a line, a ``# comment`` after one if need be. Each page's commands run in order in a copy of
the project of their own (data/raw and an empty data/processed), so that a command may use what
one before it on the same page wrote. Each subcommand has a checker in ``CHECKS`` that looks at
what the command wrote or printed and derives what it should be from the command's own inputs
(rows of the input files, the contest's ``.out`` file, the rules reference), so a documented
command without a checker fails.

A block that cannot run here (an install, a scheduler on several machines) is marked in the
source by an HTML comment on the line before its fence, which the site does not show::

    <!-- not run: needs a cluster -->

and a single line of a block by a trailing ``# not run: why``. Every block that is not marked
must hold only ``pokerpipe`` commands, and every one of them runs. The block of the Commands page
runs twice in a row in one copy, as its page says it can.

The ``>>>`` examples of the same pages run as doctests, by pytest's ``--doctest-glob``
(pyproject.toml); a test here checks that every page holding one is collected.
"""

from __future__ import annotations

import csv
import fnmatch
import functools
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import tomllib
import unicodedata
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from math import comb
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.csv as pacsv
import pyarrow.parquet as pq
import pytest

from pipeline.cli import cli
from pipeline.formats import histories

from .conftest import ROOT
from .rules import RANKS, SUITS, best_value
from .test_equity import reference_equity
from .test_larvis import reference_strength

#: The pages whose examples run: the README and the pages of the docs site.
PAGES = ("README.md", *sorted(f"docs/{page.name}" for page in (ROOT / "docs").glob("*.md")))
#: The page whose shell block holds every command, and runs twice in a row.
COMMANDS_PAGE = "docs/commands.md"
#: Fence languages that are shell commands.
SHELLS = {"sh", "bash", "shell", "console", "zsh"}
#: Seconds one documented command may take before it counts as hung (the slowest takes a few).
COMMAND_TIMEOUT = 300
#: Rows of a hold'em run checked against the rules reference (tests/rules.py), which is slow.
REFERENCE_ROWS = 200
#: What a plot file starts with, by its suffix.
PLOT_SIGNATURES = {".png": b"\x89PNG\r\n\x1a\n", ".svg": b"<?xml", ".pdf": b"%PDF"}

FENCE = re.compile(r"^(?P<indent>[ \t]*)```(?P<language>[^`\s]*)[ \t]*$")
BLOCK_NOT_RUN = re.compile(r"^<!--\s*not run:\s*(?P<why>\S.*?)\s*-->$")
LINE_NOT_RUN = re.compile(r"^not run:\s*(?P<why>\S.*)$")


# --- the examples of the pages ----------------------------------------------------------------

@dataclass(frozen=True)
class Block:
    """One fenced code block of a page."""

    page: str
    line: int  # of its opening fence, from 1
    language: str
    body: tuple[tuple[int, str], ...]  # (line number, text) of each line inside the fences
    not_run: str | None  # why, when the line before the fence marks it as not run


@dataclass(frozen=True)
class Command:
    """One command line of a shell block."""

    page: str
    line: int
    text: str  # the command, its comment dropped
    comment: str | None  # the text of its trailing ``# comment``

    @property
    def id(self) -> str:
        return f"{self.page}:{self.line}"


def page_text(page: str) -> str:
    return (ROOT / page).read_text(encoding="utf-8")


def blocks(page: str) -> list[Block]:
    """The fenced code blocks of ``page``, in order."""
    found, lines = [], page_text(page).splitlines()
    opened: tuple[int, str] | None = None
    body: list[tuple[int, str]] = []
    for number, line in enumerate(lines, 1):
        fence = FENCE.match(line)
        if opened is None:
            if fence:
                assert not fence["indent"], f"{page}:{number}: an indented fence is not read: unindent it"
                opened, body = (number, fence["language"]), []
            continue
        if fence and not fence["language"] and not fence["indent"]:
            start, language = opened
            before = next((text.strip() for text in reversed(lines[:start - 1]) if text.strip()), "")
            marker = BLOCK_NOT_RUN.match(before)
            found.append(Block(page, start, language, tuple(body), marker["why"] if marker else None))
            opened = None
        else:
            body.append((number, line))
    assert opened is None, f"{page}:{opened[0]}: a block that is never closed"
    return found


def commands(block: Block) -> list[Command]:
    """The command lines of a shell block, but for those marked ``# not run: ...``."""
    found = []
    for number, line in block.body:
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        comment = re.search(r"\s+#\s*(.*)$", line)
        text = line[:comment.start()].strip() if comment else line
        said = comment.group(1).strip() if comment else None
        if said and LINE_NOT_RUN.match(said):
            continue
        assert not text.endswith("\\"), f"{block.page}:{number}: one command a line, please"
        found.append(Command(block.page, number, text, said))
    return found


BLOCKS = [block for page in PAGES for block in blocks(page)]
RUN = [block for block in BLOCKS if block.language in SHELLS and block.not_run is None]
COMMANDS = [command for block in RUN for command in commands(block)]
COMMAND_BLOCK = commands(next(block for block in RUN if block.page == COMMANDS_PAGE))


# --- what a command did ------------------------------------------------------------------------

@dataclass
class Ran:
    """One documented command after it ran: its parsed command line, its output, the files it wrote."""

    command: str
    comment: str | None  # what the page says after it
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
    """A `run` input as the docs describe it: a file, or a folder's data files directly inside
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

    results = Path(params["outdir"]) / "winners"
    if params["engine"] == "dask":  # one part per partition, in input order
        parts = sorted(ran.path(results).glob(f"part-*.{params['output_format']}"))
        winners = pa.concat_tables([read_text_table(ran.wrote(part.relative_to(ran.cwd))) for part in parts])
        assert summary["cluster"]["partitions"] == len(parts) > 0
    else:
        winners = read_text_table(ran.wrote(results.with_suffix(f".{params['output_format']}")))
    assert summary["engine"] == params["engine"]
    rejects = csv_rows(ran.wrote(Path(params["outdir"]) / "rejects.csv"))
    assert winners.num_rows == summary["rows_scored"] > 0
    assert len(rejects) == summary["rows_rejected"]
    scored = winners["row"].cast(pa.int64()).to_numpy()
    rejected = {int(reject["row"]) for reject in rejects}
    assert (np.diff(scored) > 0).all() and not rejected & set(scored.tolist())
    assert 1 <= scored[0] and scored[-1] <= read and all(1 <= row <= read for row in rejected)

    if summary["expected"]:  # inputs with recorded results: each one was checked
        result = "winner" if "winner" in winners.column_names else "winners"
        pairs = zip(winners[result].to_pylist(), winners["expected"].to_pylist())
        recorded = [(got, wanted) for got, wanted in pairs if wanted]
        assert summary["expected"]["checked"] == len(recorded) > 0
        assert summary["expected"]["mismatched"] == 0
        assert all(got == wanted for got, wanted in recorded)
    else:  # the column is there all the same, empty
        assert all(wanted in ("", None) for wanted in winners["expected"].to_pylist())

    if all(file.suffix in DATA_SUFFIXES for file in files) and summary["game"] == "holdem":
        check_deals_against_the_rules(files, winners, best_five=params["best_five"])
    else:
        assert not params["best_five"], "teach check_run() --best-five on these inputs"
    check_kept(params, files, winners)
    limit = 0 if params["strict"] else params["max_rejects"]
    if limit is not None:  # the run exited 0: it stayed within its limit
        assert summary["rows_rejected"] <= limit and not (params["strict"] and summary["skipped_inputs"])


def check_kept(params: dict, files: list[Path], winners: pa.Table) -> None:
    """The --keep columns end the winners, each row's values those of its input row."""
    kept = list(params["keep"])
    assert not params["keep_all"], "teach check_kept() --keep-all"
    if not kept:
        return
    assert len(files) == 1 and files[0].suffix == ".csv", "teach check_kept() these inputs"
    assert winners.column_names[-len(kept):] == kept
    deals = read_text_table(files[0]).to_pylist()  # row r is the r-th data row: no blank lines here
    rows = winners["row"].cast(pa.int64()).to_pylist()
    assert winners.select(kept).to_pylist() == [{name: deals[row - 1][name] for name in kept} for row in rows]


def check_deals_against_the_rules(files: list[Path], winners: pa.Table, *, best_five: bool) -> None:
    """The first rows' winners (and best five cards) are those of the rules reference."""
    tables = [read_text_table(file) for file in files]
    assert sum(table.num_rows for table in tables) == winners.num_rows, \
        "hold'em inputs without rejects: one winners row per deal"
    deals = [row for table in tables for row in table.slice(0, REFERENCE_ROWS).to_pylist()][:REFERENCE_ROWS]
    for deal, got in zip(deals, winners.slice(0, REFERENCE_ROWS).to_pylist()):
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
    # Five cards on every board and two in every seat, each a card of the deck, none dealt twice.
    deck = pa.array([rank + suit for rank in RANKS for suit in SUITS])
    dealt = []
    for name in table.column_names:
        words, size = pc.split_pattern(table[name], " "), 5 if name == "board" else 2
        assert pc.all(pc.equal(pc.list_value_length(words), size)).as_py(), f"{name}: not {size} cards"
        codes = pc.index_in(pc.list_flatten(words), value_set=deck)
        assert codes.null_count == 0, f"{name}: a card that is not one"
        dealt.append(codes.to_numpy().reshape(-1, size))
    assert (np.diff(np.sort(np.hstack(dealt), axis=1), axis=1) > 0).all(), "a card dealt twice"


def check_compare(ran: Ran) -> None:
    params = ran.params
    hand1, hand2 = (params["hand1"], params["hand2"]) if params["hand1"] else params["hands"]
    said = ran.comment
    assert said, f"{ran.command}: the page says what compare prints in a comment"
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
        plot = ran.wrote(ran.params["plot_path"])
        assert plot.read_bytes().startswith(PLOT_SIGNATURES[plot.suffix]), plot


def equity_of(board: list[str], hands: list[list[str]]) -> list:
    """The rules reference's equity of a deal, worked out once (the Commands block runs twice)."""
    return _equity_of(tuple(board), tuple(map(tuple, hands)))


@functools.cache
def _equity_of(board: tuple[str, ...], hands: tuple[tuple[str, ...], ...]) -> list:
    return reference_equity(list(board), [list(hand) for hand in hands])


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
            reference = equity_of(board, list(hands.values()))
            assert got == pytest.approx([float(share) for share in reference]), (spot, row)
            assert all(row[f"{seat}_equity_se"] in ("", None) for seat in hands), row
        else:
            assert all(float(row[f"{seat}_equity_se"]) > 0 for seat in hands), row


def check_one_deal_equity(ran: Ran) -> None:
    hands = [[hand[i:i + 2] for i in range(0, len(hand), 2)] for hand in ran.params["hands"]]
    board = ran.params["board"].split()
    assert len(board) >= 3, "teach check_one_deal_equity() sampled (preflop) deals"
    reference = equity_of(board, hands)
    lines = ran.stdout.splitlines()
    assert len(lines) == len(hands)
    for line, hand, share in zip(lines, hands, reference):
        cards, equity = line.rsplit(maxsplit=1)
        assert cards.split() == hand
        assert float(equity) == pytest.approx(float(share), abs=5e-5)
    unseen = 52 - len(board) - 2 * len(hands)
    assert ran.stderr.strip() == f"{comb(unseen, 5 - len(board)):,} every run-out"


#: The outcomes of the hands a player's statistics count.
COUNTED_OUTCOMES = {"scored", "no showdown", "unknown cards"}


def phh_hands(folder: Path) -> list[dict]:
    """Every hand of the PHH files under ``folder``, read with tomllib."""
    found = []
    for path in sorted(folder.rglob("*.phh*")):
        tables = tomllib.loads(path.read_text())
        found += [tables[key] for key in sorted(tables, key=int)] if path.suffix == ".phhs" else [tables]
    return found


def voluntary_before_the_flop(hand: dict) -> set[int]:
    """The players (from 0) who called or raised before the flop: a ``cc`` that matches no higher
    bet is a check, which the big blind makes when no one raised."""
    put = [max(blind, 0) for blind in hand["blinds_or_straddles"]] + [0] * len(hand["players"])
    level, found = max(put), set()
    for action in hand["actions"]:
        words = action.split()
        if words[0] == "d" and words[1] == "db":
            break
        if words[0] == "d":
            continue
        player = int(words[0][1:]) - 1
        if words[1] == "cbr":
            level = put[player] = float(words[2])
            found.add(player)
        elif words[1] == "cc" and put[player] < level:
            put[player] = level
            found.add(player)
    return found


def check_players(ran: Ran) -> None:
    params = ran.params
    out = Path(params["outdir"])
    summary = json.loads(ran.wrote(out / "summary.json").read_text())
    assert summary["hands_read"] == \
        summary["hands_used"] + summary["hands_set_apart"] + summary["hands_rejected"]
    rows = read_text_table(ran.wrote(out / f"players.{params['output_format']}")).to_pylist()
    hands: Counter[str] = Counter()
    vpip: Counter[str] | None = Counter()
    for name in params["inputs"]:
        given = ran.path(name)
        if (given / "summary.json").exists():  # a run's output folder: its tables, with csv
            outcome = {row["hand_key"]: row["outcome"] for row in csv.DictReader(open(given / "hands.csv"))}
            hands.update(row["player"] for row in csv.DictReader(open(given / "seats.csv"))
                         if outcome[row["hand_key"]] in COUNTED_OUTCOMES)
            vpip = None
            continue
        for hand in phh_hands(given):  # PHH hand histories, every hand of them played
            hands.update(hand["players"])
            if vpip is not None:
                vpip.update(hand["players"][seat] for seat in voluntary_before_the_flop(hand))
    got: Counter[str] = Counter()
    for row in rows:
        got[row["player"]] += int(row["hands"])
    assert got == hands, "each player's hands: the seats of the hands played"
    if vpip is not None:
        counted: Counter[str] = Counter()
        for row in rows:
            counted[row["player"]] += int(row["vpip_count"])
        assert +counted == +vpip, "each player's VPIP: the calls and raises before the flop"
    assert summary["players"] == len(rows) >= len(hands)


CHECKS: dict[str, Callable[[Ran], None]] = {
    "run": check_run,
    "generate": check_generate,
    "compare": check_compare,
    "contest": check_contest,
    "stats": check_stats,
    "equity": check_equity,
    "players": check_players,
}


# --- running a page's commands ----------------------------------------------------------------

def execute(command: Command, cwd: Path) -> None:
    """Run one documented command in ``cwd``: it must exit with 0 and pass its checker."""
    name, args, stdin = parse(command.text)
    assert name in CHECKS, f"{command.id}: no checker for `pokerpipe {name}`: add one to CHECKS"
    # Where `make run` installs pokerpipe, the interpreter running these tests lives.
    env = {**os.environ, "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}"}
    before = files_under(cwd)
    done = subprocess.run(["bash", "-c", command.text], cwd=cwd, env=env, capture_output=True,
                          text=True, timeout=COMMAND_TIMEOUT)
    assert done.returncode == 0, f"{command.id}: {command.text}\n{done.stdout[-1000:]}\n{done.stderr[-2000:]}"
    assert "Traceback" not in done.stderr, f"{command.id}: {done.stderr[-2000:]}"
    after = files_under(cwd)
    written = {path for path, stat in after.items() if before.get(path) != stat}
    here = Path.cwd()
    os.chdir(cwd)  # the command line's paths are relative to it
    try:
        params = cli.commands[name].make_context(name, list(args)).params
    finally:
        os.chdir(here)
    CHECKS[name](Ran(command.text, command.comment, name, params, stdin, done.stdout, done.stderr, cwd,
                     written))


@dataclass
class PageCopy:
    """A copy of the project's data in which one page's commands run, in the page's order."""

    folder: Path
    commands: list[Command]
    failed: dict[Command, str] = field(default_factory=dict)
    done: set[Command] = field(default_factory=set)

    def run_through(self, command: Command) -> None:
        """Run ``command``, after those before it on the page that have not run yet."""
        for earlier in self.commands[:self.commands.index(command) + 1]:
            if earlier in self.done:
                continue
            self.done.add(earlier)
            try:
                execute(earlier, self.folder)
            except BaseException as error:
                self.failed[earlier] = str(error)
                if earlier == command:
                    raise
                pytest.fail(f"{earlier.id}, which comes before {command.id}, failed:\n{error}")
        if command in self.failed:
            pytest.fail(f"{command.id} failed:\n{self.failed[command]}")


@pytest.fixture(scope="module")
def copies(tmp_path_factory) -> Callable[[str], PageCopy]:
    """The copy of each page: the project's data folder as `make run` leaves it, data/raw and an
    empty data/processed."""
    made: dict[str, PageCopy] = {}

    def copy(page: str) -> PageCopy:
        if page not in made:
            folder = tmp_path_factory.mktemp(re.sub(r"\W", "-", page))
            shutil.copytree(ROOT / "data" / "raw", folder / "data" / "raw")
            (folder / "data" / "processed").mkdir()
            made[page] = PageCopy(folder, [command for command in COMMANDS if command.page == page])
        return made[page]

    return copy


# --- the tests ---------------------------------------------------------------------------------

def test_every_fence_names_its_language():
    unnamed = [f"{block.page}:{block.line}" for block in BLOCKS if not block.language]
    assert not unnamed, f"fences without a language (sh, python, text...): {unnamed}"


def test_the_marks_sit_before_a_shell_block():
    """A mark (a line of its own) that is not on the line before a shell block's fence marks
    nothing: a mark left behind when its block moved, or one a paragraph parts from its block."""
    marked = Counter(block.page for block in BLOCKS if block.not_run is not None)
    for page in PAGES:
        marks = [line for line in page_text(page).splitlines() if BLOCK_NOT_RUN.match(line.strip())]
        assert len(marks) == marked[page], page
    assert all(block.language in SHELLS for block in BLOCKS if block.not_run is not None)


def test_unmarked_shell_blocks_hold_pokerpipe_commands():
    for block in RUN:
        found = commands(block)
        assert found, f"{block.page}:{block.line}: a shell block with no command"
        others = [command.id for command in found if shlex.split(command.text)[0] != "pokerpipe"]
        assert not others, (f"{others}: not a pokerpipe command; mark the block `<!-- not run: why -->`"
                            " on the line before its fence, or the line `# not run: why`")


def test_the_command_block_has_every_command():
    assert {parse(command.text)[0] for command in COMMAND_BLOCK} == set(cli.commands)


def test_the_readme_has_an_example_of_every_command():
    examples = [command for command in COMMANDS if command.page == "README.md"]
    assert {parse(command.text)[0] for command in examples} == set(cli.commands)


def test_every_page_with_examples_is_a_doctest():
    """pytest collects every page that holds a ``>>>`` example, by a --doctest-glob and a testpath."""
    options = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["pytest"]
    options = options["ini_options"]
    globs = re.findall(r"--doctest-glob=(\S+)", options["addopts"])
    for page in PAGES:
        if ">>>" not in page_text(page):
            continue
        name = page if "/" in page else Path(page).name
        assert any(fnmatch.fnmatch(name if "/" in glob else Path(page).name, glob) for glob in globs), page
        assert any(page == path or page.startswith(f"{path}/") for path in options["testpaths"]), page


def slug(heading: str) -> str:
    """The anchor of a heading, as the site's Markdown (and GitHub, for these headings) makes it."""
    text = unicodedata.normalize("NFKD", heading.replace("`", "")).encode("ascii", "ignore").decode()
    return re.sub(r"[-\s]+", "-", re.sub(r"[^\w\s-]", "", text).strip().lower())


def test_the_readme_links_lead_somewhere():
    """The README is no page of the site, whose build checks the links of its pages: its own
    relative links and their anchors are checked here."""
    for target in re.findall(r"\]\(([^)\s]+)\)", page_text("README.md")):
        if re.match(r"\w+://", target):
            continue
        path, _, anchor = target.partition("#")
        assert (ROOT / path).exists(), target
        if anchor:
            headings = re.findall(r"^#+ (.+)$", (ROOT / path).read_text(encoding="utf-8"), re.M)
            assert anchor in {slug(heading) for heading in headings}, target


def test_make_clean_removes_what_the_examples_write():
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    recipe = re.search(r"^clean:.*?\n\n", makefile, re.M | re.S).group(0)
    cleaned = set(re.findall(r"\$\(PROCESSED\)/([\w.-]+)", recipe))
    written = set(re.findall(r"data/processed/([\w.-]+)", " ".join(command.text for command in COMMANDS)))
    assert written <= cleaned, f"add to make clean: {sorted(written - cleaned)}"


@pytest.mark.parametrize("command", COMMANDS, ids=[command.id for command in COMMANDS])
def test_documented_command_runs(copies, command):
    copies(command.page).run_through(command)


def test_the_command_block_runs_twice_in_a_row(copies):
    """The second pass of the Commands page's block, in the copy where the tests above ran the
    first: every command exits with 0 and passes its checker again."""
    copy = copies(COMMANDS_PAGE)
    copy.run_through(COMMAND_BLOCK[-1])  # the first pass, where the tests above have not run it
    assert not copy.failed, f"the first pass failed: {sorted(command.id for command in copy.failed)}"
    for command in COMMAND_BLOCK:
        execute(command, copy.folder)


def test_every_unmarked_block_ran(copies):
    """Every command of every unmarked shell block ran, and passed (those not selected run now)."""
    for page in PAGES:
        copy = copies(page)
        for command in copy.commands:
            copy.run_through(command)
        assert copy.done == set(copy.commands) and not copy.failed, page
