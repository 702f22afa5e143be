"""PHH hand histories: the reader, the replay of chips and the audit against recorded results.

The reference here is written from the rules, hand by hand: each hand is
parsed with :mod:`tomllib`, its actions replayed one at a time in plain
Python, its showdown decided by trying every five of seven cards with a
small evaluator of its own.  The pipeline must agree with it and with the
recorded chips.
"""

from __future__ import annotations

import bz2
import gzip
import json
import shutil
import threading
import tomllib
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from pipeline.formats import phh
from pipeline.formats.readers import open_source
from pipeline.runs.runner import Run

from .rules import best_value

ROOT = Path(__file__).resolve().parent.parent
PHH = ROOT / "data" / "raw" / "phh"
RANKS = "23456789TJQKA"


def run(inputs, outdir: Path) -> tuple[dict, pd.DataFrame, pd.DataFrame]:
    summary = Run([str(i) for i in inputs], outdir).execute()
    winners = pd.read_csv(outdir / "winners.csv", dtype=str, keep_default_na=False)
    rejects = pd.read_csv(outdir / "rejects.csv", dtype=str, keep_default_na=False)
    return summary, winners, rejects


# --- a reference written from the rules -------------------------------------------------------

def split_cards(text: str) -> list[str]:
    return [text[i:i + 2] for i in range(0, len(text), 2)]


def replay(hand: dict) -> dict:
    """One hand by the rules: who contests the pot, their cards, the board, what each contributed.

    A player who mucks at the showdown (``sm`` without cards) forfeits: it does not contest.
    """
    n = len(hand["starting_stacks"])
    stacks = list(hand["starting_stacks"])
    contributed = [0.0] * n
    for p, ante in enumerate(hand["antes"]):
        paid = min(ante, stacks[p])
        stacks[p] -= paid
        contributed[p] += paid
    street = [0.0] * n
    for p, blind in enumerate(hand.get("blinds_or_straddles", [0] * n)):
        paid = min(blind, stacks[p])
        stacks[p] -= paid
        street[p] = paid
        contributed[p] += paid
    level = max(street)
    holes, shown, board, folded, mucked = {}, {}, [], set(), set()
    for action in hand["actions"]:
        words = action.split("#")[0].split()
        if words[0] == "d":
            if words[1] == "dh":
                holes[int(words[2][1:]) - 1] = words[3]
            else:
                board += split_cards(words[2])
                street = [0.0] * n
                level = 0.0
            continue
        p = int(words[0][1:]) - 1
        if words[1] == "f":
            folded.add(p)
        elif words[1] in ("cc", "cbr"):
            target = level if words[1] == "cc" else float(words[2])
            pay = min(target - street[p], stacks[p])
            stacks[p] -= pay
            street[p] += pay
            contributed[p] += pay
            level = max(level, street[p]) if words[1] == "cbr" else level
        elif words[1] == "sm" and len(words) > 2 and "?" not in words[2]:
            shown[p] = words[2]
        elif words[1] == "sm" and len(words) == 2:
            mucked.add(p)
    ordered = sorted(contributed)
    top = contributed.index(ordered[-1])
    contributed[top] -= ordered[-1] - ordered[-2]
    showdown = len([p for p in range(n) if p not in folded]) >= 2
    live = [p for p in range(n) if p not in folded and p not in mucked]
    cards = {p: shown.get(p, holes.get(p, "????")) for p in live}
    return {"live": live, "showdown": showdown, "mucked": sorted(mucked), "cards": cards, "board": board,
            "contributed": contributed}


def recorded_winners(hand: dict, replayed: dict) -> str | None:
    """Showdown players whose chips grew by more than they put in; None for side pots and for a
    record that names nobody who contests the pot (it is no result)."""
    live = replayed["live"]
    if len({replayed["contributed"][p] for p in live + replayed["mucked"]}) > 1:
        return None
    if "finishing_stacks" in hand:
        received = [f - s + c for f, s, c in zip(hand["finishing_stacks"], hand["starting_stacks"],
                                                  replayed["contributed"])]
    elif "winnings" in hand:
        received = hand["winnings"]
    else:
        return None
    if any(received[p] > 0 for p in replayed["mucked"]):
        return None
    return " ".join(str(p + 1) for p in live if received[p] > 0) or None


