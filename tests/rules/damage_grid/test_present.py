"""The damage-grid game's rules name terms by code and work out what the board shows (`DgFacts`);
its presenter words both and works nothing out."""
from __future__ import annotations

from rules.events import mod
from rules.hidden import for_reader
from rules.systems.damage_grid.events import Activated, DgAttack, GridDamage, GridMarked
from rules.systems.damage_grid.facts import DgFacts
from rules.systems.damage_grid.state import DgCombatant
from tests.rules.damage_grid.build import SABER, SYSTEM, duel, events


def test_the_accuracy_terms_name_the_size_and_the_weapon_in_their_args() -> None:
    """"A target with a size of 4 increases Accuracy by 3": the code ``size`` carries the size, worded ``size 4``."""
    s = duel(a_sheet="weapons=gun:6:1:0", b_sheet="size=4 health=9 body=9", b_at="E4")
    attack = events(s.run("attack", [6], actor="Meena", target="Hera"), DgAttack)[0]
    assert [(m.code, m.args, m.value) for m in attack.accuracy] == [("weapon", ["gun"], 0), ("size", [4], 3)]
    assert "Accuracy 0 gun +3 size 4 = 3" in SYSTEM.present.text(attack)


def test_the_bare_attacks_power_is_the_health_term() -> None:
    """"A model can always attack at Reach 1 ... using the current Health attribute of the model as its Power"."""
    s = duel(a_sheet="", b_sheet="health=20")
    attack = events(s.run("attack", [3, 3, 5], actor="Meena", target="Hera"), DgAttack)[0]
    assert [(m.code, m.value) for m in attack.power] == [("health", 3)]
    text = SYSTEM.present.text(attack)
    assert "Power 3 Health = 3; bare hands, Accuracy 0\n" in text + "\n" and "0 bare" not in text


def test_bare_hands_accuracy_reads_as_english_with_its_modifiers() -> None:
    """"A model can always attack at Reach 1, even if they do not have any weapons": bare hands' Accuracy 0 is named as
    bare hands first ("bare hands, Accuracy 0 +3 size 4 = 3"), not "Accuracy 0 bare"."""
    s = duel(a_sheet="", b_sheet="size=4 health=20")
    attack = events(s.run("attack", [3, 3, 5], actor="Meena", target="Hera"), DgAttack)[0]
    assert "bare hands, Accuracy 0 +3 size 4 = 3" in SYSTEM.present.text(attack)


def test_total_darkness_shows_the_accuracy_it_takes_away() -> None:
    """"Total Darkness ... the model can only attack at Reach 1 and without any Accuracy": the saber's Accuracy 2 is
    shown, and the darkness taking it away, not a bare 0 that reads as if the weapon had none."""
    s = duel(a_sheet=f"weapons={SABER}", b_sheet="health=20", environment="total-darkness")
    attack = events(s.run("attack", [3, 3, 5, 4], actor="Meena", target="Hera"), DgAttack)[0]
    assert attack.accuracy == [mod("weapon", 2, "gravity-saber"), mod("reach-1", -2, "total-darkness")]
    assert ("Accuracy 2 gravity-saber −2 total-darkness: only Reach 1, without any Accuracy = 0"
            in SYSTEM.present.text(attack))


def test_total_darkness_takes_away_a_negative_accuracy_too() -> None:
    """"the model can only attack at Reach 1 and without any Accuracy": an ability's −5 on the saber's 2 is −3, and the
    darkness takes the −3 away (it read "+3 total-darkness", as if the darkness added Accuracy)."""
    s = duel(a_sheet=f"weapons={SABER}", b_sheet="health=20", environment="total-darkness")
    attack = events(s.run("attack", [3, 3, 5, 4], actor="Meena", target="Hera", options={"acc": "-5"}), DgAttack)[0]
    text = SYSTEM.present.text(attack)
    assert ("Accuracy 2 gravity-saber −5 ability, total-darkness takes the −3 away: only Reach 1, without any "
            "Accuracy = 0") in text and "+3 total-darkness" not in text


