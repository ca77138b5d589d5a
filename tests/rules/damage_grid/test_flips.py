"""Face flips: neighbouring faces cost 1, the opposite face 2; aimed, explicit and the target's flips."""
from __future__ import annotations

import pytest

from rules.errors import InputError
from rules.sheet import parse_options, parse_pairs
from rules.systems.damage_grid.asking import LEAST, MAX_CHOICES, choices, read_answer
from rules.systems.damage_grid.events import DgAttack
from rules.systems.damage_grid.facts import FlipsQuestion
from rules.systems.damage_grid.flips import (
    NEIGHBOURS,
    Flip,
    apply_flips,
    best_flips,
    flip_cost,
    parse_flips,
    target_flips,
)
from rules.systems.damage_grid.grid import HUMANOID, parse_grid
from rules.systems.damage_grid.state import Asked, Offer
from tests.rules.damage_grid.build import SYSTEM, duel, events
from tests.rules.wording import sentences


def test_each_face_has_four_connected_faces():
    """"any one of the 4 connected faces": all but the face itself and its opposite (summing to 7)."""
    assert NEIGHBOURS[1] == (2, 3, 4, 5) and NEIGHBOURS[3] == (1, 2, 5, 6)
    assert all(len(n) == 4 for n in NEIGHBOURS.values())


@pytest.mark.parametrize("a, b, cost", [(5, 5, 0), (5, 3, 1), (4, 1, 1), (1, 6, 2), (3, 4, 2), (2, 5, 2)])
def test_flip_cost(a, b, cost):
    """"To flip to the opposite side would cost 2 flips, one for each face change."."""
    assert flip_cost(a, b) == cost


def test_meenas_gravity_saber_explicit_flip():
    """Meena rolls 3, 3, 5, 4, is allowed 2 flips "and uses one to flip 5 to a 3. The end result is 3, 3, 3 and 4"."""
    dice = [3, 3, 5, 4]
    flips = parse_flips("5>3", dice, 2)
    assert flips == [Flip(2, 5, 3, 1)]
    assert apply_flips(dice, flips) == [3, 3, 3, 4]


def test_meenas_gravity_saber_aimed_at_body():
    """Aimed at Body the bot finds Meena's flip: 5 to 3 (1 flip); the 4 is opposite the 3 and would need 2 more."""
    flips = best_flips([3, 3, 5, 4], 2, "Body", HUMANOID)
    assert flips == [Flip(2, 5, 3, 1)]
    assert apply_flips([3, 3, 5, 4], flips) == [3, 3, 3, 4]


def test_mind_hit_through_body_flips():
    """"flips 3, 4 and 4 all to 1, for a total of 4 hits against Mind" with Accuracy 3."""
    flips = best_flips([1, 3, 4, 4], 3, "mind", HUMANOID)
    assert apply_flips([1, 3, 4, 4], flips) == [1, 1, 1, 1] and sum(f.cost for f in flips) == 3


def test_best_flips_takes_cheap_dice_first():
    """With Accuracy 2 and aim Mind, two neighbouring dice (cost 1 each) beat the opposite 6 (cost 2)."""
    flips = best_flips([6, 2, 3], 2, "mind", HUMANOID)
    assert apply_flips([6, 2, 3], flips) == [6, 1, 1]


def test_best_flips_spends_two_on_an_opposite_face_when_it_is_all_there_is():
    """A 6 aimed at Mind (face 1) needs 2 flips; with only 1 it stays."""
    assert apply_flips([6], best_flips([6], 2, "mind", HUMANOID)) == [1]
    assert best_flips([6], 1, "mind", HUMANOID) == []


def test_best_flips_ties_take_the_earliest_die_and_lowest_face():
    """Equal costs: the earliest rolled die first; it turns to the lowest face of the location."""
    grid = parse_grid("1/2:health:5:none,3/4/5/6:body:2:health")
    flips = best_flips([5, 3, 4], 1, "health", grid)
    assert flips == [Flip(0, 5, 1, 1)]


def test_best_flips_with_no_accuracy_flips_nothing():
    """Accuracy 0 or less: the attacker flips nothing."""
    assert best_flips([3, 4], 0, "mind", HUMANOID) == []
    assert best_flips([3, 4], -2, "mind", HUMANOID) == []


def test_aim_at_an_unknown_location_is_refused():
    """`aim=` names a location of the target's grid; the message lists them."""
    with pytest.raises(InputError, match="mind, health, body, shield, arsenal, speed"):
        best_flips([3], 1, "head", HUMANOID)


