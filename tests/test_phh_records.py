"""PHH showdowns and records: never a wrong winner, and a record checked before it is trusted.

A showdown is scored only when every card it needs is known: a board card or
a live player's hole cards written ``??`` make it ``rows_unknown_cards``.  A
player who mucks (``sm`` without cards) forfeits, as the specification says.
A recorded result (``finishing_stacks``, ``winnings``) checks the evaluator
only when it is a result: winnings of 0 while chips went in, finishing stacks
that create chips or take more than a 10 % rake, and winnings that disagree
with the finishing stacks are counted apart, never as a mismatch; a
consistent record that names other winners than the cards is a mismatch.
Heads-up hands post their forced bets reversed and a straddle is a blind:
pokerkit's state machine checks the chips of both.

Expectations come from the rules (``tests/test_phh.py``'s reference replay,
pokerkit) or from the original hand, never from pokerpipe's output.
"""

from __future__ import annotations

import itertools
import json
import math
import random
import tomllib
from collections import Counter
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from click.testing import CliRunner
from pokerkit import HandHistory, Mode, NoLimitTexasHoldem

from pipeline.cli import cli
from pipeline.formats import histories, phh
from pipeline.formats.readers import open_source

from .conftest import DATA, PhhHand, PhhRun, phhs_text, run_phh, toml_text
from .test_phh import recorded_winners, replay, showdown_winners
from .test_phh_reference import AUTOMATIONS, DECK, Chips, chips_of, play_randomly, pokerkit_chips
from .test_phh_syntax import rules_by_table, rules_outcome

HANDHQ = DATA / "phh" / "handhq_30.phhs"


def rewrite(hands: tuple[PhhHand, ...] | list[PhhHand], change) -> tuple[list[str], int]:
    """The hands' texts with ``change(document)`` applied where it returns a new document; and how many
    it changed."""
    texts, changed = [], 0
    for hand in hands:
        new = change(dict(hand.document))
        changed += new is not None
        texts.append(toml_text(new) if new is not None else hand.text)
    return texts, changed


def write_and_run(tmp_path: Path, texts: list[str], name: str = "hands") -> PhhRun:
    path = tmp_path / f"{name}.phhs"
    path.write_text(phhs_text(texts))
    return run_phh([path], tmp_path / f"{name}-out")


def cli_run(path: Path, outdir: Path) -> tuple[int, dict[str, Any]]:
    """``pokerpipe run`` on a file: its exit status and summary.json."""
    result = CliRunner().invoke(cli, ["run", str(path), "-o", str(outdir), "-q"])
    assert result.exit_code in (0, 1), result.output
    return result.exit_code, json.loads((outdir / "summary.json").read_text())


def showdowns(hands: tuple[PhhHand, ...]) -> int:
    return sum(replay(hand.document)["showdown"] for hand in hands)


def checked_by_rules(hands: tuple[PhhHand, ...]) -> int:
    """The showdowns whose record checks the winners, by the rules."""
    return sum(bool(outcome and outcome[1]) for outcome in (rules_outcome(hand.document) for hand in hands))


def with_cards(actions: list[str], verb: str, player: str | None, new: str, nth: int = 0) -> list[str]:
    """The actions with the cards of the ``nth`` ``d VERB [player]`` (or ``player sm``) replaced."""
    out, seen = [], 0
    for action in actions:
        words = action.split()
        match = (words[:2] == ["d", verb] and (player is None or words[2] == player)) if verb != "sm" \
            else words[:2] == [player, "sm"] and len(words) == 3
        if match and seen == nth:
            words[-1] = new
            action = " ".join(words)
        seen += match
        out.append(action)
    return out


# --- never a wrong winner: unknown cards --------------------------------------------------------

def unknown_river(document: dict[str, Any]) -> dict[str, Any] | None:
    boards = [a for a in document["actions"] if a.startswith("d db ")]
    if len(boards) < 3:
        return None
    return {**document, "actions": with_cards(document["actions"], "db", None, "??", nth=2)}


def unknown_flop_card(document: dict[str, Any]) -> dict[str, Any] | None:
    flop = next((a.split()[2] for a in document["actions"] if a.startswith("d db ")), None)
    if flop is None:
        return None
    return {**document, "actions": with_cards(document["actions"], "db", None, flop[:2] + "??" + flop[4:])}


