"""The same hand read twice: the second and later readings are set apart as duplicates.

Same site and hand id, in two files or twice in one, in any format (a PHH
hand names its site by ``venue``); a PHH hand without a venue is never
taken for one, since its ``hand`` need not be unique.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pandas as pd
import pytest

from pipeline.runs.runner import Run

from .conftest import DATA, RAW
from .test_pokerstars import SAME_HAND_PHH

SESSION = sorted((RAW / "pokerstars").glob("*.txt"))[0]
SAME_HAND_TEXT = DATA / "pokerstars" / "CashGame_ExtraHands_PlayerNameWithSlashesAndSquareBrackets.txt"


def run(inputs: list[Path], outdir: Path, **options) -> tuple[dict, dict[str, pd.DataFrame]]:
    Run([str(path) for path in inputs], outdir, output_format="parquet", **options).execute()
    summary = json.loads((outdir / "summary.json").read_text())
    return summary, {name: pd.read_parquet(outdir / f"{name}.parquet")
                     for name in ("winners", "hands", "seats", "actions")}


def reasons(hands: pd.DataFrame) -> list[str]:
    return hands["reason"].astype(object).fillna("").tolist()


def counted(summary: dict) -> tuple[int, ...]:
    return tuple(summary[f"rows_{name}"] for name in ("read", "scored", "without_showdown", "unknown_cards",
                                                      "set_apart", "rejected"))


def test_a_session_read_twice_is_read_once_and_set_apart_once(tmp_path: Path) -> None:
    shutil.copy(SESSION, tmp_path / "a.txt")
    shutil.copy(SESSION, tmp_path / "b.txt")
    once_summary, once = run([tmp_path / "a.txt"], tmp_path / "once")
    summary, tables = run([tmp_path / "a.txt", tmp_path / "b.txt"], tmp_path / "twice")
    hands = tables["hands"]
    read = once_summary["rows_read"]
    assert read > 0 and summary["rows_read"] == 2 * read
    # The first file counts as it does alone; every hand of the second is its duplicate.
    assert counted(summary) == (2 * read, *counted(once_summary)[1:4], read, once_summary["rows_rejected"])
    assert summary["set_apart"] == {"duplicate": read}
    second = hands[hands["source"] == str(tmp_path / "b.txt")]
    assert len(second) == read
    assert (second["outcome"] == "set apart").all() and (second["reason"] == "duplicate").all()
    first = hands[hands["source"] == str(tmp_path / "a.txt")].reset_index(drop=True)
    pd.testing.assert_frame_equal(first, once["hands"], check_categorical=False)
    # The winners are the first file's; the seats and actions of both are there, every hand's.
    pd.testing.assert_frame_equal(tables["winners"].drop(columns="row"), once["winners"].drop(columns="row"),
                                  check_categorical=False)
    assert len(tables["seats"]) == 2 * len(once["seats"])
    assert len(tables["actions"]) == 2 * len(once["actions"])
    by_input = {entry["path"]: entry for entry in summary["inputs"]}
    assert by_input[str(tmp_path / "b.txt")]["scored"] == 0
    assert by_input[str(tmp_path / "b.txt")]["set_apart"] == read


def test_the_same_hand_as_phh_with_its_venue_and_as_pokerstars_text_is_read_once(tmp_path: Path) -> None:
    phh = tmp_path / "same.phh"
    phh.write_text(SAME_HAND_PHH + "venue = 'PokerStars'\n")
    summary, tables = run([SAME_HAND_TEXT, phh], tmp_path / "out")
    assert counted(summary) == (2, 1, 0, 0, 1, 0)
    assert reasons(tables["hands"]) == ["", "duplicate"]
    assert tables["winners"]["file"].tolist() == [str(SAME_HAND_TEXT)]
    # Without its venue the PHH hand names no site: never a duplicate.
    phh.write_text(SAME_HAND_PHH)
    summary, _ = run([SAME_HAND_TEXT, phh], tmp_path / "without")
    assert counted(summary) == (2, 2, 0, 0, 0, 0)


@pytest.mark.parametrize("venue", ["", "venue = 'HandHQ'\n"])
def test_phh_hands_of_one_number_are_duplicates_only_with_a_venue(venue: str, tmp_path: Path) -> None:
    # Two tables of a .phhs file, the same hand number: the Pluribus sessions count from 0 in each.
    text = "".join(f"[{table}]\n{SAME_HAND_PHH.replace('hand = 86015904171', 'hand = 0')}{venue}\n"
                   for table in (1, 2))
    path = tmp_path / "session.phhs"
    path.write_text(text)
    summary, tables = run([path], tmp_path / "out")
    assert summary["rows_read"] == 2
    assert summary["rows_set_apart"] == (1 if venue else 0)
    assert reasons(tables["hands"]) == (["", "duplicate"] if venue else ["", ""])


def test_a_rejected_hand_is_no_first_reading(tmp_path: Path) -> None:
    # The first copy is cut short (rejected), the second is whole: the second is the hand read.
    text = SAME_HAND_TEXT.read_text(encoding="utf-8-sig")
    (tmp_path / "cut.txt").write_text(text[:text.index("*** SUMMARY ***")])
    summary, tables = run([tmp_path / "cut.txt", SAME_HAND_TEXT], tmp_path / "out")
    assert counted(summary) == (2, 1, 0, 0, 0, 1)
    assert tables["hands"]["outcome"].tolist() == ["rejected", "scored"]