def test_parse_flips_two_dice():
    """`5>3,4>1` flips a 5 and a 4; each flip names a different die, the earliest rolled."""
    flips = parse_flips("5>3, 4>1", [4, 5, 4], 2)
    assert flips == [Flip(0, 4, 1, 1), Flip(1, 5, 3, 1)]
    assert parse_flips("4>1 4>2", [4, 5, 4], 2) == [Flip(0, 4, 1, 1), Flip(2, 4, 2, 1)]


@pytest.mark.parametrize(
    "text, dice, accuracy, says",
    [
        ("5>3", [5], 0, "no flips"),
        ("5>3", [5], -1, "the target flips"),
        ("", [5], 2, "empty"),
        ("5-3", [5], 2, "not a flip"),
        ("5>7", [5], 2, "not a flip"),
        ("5>5", [5], 2, "into itself"),
        ("4>1", [5], 2, "no die left showing 4"),
        ("5>1,5>1", [5, 3], 2, "no die left showing 5"),
        ("5>2", [5], 1, "costs 2 flips"),
        ("5>3,3>1", [5, 3], 1, "Accuracy is 1"),
        ("5>3,3>1", [5], 3, "one flip per die"),
    ],
)
def test_parse_flips_refuses(text, dice, accuracy, says):
    """Flips that do not fit the dice or the Accuracy are refused with what to do."""
    with pytest.raises(InputError, match=says):
        parse_flips(text, dice, accuracy)


def test_flips_costing_too_much_say_each_cost_the_allowance_and_a_valid_example():
    """"To flip to the opposite side would cost 2 flips": the refusal gives each flip's cost, what is allowed, and a flip that fits."""
    with pytest.raises(InputError) as refused:
        parse_flips("2>5,5>2", [2, 2, 1, 5], 2, who="the target")
    text = str(refused.value)
    assert "costs 4 flips (2>5: 2, 5>2: 2" in text and "the target may make 2" in text
    example = text.rsplit("like `", 1)[1].split("`")[0]
    assert sum(f.cost for f in parse_flips(example, [2, 2, 1, 5], 1)) == 1


def test_the_typed_answer_reads_repeated_flips_as_the_attacker_s_flips_do():
    """"A flip is changing the face of the die": `2>1,2>1` typed as options turns two dice, as `flips=2>1,2>1` does."""
    dice = [2, 2, 1, 5]
    for typed in ("2>1,2>1", "2>1 2>1"):
        [words] = parse_options(typed)
        assert read_answer(words, dice, 2) == [Flip(0, 2, 1, 1, by="target"), Flip(1, 2, 1, 1, by="target")]
    assert parse_options("flips=2>1,2>1")["flips"] == "2>1,2>1"
    with pytest.raises(InputError, match="costs 3 flips .* the target may make 2"):
        read_answer(next(iter(parse_options("2>1,2>1,2>1"))), [2, 2, 2, 5], 2)


def _mind_hits(faces):
    """A harm measure for the tests: dice on Mind, then dice on Health."""
    return (list(faces).count(1), list(faces).count(2))


def test_target_flips_move_dice_off_the_worst_location():
    """Accuracy -2: the target turns two of the three Mind dice away (the least harm)."""
    flips = target_flips([1, 1, 1, 3], 2, _mind_hits)
    assert all(f.by == "target" and f.before == 1 and f.after not in (1, 2) for f in flips)
    assert apply_flips([1, 1, 1, 3], flips).count(1) == 1 and len(flips) == 2


def test_target_flips_spend_nothing_when_nothing_helps():
    """"allows the target to flip": it flips nothing when no flip lowers the harm."""
    assert target_flips([3, 4, 5], 3, _mind_hits) == []


def test_target_flips_use_two_points_on_one_die_when_needed():
    """A harm only the opposite face avoids costs the target 2 points on one die."""
    def harm(faces):
        return sum(1 for f in faces if f != 6)
    assert target_flips([1, 6], 2, harm) == [Flip(0, 1, 6, 2, by="target")]
    assert target_flips([1, 6], 1, harm) == []