@pytest.mark.parametrize("change", [unknown_river, unknown_flop_card], ids=["d db ??", "d db Ah??Kd"])
def test_a_board_card_written_unknown_is_never_scored(change, pluribus, tmp_path: Path) -> None:
    texts, changed = rewrite(pluribus, change)
    # Every showdown of the bundle has its five board cards: each loses one to '??'.
    assert all(len(replay(h.document)["board"]) == 5 for h in pluribus if replay(h.document)["showdown"])
    assert changed >= showdowns(pluribus) == 40
    run = write_and_run(tmp_path, texts)
    assert run.summary["rows_scored"] == 0 and run.winners.empty
    assert run.summary["rows_unknown_cards"] == showdowns(pluribus)
    assert run.summary["rows_without_showdown"] == len(pluribus) - showdowns(pluribus)
    assert run.summary["rows_rejected"] == 0
    assert run.summary["expected"]["checked"] == run.summary["expected"]["mismatched"] == 0


def hidden_show(document: dict[str, Any], *, dealt_too: bool) -> dict[str, Any] | None:
    """The hand with a contesting player's show written ``sm ????``, and its deal too if ``dealt_too``."""
    replayed = replay(document)
    if not replayed["showdown"] or not replayed["live"]:
        return None
    player = f"p{replayed['live'][0] + 1}"
    actions = with_cards(document["actions"], "sm", player, "????")
    if dealt_too:
        actions = with_cards(actions, "dh", player, "????")
    return {**document, "actions": actions}


def test_a_live_player_whose_cards_are_unknown_is_never_scored(pluribus, tmp_path: Path) -> None:
    texts, changed = rewrite(pluribus, lambda d: hidden_show(d, dealt_too=True))
    assert changed == showdowns(pluribus)
    run = write_and_run(tmp_path, texts)
    assert run.summary["rows_scored"] == 0 and run.winners.empty
    assert run.summary["rows_unknown_cards"] == showdowns(pluribus)
    assert run.summary["rows_rejected"] == 0


def test_a_hidden_show_of_cards_dealt_known_is_scored_with_the_cards_dealt(pluribus, tmp_path: Path) -> None:
    # 'sm ????' hides nothing the deal did not tell: the player contests with the cards dealt.
    texts, changed = rewrite(pluribus, lambda d: hidden_show(d, dealt_too=False))
    assert changed == showdowns(pluribus)
    run = write_and_run(tmp_path, texts)
    assert run.by_hand() == rules_by_table(pluribus)
    assert run.summary["rows_unknown_cards"] == 0


def test_sm_dash_shows_the_cards_dealt_and_tells_nothing_of_cards_dealt_unknown(tmp_path: Path) -> None:
    # Heads-up blinds 1/2 (p1 posts 2, p2 posts 1), both check to the river.  p1 KsKh beats p2's
    # QsQh on 2c 3d 7h 8s Jc: the pot of 4 goes to p1, who ends with 102.
    text = """variant = 'NT'
antes = [0, 0]
blinds_or_straddles = [1, 2]
min_bet = 2
starting_stacks = [100, 100]
actions = ['d dh p1 {p1}', 'd dh p2 QsQh', 'p2 cc', 'p1 cc', 'd db 2c3d7h', 'p1 cc', 'p2 cc', 'd db 8s', \
'p1 cc', 'p2 cc', 'd db Jc', 'p1 cc', 'p2 cc', 'p2 sm -', 'p1 sm -']
finishing_stacks = [102, 98]
"""
    (tmp_path / "known.phh").write_text(text.format(p1="KsKh"))
    (tmp_path / "unknown.phh").write_text(text.format(p1="????"))
    known = run_phh([tmp_path / "known.phh"], tmp_path / "known-out")
    assert known.winners["winners"].tolist() == ["1"] and known.winners["expected"].tolist() == ["1"]
    assert known.summary["expected"]["checked"] == 1
    unknown = run_phh([tmp_path / "unknown.phh"], tmp_path / "unknown-out")
    assert unknown.summary["rows_unknown_cards"] == 1 and unknown.winners.empty and unknown.rejects.empty


# --- never a wrong winner: mucks forfeit ----------------------------------------------------------