def test_bare_hands_are_named_so() -> None:
    """The Reach 1 attack "using the current Health attribute of the model as its Power" is made with bare hands: the
    attack line and the one-weapon refusal say "bare hands", not "bare"."""
    s = duel(a_sheet=f"weapons={SABER}", b_sheet="health=20 body=9")
    attack = events(s.run("attack", [3, 3, 5], actor="Meena", target="Hera", weapon="bare"), DgAttack)[0]
    assert "**Meena** attacks **Hera** with bare hands (Reach 1, melee)" in SYSTEM.present.text(attack)
    message = s.refused("attack", [3, 3, 3, 3], actor="Meena", target="Hera", weapon="gravity-saber")
    assert "attacked with bare hands in this activation" in message and "attack with bare hands again" in message
    s = duel(a_sheet=f"weapons={SABER}", b_sheet="health=20 body=9")
    s.run("attack", [3, 3, 5, 4], actor="Meena", target="Hera")
    assert "use bare hands in a later one" in s.refused("attack", [3, 3, 3], actor="Meena", target="Hera", weapon="bare")


def test_a_ruined_weapon_is_said_to_be_ruined() -> None:
    """"Each weapon has its own Health value and takes damage like anything else": one at Health 0 is refused as
    ruined, naming what the model can attack with instead."""
    s = duel(a_sheet="weapons=knife:1:2:0:melee", b_sheet="health=20")
    DgCombatant.of(s.get("Meena")).weapon_health["knife"] = 0
    message = s.refused("attack", [3], actor="Meena", target="Hera", weapon="knife")
    assert "knife is ruined" in message and "`bare`" in message and "carries none" not in message


def test_an_activation_says_the_combat_points_the_model_has() -> None:
    """The Combat activation's line, shown before its first attack spends a Combat Point, gives the CP the model has
    to spend (not "left", which the attack then changes, nor "(2 CP)", which reads as a cost); a Move's Speed points
    are counted in the singular when 1."""
    assert SYSTEM.present.text(Activated(actor="Meena", how="combat", cp=2)) == (
        "**Meena** activates: a Combat activation (2 CP to spend)")
    assert SYSTEM.present.text(Activated(actor="Kor", how="break", cp=1)).endswith("(1 CP to spend)")
    assert SYSTEM.present.text(Activated(actor="Meena", how="move", speed=1)) == "**Meena** activates: a Move (1 Speed point)"


def test_a_hidden_target_hit_with_its_health_whole_is_said_so() -> None:
    """A hit that lands on Speed of a hidden target leaves its Health whole: players read that it is hit but its Health
    is whole, not "is hit (now unhurt)"."""
    s = duel(a_sheet="weapons=gun:4:2:0", b_sheet="health=30 body=0", b_at="E4")
    res = s.run("attack", [6, 6], actor="Meena", target="Hera")
    (grid,) = events(res, GridDamage)
    public = for_reader(s.system.present.view(s.enc, frozenset({"Hera"})).marked(grid), lambda name: name != "Hera")
    assert public == "**Hera** is hit, but its Health is whole (now unhurt)"


def test_a_gm_hit_on_a_hidden_target_with_its_health_whole_reads_as_an_attacks() -> None:
    """The GM's `/act action:damage` on Mind of a hidden target reads as an attack's hit does: "is hit, but its Health
    is whole (now unhurt)", not "is hit (now unhurt)"."""
    s = duel(b_sheet="health=30")
    res = s.run("act", target="Hera", action="damage", options={"mind": "1"})
    (marked,) = events(res, GridMarked)
    public = for_reader(s.system.present.view(s.enc, frozenset({"Hera"})).marked(marked), lambda name: name != "Hera")
    assert public == "GM: **Hera** is hit, but its Health is whole (now unhurt)"


def test_one_environment_factor_makes_the_reach() -> None:
    """"Poor Visibility: Rain, smoke ... The Reach to the target is increased by 50% rounded up": one factor "makes" it."""
    s = duel(a_sheet="weapons=gun:3:2:0", b_sheet="health=20", b_at="E5", environment="poor-visibility")
    message = s.refused("attack", [3, 3], actor="Meena", target="Hera")
    assert "(poor-visibility makes it 5)" in message


def test_the_sight_terms_are_worded_as_the_text_names_them() -> None:
    """"If the target is partially obstructed ... decreases Accuracy by 2"; "hidden by an obstruction ... by 4"; "A moving target ... A fast moving target": each code's words."""
    words = [SYSTEM.present.term(m) for m in (mod("obstructed", -2), mod("hidden", -4), mod("fast", -3), mod("moving", -1))]
    assert words == ["partly obstructed", "hidden", "fast", "moving"]


