"""Applying final faces to a damage grid: Shield, then Body, transfer arrows, Arsenal, Mind 0 and Health 0."""
from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rules.sheet import parse_pairs
from rules.systems.damage_grid.damage import Transfer, apply_faces, harm
from rules.systems.damage_grid.events import GridDamage
from rules.systems.damage_grid.flips import (
    SEARCH_LIMIT,
    apply_flips,
    best_flips,
    parse_flips,
    target_flips,
)
from rules.systems.damage_grid.grid import HUMANOID, parse_grid
from rules.systems.damage_grid.state import DgCombatant
from tests.rules.damage_grid.build import duel, events

FULL = {"mind": 2, "health": 3, "body": 2, "shield": 1, "speed": 4}


def test_mind_hit_through_body_two_renders_the_target_inert():
    """Meena rolls 1, 3, 4, 4 with Accuracy 3, flips "3, 4 and 4 all to 1, for a total of 4 hits against Mind. The
    target's Body prevents 2 of the hits leaving two to get through which reduce the target's Mind to 0"."""
    faces = apply_flips([1, 3, 4, 4], best_flips([1, 3, 4, 4], 3, "mind", HUMANOID))
    d = apply_faces(faces, HUMANOID, {"mind": 2, "health": 3, "body": 2, "shield": 2, "speed": 4}, shield=False)
    mind = d.at("mind")
    assert (mind.rolled, mind.shield, mind.body, mind.taken, mind.before, mind.after) == (4, 0, 2, 2, 2, 0)
    assert d.inert and not d.killed and d.values["mind"] == 0 and d.mind_lost == 2


def test_meenas_gravity_saber_on_a_default_humanoid():
    """3, 3, 5, 4 with the flip 5>3 (3, 3, 3, 4) from the front: no Shield; Body 1 stops the Shield square's hit, as
    "Shields and Body will always stop damage to other grid squares", and the three on Body wear it down."""
    faces = apply_flips([3, 3, 5, 4], parse_flips("5>3", [3, 3, 5, 4], 2))
    d = apply_faces(faces, HUMANOID, HUMANOID.start_values(), shield=False)
    body, shield = d.at("body"), d.at("shield")
    assert (body.rolled, body.body, body.taken, body.passed) == (3, 0, 1, 2)
    assert (shield.rolled, shield.body, shield.taken) == (1, 1, 0)
    assert d.transfers == [Transfer("body", "health", 2)]
    assert d.values == {"mind": 2, "health": 1, "body": 0, "shield": 0, "speed": 4} and d.health_lost == 2


def test_shield_and_body_stop_their_value_once_an_attack():
    """"remove as many faces from all grid squares as the value of the target's Shield ... Then remove as many faces
    from all grid squares the value of the target's Body. Effectively the damage will be = faces - (Shield + Body)":
    Body 2 against two dice on Mind and two on Health stops 2 of the 4, not 2 on each square."""
    d = apply_faces([1, 1, 2, 2], HUMANOID, {"mind": 2, "health": 3, "body": 2, "shield": 0, "speed": 4}, shield=False)
    assert sum(r.body for r in d.locations) == 2 and d.taken == 4 - 2
    full = apply_faces([2, 2, 2, 2, 6, 6], HUMANOID, FULL)
    assert sum(r.shield for r in full.locations) == 1 and sum(r.body for r in full.locations) == 2
    assert full.taken == 6 - (1 + 2)


def test_body_and_shield_stop_hits_on_other_squares_only():
    """"Shields and Body will always stop damage to other grid squares until they are reduced to 0 themselves": the
    two hits on Body wear it down to 0 (they are not stopped by it), and Body stops the two on Mind."""
    d = apply_faces([3, 3, 1, 1], HUMANOID, {"mind": 2, "health": 3, "body": 2, "shield": 0, "speed": 4}, shield=False)
    body, mind = d.at("body"), d.at("mind")
    assert (body.rolled, body.body, body.taken, body.after) == (2, 0, 2, 0)
    assert (mind.rolled, mind.body, mind.taken) == (2, 2, 0)
    shielded = apply_faces([4, 4], HUMANOID, {"mind": 2, "health": 3, "body": 0, "shield": 2, "speed": 4})
    assert (shielded.at("shield").shield, shielded.at("shield").taken) == (0, 2)


def test_the_protection_stops_the_hits_that_would_harm_the_target_most():
    """Body 1 against one hit on Mind and one on Health with 1 Health left: it stops the one that would kill."""
    d = apply_faces([1, 2], HUMANOID, {"mind": 2, "health": 1, "body": 1, "shield": 0, "speed": 4}, shield=False)
    assert (d.at("health").body, d.at("mind").body) == (1, 0) and not d.killed and d.values["mind"] == 1


