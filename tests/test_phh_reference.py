"""The PHH replay against an independent one: pokerkit's state machine, player by player.

Every bundled no-limit or fixed-limit hold'em hand (``data/raw/phh``, ``.phh``
and ``.phhs`` files, recursively) is replayed twice: by pokerpipe's steps
(:func:`pipeline.phh.read_hands`, :func:`pipeline.phh.replay`) and by
pokerkit, which posts, collects, splits the pots and pushes them itself.
For every player both must agree on the chips contributed to the pot and
the chips received from it.  The bundle has no side pot: random legal hands
that pokerkit plays, written as PHH, bring them (and short blinds, big
blind antes, all-in calls) to the same comparison.
"""

from __future__ import annotations

import random
import tomllib
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from pokerkit import Automation, FixedLimitTexasHoldem, HandHistory, Mode, NoLimitTexasHoldem
from pokerkit.state import (
    BetCollection,
    CheckingOrCalling,
    ChipsPulling,
    ChipsPushing,
    CompletionBettingOrRaisingTo,
    Folding,
    State,
)

from pipeline.formats import phh
from pipeline.formats.readers import open_source
from pipeline.runs.runner import Run

ROOT = Path(__file__).resolve().parent.parent
PHH = ROOT / "data" / "raw" / "phh"
HOLDEM = ("NT", "FT")
# 151 Pluribus hands in .phh files, 73 in pluribus-31.phhs, 18 of the WSOP final table, Dwan-Ivey.
BUNDLED_HOLDEM = 243
NO_RECORDED_RESULT = 1  # Dwan-Ivey records neither finishing stacks nor winnings
MOVES = (Folding, CheckingOrCalling, CompletionBettingOrRaisingTo)


class NotReplayed(Exception):
    """pokerkit could not replay a hand as recorded; the message is the reason, counted by the test."""


@dataclass
class Chips:
    contributed: list[float]
    received: list[float]
    pots: int  # pots pushed: pokerkit merges those one player wins, so 2 or more are side pots won apart
    won_by_folds: bool


def pokerkit_chips(history: HandHistory) -> Chips:
    """What each player put in the pot and took from it, by pokerkit's state machine.

    pokerkit collects each street's bets into the pot, the part of the
    largest above the second largest going back to its owner; it builds the
    main and side pots, decides them, pushes them to their winners, who pull
    the chips into their stacks.  Contributed is the sum of the collections,
    received the sum of the pushes, with one difference of bookkeeping: a
    player who wins because all the others folded never has its last bet
    collected, it pulls it back whole.  The part of that bet the others
    matched is in the pot by the rules, so it is added to both that player's
    contribution and its receipt (its net is unchanged).

    Raises NotReplayed when pokerkit has to repair the history (it inserts
    a check or a fold for an action it cannot apply) or cannot finish it.
    """
    try:
        state = None
        for state in history:  # noqa: B007 (the last state is the hand's end)
            pass
    except ValueError as error:  # pokerkit: "Unable to repair the hand history"
        raise NotReplayed(f"pokerkit refuses the actions ({error})") from None
    assert state is not None
    if state.status:
        raise NotReplayed("pokerkit cannot finish the hand from its actions")
    recorded = sum(action.split()[1] in ("f", "cc", "cbr") for action in history.actions
                   if not action.startswith("d "))
    if sum(isinstance(op, MOVES) for op in state.operations) != recorded:
        raise NotReplayed("pokerkit inserts a check or a fold the history lacks")
    return chips_of(state)


def chips_of(state: State) -> Chips:
    """The chips of a hand pokerkit has finished, from its operations (see :func:`pokerkit_chips`)."""
    players = state.player_count
    contributed = np.zeros(players)
    pushed = np.zeros(players)
    pulled = np.zeros(players)
    last_collection: tuple[int, ...] = (0,)
    for op in state.operations:
        if isinstance(op, BetCollection):
            contributed += op.bets
            last_collection = op.bets
        elif isinstance(op, ChipsPushing):
            pushed += op.amounts
        elif isinstance(op, ChipsPulling):
            pulled[op.player_index] += op.amount
    uncollected = pulled - pushed  # a last bet pulled back without going through a pot
    matched = np.minimum(uncollected, max(last_collection))
    pots = len({op.pot_index for op in state.operations if isinstance(op, ChipsPushing)})
    return Chips((contributed + matched).tolist(), (pushed + matched).tolist(), pots,
                 bool(uncollected.any()))