def showdown_winners(replayed: dict) -> str:
    values = {p: best_value(split_cards(replayed["cards"][p]) + replayed["board"])
              for p in replayed["live"]}
    best = max(values.values())
    return " ".join(str(p + 1) for p in sorted(values) if values[p] == best)


def pluribus_hands() -> list[tuple[Path, dict]]:
    return [(path, tomllib.loads(path.read_text())) for path in sorted((PHH / "pluribus").rglob("*.phh"))]


# --- tests ------------------------------------------------------------------------------------

def test_every_pluribus_showdown_agrees_with_its_recorded_chips(tmp_path: Path) -> None:
    hands = pluribus_hands()
    assert len(hands) == 151
    summary, winners, rejects = run([PHH / "pluribus"], tmp_path)
    reference = {}
    for path, hand in hands:
        replayed = replay(hand)
        if replayed["showdown"]:
            reference[str(path.relative_to(ROOT))] = (showdown_winners(replayed),
                                                      recorded_winners(hand, replayed))
    # The rules and the chips agree on every checked hand, and so does the pipeline.
    for scored, recorded in reference.values():
        assert recorded is None or scored == recorded
    got = {Path(f).resolve().relative_to(ROOT).as_posix(): (w, e)
           for f, w, e in zip(winners["file"], winners["winners"], winners["expected"])}
    assert set(got) == set(reference)
    for name, (scored, recorded) in reference.items():
        assert got[name] == (scored, recorded or ""), name
    assert summary["rows_read"] == 151
    assert summary["rows_scored"] == len(reference)
    assert summary["rows_without_showdown"] == 151 - len(reference)
    assert summary["rows_rejected"] == 0 and rejects.empty
    checked = sum(recorded is not None for _, recorded in reference.values())
    assert summary["expected"]["checked"] == checked > 0
    assert summary["expected"]["mismatched"] == 0
    assert summary["expected"]["not_checked_side_pots"] == len(reference) - checked


def test_phhs_file_and_folder_of_phh_give_the_same_winners(tmp_path: Path) -> None:
    # pluribus-31.phhs joins the hands of a pluribus/31 folder that is not bundled: write that
    # folder from the .phhs by the TOML tables, one file per hand, nested like the collections.
    document = tomllib.loads((PHH / "pluribus-31.phhs").read_text())
    folder = tmp_path / "pluribus" / "31"
    folder.mkdir(parents=True)
    blocks = (PHH / "pluribus-31.phhs").read_text().split("\n[")
    for block in blocks:
        key, _, body = block.lstrip("[").partition("]\n")
        (folder / f"{int(key) - 1}.phh").write_text(body)
    assert len(list(folder.glob("*.phh"))) == len(document) == 73
    _, from_file, _ = run([PHH / "pluribus-31.phhs"], tmp_path / "file")
    _, from_folder, _ = run([tmp_path / "pluribus"], tmp_path / "folder")
    columns = ["winners", "expected", "winning_key",
               *(f"p{seat}_{column}" for seat in range(1, 7) for column in ("key", "player"))]
    by_hand_file = from_file.assign(hand=from_file["hand"].astype(int) - 1).set_index("hand")[columns]
    by_hand_folder = from_folder.assign(hand=from_folder["file"].map(lambda f: int(Path(f).stem)))
    by_hand_folder = by_hand_folder.set_index("hand")[columns]
    pd.testing.assert_frame_equal(by_hand_file.sort_index(), by_hand_folder.sort_index())
    assert len(by_hand_file) > 0


def test_compressed_phhs_reads_like_the_plain_file(tmp_path: Path) -> None:
    text = (PHH / "pluribus-31.phhs").read_bytes()
    (tmp_path / "a.phhs.gz").write_bytes(gzip.compress(text))
    (tmp_path / "b.phhs.bz2").write_bytes(bz2.compress(text))
    _, plain, _ = run([PHH / "pluribus-31.phhs"], tmp_path / "plain")
    for name in ("a.phhs.gz", "b.phhs.bz2"):
        _, packed, _ = run([tmp_path / name], tmp_path / name.replace(".", "_"))
        assert packed["winners"].tolist() == plain["winners"].tolist()
        assert packed["hand"].tolist() == plain["hand"].tolist()