def test_the_bundled_mucks_are_counted(pluribus, tmp_path: Path) -> None:
    run = write_and_run(tmp_path, [hand.text for hand in pluribus])
    mucked = sum(len(replay(h.document)["mucked"]) for h in pluribus if replay(h.document)["showdown"])
    assert run.summary["mucked"] == mucked == 16


def two_player_showdowns(pluribus: tuple[PhhHand, ...]) -> list[tuple[int, PhhHand, int, int]]:
    """(index, hand, winner seat, loser seat) of the showdowns of two players who both show, one
    winning by the cards and by the record."""
    found = []
    for index, hand in enumerate(pluribus):
        replayed = replay(hand.document)
        outcome = rules_outcome(hand.document)
        if outcome and len(replayed["live"]) == 2 and not replayed["mucked"] and outcome[1] == outcome[0] \
                and " " not in outcome[0]:
            winner = int(outcome[0]) - 1
            found.append((index, hand, winner, next(p for p in replayed["live"] if p != winner)))
    return found


def mucking(document: dict[str, Any], seat: int) -> dict[str, Any]:
    player = f"p{seat + 1}"
    actions = [f"{player} sm" if a.split()[:2] == [player, "sm"] else a for a in document["actions"]]
    assert actions != document["actions"]
    return {**document, "actions": actions}


@pytest.mark.parametrize("who", ["loser", "winner"])
def test_a_player_who_mucks_forfeits(who: str, pluribus, tmp_path: Path) -> None:
    found = two_player_showdowns(pluribus)
    assert len(found) >= 10
    texts = [hand.text for hand in pluribus]
    for index, hand, winner, loser in found:
        texts[index] = toml_text(mucking(hand.document, loser if who == "loser" else winner))
    path = tmp_path / "mucks.phhs"
    path.write_text(phhs_text(texts))
    code, summary = cli_run(path, tmp_path / "out")
    run = run_phh([path], tmp_path / "again")
    rows = run.winners.set_index("hand")
    assert run.summary["mucked"] == 16 + len(found)
    for index, _, winner, loser in found:
        row = rows.loc[str(index + 1)]
        # The one player left contests alone: its seat is scored, the mucked seat is empty.
        alone = loser if who == "winner" else winner
        mucked = winner if who == "winner" else loser
        assert row["winners"] == str(alone + 1)
        assert row[f"p{alone + 1}_key"] != "" and row[f"p{mucked + 1}_key"] == ""
        # A record that pays the player who mucked is no result: never checked against the cards.
        assert row["expected"] == (str(winner + 1) if who == "loser" else "")
    expected = summary["expected"]
    assert code == 0 and expected["mismatched"] == 0
    if who == "winner":
        assert expected["not_checked_inconsistent_record"] == len(found)
        assert sum(expected["inconsistent_reasons"].values()) == len(found)
        assert all("muck" in reason for reason in expected["inconsistent_reasons"])


# --- records checked before they are trusted ------------------------------------------------------

VENUE = "Casino de Test"
# A venue's hands have ids of their own: two hands with one (venue, hand) are one hand read twice.
_VENUE_HANDS = itertools.count(1)


def at_venue() -> dict[str, Any]:
    return {"venue": VENUE, "hand": next(_VENUE_HANDS)}


def pot(document: dict[str, Any]) -> float:
    return sum(replay(document)["contributed"])


def zero_winnings(document: dict[str, Any]) -> dict[str, Any]:
    changed = {key: value for key, value in document.items() if key != "finishing_stacks"}
    return {**changed, "winnings": [0] * len(document["starting_stacks"]), **at_venue()}


def finishing(document: dict[str, Any], moves: dict[int, float]) -> dict[str, Any]:
    stacks = list(document["finishing_stacks"])
    for seat, chips in moves.items():
        stacks[seat] += chips
    return {**document, "finishing_stacks": stacks, **at_venue()}


def received(document: dict[str, Any]) -> list[float]:
    contributed = replay(document)["contributed"]
    return [f - s + c for f, s, c in zip(document["finishing_stacks"], document["starting_stacks"],
                                          contributed, strict=True)]


def with_winnings(document: dict[str, Any], *, swap: tuple[int, int] | None) -> dict[str, Any]:
    paid = received(document)
    if swap is not None:
        a, b = swap
        paid[a], paid[b] = paid[b], paid[a]
    return {**document, "winnings": paid, **at_venue()}


