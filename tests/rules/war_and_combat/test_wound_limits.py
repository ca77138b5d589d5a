"""What wounded limbs may no longer do: fumble? and stumble? for the round, fumble and stumble for good."""
from __future__ import annotations

import pytest

from rules.systems.war_and_combat.attacks import defense
from tests.rules.war_and_combat.build import duel, fight, st
from tests.scenario import Scenario


def to_grak(s: Scenario) -> None:
    """Borin holds: the attack is Grak's."""
    s.run("act", action="hold", actor="Borin")
    assert s.enc.current == "Grak"


def test_a_failed_fumble_check_makes_the_arm_unusable_this_round():
    """Fumble?: "(3) the arm cannot be used to perform an action for the remainder of the round"."""
    s = duel()
    fight(s)
    s.run("attack", [4, 4, 3, 2, 2, 3, 3, 2, 2, 3, 3, 3, 1], actor="Borin", target="Grak", options={"side": "right"})
    effect = next(e for e in s.enc.effects if e.target == "Grak")
    assert (effect.code, effect.ends, effect.left) == ("right arm unusable", "round_end", 1)
    to_grak(s)
    assert "has dropped its axe" in s.refused("attack", [4, 4, 4], actor="Grak", target="Borin")  # "any item carried is dropped"
    st(s, "Grak").dropped.clear()  # picked up again: the arm still serves no action this round
    text = s.refused("attack", [4, 4, 4], actor="Grak", target="Borin")
    assert "right arm" in text and "hand=left" in text


def test_a_fumble_impairs_the_weapon_arm_for_good():
    """Fumble: "he can no longer make attacks or defenses with the injured arm" (the weapon in the right hand by default)."""
    s = duel()
    fight(s)
    s.run("attack", [4, 4, 3, 2, 2, 3, 4, 3, 3, 1], actor="Borin", target="Grak", options={"side": "right"})
    assert st(s, "Grak").impaired == ["right arm"]
    to_grak(s)
    assert "has dropped its axe" in s.refused("attack", [4, 4, 4], actor="Grak", target="Borin")  # "automatically dropped"
    st(s, "Grak").dropped.clear()  # picked up again: the arm still makes no attack
    assert "right arm" in s.refused("attack", [4, 4, 4], actor="Grak", target="Borin")


def test_a_left_handed_fighter_strikes_with_the_left_arm():
    """Sheet `hand=left`: the weapon is in the left hand, so an impaired right arm does not stop its attack."""
    s = duel(grak="hand=left")
    fight(s)
    st(s, "Grak").impaired = ["right arm"]
    to_grak(s)
    res = s.run("attack", [4, 4, 4], actor="Grak", target="Borin")
    assert res.events[0].roll.total == 14


def test_an_impaired_shield_arm_gives_no_shield_bonus():
    """No defenses with the injured arm: a shield on an impaired (or unusable) arm adds nothing to Defense."""
    s = duel(grak="shield=large")
    grid, opts = s.enc.grid(), s.system.option_values(s.enc)
    assert defense(s.enc, opts, grid, s.get("Grak"), s.get("Borin")) == (10 + 3 + 2, "front")
    st(s, "Grak").impaired = ["left arm"]
    assert defense(s.enc, opts, grid, s.get("Grak"), s.get("Borin")) == (10 + 3, "front")


def test_a_failed_stumble_check_keeps_the_fighter_down_this_round():
    """Stumble?: "may not stand on the leg for the rest of the round": standing is refused until the round ends."""
    s = duel()
    fight(s)
    s.run("attack", [4, 4, 3, 5, 5, 5, 3, 2, 2, 3, 3, 3], actor="Borin", target="Grak")
    assert st(s, "Grak").fallen
    s.run("act", action="hold", actor="Borin")
    s.run("act", action="hold", actor="Grak")
    assert s.enc.phase == "adjustment" and s.enc.current == "Grak"
    assert "until the round ends" in s.refused("act", action="stand", actor="Grak")