def test_famous_hands_with_unknown_cards(tmp_path: Path) -> None:
    famous = sorted(PHH.glob("*.phh"))
    summary, winners, rejects = run(famous, tmp_path)
    # Dwan-Ivey: Antonius's cards are unknown but he folded; Dwan's 7-high straight beats
    # Ivey's five-high straight. No finishing stacks: scored, not checked.
    hand = tomllib.loads((PHH / "dwan-ivey-2009.phh").read_text())
    replayed = replay(hand)
    assert replayed["live"] == [0, 2]
    assert showdown_winners(replayed) == "3"
    every = winners
    winners = every[every["file"].map(lambda f: Path(f).name) == "dwan-ivey-2009.phh"]
    assert winners["winners"].tolist() == ["3"]
    assert winners[["p1_player", "p2_player", "p3_player"]].values.tolist() == [
        ["Phil Ivey", "Patrik Antonius", "Tom Dwan"]]
    assert (winners[[f"p{seat}_player" for seat in range(4, 11)]] == "").all().all()
    assert winners["p2_key"].tolist() == [""]
    assert winners["expected"].tolist() == [""]
    # No famous hand records its result (Antonius-Blom and Xuan-Phua neither).
    assert summary["expected"]["not_checked_no_recorded_result"] == len(every)
    # Badugi and triple draw are not games pokerpipe scores: rejected with the variant named.
    # Pot-limit Omaha and short-deck are read (tests/test_phh_games.py).
    reasons = dict(zip(rejects["source"].map(lambda s: Path(s).name), rejects["reason"]))
    for name in ("alice-carol-wikipedia.phh", "arieh-yockey-2019.phh"):
        variant = tomllib.loads((PHH / name).read_text())["variant"]
        assert f"variant '{variant}' is not a game pokerpipe scores (NT, FT, NS, PO or FO/8)" in reasons[name]
    for name in ("antonius-blom-2009.phh", "phua-xuan-2019.phh"):
        assert "variant" not in reasons.get(name, "")
    assert summary["rows_read"] == 5 == summary["rows_scored"] + summary["rows_rejected"]


def test_unknown_cards_of_a_live_player_are_counted_apart(tmp_path: Path) -> None:
    text = (PHH / "dwan-ivey-2009.phh").read_text()
    (tmp_path / "hidden.phh").write_text(text.replace('"p3 sm 7h6h",', "").replace("7h6h", "????"))
    summary, winners, rejects = run([tmp_path / "hidden.phh"], tmp_path / "out")
    assert summary["rows_unknown_cards"] == 1
    assert summary["rows_scored"] == 0 and summary["rows_rejected"] == 0 and rejects.empty


def test_mixed_game_final_table(tmp_path: Path) -> None:
    folder = PHH / "wsop" / "2023-43-day5"
    summary, winners, rejects = run([folder], tmp_path)
    hands = {path: tomllib.loads(path.read_text()) for path in folder.glob("*.phh")}
    holdem = {p: h for p, h in hands.items() if h["variant"] in ("NT", "FT")}
    # Stud, razz, draw and badugi are rejected for their variant; Omaha and Omaha hi-lo are read
    # (their showdowns are their games': tests/test_phh_games.py), hold'em is scored here.
    read = {p for p, h in hands.items() if h["variant"] in phh.VARIANTS}
    assert {h["variant"] for p, h in hands.items() if p in read} == {"NT", "FT", "PO", "FO/8"}
    by_variant = {Path(source): reason for reason, source in zip(rejects["reason"], rejects["source"])
                  if "is not a game pokerpipe scores" in reason}
    assert set(by_variant) == set(hands) - read
    for path, reason in by_variant.items():
        assert reason == f"hand {hands[path]['hand']}: variant '{hands[path]['variant']}' is not a game " \
                         f"pokerpipe scores (NT, FT, NS, PO or FO/8)"
    assert not {Path(source) for source in rejects["source"]} & set(holdem)
    expected = {}
    for path, hand in holdem.items():
        replayed = replay(hand)
        if not replayed["showdown"] or not replayed["live"]:  # one left after a muck still counts
            continue
        if any("?" in replayed["cards"][p] for p in replayed["live"]) or len(replayed["board"]) != 5:
            continue
        expected[path.name] = (showdown_winners(replayed), recorded_winners(hand, replayed) or "")
    rows = zip(winners["file"], winners["winners"], winners["expected"], winners["variant"])
    got = {Path(f).name: (w, e) for f, w, e, v in rows if v in ("NT", "FT")}
    assert got == expected
    assert set(winners["variant"]) <= {"NT", "FT", "PO", "FO/8"}
    assert summary["expected"]["mismatched"] == 0
    assert summary["rows_read"] == len(hands)