# Each broken record would name other winners if it were trusted (a mismatch), or name the same;
# the words its reason must hold.
BROKEN_REASON = {"winnings all zero": "winnings", "chips created for the loser": "finishing stacks",
                 "a rake of half the pot": "finishing stacks",
                 "winnings and finishing stacks disagree": "disagree"}
BROKEN = {
    "winnings all zero": lambda d, w, lo: zero_winnings(d),
    "chips created for the loser": lambda d, w, lo: finishing(d, {lo: pot(d)}),
    "a rake of half the pot": lambda d, w, lo: finishing(d, {w: -pot(d) / 2}),
    "winnings and finishing stacks disagree": lambda d, w, lo: with_winnings(d, swap=(w, lo)),
}
CONSISTENT = {
    "a rake of 10 % of the pot": lambda d, w, lo: finishing(d, {w: -pot(d) * 0.10}),
    "winnings that agree with the finishing stacks": lambda d, w, lo: with_winnings(d, swap=None),
}


@pytest.mark.parametrize("kind", BROKEN)
def test_a_record_that_is_no_result_is_counted_never_a_mismatch(kind: str, pluribus, tmp_path: Path) -> None:
    found = two_player_showdowns(pluribus)
    texts = [hand.text for hand in pluribus]
    for index, hand, winner, loser in found:
        broken = BROKEN[kind](hand.document, winner, loser)
        assert tomllib.loads(toml_text(broken)) == broken
        texts[index] = toml_text(broken)
    path = tmp_path / "broken.phhs"
    path.write_text(phhs_text(texts))
    code, summary = cli_run(path, tmp_path / "out")
    expected = summary["expected"]
    assert code == 0 and expected["mismatched"] == 0 and expected["first"] == []
    assert expected["not_checked_inconsistent_record"] == len(found) >= 10
    (reason,) = expected["inconsistent_reasons"]
    assert expected["inconsistent_reasons"][reason] == len(found) and BROKEN_REASON[kind] in reason
    assert expected["by_venue"] == {VENUE: {"not_checked_inconsistent_record": len(found)}}
    # The other showdowns are checked as before, and every showdown is still scored.
    assert summary["rows_scored"] == showdowns(pluribus)
    assert expected["checked"] == checked_by_rules(pluribus) - len(found)
    run = run_phh([path], tmp_path / "again")
    rows = run.winners.set_index("hand")
    for index, _, winner, _ in found:
        assert rows.loc[str(index + 1), "winners"] == str(winner + 1)
        assert rows.loc[str(index + 1), "expected"] == ""


@pytest.mark.parametrize("kind", CONSISTENT)
def test_a_consistent_record_is_checked(kind: str, pluribus, tmp_path: Path) -> None:
    found = two_player_showdowns(pluribus)
    texts = [hand.text for hand in pluribus]
    for index, hand, winner, loser in found:
        texts[index] = toml_text(CONSISTENT[kind](hand.document, winner, loser))
    path = tmp_path / "fine.phhs"
    path.write_text(phhs_text(texts))
    code, summary = cli_run(path, tmp_path / "out")
    expected = summary["expected"]
    assert code == 0 and expected["mismatched"] == 0 and expected["not_checked_inconsistent_record"] == 0
    assert expected["by_venue"] == {VENUE: {"checked": len(found)}}
    assert expected["checked"] == checked_by_rules(pluribus)


@pytest.mark.parametrize("record", ["finishing_stacks", "winnings"])
def test_a_consistent_record_that_disagrees_with_the_cards_is_a_mismatch(record: str, pluribus,
                                                                        tmp_path: Path) -> None:
    found = two_player_showdowns(pluribus)[:3]
    texts = [hand.text for hand in pluribus]
    for index, hand, winner, loser in found:
        document = hand.document
        if record == "winnings":
            document = {key: value for key, value in with_winnings(document, swap=None).items()
                        if key != "finishing_stacks"}
        # The loser gets the winner's record and the winner the loser's: the chips add up.
        values = list(document[record])
        values[winner], values[loser] = values[loser], values[winner]
        texts[index] = toml_text({**document, record: values})
    path = tmp_path / "swapped.phhs"
    path.write_text(phhs_text(texts))
    code, summary = cli_run(path, tmp_path / "out")
    assert code == 1
    assert summary["expected"]["mismatched"] == len(found)
    assert summary["expected"]["not_checked_inconsistent_record"] == 0


