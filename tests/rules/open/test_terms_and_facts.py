"""The open system's rules name terms by code and work out what the board shows (`OpenFacts`); its presenter words
both and computes nothing (docs/systems/open.md)."""
from __future__ import annotations

import ast
import dataclasses
from pathlib import Path

from rules.events import Term, mod, said
from rules.systems.open.events import OpenAttack, Saved
from rules.systems.open.facts import OpenFacts
from tests.scenario import Scenario

PACKAGE = Path(__file__).resolve().parents[3] / "rules" / "systems" / "open"
SWORD = "weapons=longsword:+5:1d8+3:slashing"


def duel(ann: str = f"hp=20 ac=15 {SWORD}", grak: str = "hp=30 ac=14 weapons=claws:+4:1d6:slashing",
         grak_at: str = "C2", blocked: tuple[str, ...] = (), **options: str) -> Scenario:
    """Ann (the player's, at B2) against the GM's Grak; Ann acts first."""
    s = Scenario("open", blocked=blocked, **options).add("Ann", ann + " init=+10", at="B2")
    s.add("Grak", grak, at=grak_at, owner=None, side="foes")
    s.run("init_roll", [10, 1])
    return s


def _codes_named() -> dict[str, list[str]]:
    """Every term the open rules name with `mod(...)` or `Term(code=...)`: code -> where; a name that is not a
    literal string is listed under ``<not a literal>``."""
    found: dict[str, list[str]] = {}
    for path in sorted(PACKAGE.glob("*.py")):
        if path.name == "present.py":
            continue
        for node in ast.walk(ast.parse(path.read_text())):
            if not isinstance(node, ast.Call) or not isinstance(node.func, ast.Name):
                continue
            if node.func.id == "mod":
                code = node.args[0] if node.args else None
            elif node.func.id == "Term":
                code = next((k.value for k in node.keywords if k.arg == "code"), None)
            else:
                continue
            key = code.value if isinstance(code, ast.Constant) and isinstance(code.value, str) else "<not a literal>"
            found.setdefault(key, []).append(f"{path.name}:{node.lineno}")
    return found


def test_an_attack_names_its_weapon_and_its_reasons_as_codes_worded_by_the_presenter() -> None:
    """"a d20 plus the weapon's bonus ... must reach the target's AC"; "`options:"adv"` / `"dis"` roll two d20s ...;
    conditions add their own": the weapon and the reasons are codes with their names, in the words players read."""
    s = duel()
    s.run("effect_add", effect="restrained", actor="Grak", rounds=1)
    s.run("effect_add", effect="poisoned", actor="Ann", rounds=1)
    res = s.resolve("attack", [3], actor="Ann", target="Grak", options={"adv": ""})
    a = next(e for e in res.events if isinstance(e, OpenAttack))
    assert a.roll.modifiers == [mod("weapon", 5, "longsword")] and a.roll.versus == Term(code="AC")
    assert a.reasons == [Term(code="adv_asked"), Term(code="target_condition", args=["Grak", "restrained"]),
                         Term(code="condition", args=["poisoned"])]
    line = s.text(res)[0]
    assert "[advantage and disadvantage cancel (adv asked, Grak restrained, poisoned)]" in line
    assert "+5 longsword = **8** vs AC 14: **miss**" in line


def test_an_attack_logged_with_its_reasons_in_words_reads_as_it_did() -> None:
    """An attack stored before its reasons were codes (``"Grak prone"``) shows them in the same words."""
    old = {"actor": "Ann", "target": "Grak", "weapon": "bow", "mode": "disadvantage", "reasons": ["long range", "Grak prone"],
           "roll": {"dice": [4, 12], "label": "d20", "kept": 4, "modifiers": [{"name": "bow", "value": 5}], "total": 9,
                    "against": 14, "against_label": "AC", "success": False}}
    line = Scenario("open").system.present.text(OpenAttack.model_validate(old))
    assert line == ("**Ann** attacks **Grak** with the bow [disadvantage (long range, Grak prone)]: 🎲 4, 12 (d20) keep 4 "
                    "+5 bow = **9** vs AC 14: **miss**")