def malformed(kind: str, actions: list[str]) -> tuple[str, str, str]:
    """(text to replace, replacement, words the reason must hold) for one kind of damage."""
    p1, p2 = actions[0], actions[1]  # d dh p1 XxYy, d dh p2 XxYy
    fold = next(a for a in actions if a.endswith(" f"))
    if kind == "bad TOML":
        return "actions = [", "actions = ['d dh p1 AcKd'\nactions = [", "bad TOML"
    if kind == "unknown card":
        return f"'{p1}'", f"'{p1[:-1]}z'", f"unknown card '{p1[-2]}z'"
    if kind == "card dealt twice":
        return f"'{p2}'", f"'{p2[:-4]}{p1[-4:-2]}{p2[-2:]}'", f"card {p1[-4:-2]} is dealt twice"
    if kind == "unseated player":
        return f"'{fold}'", "'p7 f'", "player 7 is not seated (6 players)"
    return f"'{fold}'", f"'{fold[:-1]}xx'", "not an action pokerpipe reads (dh, db, cbr, cc, f, sm)"


MALFORMED = ("bad TOML", "unknown card", "card dealt twice", "unseated player", "unknown action")


@pytest.mark.parametrize("kind", MALFORMED)
def test_malformed_hands_are_rejected_with_file_hand_and_reason(kind: str, tmp_path: Path) -> None:
    text = (PHH / "pluribus-31.phhs").read_text()
    blocks = text.split("\n[")
    spoiled = 5  # the table [6]
    actions = tomllib.loads("[" + blocks[spoiled])["6"]["actions"]
    old, new, reason = malformed(kind, actions)
    assert old in blocks[spoiled]
    blocks[spoiled] = blocks[spoiled].replace(old, new, 1)
    path = tmp_path / "spoiled.phhs"
    path.write_text("\n[".join(blocks))
    summary, winners, rejects = run([path], tmp_path / "out")
    assert len(rejects) == 1
    row = rejects.iloc[0]
    assert row["source"] == str(path)
    assert row["source_row"] == "6"
    assert row["reason"].startswith("hand 6: ")
    assert reason in row["reason"]
    assert int(row["line"]) == text[:text.index("\n[6]")].count("\n") + 2
    _, clean, _ = run([PHH / "pluribus-31.phhs"], tmp_path / "clean")
    assert winners["hand"].tolist() == [h for h in clean["hand"] if h != "6"]
    assert summary["rows_read"] == 73


def test_accounting_identity_and_carried_columns(tmp_path: Path) -> None:
    summary, winners, rejects = run([PHH], tmp_path)
    # One hand per .phh file, one per table of a .phhs file.
    hands = len(list(PHH.rglob("*.phh"))) + sum(len(tomllib.loads(path.read_text()))
                                                 for path in PHH.rglob("*.phhs"))
    assert summary["rows_read"] == hands
    assert summary["rows_read"] == (summary["rows_scored"] + summary["rows_without_showdown"]
                                    + summary["rows_unknown_cards"] + summary["rows_rejected"])
    assert summary["rows_rejected"] == len(rejects)
    assert sum(i["rows"] for i in summary["inputs"]) == hands
    assert len(winners) == summary["rows_scored"]
    assert list(winners.columns[-17:]) == ["hand_key", "file", "hand", "variant", "table", "stakes", "time",
                                           *(f"p{seat}_player" for seat in range(1, 11))]
    assert winners["hand_key"].is_unique
    # PHH records no table, stakes or time: those columns are there, and empty.
    assert (winners[["table", "stakes", "time"]] == "").all().all()
    assert summary["rows_set_apart"] == 0 and summary["set_apart"] == {}
    assert winners["row"].astype(int).is_monotonic_increasing
    assert summary["expected"]["mismatched"] == 0