@dataclass
class Ours:
    key: str | None
    problem: str | None
    players: int
    contributed: np.ndarray
    received: np.ndarray
    recorded: bool


def pokerpipe_chips(path: Path) -> dict[int, Ours]:
    """pokerpipe's replay of every hand of a file, by its number in the file (from 1)."""
    hands_by_number = {}
    for hands in phh.read_hands(open_source(path)):
        result = phh.replay(hands)
        keys = hands.key.to_pylist()
        for row, number in enumerate(hands.ordinal.tolist()):
            hands_by_number[number] = Ours(
                keys[row], result.rejections.problem[row], int(hands.numbers["starting_stacks"][1][row]),
                result.contributed[row], result.received[row], bool(result.recorded[row]))
    return hands_by_number


def bundled_files() -> list[Path]:
    return sorted(p for p in PHH.rglob("*") if p.suffix in (".phh", ".phhs"))


def test_the_bundle_holds_the_hands_counted_here() -> None:
    variants: Counter[str] = Counter()
    for path in bundled_files():
        document = tomllib.loads(path.read_text())
        tables = document.values() if path.suffix == ".phhs" else [document]
        variants.update(table["variant"] for table in tables)
    assert sum(variants[v] for v in HOLDEM) == BUNDLED_HOLDEM
    assert variants["FT"] > 0 and variants["NT"] > 0


def test_every_bundled_holdem_hand_contributes_and_receives_as_pokerkit_says() -> None:
    compared = received_compared = 0
    kinds: Counter[str] = Counter()
    not_replayed: Counter[str] = Counter()
    disagreements = []
    for path in bundled_files():
        text = path.read_text()
        document = tomllib.loads(text)
        if path.suffix == ".phhs":
            tables = list(document.items())
            histories = list(HandHistory.loads_all(text))
        else:
            tables = [(None, document)]
            histories = [HandHistory.loads(text)]
        ours = pokerpipe_chips(path)
        for number, ((key, table), history) in enumerate(zip(tables, histories, strict=True), start=1):
            if table["variant"] not in HOLDEM:
                continue
            mine = ours[number]
            name = f"{path.relative_to(PHH)}" + (f" [{key}]" if key else "")
            assert key is None or mine.key == key  # the hands of a .phhs paired in their order
            assert mine.problem is None, (name, mine.problem)
            try:
                theirs = pokerkit_chips(history)
            except NotReplayed as reason:
                not_replayed[str(reason)] += 1
                continue
            players = mine.players
            assert players == len(theirs.contributed) == len(table["starting_stacks"])
            assert not mine.contributed[players:].any() and not mine.received[players:].any()
            compared += 1
            if mine.contributed[:players].tolist() != theirs.contributed:
                disagreements.append((name, "contributed", mine.contributed[:players].tolist(),
                                      theirs.contributed))
            if mine.recorded:
                received_compared += 1
                if mine.received[:players].tolist() != theirs.received:
                    disagreements.append((name, "received", mine.received[:players].tolist(),
                                          theirs.received))
            kinds["side pots won apart"] += theirs.pots > 1
            kinds["won by folds"] += theirs.won_by_folds
            kinds["antes"] += any(table["antes"])
    assert not disagreements, "\n".join(map(str, disagreements))
    assert not not_replayed, not_replayed  # every hand is compared: a hand pokerkit refuses fails here
    assert compared == BUNDLED_HOLDEM
    assert received_compared == BUNDLED_HOLDEM - NO_RECORDED_RESULT
    # Wins by folds and antes are among them; side pots are not (the bundle has none): the
    # random hands below bring them.
    assert min(kinds["won by folds"], kinds["antes"]) > 0, kinds


