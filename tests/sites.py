"""What every site's sample logs must show, checked the same way for each site.

The samples (``tests/data/sites/``, MIT licence beside them) are the test cases of an open C#
parser's suite: one hand or a few per file, no expected winners.  The checks here take a site's
files through ``run`` and hold the tables against the record's own figures and the rules:

- every hand read ends in exactly one outcome, and the counts add up to the hands read;
- the hands rejected are those the site's test names, each for its reason;
- every showdown checked against the record names the winners the evaluator does;
- in every hand kept whose record adds up (no cash-out, not listed as unbalanced), Σ net is minus
  the rake, and what each seat put in is what the replay says;
- the button's seat is the BTN, and the first small and big blind posted are the SB and BB.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path

import pandas as pd
import pytest

DATA = Path(__file__).parent / "data" / "sites"


@dataclass
class SiteRun:
    """The tables and summary of one run over a site's files."""

    hands: pd.DataFrame
    seats: pd.DataFrame
    actions: pd.DataFrame
    summary: dict
    rejects: pd.DataFrame


def files_of(folder: str) -> list[Path]:
    """Every sample log of a site's folder, in name order."""
    return sorted((DATA / folder).rglob("*.txt"))


def run_files(paths: list[Path], out: Path) -> SiteRun:
    """``run`` over ``paths``, its tables read back."""
    from pipeline.runs.runner import Run

    Run([str(path) for path in paths], out, output_format="parquet", threads=1).execute()
    rejects = pd.read_csv(out / "rejects.csv") if (out / "rejects.csv").exists() else pd.DataFrame()
    return SiteRun(hands=pd.read_parquet(out / "hands.parquet"), seats=pd.read_parquet(out / "seats.parquet"),
                   actions=pd.read_parquet(out / "actions.parquet"),
                   summary=json.loads((out / "summary.json").read_text()), rejects=rejects)


def run_text(folder: Path, text: str | bytes) -> SiteRun:
    """``run`` over ``text`` (UTF-8 when a str), written as the one file of ``folder``."""
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "hands.txt"
    path.write_bytes(text.encode("utf-8") if isinstance(text, str) else text)
    return run_files([path], folder / "out")


def file_of(run: SiteRun) -> pd.Series:
    """The file name of each hand of the hands table."""
    return run.hands.source.astype(str).map(lambda text: Path(text).name)


def check_outcomes(run: SiteRun, rejected: dict[str, str]) -> None:
    """Every hand in one outcome; the hands rejected are those of the files ``rejected`` names, each
    for a reason holding the text it gives."""
    hands = run.hands
    counts = run.summary
    assert len(hands) == counts["rows_read"]
    assert counts["rows_read"] == sum(counts[f"rows_{name}"] for name in (
        "scored", "without_showdown", "unknown_cards", "set_apart", "rejected"))
    names = file_of(run)
    got = {name: str(reason) for name, reason, outcome in zip(names, hands.reason, hands.outcome)
           if outcome == "rejected"}
    assert set(got) == set(rejected), got
    for name, reason in rejected.items():
        assert reason in got[name], (name, got[name])


def check_winners(run: SiteRun, *, at_least: int) -> None:
    """Every showdown checked names the evaluator's winners, and at least ``at_least`` were checked."""
    assert run.summary["expected"]["mismatched"] == 0
    assert run.summary["expected"]["checked"] >= at_least


def check_balances(run: SiteRun, unbalanced: set[tuple[str, int]] = frozenset(),
                   settled_by_site: set[str] = frozenset()) -> int:
    """Σ net is minus the rake in every hand kept that is not set apart, has a rake written, and is
    not one of ``unbalanced`` (file name, hand number in the file) nor of a file of
    ``settled_by_site`` (a cash-out: the site's money is in the net); each seat's net is what it
    received less what it put in.  Returns the hands checked; the settled ones must be counted so."""
    assert run.summary["expected"]["settled_by_site"] == len(
        {(name, number) for name, number in zip(file_of(run), run.hands.hand_key & 0xFFFFFFFF)
         if name in settled_by_site})
    hands = run.hands.assign(file=file_of(run), number=run.hands.hand_key & 0xFFFFFFFF)
    kept = hands[~hands.outcome.isin(["rejected", "set apart"]) & hands.rake.notna()]
    net = run.seats.groupby("hand_key").net.sum()
    checked = 0
    for row in kept.itertuples():
        if (row.file, row.number) in unbalanced or row.file in settled_by_site:
            continue
        assert net[row.hand_key] == pytest.approx(-row.rake, abs=1e-6), (row.file, row.number)
        checked += 1
    seats = run.seats.dropna(subset=["net"])
    assert (seats.net - (seats.received - seats.contributed)).abs().max() < 1e-6
    return checked