# --- the HandHQ sample: six sites' records, some broken ---------------------------------------------

def heads_up_order(document: dict[str, Any]) -> dict[str, Any]:
    """The hand with its antes and blinds as posted: reversed when two play (the specification)."""
    if len(document["starting_stacks"]) != 2:
        return document
    return {**document, "antes": document["antes"][::-1],
            "blinds_or_straddles": document["blinds_or_straddles"][::-1]}


def record_problem(document: dict[str, Any], replayed: dict[str, Any]) -> str | None:
    """Why a recorded result is no result, by the rules; None when it is one (or there is none)."""
    contributed, stacks = replayed["contributed"], document["starting_stacks"]
    chips_in = sum(contributed) > 0
    if "winnings" in document and chips_in and not any(document["winnings"]):
        return "zero winnings"
    if "finishing_stacks" in document and all(math.isfinite(s) for s in stacks):
        got = [f - s + c for f, s, c in zip(document["finishing_stacks"], stacks, contributed, strict=True)]
        rake = sum(stacks) - sum(document["finishing_stacks"])
        if rake < -1e-6 or rake > 0.10 * sum(contributed) + 1e-6:
            return "not conserved"
        if "winnings" in document and any(abs(g - w) > 1e-6 for g, w in zip(got, document["winnings"])):
            return "disagree"
    return None


def in_seats(players: str, document: dict[str, Any]) -> str:
    """Players named by their place in the file (``"1 3"``) as the table seats of the ``seats`` field,
    where the hand gives one: the seats a winners row numbers."""
    if not players or "seats" not in document:
        return players
    return " ".join(str(s) for s in sorted(document["seats"][int(p) - 1] for p in players.split()))


def handhq_by_rules() -> dict[str, tuple[str, str, str | None]]:
    """Every HandHQ showdown with its cards known: (winners, expected, venue's count) by table key."""
    outcomes = {}
    for key, document in tomllib.loads(HANDHQ.read_text()).items():
        document = heads_up_order(document)
        replayed = replay(document)
        if not replayed["showdown"]:
            continue
        cards = [replayed["cards"][p] for p in replayed["live"]]
        if len(replayed["board"]) != 5 or "?" in "".join(replayed["board"] + cards):
            continue
        winners = in_seats(showdown_winners(replayed), document)
        recorded = "finishing_stacks" in document or "winnings" in document
        stacks_known = all(math.isfinite(s) for s in document["starting_stacks"])
        if not recorded:
            outcomes[key] = (winners, "", None)
        elif record_problem(document, replayed):
            outcomes[key] = (winners, "", "not_checked_inconsistent_record")
        elif not stacks_known and "winnings" not in document:
            outcomes[key] = (winners, "", "not_checked_unknown_stacks")
        else:
            named = recorded_winners(document if stacks_known else {
                k: v for k, v in document.items() if k != "finishing_stacks"}, replayed)
            kind = "checked" if named else "not_checked_side_pots"
            outcomes[key] = (winners, in_seats(named or "", document), kind)
    return outcomes


@pytest.mark.parametrize("seed", range(20))
def test_the_audit_by_venue_counts_each_hand_of_each_kind_at_its_venue(seed: int) -> None:
    # The counts of a group's hands by venue and kind, against a look at each hand.
    rng = random.Random(seed)
    hands = rng.randrange(0, 40)
    venues = [rng.choice([None, "iPoker Network", "PartyPoker", "Ongame Network", "5"]) for _ in range(hands)]
    kinds = {name: np.array([rng.random() < 0.4 for _ in range(hands)], dtype=bool)
             for name in histories.VENUE_COUNTS}
    plainly: dict[str, int] = {}
    for name, rows in kinds.items():
        for row in np.flatnonzero(rows):
            if venues[row] is not None:
                key = histories.venue_key(venues[row], name)
                plainly[key] = plainly.get(key, 0) + 1
    got = histories.venue_counts(venues, kinds)
    assert list(got.items()) == list(plainly.items())  # the same keys, in the same order
    assert all(isinstance(count, int) for count in got.values())