def test_shield_and_body_share_their_stops_for_the_least_harm_over_the_attack():
    """"Effectively the damage will be = faces - (Shield + Body)" and they "stop damage to other grid squares": Shield 1
    and Body 1 against 1, 1, 3, 3 stop a Body-square hit (Shield) and a Mind hit (Body), leaving Health whole, rather
    than both stopping on Mind and a Body hit reaching Health."""
    hera = {"mind": 2, "health": 3, "body": 1, "shield": 1, "speed": 4}
    d = apply_faces([1, 1, 3, 3], HUMANOID, hera)
    mind, body = d.at("mind"), d.at("body")
    assert (mind.shield, mind.body, mind.taken, mind.after) == (0, 1, 1, 1)
    assert (body.shield, body.body, body.taken, body.passed, body.after) == (1, 0, 1, 0, 0)
    assert d.at("health") is None and d.values["health"] == 3
    d = apply_faces([2, 3, 3], HUMANOID, hera)
    assert (d.at("body").shield, d.at("health").body, d.at("body").taken, d.values["health"]) == (1, 1, 1, 3)


def test_cover_and_shield_stop_all_they_can_before_a_hit_reaches_health():
    """Cover "is added to the Body of the target": Shield 1 and Body 1 + 4 against 1, 1, 2, 2, 3, 3 stop every hit,
    "Effectively the damage will be = faces - (Shield + Body)": 6 - (1 + 5). The target's own Body stops no hit on its
    own square, but cover (a wall, not the target) stops those too: Body stays 1 and Health whole."""
    d = apply_faces([1, 1, 2, 2, 3, 3], HUMANOID, {"mind": 2, "health": 3, "body": 1, "shield": 1, "speed": 4},
                    extra_body=4)
    assert sum(r.shield for r in d.locations) == 1 and sum(r.body for r in d.locations) == 5
    assert d.values == {"mind": 2, "health": 3, "body": 1, "shield": 1, "speed": 4} and d.transfers == []


def test_cover_stops_hits_on_the_body_square_the_targets_own_body_does_not():
    """"If the Body of the cover is greater than the Power of the attack the difference is added to the Body of the
    target" and "Effectively the damage will be = faces - (Shield + Body)": B (Body 1) behind a wall adding 5 against
    four dice on the Body square and one on Health takes nothing (5 - 6); without the wall its own Body stops the
    Health hit, the four wear Body down (1 -> 0) and pass 3 on to Health ("Shields and Body will always stop damage to
    other grid squares")."""
    values = {"mind": 2, "health": 5, "body": 1, "shield": 0, "speed": 4}
    covered = apply_faces([3, 3, 3, 3, 2], HUMANOID, values, shield=False, extra_body=5)
    assert covered.values == values and covered.taken == 0
    assert (covered.at("body").body, covered.at("health").body) == (4, 1)
    bare = apply_faces([3, 3, 3, 3, 2], HUMANOID, values, shield=False)
    assert (bare.values["body"], bare.values["health"]) == (0, 2) and bare.transfers == [Transfer("body", "health", 3)]
    location = apply_faces([3, 3, 3, 3, 2], HUMANOID, values, shield=False, extra_body=5, per_location=True)
    assert location.values == values  # `protection=location`: each square loses the Body cover adds, the Body square too


def test_shield_then_body_from_every_location_with_protection_location():
    """Option `protection=location` reads "remove as many faces from all grid squares as the value of the target's
    Shield ... Then ... Body" as from each square: damage = faces - (Shield + Body) on each square."""
    d = apply_faces([2, 2, 2, 2, 6, 6], HUMANOID, FULL, per_location=True)
    health, speed = d.at("health"), d.at("speed")
    assert (health.rolled, health.shield, health.body, health.taken) == (4, 1, 2, 1)
    assert (speed.rolled, speed.shield, speed.body, speed.taken) == (2, 1, 1, 0)
    assert (d.shield, d.body) == (1, 2)
    own = apply_faces([3, 3, 1, 1], HUMANOID, {"mind": 2, "health": 3, "body": 2, "shield": 0, "speed": 4}, shield=False,
                      per_location=True)
    assert (own.at("body").body, own.at("mind").body) == (0, 2)