def test_pokerkit_chips_follows_the_rules_on_a_hand_worked_out_by_hand() -> None:
    # The adjustment for a win by folds, on a hand small enough to check: blinds 50/100, p3
    # raises to 300, p1 folds, p2 re-raises to 900, p3 folds.  p2's 900 was matched up to 300:
    # it puts in 300 and receives the pot of 50 + 300 + 300 = 650.
    history = HandHistory.loads("""
variant = 'NT'
ante_trimming_status = true
antes = [0, 0, 0]
blinds_or_straddles = [50, 100, 0]
min_bet = 100
starting_stacks = [1000, 1000, 1000]
actions = ['d dh p1 2c3c', 'd dh p2 4c5c', 'd dh p3 6c7c', 'p3 cbr 300', 'p1 f', 'p2 cbr 900', 'p3 f']
""")
    chips = pokerkit_chips(history)
    assert chips.contributed == [50, 300, 300]
    assert chips.received == [0, 650, 0]


# --- random legal hands, played by pokerkit -------------------------------------------------------

RANDOM_HANDS = 150
AUTOMATIONS = (Automation.ANTE_POSTING, Automation.BET_COLLECTION, Automation.BLIND_OR_STRADDLE_POSTING,
               Automation.HAND_KILLING, Automation.CHIPS_PUSHING, Automation.CHIPS_PULLING,
               Automation.RUNOUT_COUNT_SELECTION)
DECK = [rank + suit for rank in "23456789TJQKA" for suit in "cdhs"]


def play_randomly(state: State, rng: random.Random, *, fold: float, raise_to: float,
                  cards: list[str] | None = None) -> None:
    """Play a pokerkit state to its end: cards from a deck (``cards``, the 52 by default) shuffled
    by ``rng`` (so that a seed gives one hand), and each decision drawn: fold with chance ``fold``
    (when facing a bet), else bet or raise with chance ``raise_to - fold`` (to the least, the most
    or between), else check or call."""
    deck = rng.sample(cards or DECK, len(cards or DECK))
    while state.status:
        if state.can_burn_card():
            state.burn_card("??")
        elif state.can_deal_hole():
            state.deal_hole(deck.pop())
        elif state.can_deal_board():
            state.deal_board("".join(deck.pop() for _ in range(state.street.board_dealing_count)))
        elif state.can_show_or_muck_hole_cards():
            state.show_or_muck_hole_cards(True)
        else:
            choice = rng.random()
            if choice < fold and state.checking_or_calling_amount and state.can_fold():
                state.fold()
            elif choice < raise_to and state.can_complete_bet_or_raise_to():
                low = state.min_completion_betting_or_raising_to_amount
                high = state.max_completion_betting_or_raising_to_amount
                assert low is not None and high is not None
                state.complete_bet_or_raise_to(rng.choice([low, high, rng.randint(low, high)]))
            else:
                state.check_or_call()


def random_hand(rng: random.Random) -> tuple[str, Chips]:
    """One legal hand that pokerkit plays with random decisions: its PHH text, finishing stacks
    included, and its chips (:func:`chips_of`).

    Three to nine players (the heads-up blind order is left to a later
    change) and two blinds, no straddle, and in some hands a post (a
    negative blind, live money) by a later seat; no ante, equal antes or a big blind
    ante; stacks from one chip to 200 big blinds, so that blinds and antes
    are posted short, players go all in and side pots are split; no-limit or
    fixed-limit.  A big blind ante is dead money (``ante_trimming_status =
    false``): pokerpipe does not read the status, and pokerkit would return a
    trimmed big blind ante to its poster.
    """
    players = rng.randint(3, 9)
    kind = rng.choice(["none", "equal", "big blind"])
    antes = {"none": [0] * players, "equal": [rng.choice([1, 5, 10])] * players,
             "big blind": [0, 100] + [0] * (players - 2)}[kind]
    trimming = kind != "big blind" and rng.random() < 0.5
    blinds = [50, 100] + [0] * (players - 2)
    if players >= 4 and rng.random() < 0.2:  # a post: a player just seated pays to play at once
        blinds[rng.randrange(3, players)] = -rng.choice([50, 100, 200])
    stacks = [rng.choice([rng.randint(1, 300), rng.randint(300, 3000), rng.randint(3000, 20000)])
              for _ in range(players)]
    if rng.random() < 0.2:
        game = FixedLimitTexasHoldem(AUTOMATIONS, trimming, antes, blinds, 100, 200, mode=Mode.CASH_GAME)
    else:
        game = NoLimitTexasHoldem(AUTOMATIONS, trimming, antes, blinds, 100, mode=Mode.CASH_GAME)
    state = game(stacks, players)
    play_randomly(state, rng, fold=0.4, raise_to=0.65)
    history = HandHistory.from_game_state(game, state)
    history.ante_trimming_status = trimming
    history.finishing_stacks = list(state.stacks)
    text: str = history.dumps()
    return text, chips_of(state)