def test_handhq_sample_every_ipoker_record_is_inconsistent_and_nothing_mismatches(tmp_path: Path) -> None:
    tables = tomllib.loads(HANDHQ.read_text())
    assert len(tables) == 30
    venues = Counter(table["venue"] for table in tables.values())
    assert len(venues) == 6 and set(venues.values()) == {5}
    # The iPoker records as converted: winnings of 0 for every player of every hand, though
    # blinds went in.
    ipoker = {key: table for key, table in tables.items() if table["venue"] == "iPoker Network"}
    for table in ipoker.values():
        assert not any(table["winnings"]) and any(table["blinds_or_straddles"])
        assert all(math.isinf(s) for s in table["starting_stacks"])
    expected = handhq_by_rules()
    code, summary = cli_run(HANDHQ, tmp_path / "cli")
    run = run_phh([HANDHQ], tmp_path / "out")
    assert code == 0
    assert run.by_hand() == {key: (won, recorded) for key, (won, recorded, _) in expected.items()}
    audit = summary["expected"]
    assert audit["mismatched"] == 0
    scored_ipoker = [key for key in expected if key in ipoker]
    assert len(scored_ipoker) >= 1
    assert audit["by_venue"]["iPoker Network"] == {"not_checked_inconsistent_record": len(scored_ipoker)}
    by_venue: dict[str, Counter[str]] = {}
    for key, (_, _, kind) in expected.items():
        if kind is not None:
            by_venue.setdefault(tables[key]["venue"], Counter())[kind] += 1
    assert audit["by_venue"] == {venue: dict(kinds) for venue, kinds in sorted(by_venue.items())}
    assert audit["checked"] == sum(kind == "checked" for _, _, kind in expected.values()) > 0
    assert audit["not_checked_no_recorded_result"] == sum(kind is None for _, _, kind in expected.values())
    assert summary["rows_read"] == 30 and summary["rows_rejected"] == 0


# --- heads-up and straddles: the chips against pokerkit ----------------------------------------

def chips_of_text(tmp_path: Path, text: str) -> tuple[phh.Replay, Chips]:
    path = tmp_path / "hand.phh"
    path.write_text(text)
    (hands,) = list(phh.read_hands(open_source(path)))
    result = phh.replay(hands)
    assert result.rejections.problem.tolist() == [None]
    return result, pokerkit_chips(HandHistory.loads(text))


HEADS_UP = """variant = 'NT'
ante_trimming_status = false
antes = [{antes}]
blinds_or_straddles = [1, 2]
min_bet = 2
starting_stacks = [{stacks}]
actions = [{actions}]
"""
RUN_OUT = ["d db 2c3d7h", "d db 8s", "d db Jc", "p1 sm KsKh", "p2 sm QsQh"]
CHECKED_DOWN = ["d db 2c3d7h", "p1 cc", "p2 cc", "d db 8s", "p1 cc", "p2 cc", "d db Jc", "p1 cc", "p2 cc",
                "p1 sm KsKh", "p2 sm QsQh"]


@pytest.mark.parametrize("antes, stacks, actions, contributed", [
    # p1 posts the big blind 2, p2 (the button) the small blind 1 and acts first: it folds.
    # p1's 2 is matched up to 1: it puts in 1, as p2 does.
    ("0, 0", "100, 100", ["p2 f"], [1, 1]),
    # A big blind ante (listed second, posted by p1, the big blind heads-up): dead money, p1 puts
    # in 3 + 1.
    ("0, 3", "100, 100", ["p2 f"], [4, 1]),
    # p2 completes to 2, p1 raises to 6, p2 calls; checked down: 6 each.
    ("0, 0", "100, 100", ["p2 cc", "p1 cbr 6", "p2 cc", *CHECKED_DOWN], [6, 6]),
    # The big blind ante again, both check down: p1 puts in 3 + 2, p2 2.
    ("0, 3", "100, 100", ["p2 cc", "p1 cc", *CHECKED_DOWN], [5, 2]),
    # p1 has 4: it posts the ante of 3, then its last chip as its big blind, matched by p2's 1.
    ("0, 3", "4, 100", RUN_OUT, [4, 1]),
    # p1 posts 2 of its 3; p2 raises to 10, p1 calls all in for 3: 7 go back to p2.
    ("0, 0", "3, 100", ["p2 cbr 10", "p1 cc", *RUN_OUT], [3, 3]),
    # p2's small blind of 1 is all in; p1's big blind of 2 is matched up to 1.
    ("0, 0", "100, 1", RUN_OUT, [1, 1]),
])
def test_heads_up_forced_bets_are_posted_reversed_as_pokerkit_posts_them(
        antes: str, stacks: str, actions: list[str], contributed: list[float], tmp_path: Path) -> None:
    text = HEADS_UP.format(antes=antes, stacks=stacks, actions=", ".join(
        f"'{a}'" for a in ["d dh p1 KsKh", "d dh p2 QsQh", *actions]))
    ours, theirs = chips_of_text(tmp_path, text)
    assert theirs.contributed == contributed
    assert ours.contributed[0, :2].tolist() == contributed