def check_positions(run: SiteRun) -> int:
    """In every hand kept whose button is a seat dealt in: that seat is the BTN; the first small
    blind posted is the SB (the BTN heads-up) and the first big blind the BB.  Returns the hands
    checked."""
    hands = run.hands[run.hands.outcome != "rejected"]
    seats = run.seats.set_index(["hand_key", "seat"])
    actions = run.actions
    checked = 0
    for row in hands.itertuples():
        if pd.isna(row.button_seat) or (row.hand_key, row.button_seat) not in seats.index:
            continue
        assert seats.loc[(row.hand_key, row.button_seat), "position"] == "BTN", row.hand_id
        posts = actions[actions.hand_key == row.hand_key]
        for action, expected in (("post small blind", ("SB", "BTN")), ("post big blind", ("BB",))):
            first = posts[posts.action == action]
            if len(first):
                assert seats.loc[(row.hand_key, int(first.seat.iloc[0])), "position"] in expected, row.hand_id
        checked += 1
    return checked


def renamed(text: str, names: dict[str, str]) -> str:
    """``text`` with each player's name of ``names`` (old to new) written as the new one, whole
    names only."""
    for old, new in names.items():
        text = re.sub(rf"(?<![\w]){re.escape(old)}(?![\w])", new.replace("\\", "\\\\"), text)
    return text


def table_rows(got: SiteRun, names: dict[str, str] | None = None) -> list[list[list[str]]]:
    """A run's hands, seats and actions rows as text, the files' names left out, players renamed
    back by ``names`` (old to new, as :func:`renamed` wrote them): what two runs of one hand
    written two ways must both give."""
    back = {new: old for old, new in (names or {}).items()}

    def plain(frame: pd.DataFrame) -> list[list[str]]:
        frame = frame.drop(columns=[name for name in ("source",) if name in frame])
        if "player" in frame:
            frame = frame.assign(player=frame.player.astype(str).map(lambda name: back.get(name, name)))
        found: list[list[str]] = frame.astype(str).values.tolist()
        return found

    return [plain(got.hands), plain(got.seats), plain(got.actions)]


def inserted(text: str, line: str, after: str) -> str:
    """``text`` with ``line`` put after its first line that starts with ``after``."""
    found = re.search(rf"(?m)^{re.escape(after)}.*$", text)
    assert found is not None, after
    return f"{text[:found.end()]}\n{line}{text[found.end():]}"


def check_rejected_alone(got: SiteRun, plain: SiteRun, hand_id: str, line: str, reason: str,
                         player: str) -> None:
    """``got`` reads the text of ``plain`` with ``line``, naming ``player``, put in hand ``hand_id``:
    that hand alone is rejected, for ``reason``, the line the one ``rejects.csv`` names; every other
    hand reads as in ``plain``, table by table."""
    # The plain text: every hand read, several of them, and the player seated in the hand written to.
    assert len(plain.hands) >= 3 and (plain.hands.outcome != "rejected").all()
    assert player in set(plain.seats[plain.seats.hand_id == hand_id].player.astype(str))
    rejected = got.hands[got.hands.outcome == "rejected"]
    assert (rejected.hand_id.tolist(), rejected.reason.tolist()) == ([hand_id], [reason])
    assert got.rejects.raw.tolist() == [line]
    assert rows_but(got, hand_id) == rows_but(plain, hand_id)


def rows_but(run: SiteRun, hand_id: str) -> list[list[list[str]]]:
    """:func:`table_rows` of every hand of ``run`` but ``hand_id``."""
    tables = (frame[frame.hand_id != hand_id] for frame in (run.hands, run.seats, run.actions))
    return table_rows(SiteRun(*tables, summary=run.summary, rejects=run.rejects))