def test_random_legal_hands_contribute_and_receive_as_pokerkit_says(tmp_path: Path) -> None:
    rng = random.Random(20240611)
    played = [random_hand(rng) for _ in range(RANDOM_HANDS)]
    path = tmp_path / "random.phhs"
    path.write_text("".join(f"[{number}]\n{text}\n\n" for number, (text, _) in enumerate(played, start=1)))
    ours = pokerpipe_chips(path)
    kinds: Counter[str] = Counter()
    disagreements = []
    for number, (text, theirs) in enumerate(played, start=1):
        mine = ours[number]
        assert mine.problem is None, (number, mine.problem)
        players = mine.players
        # Received follows from the finishing stacks pokerkit wrote: it checks the contributions
        # again.  The showdowns themselves are checked by the evaluator, below.
        got = (mine.contributed[:players].tolist(), mine.received[:players].tolist())
        if got != (theirs.contributed, theirs.received):
            disagreements.append((number, got, (theirs.contributed, theirs.received), text))
        kinds["side pots won apart"] += theirs.pots > 1
        kinds["won by folds"] += theirs.won_by_folds
        kinds["big blind ante"] += "antes = [0, 100" in text
        kinds["post"] += ", -" in text.split("blinds_or_straddles", 1)[1].split("\n", 1)[0]
    assert not disagreements, "\n".join(map(str, disagreements[:5]))
    assert min(kinds["side pots won apart"], kinds["won by folds"], kinds["big blind ante"], kinds["post"]) \
        >= RANDOM_HANDS // 10, kinds
    # pokerkit decided the pots; pokerpipe's own evaluator names the same winners where the
    # chips can check them (one pot).
    summary = Run([str(path)], tmp_path / "out").execute()
    assert summary["rows_read"] == RANDOM_HANDS and summary["rows_rejected"] == 0
    assert summary["expected"]["mismatched"] == 0
    assert summary["expected"]["checked"] >= RANDOM_HANDS // 10, summary["expected"]


def test_the_seats_table_of_every_bundled_holdem_hand_is_what_pokerkit_says(tmp_path: Path) -> None:
    """The table as written (``seats.parquet`` of ``pokerpipe run``), not the replay's arrays: each
    player's chips put in and received as pokerkit's state machine has them, and the stack it
    ends with as the record's ``finishing_stacks`` says."""
    import pandas as pd

    Run([str(PHH)], tmp_path / "out", output_format="parquet").execute()
    hands = pd.read_parquet(tmp_path / "out" / "hands.parquet")
    seats = pd.read_parquet(tmp_path / "out" / "seats.parquet").sort_values(["hand_key", "seat"])
    number = dict(zip(hands["hand_key"], hands["hand_key"] & ((1 << 32) - 1)))
    by_hand = {(source, number[key]): group for (key, source), group in
               seats.merge(hands[["hand_key", "source"]], on="hand_key").groupby(["hand_key", "source"])}
    compared = finishing_compared = 0
    for path in bundled_files():
        text = path.read_text()
        document = tomllib.loads(text)
        tables = list(document.values()) if path.suffix == ".phhs" else [document]
        histories = (list(HandHistory.loads_all(text)) if path.suffix == ".phhs"
                     else [HandHistory.loads(text)])
        for ordinal, (table, history) in enumerate(zip(tables, histories, strict=True), start=1):
            if table["variant"] not in HOLDEM:
                continue
            rows = by_hand[(str(path), ordinal)]
            theirs = pokerkit_chips(history)
            assert rows["player"].tolist() == table.get("players", rows["player"].tolist())
            assert rows["contributed"].tolist() == theirs.contributed, (path, ordinal)
            compared += 1
            if "finishing_stacks" in table:
                assert rows["received"].tolist() == theirs.received, (path, ordinal)
                finished = (rows["starting_stack"] + rows["net"]).tolist()
                assert finished == table["finishing_stacks"], (path, ordinal)
                finishing_compared += 1
    assert compared == BUNDLED_HOLDEM and finishing_compared == BUNDLED_HOLDEM - NO_RECORDED_RESULT
