"""PHH as the specification writes it: every spelling of an action, every layout of a file.

The specification (uoftcprg/phh-std, "Actions" and "Card Notation") lets an
action be written in several ways: words separated by several whitespace
characters, blanks around the action, no-op actions (an empty string, blanks,
a standalone ``# commentary``), a commentary after any action, ``pN sm -`` for
hole cards already dealt, and the arrays may span lines as TOML allows.  Each
spelling is applied to every bundled Pluribus hand; the rewritten archive must
name the same winners and check the same records as the rules do on the
original hand (the plain-Python reference of ``tests/test_phh.py``).

A file's layout must not lose a hand either: a ``.phhs`` without table
headers, a byte-order mark, keys before the first header, an indented header,
a byte that is not UTF-8 in one hand.  And a hand that cannot have happened
is rejected with its reason, never scored.
"""

from __future__ import annotations

import gzip
import tomllib
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import pytest

from pipeline.formats import phh, scan
from pipeline.formats.readers import open_source

from .conftest import PhhHand, PhhRun, phhs_text, run_phh, toml_text
from .test_phh import recorded_winners, replay, showdown_winners


def rules_outcome(document: dict[str, Any]) -> tuple[str, str] | None:
    """(winners, expected) of a hand by the rules, None when it has no showdown.

    ``expected`` is the recorded winners where the record checks the
    showdown, "" where it cannot (side pots, no result).
    """
    replayed = replay(document)
    if not replayed["showdown"]:
        return None
    return showdown_winners(replayed), recorded_winners(document, replayed) or ""


def rules_by_table(hands: tuple[PhhHand, ...]) -> dict[str, tuple[str, str]]:
    """The outcome of every showdown by its table key in an archive of ``hands`` as [1], [2], ..."""
    outcomes = {str(number): rules_outcome(hand.document) for number, hand in enumerate(hands, start=1)}
    return {key: outcome for key, outcome in outcomes.items() if outcome is not None}


def showdown_hands(pluribus: tuple[PhhHand, ...], count: int) -> list[PhhHand]:
    """The first ``count`` hands where two players or more show down and the record checks one winner."""
    found = [hand for hand in pluribus if (outcome := rules_outcome(hand.document)) and outcome[1]
             and " " not in outcome[1] and len(replay(hand.document)["live"]) >= 2]
    assert len(found) >= count
    return found[:count]


#: summary.json counts that a spelling must not change.
COUNTS = ("rows_read", "rows_scored", "rows_without_showdown", "rows_unknown_cards", "rows_set_apart",
          "rows_rejected", "mucked")
AUDIT = ("checked", "mismatched", "not_checked_inconsistent_record", "not_checked_unknown_stacks",
         "not_checked_side_pots", "not_checked_no_recorded_result")


def counts(summary: dict[str, Any]) -> dict[str, Any]:
    return {**{name: summary[name] for name in COUNTS}, **{name: summary["expected"][name] for name in AUDIT}}


@pytest.fixture(scope="module")
def original(pluribus: tuple[PhhHand, ...], tmp_path_factory: pytest.TempPathFactory) -> PhhRun:
    """The Pluribus hands as written, the tables of one .phhs archive, run once."""
    folder = tmp_path_factory.mktemp("original")
    path = folder / "original.phhs"
    path.write_text(phhs_text(hand.text for hand in pluribus))
    return run_phh([path], folder / "out")


def test_the_original_archive_names_the_winners_of_the_rules(pluribus, original: PhhRun) -> None:
    expected = rules_by_table(pluribus)
    assert original.by_hand() == expected
    # Every hole card of the Pluribus hands is known and every record is a result: each showdown
    # is scored, and checked unless its players bet unequal amounts.
    assert original.summary["rows_read"] == 224 and original.summary["rows_rejected"] == 0
    checked = sum(recorded != "" for _, recorded in expected.values())
    assert original.summary["expected"]["checked"] == checked > 30
    assert original.summary["expected"]["mismatched"] == 0


# --- the spellings of an action ---------------------------------------------------------------

GAPS = ("  ", "   ", " \t ", "\t")  # several whitespace characters between words, as the spec allows