def test_no_shield_from_adjacent_squares_or_against_blast():
    """"attacked from any of the nine adjacent squares" or by Blast: Shield is not used (the caller says so)."""
    d = apply_faces([2, 2, 2, 2], HUMANOID, FULL, shield=False)
    assert d.at("health").shield == 0 and d.at("health").taken == 2 and d.shield == 0


def test_cover_adds_to_body():
    """Cover's difference over the Power "is added to the Body of the target"."""
    d = apply_faces([2, 2, 2, 2], HUMANOID, FULL, shield=False, extra_body=2)
    assert d.at("health").body == 4 and d.at("health").taken == 0 and d.body == 4


def test_a_ruined_location_transfers_along_its_arrow():
    """Hits on a location at 0 follow its arrow: Speed ^ Body ^ Health."""
    values = {"mind": 2, "health": 3, "body": 0, "shield": 0, "speed": 0}
    d = apply_faces([6, 6], HUMANOID, values)
    assert d.transfers == [Transfer("speed", "body", 2), Transfer("body", "health", 2)]
    assert d.values["health"] == 1 and d.at("health").received == 2 and d.at("speed").passed == 2


def test_hits_beyond_a_location_go_on():
    """A location takes what it has left; the rest follows the arrow."""
    d = apply_faces([6, 6, 6], HUMANOID, {"mind": 2, "health": 3, "body": 0, "shield": 0, "speed": 1})
    assert d.at("speed").taken == 1 and d.at("speed").after == 0 and d.at("body").passed == 2
    assert d.values["health"] == 1


def test_hits_round_a_ruined_loop_are_lost():
    """Mind v Health and Health ^ Mind: when both are ruined the hits have nowhere to go."""
    d = apply_faces([1, 1, 2], HUMANOID, {"mind": 0, "health": 0, "body": 0, "shield": 0, "speed": 4})
    assert d.lost == 3 and d.values["mind"] == 0 and d.values["health"] == 0


def test_health_zero_kills():
    """"When Health reaches 0 the model is killed or destroyed."."""
    d = apply_faces([2, 2, 2], HUMANOID, {"mind": 2, "health": 3, "body": 0, "shield": 0, "speed": 4})
    assert d.killed and not d.inert and d.health_lost == 3


def test_arsenal_hits_the_named_weapon():
    """"When this location is hit the attacker targets one Weapon": it takes what its Health allows, the rest goes to Body."""
    values = {"mind": 2, "health": 3, "body": 0, "shield": 0, "speed": 4}
    d = apply_faces([5, 5, 5], HUMANOID, values, weapons={"saber": 3, "ring": 2}, arsenal="ring")
    assert d.weapon == "ring" and d.weapons == {"saber": 3, "ring": 0}
    assert (d.at("arsenal").before, d.at("arsenal").after, d.at("arsenal").taken) == (2, 0, 2)
    assert d.transfers == [Transfer("arsenal", "body", 1), Transfer("body", "health", 1)]


def test_arsenal_defaults_to_the_first_weapon_with_health():
    """No weapon named (or a broken one): the first carried weapon with Health left; none at all: Arsenal is ruined."""
    values = {"mind": 2, "health": 3, "body": 0, "shield": 0, "speed": 4}
    d = apply_faces([5], HUMANOID, values, weapons={"saber": 0, "ring": 2}, arsenal="saber")
    assert d.weapon == "ring" and d.weapons["ring"] == 1
    bare = apply_faces([5], HUMANOID, values)
    assert bare.weapon is None and bare.values["health"] == 2


def test_custom_one_square_grid():
    """A grid of one square takes every face; with no arrow the overflow is lost."""
    grid = parse_grid("1/2/3/4/5/6:health:3:none")
    d = apply_faces([1, 3, 5, 6, 6], grid, grid.start_values())
    assert d.at("health").rolled == 5 and d.values == {"health": 0} and d.lost == 2 and d.killed and not d.inert


def test_apply_does_not_change_its_inputs():
    """The values and weapons given are left as they were (bad input changes nothing)."""
    values, weapons = dict(FULL), {"saber": 2}
    apply_faces([1, 2, 5, 5], HUMANOID, values, weapons=weapons)
    assert values == FULL and weapons == {"saber": 2}


def test_target_flips_with_the_damage_harm():
    """Accuracy -1: the target turns the Health die that would get through onto a square that stops it."""
    values = {"mind": 2, "health": 3, "body": 1, "shield": 0, "speed": 4}
    flips = target_flips([2, 2, 3], 1, harm(HUMANOID, values, shield=False))
    after = apply_flips([2, 2, 3], flips)
    assert len(flips) == 1 and after.count(2) == 1
    assert apply_faces(after, HUMANOID, values, shield=False).health_lost == 0


