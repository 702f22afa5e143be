"""Sites' logs inside ``.zip`` archives, read in place; and files that are no site's log."""

from __future__ import annotations

import zipfile
from pathlib import Path

import pandas as pd
import pytest

from pipeline.errors import InputError
from pipeline.runs.runner import Run

from .sites import DATA

GGPOKER = DATA / "ggpoker" / "CashGame" / "GeneralHands" / "Straddle.txt"
POKERSTARS = Path(__file__).parent / "data" / "pokerstars" / "CashGame_GeneralHands_SidePot.txt"


def archive(path: Path, members: dict[str, bytes]) -> Path:
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as out:
        for name, data in members.items():
            out.writestr(name, data)
    return path


def test_an_archive_of_logs_is_read_in_place(tmp_path: Path) -> None:
    zipped = archive(tmp_path / "export.zip", {"gg/HH1.txt": GGPOKER.read_bytes(),
                                               "ps/HH2.txt": POKERSTARS.read_bytes(),
                                               "notes.txt": b"what I learned today\n"})
    notices: list[str] = []
    summary = Run([str(zipped)], tmp_path / "out", on_notice=notices.append).execute()
    assert [(entry["path"], entry["format"]) for entry in summary["inputs"]] == [
        (f"{zipped}/gg/HH1.txt", "ggpoker"), (f"{zipped}/ps/HH2.txt", "pokerstars")]
    assert [entry["file"] for entry in summary["skipped_inputs"]] == [f"{zipped}/notes.txt"]
    assert any("notes.txt: not a hand history of" in line for line in notices)
    # Nothing is unpacked beside the archive.
    assert sorted(path.name for path in tmp_path.iterdir()) == ["export.zip", "out"]

    unpacked = tmp_path / "unpacked"
    unpacked.mkdir()
    (unpacked / "HH1.txt").write_bytes(GGPOKER.read_bytes())
    (unpacked / "HH2.txt").write_bytes(POKERSTARS.read_bytes())
    Run([str(unpacked / "HH1.txt"), str(unpacked / "HH2.txt")], tmp_path / "plain").execute()
    for table in ("hands", "seats", "actions"):
        read = pd.read_csv(tmp_path / "out" / f"{table}.csv")
        plain = pd.read_csv(tmp_path / "plain" / f"{table}.csv")
        columns = [name for name in read.columns if name != "source"]
        pd.testing.assert_frame_equal(read[columns], plain[columns])
    hands = pd.read_csv(tmp_path / "out" / "hands.csv")
    assert set(hands.source) == {f"{zipped}/gg/HH1.txt", f"{zipped}/ps/HH2.txt"}


def test_an_archive_in_a_folder_is_read_with_the_rest(tmp_path: Path) -> None:
    folder = tmp_path / "logs"
    (folder / "2024").mkdir(parents=True)
    archive(folder / "2024" / "export.zip", {"HH1.txt": GGPOKER.read_bytes()})
    (folder / "HH2.txt").write_bytes(POKERSTARS.read_bytes())
    summary = Run([str(folder)], tmp_path / "out").execute()
    assert sorted(entry["format"] for entry in summary["inputs"]) == ["ggpoker", "pokerstars"]


def test_an_archive_of_no_log_named_stops_the_run(tmp_path: Path) -> None:
    zipped = archive(tmp_path / "photos.zip", {"a.jpg": b"\xff\xd8\xff", "b.txt": b"hello\n"})
    with pytest.raises(InputError, match="an archive that holds no site's hand-history log"):
        Run([str(zipped)], tmp_path / "out").execute()
    folder = tmp_path / "f"
    folder.mkdir()
    (folder / "photos.zip").write_bytes(zipped.read_bytes())
    (folder / "HH.txt").write_bytes(GGPOKER.read_bytes())
    summary = Run([str(folder)], tmp_path / "out2").execute()
    # Each member is skipped with its reason, then the archive.
    assert [entry["file"] for entry in summary["skipped_inputs"]] == [
        f"{folder / 'photos.zip'}/a.jpg", f"{folder / 'photos.zip'}/b.txt", str(folder / "photos.zip")]


def test_a_damaged_archive_is_one_line_naming_it(tmp_path: Path) -> None:
    damaged = tmp_path / "export.zip"
    damaged.write_bytes(b"PK\x03\x04 not really an archive")
    with pytest.raises(InputError, match=r"export\.zip: cannot read the archive") as error:
        Run([str(damaged)], tmp_path / "out").execute()
    assert "\n" not in str(error.value)


def test_a_text_that_is_no_log_is_told_apart(tmp_path: Path) -> None:
    """Named, a .txt that is neither a contest file nor a site's log stops the run with one line
    naming the formats it is not; in a folder it is skipped with that line."""
    note = tmp_path / "note.txt"
    note.write_text("Poker Hand? not quite\n")
    with pytest.raises(InputError) as error:
        Run([str(note)], tmp_path / "out").execute()
    message = str(error.value)
    assert "not a contest file or a hand history of " in message and "\n" not in message
    for venue in ("GGPoker", "PokerStars"):
        assert venue in message