def checked_showdown() -> tuple[str, dict, dict]:
    """The text of the first table of pluribus-31.phhs with a checked showdown and one winner."""
    for block in (PHH / "pluribus-31.phhs").read_text().split("\n["):
        block = "[" + block.lstrip("[")
        document = next(iter(tomllib.loads(block).values()))
        replayed = replay(document)
        recorded = recorded_winners(document, replayed) if len(replayed["live"]) >= 2 else None
        if recorded and " " not in recorded:
            return block, document, replayed
    raise AssertionError("no checked showdown in the sample")


def test_a_mismatch_with_the_recorded_chips_fails_the_run(tmp_path: Path) -> None:
    from click.testing import CliRunner

    from pipeline.cli import cli

    hand, document, replayed = checked_showdown()
    stacks = document["finishing_stacks"]
    winner = recorded_winners(document, replayed)
    loser = next(p for p in replayed["live"] if str(p + 1) != winner)
    swapped = list(stacks)
    swapped[int(winner) - 1], swapped[loser] = stacks[loser], stacks[int(winner) - 1]
    path = tmp_path / "one.phhs"
    path.write_text(hand.replace(str(stacks), str(swapped)))
    result = CliRunner().invoke(cli, ["run", str(path), "-o", str(tmp_path / "out"), "-q"])
    assert result.exit_code == 1
    assert "disagree with the winners column" in result.output
    summary = json.loads((tmp_path / "out" / "summary.json").read_text())
    assert summary["expected"]["mismatched"] == 1


def test_odd_syntax_goes_through_tomllib_and_gives_the_same_result(tmp_path: Path) -> None:
    # The multi-line layout of the famous hands, a comment and a key with other spacing.
    hand, _, _ = checked_showdown()
    body = hand.partition("]\n")[2]
    document = tomllib.loads(body)
    odd = body.replace("variant = 'NT'", "variant='NT'  # no-limit")
    odd = odd.replace("actions = [", "actions = [\n  # pre-flop\n ").replace("', '", "',\n  '")
    assert tomllib.loads(odd) == document
    shutil.copy(PHH / "pluribus-31.phhs", tmp_path / "x.phhs")
    (tmp_path / "a.phh").write_text(body)
    (tmp_path / "b.phh").write_text(odd)
    _, plain, _ = run([tmp_path / "a.phh"], tmp_path / "a")
    _, slow, _ = run([tmp_path / "b.phh"], tmp_path / "b")
    assert plain.drop(columns=["file"]).equals(slow.drop(columns=["file"]))
    assert len(plain) == 1


def test_windows_line_ends_and_bad_bytes(tmp_path: Path) -> None:
    text = (PHH / "pluribus-31.phhs").read_bytes()
    (tmp_path / "crlf.phhs").write_bytes(text.replace(b"\n", b"\r\n"))
    _, plain, _ = run([PHH / "pluribus-31.phhs"], tmp_path / "plain")
    _, crlf, _ = run([tmp_path / "crlf.phhs"], tmp_path / "crlf")
    assert crlf.drop(columns=["file"]).equals(plain.drop(columns=["file"]))
    # One bad byte rejects its hand only, named by its line; every other hand reads as before.
    at = text.index(b"Gogo")
    (tmp_path / "bad.phhs").write_bytes(text[:at] + b"G\xffgo" + text[at + 4:])
    line = text[:at].count(b"\n") + 1
    hand = text[:at].count(b"\n[")  + text.startswith(b"[")  # the table the byte is in
    summary, bad, rejects = run([tmp_path / "bad.phhs"], tmp_path / "bad")
    plain_summary, _, _ = run([PHH / "pluribus-31.phhs"], tmp_path / "plain2")
    assert summary["rows_read"] == plain_summary["rows_read"]
    assert rejects["reason"].tolist() == [f"hand {hand}: line {line}: bytes that are not UTF-8 text"]
    assert rejects["row"].tolist() == [str(hand)]
    assert bad.drop(columns=["file"]).equals(
        plain[plain["hand"] != str(hand)].drop(columns=["file"]).reset_index(drop=True))