def several_blanks(actions: list[str]) -> list[str]:
    return [GAPS[i % len(GAPS)].join(action.split(" ")) for i, action in enumerate(actions)]


def blanks_around(actions: list[str]) -> list[str]:
    lead, trail = (" ", "  ", "\t", "   "), ("   ", "", " ", "\t ")
    return [lead[i % 4] + action + trail[i % 4] for i, action in enumerate(actions)]


def no_ops(actions: list[str]) -> list[str]:
    """Empty, blank and commentary-only actions around and between the others."""
    out = ["", "# hole cards, p2 f would be an action outside a commentary"]
    for action in actions:
        if action.startswith("d db"):
            out += ["   ", "\t", "  # a board deal follows: d db AsKsQs"]
        out.append(action)
    return out + ["", "# the end"]


def commentaries(actions: list[str]) -> list[str]:
    """A commentary after every action; some hold words that read as actions or cards."""
    notes = ("snap", "p9 cbr 100000", "sm AhAd", "#", "d db 2c", " 3 bb ")
    return [f"{action} # {notes[i % len(notes)]}" for i, action in enumerate(actions)]


def shows_dealt(actions: list[str]) -> list[str]:
    """``pN sm -`` for every show of the cards dealt to pN: those cards are already known."""
    dealt = {a.split()[2]: a.split()[3] for a in actions if a.startswith("d dh ")}
    out = []
    for action in actions:
        words = action.split()
        shown = words[2] if words[1:2] == ["sm"] and len(words) == 3 else None
        if shown is not None and sorted_cards(shown) == sorted_cards(dealt[words[0]]):
            out.append(f"{words[0]} sm -")
        else:
            out.append(action)
    return out


def sorted_cards(text: str) -> list[str]:
    return sorted(text[i:i + 2] for i in range(0, len(text), 2))


def everything(actions: list[str]) -> list[str]:
    return commentaries(blanks_around(several_blanks(no_ops(shows_dealt(actions)))))


SPELLINGS = {
    "several blanks between words": several_blanks,
    "blanks around the action": blanks_around,
    "no-op actions": no_ops,
    "a commentary after each action": commentaries,
    "sm - for cards dealt": shows_dealt,
    "multi-line arrays": None,  # the actions as written, the arrays one item a line
    "all of them": everything,
}
MULTILINE = ("actions", "starting_stacks", "finishing_stacks", "players", "antes")


def rewritten(hand: PhhHand, spelling: str) -> str:
    rewrite = SPELLINGS[spelling]
    document = dict(hand.document)
    if rewrite is not None:
        document["actions"] = rewrite(document["actions"])
    multiline = MULTILINE if spelling in ("multi-line arrays", "all of them") else ()
    text = toml_text(document, multiline=multiline)
    # TOML reads back what was written: the rewrite changed the actions' spelling only.
    assert tomllib.loads(text) == document
    return text


@pytest.mark.parametrize("spelling", SPELLINGS)
def test_each_spelling_of_the_actions_gives_the_same_winners(spelling: str, pluribus, original: PhhRun,
                                                             tmp_path: Path) -> None:
    texts = [rewritten(hand, spelling) for hand in pluribus]
    changed = sum(text.partition("actions = ")[2] != hand.text.partition("actions = ")[2]
                  for text, hand in zip(texts, pluribus, strict=True))
    assert changed == len(pluribus) or spelling == "sm - for cards dealt"
    if spelling == "sm - for cards dealt":
        shows = sum(len(a.split()) == 3 for hand in pluribus for a in hand.document["actions"] if " sm " in a)
        assert sum(text.count(" sm -'") for text in texts) == shows == 64  # every show (16 more muck)
    path = tmp_path / "rewritten.phhs"
    path.write_text(phhs_text(texts))
    run = run_phh([path], tmp_path / "out")
    assert run.by_hand() == rules_by_table(pluribus)
    assert counts(run.summary) == counts(original.summary)
    pd.testing.assert_frame_equal(run.winners.drop(columns="file"), original.winners.drop(columns="file"))
    assert run.rejects.empty