def test_two_impaired_legs_crawl_at_defense_five_plus_fighter_rank():
    """Stumble: "or to a crawl if both legs are impaired. A crawling character has a base Defense of 5, plus Fighter rank"; it cannot stand."""
    s = duel()
    fight(s)
    st(s, "Grak").impaired = ["left leg", "right leg"]
    grid, opts = s.enc.grid(), s.system.option_values(s.enc)
    assert defense(s.enc, opts, grid, s.get("Grak"), s.get("Borin")) == (5 + 3, "crawling")
    st(s, "Grak").fallen = True
    s.run("act", action="hold", actor="Borin")
    s.run("act", action="hold", actor="Grak")
    assert "legs" in s.refused("act", action="stand", actor="Grak")


def test_switching_the_weapon_hand_is_a_quick_action():
    """`/act action:wield options:"hand=left"` moves the weapon to the left hand (and the shield to the right arm)."""
    s = duel()
    s.run("init_roll", [5, 5, 4, 2, 3, 2])
    assert s.enc.current == "Borin"
    st(s, "Borin").impaired = ["right arm"]
    s.run("act", action="wield", actor="Borin", options={"hand": "left"})
    assert st(s, "Borin").hand == "left" and st(s, "Borin").quick
    assert "`hand` is right or left" in s.refused("act", action="wield", actor="Borin", options={"hand": "both"})


def test_a_disarmed_fighter_drops_its_weapon_until_it_picks_it_up():
    """Fumble-XX: "On a failure, drop whatever is carried" ("1-3 Drop item at feet"): no attack with it until
    `/act action:pickup` picks it up ("Pick Up Small Item", a quick action)."""
    s = duel()
    fight(s, borin="disarm")
    s.run("attack", [4, 4, 3, 4, 4, 3, 2, 2, 2, 2, 3, 3], actor="Borin", target="Grak")  # Fumble-10 missed by 2
    assert st(s, "Grak").dropped == ["axe"]
    to_grak(s)
    assert "dropped its axe" in s.refused("attack", [4, 4, 4], actor="Grak", target="Borin")
    s.run("act", action="hold", actor="Grak")  # Borin held already: the flurry ends
    assert s.enc.phase == "adjustment" and s.enc.current == "Grak"
    assert st(s, "Grak").dropped_at == {"axe": s.get("Grak").position}
    assert "lies on the ground" in s.refused("act", action="wield", actor="Grak", weapon="axe")
    s.run("act", action="pickup", actor="Grak", options={"axe": ""})
    assert st(s, "Grak").dropped == [] and st(s, "Grak").quick


def test_a_fumble_of_the_shield_arm_drops_the_shield():
    """Fumble?: "any item carried is dropped": on the shield arm, the shield (no bonus after the round either)."""
    s = duel(grak="shield=large")
    fight(s)
    s.run("attack", [5, 4, 3, 2, 2, 3, 3, 2, 2, 3, 3, 3, 1], actor="Borin", target="Grak")  # left arm, fumble? failed
    assert st(s, "Grak").dropped == ["shield"]
    s.enc.effects = []  # the round's unusable arm is over
    grid, opts = s.enc.grid(), s.system.option_values(s.enc)
    assert defense(s.enc, opts, grid, s.get("Grak"), s.get("Borin"))[0] == 10 + 3


def test_the_board_shows_held_dropped_and_impaired():
    """The status line names what a fighter's limbs and hands can no longer do."""
    s = duel()
    fight(s)
    st(s, "Grak").impaired, st(s, "Grak").dropped = ["right arm"], ["axe"]
    st(s, "Grak").restrict, st(s, "Grak").restrict_by = 10, "Borin"
    line = s.system.present.status_line(s.enc, s.get("Grak"), s.system.facts(s.enc))
    assert "impaired right arm" in line and "dropped axe" in line and "held (Restrict-10)" in line


