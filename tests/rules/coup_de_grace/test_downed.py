"""Coup-De-Grace at 0 HP and below: downed minis, crawls, recovery, out of action, victory."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from rules.models import Encounter
from rules.systems.coup_de_grace import DRAFT_VARIANT
from tests.rules.coup_de_grace.build import (
    SWORD,
    events_of,
    fight,
    mods,
    one,
    refused,
    resolve,
    run,
    text,
)


# -- downed, out of action, recovery, victory ---------------------------------------------------------------------
def downed_fight(variant: str | None = None, **options: Any) -> Encounter:
    """T (side b) is downed by A in round 1; it is now b's turn to activate T."""
    enc = fight(
        ("A", "a", "class=light weapons=sword,axe", "C3", "E"),
        ("T", "b", "class=light weapons=sword hp=1", "D3", "W"),
        ("U", "b", SWORD, "J9", "N"),
        variant=variant,
        **options,
    )
    enc = run(run(enc, "attack", [4], actor="A", target="T", weapon="sword"), "next")
    assert enc.get("T").status == "downed"
    return enc


def test_worked_example_two_damage_to_a_one_hp_mini_is_out_of_action() -> None:
    """2 HP damage to a 1 HP mini takes it out of action without passing through downed; victory follows."""
    enc = fight(("A", "a", "class=light weapons=axe", "C3", "E"), ("T", "b", "class=light hp=1", "D3", "W"))
    res = resolve(enc, "attack", [6], actor="A", target="T")
    t = res.encounter.get("T")
    assert (t.hp, t.status, t.position, t.facing) == (-1, "out", None, None)
    assert [e.status for e in events_of(res, "status")] == ["out"]
    assert (res.encounter.winner, one(res, "victory").side) == ("a", "a")


def test_an_attack_stops_hit_points_at_minus_one_as_the_hp_command_does() -> None:
    """"If a mini is reduced to -1HP or less it is considered to be out of action. Remove the mini from the board, and
    it takes no further part in the battle": 2 HP damage (the axe's 6) to a downed mini at 0 HP leaves it at -1, where
    `/combatant hp` stops too, and the reply says where it stopped."""
    enc = fight(
        ("A", "a", "class=light weapons=sword,axe", "C3", "E"),
        ("T", "b", "class=light hp=1", "D3", "W"),
        ("U", "b", SWORD, "J9", "N"),
    )
    enc = run(enc, "attack", [4], actor="A", target="T", weapon="sword")
    assert enc.get("T").hp == 0
    res = resolve(enc, "attack", [6], actor="A", target="T", weapon="axe")
    wounded = one(res, "damage")
    assert (wounded.amount, wounded.before, wounded.after, res.encounter.get("T").hp) == (2, 0, -1, -1)
    assert "**T** takes 2 damage (0 → -1; stops at -1, out of action)" in text(res)
    page = " ".join((Path(__file__).parents[3] / "docs" / "systems" / "coup-de-grace.md").read_text(encoding="utf-8").split())
    assert "an attack's damage and `/combatant hp` stop a loss at −1" in page
    assert res.encounter.get("T").status == "out"


def test_a_downed_mini_has_no_facing_and_attacks_once_at_minus_two() -> None:
    """A downed mini attacks an adjacent foe at -2, once, and its activation then ends."""
    enc = downed_fight()
    res = resolve(enc, "attack", [6], actor="T", target="A")
    attack = one(res, "attack")
    assert (mods(attack), attack.roll.total, attack.roll.success) == ({"downed": -2}, 4, True)
    assert res.encounter.current is None and res.encounter.get("T").state.done
    assert "already activated" in refused(res.encounter, "move", actor="T", to="D4")


def test_a_downed_mini_may_shoot_without_an_arc() -> None:
    """A downed shooter has no facing: range and sight suffice, at -2, for no MP."""
    enc = fight(
        ("A", "a", "class=light weapons=sword", "C3", "E"),
        ("Z", "a", SWORD, "D6", "N"),
        ("T", "b", "class=light weapons=bow hp=1", "D3", "W"),
        ("U", "b", SWORD, "J9", "N"),
    )
    enc = run(run(enc, "attack", [4], actor="A", target="T"), "next")
    attack = one(resolve(enc, "attack", [6], actor="T", target="Z"), "attack")
    assert (attack.mode, attack.range, attack.cost, mods(attack)) == (
        "ranged",
        3,
        0,
        {"downed": -2},
    )


@pytest.mark.parametrize(
    ("variant", "to", "ok"),
    [(None, "D4", True), (None, "D5", False), (None, "E4", False), (DRAFT_VARIANT, "E4", True)],
)
def test_a_downed_mini_crawls_one_square_as_its_activation(variant: str | None, to: str, ok: bool) -> None:
    """Crawl one square (newer: N E S W; draft: any direction), which ends the activation."""
    enc = downed_fight(variant)
    if ok:
        res = resolve(enc, "move", actor="T", to=to)
        assert (res.encounter.get("T").position, res.encounter.get("T").facing) == (to, None)
        assert res.encounter.current is None and "crawls" in text(res)
    else:
        assert "can only crawl one square" in refused(enc, "move", actor="T", to=to)


def test_a_downed_mini_cannot_turn() -> None:
    """A downed mini has no facing to change."""
    assert "has no facing" in refused(downed_fight(), "move", actor="T", facing="N")


@pytest.mark.parametrize(
    ("roll", "facing", "options", "status", "hp", "after"),
    [
        (5, "S", {}, "active", 1, "S"),
        (6, None, {}, "active", 1, "W"),
        (4, None, {}, "downed", 0, None),
        (5, None, {"recover_on": 6}, "downed", 0, None),
    ],
)
def test_dramatic_recovery_stands_up_on_five_or_more(
    roll: int, facing: str | None, options: dict[str, int], status: str, hp: int, after: str | None
) -> None:
    """Roll a d6: 5+ stands up with 1 HP facing as chosen (default: as before); 4 or less nothing."""
    res = resolve(downed_fight(**options), "act", [roll], actor="T", action="recover", facing=facing)
    t = res.encounter.get("T")
    assert (t.status, t.hp, t.facing) == (status, hp, after)
    assert one(res, "check").roll.success == (status == "active") and res.encounter.current is None


def test_only_a_downed_mini_recovers() -> None:
    """`/act action:recover` is refused for a standing mini; unknown actions list the known ones."""
    enc = fight(("A", "a", SWORD, "C3", "E"), ("T", "b", SWORD, "D3", "W"))
    assert "A is not downed" in refused(enc, "act", [6], actor="A", action="recover")
    assert "Actions: recover" in refused(enc, "act", actor="A", action="dance")


def test_a_downed_mini_at_minus_one_is_out() -> None:
    """A downed mini hit again goes to -1 HP: out of action and off the board."""
    enc = fight(
        ("A", "a", "class=light weapons=sword,axe", "C3", "E"),
        ("T", "b", "class=light hp=1", "D3", "W"),
        ("U", "b", SWORD, "J9", "N"),
    )
    enc = run(enc, "attack", [4], actor="A", target="T", weapon="sword")
    res = resolve(enc, "attack", [3], actor="A", target="T", weapon="axe")
    assert (res.encounter.get("T").status, res.encounter.get("T").position) == ("out", None)
    assert "T" not in res.encounter.order
    assert "already out of action" in refused(res.encounter, "attack", [6], actor="A", target="T")