@pytest.mark.parametrize("chunk_bytes", [64, 1000, 5003])
def test_a_phhs_read_in_small_parts_and_on_two_threads_gives_the_same_outputs(tmp_path: Path, monkeypatch,
                                                                               chunk_bytes: int) -> None:
    # Windows line ends, a byte that is not UTF-8 and a byte-order mark, cut anywhere a part may end.
    text = (PHH / "pluribus-31.phhs").read_bytes()
    at = text.index(b"Gogo")
    odd = (b"\xef\xbb\xbf" + text[:at] + b"G\xffgo" + text[at + 4:]).replace(b"\n", b"\r\n")
    (tmp_path / "odd.phhs").write_bytes(odd)
    whole = Run([str(tmp_path / "odd.phhs")], tmp_path / "whole", threads=1).execute()
    monkeypatch.setattr(phh.files, "CHUNK_BYTES", chunk_bytes)
    parts = Run([str(tmp_path / "odd.phhs")], tmp_path / "parts", threads=2).execute()
    for name in ("winners.csv", "rejects.csv", "categories.csv"):
        assert (tmp_path / "whole" / name).read_bytes() == (tmp_path / "parts" / name).read_bytes(), name
    assert whole["rows_read"] == parts["rows_read"] == text.count(b"\n[") + text.startswith(b"[")
    assert parts["rows_rejected"] == 1


def test_a_reason_from_toml_does_not_depend_on_the_batch_size(tmp_path: Path) -> None:
    # A hand's key written again as its last line: TOML places the fault by the hand's text,
    # whether the hand ends its group or not.
    text = (PHH / "pluribus-31.phhs").read_text()
    headers = [at + 1 for at in range(len(text)) if text.startswith("\n[", at)]
    for at in reversed(headers[:2] + headers[-1:]):
        text = text[:at] + "min_bet = 100\n" + text[at:]  # the hands have min_bet
    (tmp_path / "twice.phhs").write_text(text)
    outputs = set()
    for batch_rows in (1, 2, 7, 1000):
        out = tmp_path / f"out-{batch_rows}"
        summary = Run([str(tmp_path / "twice.phhs")], out, batch_rows=batch_rows, threads=1).execute()
        assert summary["rows_rejected"] == 3
        outputs.add((out / "rejects.csv").read_bytes())
    (rejects,) = outputs
    assert rejects.count(b"Cannot overwrite a value (at line") == 3


@pytest.mark.parametrize("notes", [
    "notes = '''\nplayed late\n[9]\n  [10]\n" + "x" * 3000 + "\n'''",
    'notes = """\n[Level 3]\n' + "y" * 3000 + '\n"""',
    "notes = '''\n[9]\nnever closed",
])
@pytest.mark.parametrize("chunk_bytes", [64, 1000, 5003])
def test_a_multi_line_string_across_parts_gives_what_the_whole_file_gives(
        tmp_path: Path, monkeypatch, notes: str, chunk_bytes: int) -> None:
    # Whether a header-like line after a part's last delimiter is a header is known only once
    # the string closes, or the file ends without closing it.
    text = (PHH / "pluribus-31.phhs").read_text()
    third = text.index("\n[4]")
    (tmp_path / "notes.phhs").write_text(text[:third] + "\n" + notes + text[third:])
    whole = Run([str(tmp_path / "notes.phhs")], tmp_path / "whole", threads=1).execute()
    monkeypatch.setattr(phh.files, "CHUNK_BYTES", chunk_bytes)
    parts = Run([str(tmp_path / "notes.phhs")], tmp_path / "parts", threads=1).execute()
    for name in ("winners.csv", "rejects.csv", "categories.csv"):
        assert (tmp_path / "whole" / name).read_bytes() == (tmp_path / "parts" / name).read_bytes(), name
    assert parts["rows_read"] == whole["rows_read"]