def test_the_target_flips_onto_the_location_its_sheet_prefers() -> None:
    """"A negative Accuracy allows the target to flip that many faces": with `flips=body` on its sheet it turns the dice onto Body."""
    s = duel(a_sheet="weapons=gun:4:3:-2", b_sheet="health=9 body=9 flips=body", b_at="E6")
    attack = events(s.run("attack", [2, 2, 6], actor="Meena", target="Hera"), DgAttack)[0]
    assert attack.faces == [3, 3, 6] and all(f.by == "target" for f in attack.flips)


def test_the_target_flips_the_faces_its_sheet_lists_in_order() -> None:
    """"A negative Accuracy allows the target to flip that many faces": `flips=6>4,2>4` turns a 6, then a 2, while the points last."""
    s = duel(a_sheet="weapons=gun:4:3:-2", b_sheet="health=9 body=9 flips=6>4,2>4,2>1", b_at="E6")
    attack = events(s.run("attack", [2, 2, 6], actor="Meena", target="Hera"), DgAttack)[0]
    assert attack.faces == [4, 2, 4] and [f.by for f in attack.flips] == ["target", "target"]


def test_a_flips_preference_must_name_a_location_of_the_grid() -> None:
    """The target's `flips=` names a location of its own grid (or faces, or `least-harm`)."""
    s = duel(start=False)
    message = s.refused("add", name="Kit", raw_sheet=parse_pairs("flips=tail"), side="a", at="A1", facing="N")
    assert "names no location" in message and "body" in message
    assert "not a preference" in s.refused("add", name="Kit", raw_sheet=parse_pairs("flips=9>1"), side="a", at="A1", facing="N")


def test_the_answers_offered_to_the_target_s_owner_fit_discord_and_are_real_flips() -> None:
    """"A negative Accuracy allows the target to flip that many faces": with option `target_flips=ask`
    the owner is offered the least harm first, then each location, no flips and single flips: at most
    25 buttons of at most 80 characters, each answer a set of flips within the points."""
    dice = [1, 2, 3, 4, 5, 6, 1, 2, 3, 4, 5, 6]
    offered = choices(dice, 6, HUMANOID, _mind_hits)
    labels, answers = [SYSTEM.present.offer_label(o) for o in offered], [o.answer for o in offered]
    assert len(offered) == MAX_CHOICES and all(len(label) <= 80 for label in labels)
    assert labels[0].startswith("Least harm") and "No flips" in labels and LEAST not in answers
    assert offered[0].kind == "least" and [o.kind for o in offered].count("none") == 1
    assert len(set(answers)) == len(answers), "each button a different answer"
    for answer in answers:
        assert sum(f.cost for f in read_answer(answer, dice, 6)) <= 6
    one = {o.answer for o in choices([3], 1, HUMANOID, _mind_hits)}
    assert one == {"none", "3>1", "3>2", "3>5", "3>6"}, "every flip one point buys (the opposite 4 costs 2)"


def test_an_onto_button_that_flips_to_the_opposite_face_says_it_costs_2_flips() -> None:
    """"To flip to the opposite side would cost 2 flips, one for each face change": an **Onto** button says so as an
    **Only** button does."""
    offered = {o.answer: o for o in choices([1, 1], 2, HUMANOID, _mind_hits)}
    assert (offered["1>6"].kind, offered["1>6"].at, offered["1>6"].flips) == ("onto", "speed", [(1, 6, 2)])
    labels = {answer: SYSTEM.present.offer_label(o) for answer, o in offered.items()}
    assert labels["1>6"] == "Onto speed: 1→6 (2 flips)" and labels["1>4,1>4"] == "Onto shield: 1→4, 1→4"
    only = {SYSTEM.present.offer_label(o) for o in choices([2, 2, 1], 2, HUMANOID, _mind_hits)}
    assert {"Only 1→6 (2 flips)", "Only 2→6"} <= only


def _asked(**options: object) -> FlipsQuestion:
    """Meena's Accuracy -10 gun rolls twelve 1s at Hera, whose owner chooses the flips (`target_flips=ask`)."""
    s = duel(a_sheet="weapons=gun:4:12:-10", b_sheet="health=9 body=9", b_at="E6", target_flips="ask")
    s.enc.settings.deadline_hours = float(str(options.get("deadline_hours", 0)))
    s.run("attack", [1] * 12, actor="Meena", target="Hera")
    q = SYSTEM.question(s.enc)
    assert isinstance(q, FlipsQuestion)
    return q