STRADDLE = """variant = 'NT'
ante_trimming_status = false
antes = [0, 0, 0, 0, 0, 0]
blinds_or_straddles = [1, 2, 4, 0, 0, 0]
min_bet = 2
starting_stacks = [200, 200, 200, 200, 200, 200]
actions = ['d dh p1 2c2d', 'd dh p2 3c3d', 'd dh p3 4c4d', 'd dh p4 5c5d', 'd dh p5 6c6d', 'd dh p6 7c7d', \
{actions}]
"""


@pytest.mark.parametrize("actions, contributed", [
    # p4, first after the straddle, calls 4; everyone calls 4 and the straddle checks.
    (["p4 cc", "p5 cc", "p6 cc", "p1 cc", "p2 cc", "p3 cc", "d db AsKsQs", "p1 cc", "p2 cc", "p3 cc", "p4 cc",
      "p5 cc", "p6 cc", "d db 9h", "p1 cc", "p2 cc", "p3 cc", "p4 cc", "p5 cc", "p6 cc", "d db 8h", "p1 cc",
      "p2 cc", "p3 cc", "p4 cc", "p5 cc", "p6 cc", "p1 sm 2c2d", "p2 sm 3c3d", "p3 sm 4c4d", "p4 sm 5c5d",
      "p5 sm 6c6d", "p6 sm 7c7d"], [4, 4, 4, 4, 4, 4]),
    # p4 calls 4, p5 raises to 12, p6 folds, p1 calls 12, p2 folds its 2, p3 and p4 call: the flop
    # sees 12 from p1, p3, p4, p5; all check down.
    (["p4 cc", "p5 cbr 12", "p6 f", "p1 cc", "p2 f", "p3 cc", "p4 cc", "d db AsKsQs", "p1 cc", "p3 cc",
      "p4 cc", "p5 cc", "d db 9h", "p1 cc", "p3 cc", "p4 cc", "p5 cc", "d db 8h", "p1 cc", "p3 cc", "p4 cc",
      "p5 cc", "p1 sm 2c2d", "p3 sm 4c4d", "p4 sm 5c5d", "p5 sm 6c6d"], [12, 2, 12, 12, 12, 0]),
    # Everyone folds to the straddle: it takes the blinds, its 4 matched up to 2.
    (["p4 f", "p5 f", "p6 f", "p1 f", "p2 f"], [1, 2, 2, 0, 0, 0]),
])
def test_a_straddle_is_a_blind_the_level_before_the_flop(actions: list[str], contributed: list[float],
                                                         tmp_path: Path) -> None:
    text = STRADDLE.format(actions=", ".join(f"'{a}'" for a in actions))
    ours, theirs = chips_of_text(tmp_path, text)
    assert theirs.contributed == contributed
    assert ours.contributed[0, :6].tolist() == contributed


def played_hand(rng: random.Random, players: int, antes: list[int], blinds: list[int]) -> tuple[str, Chips]:
    """One legal no-limit hand that pokerkit plays with random decisions: its PHH text with the
    finishing stacks, and its chips."""
    game = NoLimitTexasHoldem(AUTOMATIONS, False, antes, blinds, max(blinds), mode=Mode.CASH_GAME)
    stacks = [rng.choice([rng.randint(1, 10), rng.randint(10, 300)]) for _ in range(players)]
    state = game(stacks, players)
    play_randomly(state, rng, fold=0.3, raise_to=0.6)
    history = HandHistory.from_game_state(game, state)
    history.finishing_stacks = list(state.stacks)
    return history.dumps(), chips_of(state)