def test_a_two_handed_weapon_needs_both_arms():
    """"he can no longer make attacks ... with the injured arm": a polearm (or two-handed sword, bow, longbow, crossbow) needs both arms."""
    s = duel(grak="weapons=polearm skills=polearm:2")
    fight(s)
    st(s, "Grak").impaired = ["left arm"]
    to_grak(s)
    assert "both arms" in s.refused("attack", [4, 4, 4], actor="Grak", target="Borin")


def test_a_fumble_of_an_empty_arm_drops_nothing():
    """"any item carried is dropped": a fumble of the arm without weapon or shield drops nothing."""
    s = duel()
    fight(s)
    s.run("attack", [4, 4, 3, 2, 2, 3, 3, 2, 2, 3, 3, 3], actor="Borin", target="Grak")  # left arm: no shield there
    assert st(s, "Grak").dropped == []


def test_a_dropped_weapon_threatens_nothing_until_picked_up():
    """A fighter whose weapon in hand lies on the ground holds no zone of threat or danger, so it
    engages nobody; `wield` picks it up and the zones come back."""
    from rules.systems.war_and_combat.zones import danger, engaged_with, threat

    s = duel()
    grid = s.enc.grid()
    borin, grak = s.get("Borin"), s.get("Grak")
    assert threat(grid, borin) and borin.name in [e.name for e in engaged_with(s.enc, grid, grak)]
    st(s, "Borin").dropped = ["broadsword"]
    assert not threat(grid, borin) and not danger(grid, borin)
    assert threat(grid, grak)  # Grak's axe still threatens Borin: they stay engaged through it
    st(s, "Borin").dropped = []
    assert threat(grid, borin)


def test_a_fumbled_shield_lies_1d6_1_metres_away_and_is_picked_up_there():
    """Fumble?: "any item carried is dropped 1d6-1 meters from the character": a 5 throws the shield 4 m (two
    hexes) the way a 1d6 says (2: NE); "Pick Up Small Item" is a quick action where it lies, and the map shades it."""
    from tests.rules.war_and_combat.build import near

    s = duel(grak="shield=large")
    fight(s)
    grak = s.get("Grak").position
    s.run("attack", [5, 4, 3, 2, 2, 3, 3, 2, 2, 3, 3, 3, 5, 2], actor="Borin", target="Grak")
    lies = near(s, grak, "NE", "NE")
    assert st(s, "Grak").dropped_at == {"shield": lies}
    assert f"dropped shield (at {lies})" in s.system.present.status_line(s.enc, s.get("Grak"), s.system.facts(s.enc))
    s.run("act", action="hold", actor="Borin")
    s.run("act", action="hold", actor="Grak")
    assert s.enc.current == "Grak"
    assert any(h.kind == "dropped item" and h.cell.name == lies for h in s.system.highlights(s.enc))
    assert f"lies at {lies}" in s.refused("act", action="pickup", actor="Grak", options={"shield": ""})
    s.get("Grak").position = lies
    s.run("act", action="pickup", actor="Grak", options={"shield": ""})
    assert st(s, "Grak").dropped == [] and st(s, "Grak").dropped_at == {}


def test_a_sheathed_weapon_threatens_nothing_until_drawn():
    """"Sheathe weapon" is a full action, "Draw Weapon" a quick one: sheathed, the broadsword holds no zone of
    threat and strikes nobody; `wield` draws it again."""
    from rules.systems.war_and_combat.zones import threat

    s = duel()
    s.get("Grak").position = "L10"
    s.run("init_roll", [5, 5, 4, 2, 3, 2])
    grid = s.enc.grid()
    assert s.enc.current == "Borin" and threat(grid, s.get("Borin"))
    res = s.run("act", action="sheathe", actor="Borin")
    assert "sheathes its broadsword" in s.text(res)[0] and not threat(grid, s.get("Borin"))
    assert st(s, "Borin").mp == 0
    assert "sheathed already" in s.refused("act", action="sheathe", actor="Borin")
    s.run("act", action="wield", actor="Borin", weapon="broadsword")
    assert threat(grid, s.get("Borin")) and not st(s, "Borin").sheathed