def test_one_hand_files_read_together_give_what_they_give_one_by_one(tmp_path: Path, monkeypatch) -> None:
    from pipeline.formats import readers

    folder = tmp_path / "hands"
    folder.mkdir()
    files = sorted((PHH / "pluribus").rglob("*.phh"))[:40] + sorted((PHH / "wsop").rglob("*.phh"))[:30]
    for number, path in enumerate(files):
        shutil.copy(path, folder / f"{number:03d}.phh")
    # One bad byte, a byte-order mark and Windows line ends in single files.
    first = (folder / "000.phh").read_bytes()
    (folder / "000.phh").write_bytes(first.replace(b"variant", b"v\xffriant", 1))
    (folder / "001.phh").write_bytes(b"\xef\xbb\xbf" + (folder / "001.phh").read_bytes())
    (folder / "002.phh").write_bytes((folder / "002.phh").read_bytes().replace(b"\n", b"\r\n"))
    together = Run([str(folder)], tmp_path / "together").execute()
    monkeypatch.setattr(readers, "GROUP_FILES", 1)  # each file a pass of its own, as before grouping
    alone = Run([str(folder)], tmp_path / "alone").execute()
    for name in ("winners.csv", "rejects.csv", "categories.csv", "ties.csv"):
        assert (tmp_path / "together" / name).read_bytes() == (tmp_path / "alone" / name).read_bytes(), name
    assert len(together["inputs"]) == 1 and len(together["inputs"][0]["files"]) == len(files)
    assert len(alone["inputs"]) == len(files)
    rejects = pd.read_csv(tmp_path / "together" / "rejects.csv", dtype=str, keep_default_na=False)
    bad = rejects[rejects["source"].str.endswith("000.phh")]
    assert bad["source_row"].tolist() == ["1"] and "line 1: bytes that are not UTF-8" in bad["reason"].iloc[0]
    assert together["rows_read"] == alone["rows_read"] == len(files)


def test_a_reading_stopped_early_leaves_no_thread_reading(tmp_path: Path, monkeypatch) -> None:
    # The parts are read ahead on a thread: closing the reading after its first group (as an
    # error elsewhere in a run does) stops that thread, and the file is not read after.
    monkeypatch.setattr(phh.files, "CHUNK_BYTES", 1000)
    path = tmp_path / "many.phhs"
    path.write_bytes((PHH / "pluribus-31.phhs").read_bytes() * 4)
    groups = phh.read_hands(open_source(path), batch_rows=2)
    next(groups)
    groups.close()
    assert not [thread for thread in threading.enumerate() if thread.name == "pokerpipe-read-ahead"]


def test_a_parts_groups_are_even_and_a_larger_files_first_and_last_parts_are_cut_in_two(
        tmp_path: Path, monkeypatch) -> None:
    # Two threads start together on the first part and end together on the last.
    text = (PHH / "pluribus-31.phhs").read_bytes() * 4
    hands = text.count(b"\n[") + text.startswith(b"[")
    path = tmp_path / "four.phhs"
    path.write_bytes(text)

    def sizes(batch_rows: int) -> list[int]:
        return [group.last_ordinal - group.first_ordinal + 1
                for group in phh._hand_texts(open_source(path), batch_rows=batch_rows)]

    assert sizes(1000) == [hands]  # read in one part: one group
    monkeypatch.setattr(phh.files, "FIRST_PART_BYTES", 3000)  # a first part of a few hands, then the rest
    groups = sizes(1000)
    assert len(groups) == 4 and sum(groups) == hands
    assert abs(groups[0] - groups[1]) <= 1 and abs(groups[2] - groups[3]) <= 1
    rest = sizes(50)[2:]  # the last part in groups of at most 50, of even sizes
    assert sum(rest) == groups[2] + groups[3] and max(rest) <= 50 and max(rest) - min(rest) <= 1


@pytest.mark.parametrize("chunk_bytes", [1000, 1 << 24])
def test_each_group_carries_the_line_ends_of_its_own_text(tmp_path: Path, monkeypatch,
                                                           chunk_bytes: int) -> None:
    # The reading thread hands each group the line ends it found in the part, cleaned or not.
    text = (PHH / "pluribus-31.phhs").read_bytes()
    at = text.index(b"Gogo")
    (tmp_path / "odd.phhs").write_bytes((text[:at] + b"G\xffgo" + text[at + 4:]).replace(b"\n", b"\r\n"))
    (tmp_path / "plain.phhs").write_bytes(text)
    monkeypatch.setattr(phh.files, "CHUNK_BYTES", chunk_bytes)
    for name in ("odd.phhs", "plain.phhs"):
        groups = list(phh._hand_texts(open_source(tmp_path / name), batch_rows=5))
        assert len(groups) > 1
        for group in groups:
            data = np.frombuffer(group.text, dtype=np.uint8)
            assert group.newlines is not None
            np.testing.assert_array_equal(group.newlines, np.flatnonzero(data == ord("\n")))