_faces = st.lists(st.integers(1, 6), max_size=12)
_values = st.fixed_dictionaries({k: st.integers(0, 4) for k in ("mind", "health", "body", "shield", "speed")})


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(faces=_faces, values=_values, shield=st.booleans(), cover=st.integers(0, 3), weapon=st.integers(0, 3))
def test_every_hit_is_stopped_taken_or_lost(faces, values, shield, cover, weapon):
    """Each die is stopped by Shield or Body, taken by one location, or lost; no value rises or goes below 0."""
    d = apply_faces(faces, HUMANOID, values, shield=shield, extra_body=cover, weapons={"gun": weapon})
    rows = d.locations
    assert sum(r.rolled for r in rows) == len(faces)
    assert sum(r.shield + r.body for r in rows) + sum(r.taken for r in rows) + d.lost == len(faces)
    assert all(0 <= d.values[k] <= values[k] for k in values) and 0 <= d.weapons["gun"] <= weapon


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(faces=_faces, values=_values, points=st.integers(0, 4))
def test_target_flips_never_cost_more_nor_hurt_more(faces, values, points):
    """The target's flips cost at most its points and never leave more harm than flipping nothing."""
    measure = harm(HUMANOID, values)
    flips = target_flips(faces, points, measure)
    assert sum(f.cost for f in flips) <= points
    assert measure(apply_flips(faces, flips)) <= measure(faces)


def test_target_flips_help_a_target_doomed_either_way_and_stay_bounded():
    """20 dice on Mind and Health, 10 points, Shield and Body stopping on each location (`protection=location`): the
    target still spreads them (fewer hits get through), weighing at most SEARCH_LIMIT positions."""
    values = {"mind": 3, "health": 5, "body": 1, "shield": 1, "speed": 4}
    measure, weighed = harm(HUMANOID, values, per_location=True), []

    def counted(faces):
        weighed.append(1)
        return measure(faces)

    dice = [1, 2] * 10
    flips = target_flips(dice, 10, counted)
    assert measure(apply_flips(dice, flips)) < measure(dice)
    assert len(weighed) <= SEARCH_LIMIT + 1


def test_the_arsenal_location_strikes_equipment_the_attacker_names() -> None:
    """"When this location is hit the attacker targets one Weapon or Equipment the model is carrying. Each weapon has its own Health value\""""
    s = duel(a_sheet="weapons=gravity-saber:2:4:0:melee", b_sheet="body=0 equipment=scanner:3,medkit", b_at="E7")
    res = s.run("attack", [5, 5], actor="Meena", target="Hera", options={"arsenal": "scanner", "dice": "2"})
    assert events(res, GridDamage)[0].weapon == "scanner"
    assert DgCombatant.of(s.get("Hera")).weapon_health == {"scanner": 1, "medkit": 2}


def test_equipment_and_a_weapon_cannot_share_a_name() -> None:
    """Each thing the Arsenal location stands for has one name: equipment named as a weapon is refused."""
    s = duel(start=False)
    message = s.refused("add", name="Kit", raw_sheet=parse_pairs("weapons=knife:1:1:0:melee equipment=knife"), side="a", at="A1", facing="N")
    assert "also a weapon" in message


def test_an_arsenal_hit_meant_for_a_ruined_weapon_says_where_it_lands() -> None:
    """"the attacker targets one Weapon or Equipment the model is carrying. Each weapon has its own Health value": a
    ruined claw (Health 0) takes nothing, so the hit lands on the gun, and the reply says so; a name the target does
    not carry is said too."""
    s = duel(a_sheet="weapons=pulse-ring:4:6:0", b_sheet="body=0 weapons=claw:1:2:0:melee:health=1,gun:3:3:1", b_at="E4")
    s.run("act", target="Hera", action="damage", options={"claw": "1"})
    res = s.run("attack", [5], actor="Meena", target="Hera", options={"arsenal": "claw", "dice": "1", "flips": "none"})
    (grid,) = events(res, GridDamage)
    assert "Arsenal (claw is ruined: the hit lands on the gun) ×1, takes 1 (2 → 1)" in s.system.present.text(grid)
    s.run("next", actor="Meena")
    s.run("next", actor="Hera")
    res = s.run("attack", [5], actor="Meena", target="Hera", options={"arsenal": "knife", "dice": "1", "flips": "none"})
    text = s.system.present.text(events(res, GridDamage)[0])
    assert "Arsenal (Hera carries no knife: the hit lands on the gun) ×1, takes 1 (1 → 0)" in text