def test_an_action_of_a_hand_written_by_the_spec_reads_as_its_tidy_twin(tmp_path: Path) -> None:
    # One hand, written by hand: the widest spacing, tabs, commentaries, no-ops and 'sm -'.
    # p1 AsAh and p2 KsKh see a board 2c 3d 7h 8s Jc; p3 folds.  Blinds 5/10: p3 raises to 30,
    # p1 and p2 call, p3 folds to p1's flop bet of 40 which p2 calls; checks on the turn and
    # river.  p1 and p2 put in 70 each, p3 30: p1's aces take the pot of 170.
    body = """variant = 'NT'
antes = [0, 0, 0]
blinds_or_straddles = [5, 10, 0]
min_bet = 10
starting_stacks = [1000, 1000, 1000]
actions = [{actions}]
finishing_stacks = [1100, 930, 970]
"""
    tidy = ["d dh p1 AsAh", "d dh p2 KsKh", "d dh p3 QsQh", "p3 cbr 30", "p1 cc", "p2 cc",
            "d db 2c3d7h", "p1 cbr 40", "p2 cc", "p3 f", "d db 8s", "p1 cc", "p2 cc", "d db Jc", "p1 cc",
            "p2 cc", "p1 sm AsAh", "p2 sm KsKh"]
    odd = ["", "# hole cards", "d  dh\tp1   AsAh # aces", "  d dh p2 KsKh  ", "\td dh p3 QsQh",
           "p3 cbr 30 # 3 bb", "   ", "p1 cc", "p2  cc # p2 f was better", "d db   2c3d7h", "p1 cbr\t40",
           "p2 cc", "p3 f # snap", "# turn", "d db 8s", "p1 cc", "p2 cc", "d db Jc", "p1 cc", "p2 cc",
           "p1 sm -", "p2 sm - # kings", "# the end"]
    tidy_path, odd_path = tmp_path / "tidy.phh", tmp_path / "odd.phh"
    tidy_path.write_text(body.format(actions=", ".join(f"'{a}'" for a in tidy)))
    odd_path.write_text(body.format(actions=", ".join(f"'{a}'" for a in odd)))
    tidy_run, odd_run = run_phh([tidy_path], tmp_path / "tidy"), run_phh([odd_path], tmp_path / "odd")
    for run in (tidy_run, odd_run):
        assert run.winners["winners"].tolist() == ["1"]
        assert run.winners["expected"].tolist() == ["1"]
        assert run.winners["p1_key"].tolist() != [""] and run.winners["p2_key"].tolist() != [""]
        assert run.winners["p3_key"].tolist() == [""]
        assert run.summary["expected"]["checked"] == 1 and run.rejects.empty
    pd.testing.assert_frame_equal(odd_run.winners.drop(columns="file"), tidy_run.winners.drop(columns="file"))
    # The replay puts in the same chips: 70, 70 and p3's 30.
    for path in (tidy_path, odd_path):
        (hands,) = list(phh.read_hands(open_source(path)))
        assert phh.replay(hands).contributed[0, :3].tolist() == [70, 70, 30]


# --- unknown stacks ---------------------------------------------------------------------------

def received(document: dict[str, Any]) -> list[float]:
    """What each player received from the pot by the rules: finishing - starting + contributed."""
    contributed = replay(document)["contributed"]
    return [f - s + c for f, s, c in zip(document["finishing_stacks"], document["starting_stacks"],
                                          contributed, strict=True)]


def unknown_stacks(document: dict[str, Any], *, seats: str, winnings: bool) -> dict[str, Any]:
    """The hand with its starting stacks unknown (``inf``), its record as winnings or as the
    finishing stacks (which an unknown stack makes useless)."""
    stacks = list(document["starting_stacks"])
    for seat in range(len(stacks)) if seats == "all" else [len(stacks) - 1]:
        stacks[seat] = float("inf")
    changed = {**document, "starting_stacks": stacks}
    if winnings:
        del changed["finishing_stacks"]
        changed["winnings"] = received(document)
    return changed