def test_the_facts_carry_the_clouds_squares_row_by_row() -> None:
    """"The Smoke grenade is Burst 2 Cloud 4; it will occupy 4 concentrated squares": the facts list them for the board."""
    s = duel(a_sheet="weapons=smoke:5:0:0:area=burst2:cloud=4", b_sheet="health=9 body=9", b_at="E4")
    assert s.system.facts(s.enc).cloud == ()
    s.run("attack", actor="Meena", target="E6", weapon="smoke")
    facts = s.system.facts(s.enc)
    assert isinstance(facts, DgFacts) and facts.cloud == ("E5", "F5", "E6", "F6")
    assert s.enc.effects[0].cells == ["E6", "E5", "F5", "F6"]  # as stored: the aimed square first
    assert "Cloud on E5, F5, E6, F6" in s.system.present.board_extra(s.enc, facts)


def test_the_board_words_the_cloud_it_is_handed() -> None:
    """The presenter words the facts' squares as given: it works out no cloud of its own."""
    s = duel()
    facts = DgFacts(turn=s.system.turn(s.enc), cloud=("A1", "B1"))
    assert s.system.present.board_extra(s.enc, facts) == ["Cloud on A1, B1"]


def test_an_attack_with_a_weapon_costing_two_combat_points_says_so() -> None:
    """"Some special attacks cost more Combat points": a `cp=2` weapon's attack line gives its cost; a 1-CP one does not."""
    s = duel(a_sheet="weapons=hammer:1:5:0:melee:cp=2,knife:1:3:0:melee", b_sheet="health=30 body=9")
    res = s.run("attack", [6] * 5, actor="Meena", target="Hera", weapon="hammer")
    assert "(Reach 1, melee, 2 CP)" in SYSTEM.present.text(events(res, DgAttack)[0])
    s = duel(a_sheet="weapons=hammer:1:5:0:melee:cp=2,knife:1:3:0:melee", b_sheet="health=30 body=9")
    res = s.run("attack", [6] * 3, actor="Meena", target="Hera", weapon="knife")
    assert "(Reach 1, melee)" in SYSTEM.present.text(events(res, DgAttack)[0])


def test_the_gms_marks_are_one_line_a_model_and_listed_under_gm_changes() -> None:
    """docs/commands.md, "Fair play": harm changes mid-fight "only by rule actions or by the GM's edit, which ... the
    status board lists under "GM changes"": the GM's `/act action:damage` and `heal` are listed there as a `/combatant
    hp` is elsewhere (a hidden model's as that the GM changed it). The marks on several locations read as one line,
    so players do not count a hidden model's locations by its lines."""
    s = duel(b_sheet="health=30 mind=9")
    res = s.run("act", target="Hera", action="damage", options={"health": "2", "mind": "1"})
    view = s.system.present.view(s.enc, frozenset({"Hera"}))
    report = view.report("GM", res.events)
    gm = [for_reader(line, lambda name: True) for line in report.lines]
    public = [for_reader(line, lambda name: name != "Hera") for line in report.lines]
    assert gm == ["GM: **Hera**'s Health: 2 hits marked (30 → 28); Mind: 1 hit marked (9 → 8)"]
    assert public == ["GM: **Hera** is hit (now hurt)"]
    assert s.enc.gm_edits[-1] == "round 1: Hera health-2 (now 28) mind-1 (now 8)"
    s.run("act", target="Hera", action="heal", options={"mind": "1"})
    assert s.enc.gm_edits[-1] == "round 1: Hera mind+1 (now 9)"


def test_a_hidden_models_board_line_says_it_is_prone_or_held_as_everyone_was_told() -> None:
    """docs/commands.md: a hidden combatant's line shows "its place and condition only", no number of its own; the
    damage-grid page: "On a failure it falls prone" and "If it does no damage, the lunger falls prone", told to
    everyone as it happens (`**Zed** falls to the ground`). So players' board line of the GM's hidden Zed says
    `prone` (and `held by Meena` when grappled), as the GM's does (it said neither); and `lit`, a carried light,
    which the page calls everyone's to see ("everyone sees it, a hidden model's too"), which no line showed."""
    from rules.report import board_report
    from tests.scenario import Scenario

    s = Scenario("damage-grid", map="12x10")
    s.add("Meena", f"weapons={SABER}", side="a", at="E8", facing="N")
    s.add("Zed", f"weapons={SABER} lit=yes", side="b", at="E7", facing="S", owner=None)
    s.run("init_roll")
    assert s.enc.hidden_names() == {"Zed"}
    zed = DgCombatant.of(s.get("Zed"))
    zed.prone, zed.grappled_by = True, ["Meena"]
    line = next(x for x in board_report(SYSTEM, s.enc).text().splitlines() if "**Zed**" in x)
    assert line.endswith(" · prone · held by Meena · lit") and "CP" not in line, line