def test_sheathing_is_a_full_action():
    """"Full Actions prohibit movement": a fighter who has moved this phase cannot sheathe its weapon in it."""
    s = duel()
    s.get("Grak").position = "L10"
    s.run("init_roll", [5, 5, 4, 2, 3, 2])
    s.run("move", actor="Borin", path="N")
    assert "full action" in s.refused("act", action="sheathe", actor="Borin")


def test_a_serious_leg_wound_keeps_the_fighter_down_this_round():
    """Stumble: "Like the Stumble? check, except the character automatically falls down", and Stumble? "may not
    stand on the leg for the rest of the round": after a serious leg wound standing is refused until the round ends."""
    s = duel()
    fight(s)
    s.run("act", action="damage", target="Grak", options={"serious": "", "left": "", "leg": ""})
    assert st(s, "Grak").fallen and st(s, "Grak").impaired == ["left leg"]
    s.run("act", action="hold", actor="Borin")
    s.run("act", action="hold", actor="Grak")
    assert s.enc.phase == "adjustment" and s.enc.current == "Grak"
    assert "until the round ends" in s.refused("act", action="stand", actor="Grak")


def test_a_dropped_item_says_how_far_and_which_way_it_lands():
    """Fumble?: "any item carried is dropped 1d6-1 meters from the character"; Fumble-XX "4+ Item goes flying 1d6 hexes
    away in random direction": the reply says in words the distance (metres and hexes) and the direction the dice
    gave, and the hex, not the dice alone."""
    from tests.rules.war_and_combat.build import near

    s = duel(grak="shield=large")
    fight(s)
    grak = s.get("Grak").position
    res = s.run("attack", [5, 4, 3, 2, 2, 3, 3, 2, 2, 3, 3, 3, 5, 2], actor="Borin", target="Grak")
    said = "\n".join(s.text(res)).replace("**", "").replace("✍", "")
    lies = near(s, grak, "NE", "NE")
    assert (f"Grak drops its shield: 🎲 5, 2 (1d6-1 m, then 1d6 for the direction): it lands 4 m away, 2 hexes to the "
            f"north-east, at {lies}") in said


@pytest.mark.parametrize("wall_at", [1, 2])
def test_a_dropped_item_stopped_by_a_wall_says_where_it_comes_to_rest(wall_at: int):
    """docs/systems/war-and-combat.md: a fumble throws it "1d6-1 meters" ... "(it stops short of a wall or the
    edge); the reply says it in words after the dice": the shield the dice throw 4 m (2 hexes) north-east, with a wall
    in the first hex, stays at Grak's feet and is not said to land 4 m away or "0 hexes" off; with the wall in the
    second hex it flies 1 hex, stopped 1 short of the 2, and is not said to land 4 m away either."""
    from tests.rules.war_and_combat.build import near

    s = duel(grak="shield=large")
    fight(s)
    grak = s.get("Grak").position
    s.enc.map.blocked.append(near(s, grak, *["NE"] * wall_at))
    res = s.run("attack", [5, 4, 3, 2, 2, 3, 3, 2, 2, 3, 3, 3, 5, 2], actor="Borin", target="Grak")
    said = "\n".join(s.text(res)).replace("**", "").replace("✍", "")
    dice = "Grak drops its shield: 🎲 5, 2 (1d6-1 m, then 1d6 for the direction): "
    if wall_at == 1:
        assert (dice + "it would fly 4 m (2 hexes) to the north-east, but a wall or the map's edge stops it at its "
                f"feet, at {grak}") in said
    else:
        assert (dice + "it flies 1 hex to the north-east (stopped 1 short of the 2 by a wall or the map's edge), "
                f"at {near(s, grak, 'NE')}") in said
    assert "m away" not in said and "0 hexes" not in said
