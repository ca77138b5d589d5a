"""`/encounter settings options:` is autocompleted from the system's declared options."""
from __future__ import annotations

from bot.offline.harness import Harness


async def test_option_names_and_values_are_offered_from_the_declarations(h: Harness) -> None:
    """A partial key offers `key=`; a key with listed values offers each value and `default`."""
    await h.run("gm", "/encounter start", system="coup-de-grace", name="Bridge", map="8x6")
    names = await h.autocomplete("gm", "/encounter settings", "options", "ra")
    assert names == ["range_increment=", "range_walls="]
    values = await h.autocomplete("gm", "/encounter settings", "options", "reach=3 tie=")
    assert values == ["reach=3 tie=roll", "reach=3 tie=join", "reach=3 tie=default"]
    yes_no = await h.autocomplete("gm", "/encounter settings", "options", "downed_adjacent=n")
    assert yes_no == ["downed_adjacent=no"]


async def test_no_options_are_offered_without_an_encounter(h: Harness) -> None:
    """In a channel with no encounter there is nothing to offer."""
    assert await h.autocomplete("gm", "/encounter settings", "options", "") == []


async def test_act_words_are_offered_from_the_chosen_actions_declaration(h: Harness) -> None:
    """`/act options:` offers the words the chosen action declares: its bands alone, then `key=` forms."""
    await h.run("gm", "/encounter start", system="tote", name="Ford")
    words = await h.autocomplete("gm", "/act", "options", "keep=2 c", action="move")
    assert words == ["keep=2 close"]
    assert await h.autocomplete("gm", "/act", "options", "b", action="assist") == ["bonus="]
    assert await h.autocomplete("gm", "/act", "options", "", action="fly") == []


async def test_attack_words_are_offered_from_the_commands_declaration(h: Harness) -> None:
    """`/attack options:` offers the words the system declares for `/attack`: flags by name, numbers as `key=`."""
    await h.run("gm", "/encounter start", system="knights-of-valour", name="Keep", map="8x6")
    assert await h.autocomplete("gm", "/attack", "options", "d", target="Grak") == ["dis", "def=", "dmg="]
