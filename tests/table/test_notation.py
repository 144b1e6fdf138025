"""Table dice notation: what a GM may type for each die, and how rolls are shown."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from fadad_agents.rules.core.dice import D20, D100, FOUR_DF, Die
from fadad_agents.table import AnswerError, parse_roll, show_roll


def test_fudge_dice_take_faces_or_a_total() -> None:
    """4dF: '+-0+' (faces) and '+2' / '2' / '-1' / '0' (totals)."""
    assert parse_roll(FOUR_DF, "+-0+") == 1
    assert parse_roll(FOUR_DF, "+ + + +") == 4
    assert parse_roll(FOUR_DF, "+2") == parse_roll(FOUR_DF, "2") == 2
    assert parse_roll(FOUR_DF, "-1") == -1
    assert parse_roll(FOUR_DF, "0") == 0
    assert parse_roll(Die(1, 0), "+") == 1
    assert parse_roll(Die(1, 0), "-") == -1


def test_numbered_dice_take_each_die_or_their_total() -> None:
    """d20 '17'; 2d10 '3 9' or '12'; d100 '47' and '00' (100); Min-Mid-Max 3d6 each die."""
    assert parse_roll(D20, "17") == 17
    assert parse_roll(Die(2, 10), "3 9") == parse_roll(Die(2, 10), "12") == 12
    assert parse_roll(Die(2, 10), "3,9") == 12
    assert parse_roll(D100, "47") == 47
    assert parse_roll(D100, "00") == 100
    assert parse_roll(Die(3, 6, each=True), "4 2 4") == (2, 4, 4)


@pytest.mark.parametrize(
    ("die", "entry", "allowed"),
    [
        (FOUR_DF, "+5", "4dF: four faces of +, - and 0 (like +-0+) or the total from -4 to +4"),
        (FOUR_DF, "+-0", "4dF: four faces"),
        (D20, "21", "d20: a number from 1 to 20"),
        (D20, "x", "d20: a number from 1 to 20"),
        (Die(2, 10), "1", "2d10: two dice from 1 to 10 (like 3 6) or their total from 2 to 20"),
        (Die(2, 10), "0 5", "2d10: two dice"),
        (Die(3, 6, each=True), "12", "3d6: the three dice from 1 to 6, like 3 6 3"),
    ],
)
def test_a_wrong_entry_says_what_is_allowed(die: Die, entry: str, allowed: str) -> None:
    """Out of range, too few dice, a total where each die counts: one line of advice."""
    with pytest.raises(AnswerError) as caught:
        parse_roll(die, entry)
    assert f"{entry!r} is not a roll of {allowed}" in str(caught.value)


@given(
    st.sampled_from([FOUR_DF, Die(1, 0), Die(6, 0), D20, D100, Die(2, 10), Die(3, 6, each=True)]),
    st.data(),
)
def test_a_shown_roll_reads_back_as_itself(die: Die, data: st.DataObject) -> None:
    """show_roll then parse_roll is the identity on every legal roll."""
    if die.faces == 0:
        roll = data.draw(st.integers(-die.number, die.number))
    elif die.each:
        roll = tuple(sorted(data.draw(st.lists(st.integers(1, die.faces), min_size=3, max_size=3))))
    else:
        roll = data.draw(st.integers(die.number, die.number * die.faces))
    assert parse_roll(die, show_roll(die, roll)) == roll
