"""`/roll` as a GM coming from Avrae uses it: advantage and disadvantage, private rolls, and a
reason that goes to the encounter's log."""
from __future__ import annotations

import pytest

from bot.offline.harness import Harness
from rules.dice import Dice, roll_expression, with_advantage
from rules.errors import DiceError
from tests.cogs.fights import setup_fight


@pytest.mark.parametrize(
    "typed, adv, dis, rolled, mode",
    [
        ("1d20+5 adv", False, False, "2d20kh1+5", "advantage"),
        ("1d20+5 ADV", False, False, "2d20kh1+5", "advantage"),
        ("d20 dis", False, False, "2d20kl1", "disadvantage"),
        ("1d20+5", True, False, "2d20kh1+5", "advantage"),
        ("1d20+1d20+2", False, True, "2d20kl1+1d20+2", "disadvantage"),
        ("1d20+5 adv", False, True, "1d20+5", "advantage and disadvantage cancel"),
        ("1d20+5", False, False, "1d20+5", None),
        ("2d6+1", False, False, "2d6+1", None),
    ],
)
def test_advantage_rolls_the_first_d20_twice(typed: str, adv: bool, dis: bool, rolled: str, mode: str | None) -> None:
    """`adv`/`dis` (words or options) make the first plain d20 2d20kh1 / 2d20kl1; both cancel."""
    assert with_advantage(typed, adv, dis) == (rolled, mode)


@pytest.mark.parametrize("typed", ["2d6 adv", "2d20+1 adv", "1d20kh1 dis", "1d200 adv"])
def test_advantage_without_a_plain_d20_is_refused(typed: str) -> None:
    """Advantage on an expression with no plain d20 says what to type instead."""
    with pytest.raises(DiceError, match="no plain `1d20`.*Try `1d20\\+5 adv`"):
        with_advantage(typed)


def test_advantage_keeps_the_higher_and_disadvantage_the_lower() -> None:
    """With the dice 4 and 17, advantage totals 17 + 5 and disadvantage 4 + 5."""
    high = roll_expression(with_advantage("1d20+5 adv")[0], Dice(given=[4, 17]))
    low = roll_expression(with_advantage("1d20+5", dis=True)[0], Dice(given=[4, 17]))
    assert (high.total, low.total) == (22, 9)


async def test_roll_with_advantage_and_a_reason_goes_to_the_log(h: Harness) -> None:
    """In a channel with an encounter, a roll's reply shows the mode and its row in /log has the reason and total."""
    await setup_fight(h)
    [answer] = await h.run("bob", "/roll", dice="1d20+5 adv", **{"for": "perception"})
    assert not answer.ephemeral and "perception" in answer.text and "Advantage" in answer.text
    assert "2d20kh1" in answer.text
    total = answer.text.split("Total: ")[1].split("*")[0]
    [log] = await h.run("bob", "/log", count=1)
    assert f"rolled 2d20kh1+5 (advantage) for perception: {total}" in log.text
    undo = (await h.run("gm", "/undo"))[0]  # a roll is not an action to undo: the last add is
    assert "/combatant add" in undo.text and "Grak" in undo.text, undo.text


async def test_private_roll_reaches_only_the_roller_and_the_gm(h: Harness) -> None:
    """`private:true`: the roller's reply is ephemeral, the GM gets it by DM, the log only says a roll was made."""
    await setup_fight(h)
    sent = await h.run("bob", "/roll", dice="1d20+2", private="true", **{"for": "insight on the duke"})
    [answer] = [s for s in sent if s not in h.direct_messages("gm")]
    assert answer.ephemeral and "insight on the duke" in answer.text and "Only you and the GM" in answer.text
    [dm] = h.direct_messages("gm")
    total = answer.text.split("Total: ")[1].split("*")[0]
    assert "private" in dm.text and "insight on the duke" in dm.text and f"Total: {total}" in dm.text
    assert dm.pinged_users() == []
    [log] = await h.run("tess", "/log", count=1)
    assert "rolled privately" in log.text and "duke" not in log.text and total not in log.text.split("privately")[1]


async def test_private_roll_with_no_encounter_says_no_gm_sees_it(h: Harness) -> None:
    """Without an encounter there is no GM: the private roll says so and is shown only to the roller."""
    [answer] = await h.run("bob", "/roll", dice="d20", private="true")
    assert answer.ephemeral and "no GM sees this roll" in answer.text
    assert h.direct_messages("gm") == []