@pytest.mark.parametrize("seats", ["all", "one"])
def test_unknown_stacks_are_checked_through_winnings(seats: str, pluribus, original: PhhRun,
                                                     tmp_path: Path) -> None:
    # The Pluribus stacks are all 10,000: no cap ever binds, so an unknown stack changes no
    # contribution, and winnings (what each player received) check the same showdowns.
    assert {s for hand in pluribus for s in hand.document["starting_stacks"]} == {10000}
    documents = [unknown_stacks(hand.document, seats=seats, winnings=True) for hand in pluribus]
    texts = [toml_text(document) for document in documents]
    assert all("inf" in text for text in texts)
    path = tmp_path / "inf.phhs"
    path.write_text(phhs_text(texts))
    run = run_phh([path], tmp_path / "out")
    assert run.by_hand() == rules_by_table(pluribus)
    assert counts(run.summary) == counts(original.summary)
    # Checked, not merely read: winnings that pay the loser make a mismatch.
    hand = showdown_hands(pluribus, 1)[0]
    showdown = pluribus.index(hand)
    winner = int(rules_outcome(hand.document)[1]) - 1
    loser = next(p for p in replay(hand.document)["live"] if p != winner)
    paid = list(documents[showdown]["winnings"])
    paid[winner], paid[loser] = paid[loser], paid[winner]
    texts[showdown] = toml_text({**documents[showdown], "winnings": paid})
    path.write_text(phhs_text(texts))
    wrong = run_phh([path], tmp_path / "wrong")
    assert wrong.summary["expected"]["mismatched"] == 1
    assert wrong.summary["expected"]["checked"] == original.summary["expected"]["checked"]


@pytest.mark.parametrize("seats", ["all", "one"])
def test_unknown_stacks_without_winnings_are_counted_not_checked(seats: str, pluribus, original: PhhRun,
                                                                 tmp_path: Path) -> None:
    texts = [toml_text(unknown_stacks(hand.document, seats=seats, winnings=False)) for hand in pluribus]
    path = tmp_path / "inf.phhs"
    path.write_text(phhs_text(texts))
    run = run_phh([path], tmp_path / "out")
    showdowns = rules_by_table(pluribus)
    # The same winners, none of them checked: finishing stacks tell nothing of an unknown stack.
    assert run.by_hand() == {key: (won, "") for key, (won, _) in showdowns.items()}
    expected = run.summary["expected"]
    assert expected["not_checked_unknown_stacks"] == len(showdowns)
    assert expected["checked"] == expected["mismatched"] == expected["not_checked_inconsistent_record"] == 0
    assert run.summary["rows_scored"] == original.summary["rows_scored"]


# --- the two readers: the strict fast path and tomllib -------------------------------------------

def read_and_replay(path: Path) -> tuple[phh.Hands, phh.Replay]:
    (hands,) = list(phh.read_hands(open_source(path)))
    return hands, phh.replay(hands)