def test_the_flips_question_is_facts_the_presenter_words() -> None:
    """"A negative Accuracy allows the target to flip that many faces": the rules give the question as facts (names,
    dice, points, the offers as codes and flips); the presenter words it, cutting a button label Discord
    would refuse and listing it with its answer."""
    q = _asked()
    assert sentences(q) == []
    assert (q.kind, q.actor, q.attacker, q.target, q.weapon, q.lunge, q.points, q.faces, q.deadline_hours) == (
        "flips", "Hera", "Meena", "Hera", "", False, 10, (1,) * 12, 0)
    assert q.offers[-1] == Offer(kind="only", flips=[(1, 6, 2)], answer="1>6") and q.combination == "1>2,1>2"
    assert q.answers == tuple(o.answer for o in q.offers)
    asked = SYSTEM.present.prompt(q)
    cut = "Onto speed: 1→6 (2 flips), 1→6 (2 flips), 1→6 (2 flips), 1→6 (2 flips), 1→6 (2 …"
    assert asked.title == "🎲 Hera: choose the flips" and asked.lines == [
        "**Meena** attacks **Hera** with the attack at a negative Accuracy: you may make **10** flips (a neighbouring "
        "face 1, the opposite face 2).",
        "The dice: **1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1**. Press the flips to make; the attack waits for your answer "
        "(there is no turn deadline: meanwhile a GM can answer for you or take the attack back with `/undo`).",
        f"{cut}: `1>6,1>6,1>6,1>6,1>6`",
        "Each button answers at once: an **Only** button makes that one flip and no other. Other combinations: type "
        "`/act action:flips combatant:Hera options:\"1>2,1>2\"` in the channel."]
    assert asked.choices[0] == ("Least harm: 1→3, 1→3, 1→3", "1>3,1>3,1>3") and (cut, "1>6,1>6,1>6,1>6,1>6") in asked.choices
    assert asked.choices[-2:] == [("Only 1→5", "1>5"), ("Only 1→6 (2 flips)", "1>6")] and len(asked.choices[5][0]) == 80
    assert (asked.waiting, asked.lapse) == ("Meena's attack on Hera", "the least harm")
    assert "(at the turn's deadline, 4 h after the turn began, the least harm is taken)" in (
        SYSTEM.present.prompt(_asked(deadline_hours=4)).lines[1])


def test_a_question_stored_with_its_buttons_words_reads_as_offers() -> None:
    """An attack asked when the offers were stored as their buttons' words, ``(label, answer)``, reads as offers the
    presenter words as before."""
    old = [("Least harm: no flips", "none"), ("Onto speed: 2→6, 2→6", "2>6,2>6"), ("No flips", "none"),
           ("Only 2→5 (2 flips)", "2>5")]
    asked = Asked(tag="t", attacker="Meena", target="Hera", owner="1", weapon="saber",
                  action={"kind": "attack", "actor": "Meena", "target": "Hera"}, faces=[2, 2, 6], points=2, choices=old)
    assert asked.choices[1] == Offer(kind="onto", at="speed", flips=[(2, 6, 1), (2, 6, 1)], answer="2>6,2>6")
    assert [(SYSTEM.present.offer_label(o), o.answer) for o in asked.choices] == old


@pytest.mark.parametrize("text", ["5-3", "", "1>9"])
def test_a_malformed_flip_is_refused_with_an_example_from_the_dice(text):
    """"A flip is changing the face of the die to any one of the 4 connected faces": a malformed flip's example flips a rolled die, so it is accepted."""
    dice = [1, 2, 2]
    with pytest.raises(InputError) as refused:
        parse_flips(text, dice, 1)
    example = str(refused.value).split("like `flips=", 1)[1].split("`")[0]
    assert sum(f.cost for f in parse_flips(example, dice, 1)) == 1


def test_a_lunge_asked_before_the_act_field_was_renamed_reads_as_one() -> None:
    """A Lunge waiting for its target's flips, stored when an act's `action` was called `name`, reads as a Lunge."""
    old = Asked(tag="t", attacker="Meena", target="Hera", owner="1", weapon="saber",
                action={"kind": "act", "actor": "Meena", "name": "lunge", "target": "Hera"})
    assert old.action == {"kind": "act", "actor": "Meena", "action": "lunge", "target": "Hera"}
    new = Asked(tag="t", attacker="Meena", target="Hera", owner="1", weapon="saber",
                action={"kind": "attack", "actor": "Meena", "name": "x"})
    assert new.action["name"] == "x"  # only an act's field was renamed
