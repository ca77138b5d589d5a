"""Who acts: a command that names no combatant acts with the one whose turn it is."""
from __future__ import annotations

import pytest

from bot.offline.harness import Harness, channel_id_of, user_id_of
from bot.service import Ctx
from bot.service.permissions import authorise, default_actor
from rules.actions import Next
from rules.errors import InputError, NotYourTurn
from rules.registry import get_system
from rules.turns import Turn
from tests.cogs.fights import started_cdg
from tests.scenario import Scenario


async def test_a_command_naming_no_combatant_acts_with_the_turn_it_is_given(h: Harness) -> None:
    """`authorise` takes the turn its caller holds (the cached encounter's) instead of working it out again, and works it out when not given."""
    await started_cdg(h)
    live = await h.bot.service.encounters.need(str(channel_id_of("general")))
    enc, system = live.enc, get_system(live.enc.system)
    gm = Ctx(channel_id=str(channel_id_of("general")), user_id=str(user_id_of("gm")))
    action = Next(is_gm=True, user_id=gm.user_id)
    now = system.turn(enc)
    other = next(c.name for c in enc.combatants if c.name not in now.actors)
    assert authorise(enc, system, gm, action, Turn(actors=(other,), current=other)).actor == other
    assert authorise(enc, system, gm, action).actor == now.actors[0] != other
    assert authorise(enc, system, gm, action, live.turn()).actor == now.actors[0]


def dwarves(owner: str | None) -> Scenario:
    """A Coup-De-Grace encounter with two dwarves of ``owner`` (None: the GM's), Borin and Thrain."""
    s = Scenario("coup-de-grace", map="8x6")
    s.add("Borin", "class=heavy weapons=hammer", side="dwarves", at="B2", facing="E", owner=owner)
    return s.add("Thrain", "class=heavy weapons=hammer", side="dwarves", at="B4", facing="E", owner=owner)


def test_a_gm_with_two_combatants_to_act_is_asked_to_name_one_not_which_acts() -> None:
    """Coup-De-Grace: the dwarves' activation, either dwarf may take it; the GM's `/init next` naming neither is
    asked to name one (it ends an activation: "which acts" would read wrong), listing both."""
    s = dwarves(owner=None)
    s.add("Grak", "class=light weapons=axe", side="orcs", at="F3", facing="W", owner=None)
    s.run("init_roll")
    with pytest.raises(InputError) as asked:
        default_actor(s.enc, s.system, "gm-id", is_gm=True)
    assert asked.value.message == "Name the combatant with `combatant`: Borin, Thrain."


def test_a_player_with_several_combatants_none_acting_is_told_whose_turn_it_is() -> None:
    """"A player's `/init next` ends only a turn of their own combatant" (docs/commands.md): Coup-De-Grace, the orcs'
    activation; a player with two dwarves, neither able to act, naming none is told it is the orcs' turn and not
    one of theirs (they were asked to name a combatant, which `/init next` then refuses), as with one dwarf; before
    the fight, asked to name one, theirs are listed."""
    s = dwarves(owner="bob")
    with pytest.raises(InputError) as asked:
        default_actor(s.enc, s.system, "bob", is_gm=False)
    assert asked.value.message == "Name the combatant with `combatant` (yours: Borin, Thrain)."
    s.add("Grak", "class=light weapons=axe", side="orcs", at="F3", facing="W", owner=None)
    s.add("Snaga", "class=light weapons=axe", side="orcs", at="F5", facing="W", owner=None)
    s.add("Ugluk", "class=light weapons=axe", side="orcs", at="F1", facing="W", owner=None)
    s.run("init_roll")
    with pytest.raises(NotYourTurn) as told:
        default_actor(s.enc, s.system, "bob", is_gm=False)
    assert told.value.message.startswith(
        "It is orcs' turn (to activate one of Grak, Snaga, Ugluk), not one of yours (Borin, Thrain): wait for your turn")