@pytest.mark.parametrize("layout", ["multi-line arrays", "a comment after a value"])
def test_the_fast_path_and_tomllib_read_every_hand_alike(layout: str, pluribus, tmp_path: Path,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[str] = []
    slow_hand = phh._slow_hand

    def spy(text: str, multi: bool) -> dict[str, Any]:
        calls.append(text)
        return slow_hand(text, multi)

    monkeypatch.setattr(phh.toml, "slow_hand", spy)
    plain, odd = tmp_path / "plain.phhs", tmp_path / "odd.phhs"
    plain.write_text(phhs_text(hand.text for hand in pluribus))
    if layout == "multi-line arrays":
        odd.write_text(phhs_text(toml_text(hand.document, multiline=MULTILINE) for hand in pluribus))
    else:
        odd.write_text(phhs_text(hand.text.replace("variant = 'NT'", "variant = 'NT'  # no-limit", 1)
                                 for hand in pluribus))
    assert tomllib.loads(odd.read_text()) == tomllib.loads(plain.read_text())
    fast_hands, fast = read_and_replay(plain)
    assert calls == []  # pokerkit's own layout: the fast path reads every hand
    slow_hands, slow = read_and_replay(odd)
    assert len(calls) == len(pluribus)  # and tomllib every hand of the other layout
    assert fast_hands.ordinal.tolist() == slow_hands.ordinal.tolist() == list(range(1, 225))
    assert fast_hands.key.to_pylist() == slow_hands.key.to_pylist()
    assert fast_hands.players.to_pylist() == slow_hands.players.to_pylist()
    assert {name: column.to_pylist() for name, column in fast_hands.fields.items()} == \
        {name: column.to_pylist() for name, column in slow_hands.fields.items()}
    assert fast_hands.table_key.to_pylist() == slow_hands.table_key.to_pylist()
    for name in ("board", "holes", "live", "contributed", "received", "recorded", "side_pot", "scored",
                 "expected"):
        np.testing.assert_array_equal(getattr(fast, name), getattr(slow, name), err_msg=name)
    assert fast.rejections.problem.tolist() == slow.rejections.problem.tolist()
    assert fast.counts == slow.counts


#: Spellings of a list of numbers or strings, each valid TOML: the fast path reads the plain ones
#: (pokerkit's layout) from the bytes and the others with its pattern and kernels; tomllib must agree.
LIST_SPELLINGS = {
    "antes": ["[0, 0, 0, 0, 0, 0]", "[0,0,0,0,0,0]", "[ 0 , 0 ,0, 0, 0, 0 ]", "[0, 0, 0, 0, 0, 0,]",
              "[1.5, 0.25, 0, 0, 0, 0]", "[-0, 0, 0, 0, 0, 0]", "[]", "[ ]", "[7]"],
    "starting_stacks": ["[10000, 10000, 10000, 10000, 10000, 10000]",
                        "[12345678, 99999999, 123456789, 1, 20, 300]",
                        "[10000, 10000, 10000, 10000, 10000, 9007199254740993]",
                        "[10000, 10000, 10000, 10000, 10000, 0.1]",
                        "[10000, 10000, 10000, 10000, 10000, -5]"],
    "players": ["['a', 'b', 'c', 'd', 'e', 'f']", '["a", "b", "c", "d", "e", "f"]', "['a', \"b\"]",
                "['a','b', 'c' , 'd', 'e', 'f']", "['a b', 'c, d', 'e]', '[f', 'g', 'h']"],
}
#: Spellings the fast path leaves to tomllib: not TOML, or outside its subset.
SLOW_SPELLINGS = {
    "antes": ["[01, 0, 0, 0, 0, 0]", "[1e5, 0, 0, 0, 0, 0]", "[+1, 0, 0, 0, 0, 0]", "[.5, 0, 0, 0, 0, 0]",
              "[,]", "[1,, 2]", "[0, 0] ", "['0', 0]", "[0, 0"],
    "players": ["['a', '']", "['a', 'b\\c']", "['a' 'b']"],
    # Lists under the keys read as text: the fast path checks them as TOML lists too.
    "hand": ["[1, 2", "[1 2]"],
    "venue": ["['a', 'b'", "[,]"],
}


def one_table(hand: PhhHand, name: str, value: str) -> str:
    """The hand as one table, with ``name = value`` in place of its own line or, without one, added."""
    lines = [f"{name} = {value}" if line.startswith(f"{name} = ") else line
             for line in hand.text.splitlines()]
    if not any(line.startswith(f"{name} = ") for line in lines):
        lines.append(f"{name} = {value}")
    return phhs_text(["\n".join(lines)])


@pytest.mark.parametrize(("name", "value"), [(name, value) for name, values in LIST_SPELLINGS.items()
                                             for value in values])
def test_the_fast_path_reads_each_spelling_of_a_list_as_tomllib_does(name: str, value: str, pluribus,
                                                                     tmp_path: Path,
                                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    text = one_table(pluribus[0], name, value)
    calls: list[str] = []
    monkeypatch.setattr(phh.toml, "slow_hand", lambda text, multi: calls.append(text) or {})
    path = tmp_path / "one.phhs"
    path.write_text(text)
    (fast,) = list(phh.read_hands(open_source(path)))
    assert calls == []
    document = tomllib.loads(text)["1"]
    if name == "players":
        assert fast.players.to_pylist() == [document["players"]]  # names holding ", " kept whole
    else:
        values, lengths = fast.numbers[name]
        assert lengths.tolist() == [len(document[name])]
        assert values.tolist() == [float(x) for x in document[name]]  # -0 reads as -0.0, equal to 0.0


@pytest.mark.parametrize(("name", "value"), [(name, value) for name, values in SLOW_SPELLINGS.items()
                                             for value in values])
def test_a_list_outside_the_fast_subset_goes_to_tomllib(name: str, value: str, pluribus, tmp_path: Path,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[str] = []
    slow_hand = phh._slow_hand
    monkeypatch.setattr(phh.toml, "slow_hand",
                        lambda text, multi: calls.append(text) or slow_hand(text, multi))
    path = tmp_path / "one.phhs"
    path.write_text(one_table(pluribus[0], name, value))
    list(phh.read_hands(open_source(path)))
    assert len(calls) == 1


# --- no hand vanishes -------------------------------------------------------------------------



def test_a_phhs_without_headers_is_one_hand(pluribus, tmp_path: Path) -> None:
    (hand,) = showdown_hands(pluribus, 1)
    winners, _ = rules_outcome(hand.document)
    (tmp_path / "one.phhs").write_text(hand.text)
    assert not any(isinstance(v, dict) for v in tomllib.loads(hand.text).values())  # no table
    run = run_phh([tmp_path / "one.phhs"], tmp_path / "out")
    assert run.summary["rows_read"] == run.summary["rows_scored"] == 1
    assert run.winners["winners"].tolist() == [winners]
    assert run.winners["expected"].tolist() == [winners]
    assert run.winners["row"].tolist() == ["1"]


@pytest.mark.parametrize("suffix", [".phhs", ".phh"])
def test_a_byte_order_mark_is_not_part_of_the_first_hand(suffix: str, pluribus, original: PhhRun,
                                                         tmp_path: Path) -> None:
    if suffix == ".phhs":
        text = phhs_text(hand.text for hand in pluribus)
        expected = original.by_hand()
    else:
        (hand,) = showdown_hands(pluribus, 1)
        text, expected = hand.text, {str(hand.document["hand"]): rules_outcome(hand.document)}
    path = tmp_path / f"bom{suffix}"
    path.write_bytes(b"\xef\xbb\xbf" + text.encode())
    run = run_phh([path], tmp_path / "out")
    assert run.rejects.empty
    assert run.summary["rows_read"] == (224 if suffix == ".phhs" else 1)
    assert run.by_hand() == expected


def test_keys_before_the_first_header_are_a_hand(pluribus, tmp_path: Path) -> None:
    first, second, third = showdown_hands(pluribus, 3)
    text = first.text.rstrip() + "\n\n[2]\n" + second.text.rstrip() + "\n\n[3]\n" + third.text
    document = tomllib.loads(text)
    # TOML reads the leading keys apart from the tables [2] and [3]: three hands.
    assert sorted(k for k, v in document.items() if isinstance(v, dict)) == ["2", "3"]
    assert document["actions"] == first.document["actions"]
    path = tmp_path / "head.phhs"
    path.write_text(text)
    run = run_phh([path], tmp_path / "out")
    assert run.summary["rows_read"] == run.summary["rows_scored"] == 3
    assert run.winners["row"].tolist() == ["1", "2", "3"]
    assert run.winners["hand"].tolist()[1:] == ["2", "3"]
    assert run.winners["winners"].tolist() == [rules_outcome(h.document)[0] for h in (first, second, third)]


@pytest.mark.parametrize("header", ["  [2]", "\t[2]", "  [ 2 ]  # the second hand"])
def test_an_indented_header_starts_a_hand(header: str, pluribus, tmp_path: Path) -> None:
    first, second, third = showdown_hands(pluribus, 3)
    text = f"[1]\n{first.text.rstrip()}\n\n{header}\n{second.text.rstrip()}\n\n[3]\n{third.text}"
    document = tomllib.loads(text)
    assert sorted(document) == ["1", "2", "3"]
    assert document["2"]["actions"] == second.document["actions"]
    path = tmp_path / "indented.phhs"
    path.write_text(text)
    run = run_phh([path], tmp_path / "out")
    assert run.summary["rows_read"] == run.summary["rows_scored"] == 3
    assert run.winners["hand"].tolist() == ["1", "2", "3"]
    assert run.winners["winners"].tolist() == [rules_outcome(h.document)[0] for h in (first, second, third)]


@pytest.mark.parametrize("note", [
    "notes = \'\'\'\nplayed late\n[2]\n\'\'\'",
    'notes = """\n[Level 3] blinds up\n  [3]\n"""',
    # Delimiters that open nothing: in a comment and inside a one-line string.
    "# a \'\'\' and a \"\"\" in a comment\nnotes = \"a \'\'\' in a string\"",
])
def test_a_header_like_line_inside_a_multi_line_string_starts_no_hand(note: str, pluribus,
                                                                      tmp_path: Path) -> None:
    first, second = showdown_hands(pluribus, 2)
    text = f"[1]\n{first.text.rstrip()}\n{note}\n\n[2]\n{second.text}"
    document = tomllib.loads(text)
    assert sorted(document) == ["1", "2"] and "notes" in document["1"]
    path = tmp_path / "notes.phhs"
    path.write_text(text)
    run = run_phh([path], tmp_path / "out")
    assert run.summary["rows_read"] == 2 and run.rejects.empty
    assert run.winners["hand"].tolist() == ["1", "2"]
    assert run.winners["winners"].tolist() == [rules_outcome(h.document)[0] for h in (first, second)]


@pytest.mark.parametrize("note", [
    "notes = \'\'\'\nplayed late\n[9]\n\'\'\'",
    'notes = """\n[Level 3] blinds up\n  [9]\n"""',
    "notes = \'\'\'\n[9]",  # a multi-line string that never ends
    "# a \'\'\' in a comment\nnotes = \"a \'\'\' in a string\"",
    # A backslash does not carry a one-line string over its line end: the delimiter opens a string.
    "notes = \"x\\\n\'\'\'\\\n[9]\\\n\'\'\'\\\n[8]\\\n\"",
])
def test_the_hands_before_a_cut_start_where_the_part_alone_says(note: str) -> None:
    # A part of a file ends where its last hand starts, and the starts found in the whole text
    # serve the part: they must be those the part alone gives.
    text = np.frombuffer(f"[1]\na = 1\n{note}\n[2]\nb = 2\n  [3]\nc = 3\n[4]\n".encode(), dtype=np.uint8)
    starts = phh._hand_starts(text, scan.line_ends(text))
    for cut in starts.tolist():
        part = text[:cut]
        assert phh._hand_starts(part, scan.line_ends(part)).tolist() == starts[starts < cut].tolist()


@pytest.mark.parametrize("name", ["empty.phh.gz", "empty.phhs.gz", "mark.phh", "mark.phhs"])
def test_a_file_without_text_holds_no_hand(name: str, tmp_path: Path) -> None:
    path = tmp_path / name
    path.write_bytes(gzip.compress(b"") if name.endswith(".gz") else b"\xef\xbb\xbf")
    assert list(phh.read_hands(open_source(path))) == []


def test_a_multi_line_delimiter_is_found_at_any_offset() -> None:
    for delimiter in (b"'''", b'"""'):
        for before in range(4):
            for after in range(3):
                text = b"x" * before + delimiter + b"y" * after
                assert phh._holds_a_delimiter(np.frombuffer(text, dtype=np.uint8)), text
    for text in (b"", b"'", b"''", b"a = 'x' # 'y'\n", b"['', \"\", '\"', \"'\", ''\"\"]\n", b"''\"''"):
        assert not phh._holds_a_delimiter(np.frombuffer(text, dtype=np.uint8)), text


def test_a_byte_that_is_not_utf8_rejects_its_hand_only(pluribus, tmp_path: Path) -> None:
    hands = showdown_hands(pluribus, 5)
    text = phhs_text(hand.text for hand in hands).encode()
    # A Latin-1 name in the players of the third hand.
    start = text.index(b"[3]\n")
    at = text.index(b"players = ['", start) + len(b"players = ['")
    spoiled = text[:at] + b"Jos\xe9 " + text[at:]
    line = spoiled[:at].count(b"\n") + 1
    path = tmp_path / "latin1.phhs"
    path.write_bytes(spoiled)
    run = run_phh([path], tmp_path / "out")
    assert run.summary["rows_read"] == 5 and run.summary["rows_rejected"] == 1
    (reject,) = run.rejects.to_dict("records")
    assert reject["row"] == "3" and f"line {line}" in reject["reason"] and "UTF-8" in reject["reason"]
    assert run.winners["hand"].tolist() == ["1", "2", "4", "5"]
    assert run.winners["winners"].tolist() == [rules_outcome(hands[i].document)[0] for i in (0, 1, 3, 4)]


# --- hands that cannot have happened ----------------------------------------------------------

IMPOSSIBLE_BASE = """variant = 'NT'
antes = [{antes}]
blinds_or_straddles = [{blinds}]
min_bet = 10
starting_stacks = [{stacks}]
actions = [{actions}]
"""
# Three stacks of 1000: 500 each before the flop, then p1 bets its last 500 and both call.
PLAYED = ["d dh p1 AsAh", "d dh p2 KsKh", "d dh p3 QsQh", "p3 cbr 500", "p1 cc", "p2 cc", "d db 2c3d7h",
          "p1 cbr {bet}", "p2 cc", "p3 cc", "d db 8s", "d db Jc", "p1 sm AsAh", "p2 sm KsKh", "p3 sm QsQh"]


def impossible_hand(*, stacks: str = "1000, 1000, 1000", bet: str = "500", antes: str = "0, 0, 0",
                    blinds: str = "5, 10, 0", insert: tuple[int, str] | None = None) -> str:
    actions = [a.format(bet=bet) for a in PLAYED]
    if insert is not None:
        actions.insert(*insert)
    return IMPOSSIBLE_BASE.format(stacks=stacks, antes=antes, blinds=blinds,
                                  actions=", ".join(f"'{a}'" for a in actions))


@pytest.mark.parametrize("case, words", [
    # p3 folds to the flop bet, then calls it.
    ({"insert": (9, "p3 f")}, ("p3", "fold")),
    # 500 went in before the flop: 500 is left, a bet to 501 cannot be made (500 is all in).
    ({"bet": "501"}, ("501", "stack")),
    ({"stacks": "1000, -5, 1000"}, ("p2", "negative")),
    # Chips that are not a number, antes that are negative, and forced bets that are unknown
    # (inf: a stack may be unknown, a blind may not): a mismatch or a scored hand if let through.
    # A negative blind is a post, not a fault (test_phh_records).
    ({"stacks": "1000, 1000, nan"}, ("p3", "not a number")),
    ({"blinds": "nan, 10, 0"}, ("blind", "not a number")),
    ({"blinds": "5, -inf, 0"}, ("blind", "unknown")),
    ({"antes": "0, -10, 0"}, ("ante", "negative")),
    ({"antes": "0, -inf, 0"}, ("ante", "unknown")),
    ({"antes": "inf, 0, 0"}, ("ante", "unknown")),
])
@pytest.mark.filterwarnings("error::RuntimeWarning")  # the group's replay meets no NaN on the way
def test_an_impossible_hand_is_rejected_with_its_reason(case: dict[str, Any], words: tuple[str, str],
                                                        tmp_path: Path) -> None:
    texts = [impossible_hand(), impossible_hand(**case), impossible_hand()]
    path = tmp_path / "three.phhs"
    path.write_text(phhs_text(texts))
    run = run_phh([path], tmp_path / "out")
    (reject,) = run.rejects.to_dict("records")
    assert reject["row"] == "2"
    assert all(word in reject["reason"] for word in words), reject["reason"]
    assert reject["reason"].startswith("hand 2: ")
    # The others are played: all in for 1000 each, the aces win.
    assert run.winners["hand"].tolist() == ["1", "3"] and run.winners["winners"].tolist() == ["1", "1"]


def test_a_bet_of_the_whole_stack_is_possible(tmp_path: Path) -> None:
    path = tmp_path / "all-in.phh"
    path.write_text(impossible_hand(bet="500"))
    run = run_phh([path], tmp_path / "out")
    assert run.rejects.empty and run.winners["winners"].tolist() == ["1"]
    (hands,) = list(phh.read_hands(open_source(path)))
    assert phh.replay(hands).contributed[0, :3].tolist() == [1000, 1000, 1000]
