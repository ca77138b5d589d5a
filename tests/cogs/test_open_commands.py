"""The open system's commands through the real command tree (docs/systems/open.md, docs/commands.md)."""
from __future__ import annotations

from pathlib import Path

from bot.offline.harness import Harness, Sent


def reply(sent: list[Sent]) -> Sent:
    """The reply to the command (not the board or a ping)."""
    return next(s for s in sent if s.kind in ("response", "followup"))


async def nova_fight(h: Harness) -> None:
    """Wiz (bob's, a 10 ft nova around itself) acts first; Gob (the GM's) stands next to it."""
    await h.run("gm", "/encounter start", system="open", name="N", map="12x10")
    await h.run("gm", "/combatant add", name="Wiz", owner="@bob", at="C6",
                sheet="hp=20 init=+60 weapons=nova:save=wis:12:2d8:psychic:area=burst10")
    await h.run("gm", "/combatant add", name="Gob", side="foes", at="D6", sheet="hp=40 init=+0")
    await h.run("gm", "/init roll")


async def test_a_burst_without_range_needs_no_target(h: Harness) -> None:
    """"a burst with no range is around the attacker and leaves the attacker out: `/attack weapon:nova` with no target
    or cell": it catches Gob beside Wiz."""
    await nova_fight(h)
    r = reply(await h.run("bob", "/attack", weapon="nova"))
    assert "a 10 ft burst at C6" in r.text and "caught: Gob" in r.text


async def test_a_player_naming_their_own_acting_combatant_is_not_sent_to_a_foe(h: Harness) -> None:
    """A player's `target` naming their own acting combatant is refused without pointing them at the GM's Gob."""
    await nova_fight(h)
    r = reply(await h.run("bob", "/attack", weapon="nova", target="Wiz"))
    assert r.ephemeral and "name another `target`" in r.text and "Gob" not in r.text


def _commands() -> str:
    return " ".join((Path(__file__).parents[2] / "docs" / "commands.md").read_text(encoding="utf-8").split())


async def test_the_gm_cannot_pass_a_combatant_before_its_turn(h: Harness) -> None:
    """docs/commands.md: "the damage-grid game, War & Combat and the open system have no way to pass a combatant before
    its turn and refuse, saying why": the GM's `/init next combatant:Gob` in Wiz's turn is refused."""
    assert ("the damage-grid game, War & Combat and the open system have no way to pass a combatant before its turn "
            "and refuse, saying why") in _commands()
    await nova_fight(h)
    r = reply(await h.run("gm", "/init next", combatant="Gob"))
    assert r.ephemeral and "Open d20 cannot pass a combatant before its turn comes" in r.text


async def test_init_places_one_joining_mid_fight(h: Harness) -> None:
    """docs/commands.md: "`init:12` sets its initiative and places it in the order (where the system counts initiative:
    Knights of Valour, TOTE, the open system)": Orc joins at 30, ahead of Gob (a d20 and +0)."""
    assert ("`init:12` sets its initiative and places it in the order (where the system counts initiative: Knights of "
            "Valour, TOTE, the open system)") in _commands()
    await nova_fight(h)
    r = reply(await h.run("gm", "/combatant add", name="Orc", side="foes", at="H6", sheet="hp=5", init=30))
    assert "**Orc** joins the fight in round 1" in r.text
    order = reply(await h.run("gm", "/init order")).text
    assert order.index("**Wiz**") < order.index("**Orc**") < order.index("**Gob**")


async def test_a_player_whose_only_combatant_is_dead_is_told_so(h: Harness) -> None:
    """docs/systems/open.md: "one that is out (dead) stays out: `/combatant hp` on it is refused, and the GM's
    `/combatant edit sheet:"hp=5"` brings it back"; docs/commands.md: "Errors are shown only to you and change
    nothing". Wiz killed outright, bob's `/attack` says Wiz is out of the fight, not that bob has no combatant."""
    await nova_fight(h)
    await h.run("gm", "/combatant add", name="Ana", owner="@ann", at="A1", sheet="hp=20")
    await h.run("gm", "/combatant hp", combatant="Wiz", change=-40)
    r = reply(await h.run("bob", "/attack", target="Gob"))
    assert r.ephemeral and "Wiz is out of the fight" in r.text and "add one" not in r.text


async def test_naming_ones_own_combatant_as_target_before_the_fight_is_not_told_it_is_its_turn(h: Harness) -> None:
    """docs/commands.md: "Where `combatant` is left out, it is your combatant whose turn it is (or your only one)":
    before `/init roll` it is nobody's turn, so bob's `/attack target:Wiz` is told the fight has not started, not
    "It is Wiz's turn"."""
    await h.run("gm", "/encounter start", system="open", name="N", map="12x10")
    await h.run("gm", "/combatant add", name="Wiz", owner="@bob", at="C6", sheet="hp=20")
    r = reply(await h.run("bob", "/attack", target="Wiz"))
    assert r.ephemeral and "turn" not in r.text.replace("`/init roll`", "") and "Combat has not started" in r.text