def test_a_save_names_its_ability_and_cover_as_codes() -> None:
    """"each combatant caught rolls a d20 plus its modifier of the ability ... against the DC"; "cover adds to
    Dexterity saves" (half cover +2): the ability and the cover are codes with their names."""
    spark = "hp=20 weapons=spark:save=dex:13:1d6:fire:range=60"
    s = duel(ann=spark, grak="hp=30 dex=2", grak_at="D4", blocked=("C2",), cover="centre")
    res = s.resolve("attack", [4, 9], actor="Ann", target="Grak", weapon="spark")
    save = next(e for e in res.events if isinstance(e, Saved))
    assert save.roll.modifiers == [mod("ability", 2, "dex"), mod("cover", 2, "half")] and save.roll.versus == Term(code="DC")
    assert "**Grak** Dexterity save against **Ann**: 🎲 9✍ (d20) +2 dex +2 half cover = **13** vs DC 13: saves" in s.text(res)


def test_an_automatic_failure_is_a_fact_not_a_label() -> None:
    """"Paralysed, stunned and unconscious combatants fail Strength and Dexterity saves": the roll rolls nothing and
    has no label; the event says the save failed at once, and the presenter words it."""
    spark = "hp=20 weapons=spark:save=dex:13:1d6:fire:range=60"
    s = duel(ann=spark, grak="hp=30", grak_at="D4")
    s.run("effect_add", effect="stunned", actor="Grak", rounds=1)
    res = s.resolve("attack", [4], actor="Ann", target="Grak", weapon="spark")
    save = next(e for e in res.events if isinstance(e, Saved))
    assert save.automatic and save.ability == "dex" and save.roll.label is None and not save.roll.dice
    assert "**Grak** fails the Dexterity save against **Ann** at once (it cannot move to avoid it)" in s.text(res)


def test_the_facts_carry_the_numbers_the_board_shows() -> None:
    """"`hp` (the starting and, unless `max_hp` says otherwise, the most hit points), `temp_hp`, `ac` (default 10)";
    "Effects may also change `attack`, `ac`, ..." ; "**stunned** (... no actions or reactions ...)": the rules work
    them out for the board."""
    s = duel(ann=f"hp=20 max_hp=25 temp_hp=4 ac=15 {SWORD}", grak="hp=30")
    s.run("effect_add", effect="Shield", actor="Ann", rounds=1, mods="ac+2")
    s.run("effect_add", effect="stunned", actor="Grak", rounds=1)
    facts = s.system.facts(s.enc)
    assert isinstance(facts, OpenFacts)
    assert (facts.max_hp, facts.temp_hp, facts.ac) == ({"Ann": 25, "Grak": 30}, {"Ann": 4}, {"Ann": 15, "Grak": 10})
    assert facts.ac_changes == {"Ann": (said("Shield", 2),)}
    assert facts.conditions == {"Grak": ("stunned",)} and facts.held == {"Grak": ("stunned",)}
    assert facts.players == frozenset({"Ann"}) and facts.turn.current == "Ann" and facts.turn.points == (30,)
    line = s.system.present.status_line(s.enc, s.get("Ann"), facts)
    assert line == "**Ann** · B2 · 20/25 HP +4 temp · AC 15 (+2 Shield) · init 20 · ▶ 30 ft and action left"


def test_the_presenter_words_the_facts_it_is_handed() -> None:
    """The status line and the turn line read the facts, not the sheet or the effects: other facts, other words."""
    s = duel()
    present, facts = s.system.present, s.system.facts(s.enc)
    other = dataclasses.replace(facts, max_hp={"Ann": 99, "Grak": 30}, ac={"Ann": 3, "Grak": 14}, temp_hp={},
                                ac_changes={"Ann": (said("Haste", 2),)}, conditions={"Ann": ("prone",)},
                                held={"Ann": ("stunned",)})
    assert present.status_line(s.enc, s.get("Ann"), other).startswith("**Ann** · B2 · 20/99 HP · AC 3 (+2 Haste) · "
                                                                        "init 20 · prone")
    assert present.turn_label(s.enc, other) == "Round 1 · Ann cannot act (stunned): `/init next` ends the turn"