@pytest.mark.parametrize("players, antes, blinds", [
    (2, [0, 0], [1, 2]),
    (2, [0, 2], [1, 2]),  # a big blind ante heads-up
    (6, [0] * 6, [1, 2, 4, 0, 0, 0]),
    (5, [0] * 5, [1, 2, 4, 8, 0]),  # a double straddle
])
def test_random_hands_with_reversed_blinds_or_straddles_put_in_what_pokerkit_says(
        players: int, antes: list[int], blinds: list[int], tmp_path: Path) -> None:
    rng = random.Random(f"{players} {antes} {blinds}")
    played = [played_hand(rng, players, antes, blinds) for _ in range(40)]
    path = tmp_path / "random.phhs"
    path.write_text(phhs_text(text for text, _ in played))
    (hands,) = list(phh.read_hands(open_source(path)))
    result = phh.replay(hands)
    assert result.rejections.problem.tolist() == [None] * len(played)
    for row, (text, theirs) in enumerate(played):
        got = (result.contributed[row, :players].tolist(), result.received[row, :players].tolist())
        assert got == (theirs.contributed, theirs.received), text
    # pokerkit decided the pots: where the chips check a showdown, pokerpipe's cards agree.
    summary = run_phh([path], tmp_path / "out").summary
    assert summary["expected"]["mismatched"] == 0 and summary["rows_rejected"] == 0
    assert summary["expected"]["checked"] > 0


# --- posts: a negative entry of blinds_or_straddles -------------------------------------------

POSTS = DATA / "phh" / "posts.phhs"


def test_a_recorded_post_is_read_as_live_money_not_rejected(tmp_path: Path) -> None:
    # The HandHQ hand: blinds 0.10/0.25, p7 posts the big blind (-0.25) on being seated, p3
    # raises to 1 and everyone folds.  Before, it was rejected as "blind or straddle of p7 is
    # negative".
    run = run_phh([POSTS], tmp_path / "out")
    assert run.rejects.empty and run.summary["rows_without_showdown"] == 1
    (hands,) = list(phh.read_hands(open_source(POSTS)))
    result = phh.replay(hands)
    assert result.rejections.problem[0] is None
    # What each put in, worked out from the actions: the post is lost with p7's fold, and 0.75 of
    # p3's raise to 1, which no one called, goes back to p3.
    assert result.contributed[0, :10].tolist() == pytest.approx([0.10, 0.25, 0.25, 0, 0, 0, 0.25, 0, 0, 0])
    # Received as the record says: p3's winnings, the blinds, the post and its raise.
    assert result.received[0, :10].tolist() == pytest.approx([0, 0, 1.60, 0, 0, 0, 0, 0, 0, 0])


@pytest.mark.parametrize("post", [100, 40, 250])
def test_a_post_counts_toward_its_players_bet_as_pokerkit_plays_it(tmp_path: Path, post: int) -> None:
    # Blinds 50/100 and a post by p4 of a big blind, less or more: p3 raises to 600 and p4 calls.
    # Live money: p4's call tops its post up to 600 (pokerkit's reading), never adds 600 to it.
    game = NoLimitTexasHoldem(AUTOMATIONS, True, 0, [50, 100, 0, -post, 0], 100, mode=Mode.CASH_GAME)
    state = game([10_000] * 5, 5)
    rng = random.Random(post)
    deck = rng.sample(DECK, len(DECK))
    while state.can_deal_hole():
        state.deal_hole(deck.pop())
    state.complete_bet_or_raise_to(600)  # p3
    state.check_or_call()  # p4
    for _ in range(3):  # p5, p1, p2
        state.fold()
    play_randomly(state, rng, fold=0, raise_to=0)  # checked down to the showdown
    history = HandHistory.from_game_state(game, state)
    history.finishing_stacks = list(state.stacks)
    path = tmp_path / "post.phh"
    path.write_text(history.dumps())
    assert "-" + str(post) in path.read_text()
    (hands,) = list(phh.read_hands(open_source(path)))
    result = phh.replay(hands)
    assert result.rejections.problem[0] is None, result.rejections.problem[0]
    theirs = chips_of(state)
    assert result.contributed[0, :5].tolist() == theirs.contributed
    assert result.received[0, :5].tolist() == theirs.received
    assert result.contributed[0, 3] == 600
    run = run_phh([path], tmp_path / "out")
    assert run.rejects.empty and run.summary["expected"]["mismatched"] == 0
    assert run.summary["expected"]["checked"] == 1
