"""War & Combat checks a target first as every system does (`rules.targets.attack_target`), then by its own rules."""
from __future__ import annotations

from rules.errors import InputError, NotAllowed
from tests.rules.war_and_combat.build import duel, fight, near, st


def test_a_strike_at_oneself_or_an_ally_is_refused_in_the_common_words():
    """"an attack or defense versus another participant in the flurry": Borin may not strike himself, nor Dwalin
    of his own side (come to the fight as the flurry runs); each refusal says what to do instead and changes nothing."""
    s = duel()
    fight(s)
    s.add("Dwalin", "fighter=2 weapons=axe", side="dwarves", at=near(s, "D4", "N"), facing="S")
    assert s.refused("attack", actor="Borin", target="Borin") == "Borin cannot attack itself: pick another target."
    assert s.refused("attack", actor="Borin", target="Dwalin") == "Dwalin is on Borin's side: pick an enemy."


def test_a_fighter_out_of_the_fight_is_no_target():
    """"A character may die from blood loss, a mortal wound, or a coup-de-grace": Borin's strike at Grak, dead
    (out of the fight), is refused in those words."""
    s = duel()
    fight(s)
    s.get("Grak").status = "out"
    assert s.refused("attack", actor="Borin", target="Grak") == "Grak is already out of the fight: pick another target."


def test_drive_and_withdraw_ask_for_their_target_in_their_own_verb():
    """"he must retreat one step for every action his opponent wishes to press" / "the opponent may wish to withdraw":
    without `target` each asks for the combatant in its own words; an ally is refused before the flurry's own checks."""
    s = duel()
    fight(s)
    st(s, "Grak").actions = 0
    assert s.refused("act", error=InputError, action="drive", actor="Borin") == "Name the combatant to drive back in `target`."
    assert s.refused("act", error=InputError, action="withdraw", actor="Borin") == "Name the combatant to withdraw from in `target`."
    assert "cannot withdraw from itself" in s.refused("act", action="withdraw", actor="Borin", target="Borin")


def test_a_player_puts_no_rules_state_on_a_fighter_mid_fight() -> None:
    """A stun, a knockout or a pin is the rules' to put on (docs/commands.md: once the fight has started only the GM
    adds or removes an effect the rules read): a player's hand-made one, which the rules would not read, is refused."""
    s = duel()
    fight(s)
    for name in ("stun", "Knockout", "pinned"):
        assert "ask the gm" in s.refused("effect_add", error=NotAllowed, effect=name, actor="Borin", rounds=2, gm=False).casefold()
