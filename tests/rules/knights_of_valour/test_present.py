"""Knights of Valour: what the replies and the board show, and properties of the whole."""
from __future__ import annotations

import ast
import random
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules.actions import make_action
from rules.dice import Dice
from rules.errors import RulesError
from rules.report import board_report, events_report
from rules.sheet import parse_options
from rules.systems.knights_of_valour import SIZES
from rules.systems.knights_of_valour.events import KovAttack
from rules.systems.knights_of_valour.facts import KovFacts
from tests.rules.knights_of_valour.build import (
    SYSTEM,
    add,
    duel,
    encounter,
    of,
    one,
    run,
    start,
    step,
)


# -- reports -----------------------------------------------------------------------------------------------
def test_reply_shows_dice_modifiers_defence_and_damage() -> None:
    """The reply names both d20s, every modifier, the Defence Value terms, the damage dice and the HP change."""
    res = run(duel("C4", "K4"), [4, 15, 3], kind="attack", actor="Borin", target="Grak", weapon="longbow",
              options={"adv": ""})
    text = events_report("attack", res.events, SYSTEM).text()
    assert ("**Borin** attacks **Grak** with longbow (ranged, 40 ft): 🎲 4✍, 15✍ (2d20 Advantage: Advantage asked) "
            "keep 15 +1 P.L. longbow +1 agility +1 stature average vs tall = **18** vs defence **11** "
            "(10 base +1 leather +0 agility): **hit**") in text
    assert "**Grak** takes 🎲 3✍ (1d8) +1 strength = **4** damage (9 → 5 HP)" in text


def test_status_board_lines() -> None:
    """The board shows position, HP, initiative, weapon in hand and the order (the GM's Grak's initiative only to the GM)."""
    board = board_report(SYSTEM, duel()).text()
    assert "**Borin** · C4 · 12/12 HP · init 1 · longsword · ▶ Move Action and Combat Action left" in board
    assert "Order: Borin 1, Grak\n" in board + "\n" and "Grak 0" not in board
    assert "Order: Borin 1, Grak 0" in board_report(SYSTEM, duel(), numbers=True).text()


def test_an_attack_logged_with_its_advantage_in_the_label_reads_as_it_did() -> None:
    """An attack stored when the roll's label said "2d20 Advantage" (before `KovAttack.edge`) shows the same words."""
    old = {"actor": "Borin", "target": "Grak", "weapon": "longbow", "mode": "ranged", "range": 40, "reasons": ["adv_asked"],
           "roll": {"dice": [4, 15], "label": "2d20 Advantage", "kept": 15, "total": 15, "against": 11, "success": True}}
    assert "🎲 4, 15 (2d20 Advantage: Advantage asked) keep 15 = **15** vs defence **11**" in SYSTEM.present.text(
        KovAttack.model_validate(old))


# -- where the words are made -------------------------------------------------------------------------------------
def test_the_facts_carry_the_initiative_each_combatant_acts_on() -> None:
    """"The order of Combat is determined by the Agility Physical Stat of each creature, which is their
    Initiative" and "Players may elect to reduce their Initiative by any amount, for the duration of the
    Round": the facts hold each one's, a delay included, and the board's order shows them."""
    enc = duel()
    facts = SYSTEM.facts(enc)
    assert isinstance(facts, KovFacts) and facts.initiative == {"Borin": 1, "Grak": 0}
    enc = step(enc, kind="act", actor="Borin", action="delay", options=parse_options("to=-1"))
    assert SYSTEM.facts(enc).initiative == {"Grak": 0, "Borin": -1}
    assert "Order: Grak 0, Borin -1\n" in board_report(SYSTEM, enc, numbers=True).text()


# -- safety and properties ------------------------------------------------------------------------------------
ILLEGAL = [  # each raises on the started duel, given the single die result 10
    {"kind": "attack", "actor": "Grak", "target": "Borin"},  # not Grak's turn
    {"kind": "attack", "actor": "Borin", "target": "Grak", "weapon": "longbow"},  # hits: no damage die
    {"kind": "attack", "actor": "Borin", "target": "Grak", "options": {"bogus": ""}},
    {"kind": "move", "actor": "Borin", "path": "E"},  # into Grak's square
    {"kind": "move", "actor": "Borin", "to": "L10", "path": "E"},
    {"kind": "coupdegrace", "actor": "Borin", "target": "Grak"},  # Grak is not downed
    {"kind": "act", "actor": "Borin", "action": "delay", "options": {"to": "9"}},  # not lower
    {"kind": "init_order", "order": "Borin, Grak", "is_gm": True},  # untied
    {"kind": "init_roll"},  # already started
]


@pytest.mark.parametrize("fields", ILLEGAL)
def test_rejected_actions_change_nothing(fields: dict[str, object]) -> None:
    """resolve never changes the encounter it is given when it raises."""
    enc = duel()
    before = enc.model_dump()
    with pytest.raises(RulesError):
        SYSTEM.resolve(enc, make_action(**fields), Dice.fixed([10]))
    assert enc.model_dump() == before


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.integers(-3, 3), st.booleans()), min_size=1, max_size=8))
def test_order_property(fighters: list[tuple[int, bool]]) -> None:
    """The order is by initiative, highest first, and players precede monsters on ties."""
    enc = encounter()
    for i, (agi, pc) in enumerate(fighters):
        enc = add(enc, f"F{i}", f"agi={agi} hp=5", f"A{i + 1}", "s", owner="1" if pc else None)
    order = [enc.get(n) for n in start(enc).order]
    keys = [(-c.sheet["agi"], c.owner_id is None) for c in order]
    assert keys == sorted(keys)


@settings(max_examples=80, deadline=None)
@given(
    d20=st.integers(1, 20), seed=st.integers(0, 1000),
    strength=st.integers(-3, 3), agility=st.integers(-3, 3), level=st.integers(1, 10),
    size=st.sampled_from(SIZES), target_size=st.sampled_from(SIZES),
)
def test_attack_property(d20: int, seed: int, strength: int, agility: int, level: int, size: str,
                         target_size: str) -> None:
    """An attack's total is its die plus its named modifiers, it hits exactly when it reaches the
    defence, a hit does its damage die + Strength (at least 0), and the input is never changed."""
    enc = duel(knight=f"str={strength} agi={agility} size={size} hp=9 weapons=longsword:{level}",
               orc=f"agi=-3 hp=30 size={target_size} armor=plate weapons=club:2")
    before = enc.model_dump()
    res = SYSTEM.resolve(enc, make_action("attack", actor="Borin", target="Grak"),
                         Dice(rng=random.Random(seed), given=[d20]))
    attack, damage = one(res.events, "attack"), of(res.events, "damage")
    assert attack.roll.total == d20 + sum(m.value for m in attack.roll.modifiers)
    assert attack.roll.against == 10 + 2 + 8 - 3 and attack.roll.success == (attack.roll.total >= attack.roll.against)
    assert bool(damage) == attack.roll.success
    hurt = max(0, damage[0].roll.dice[0] + strength) if damage else 0
    assert res.encounter.get("Grak").hp == 30 - hurt
    assert enc.model_dump() == before


def test_rules_module_is_pure() -> None:
    """The system imports nothing from discord, aiosqlite, bot, cogs or data, and no randomness."""
    package = Path(__file__).parents[3] / "rules" / "systems" / "knights_of_valour"
    roots = {
        (node.module or "").split(".")[0] if isinstance(node, ast.ImportFrom) else alias.name.split(".")[0]
        for path in sorted(package.glob("*.py"))
        for node in ast.walk(ast.parse(path.read_text())) if isinstance(node, (ast.Import, ast.ImportFrom))
        for alias in node.names
    }
    assert "rules" in roots
    assert not roots & {"discord", "aiosqlite", "bot", "cogs", "data", "random", "time", "datetime"}


def test_a_hidden_combatant_is_not_named_among_tied_players_as_a_round_begins() -> None:
    """Ties are ordered "players first, then monsters" and "the GM orders tied players": the round's line tells players
    which tie they may ask about, but a hidden combatant named there would tell its hidden number (equal to the
    player's shown one), so players read the ties without it; the GM reads them all."""
    from tests.rules.knights_of_valour.build import add, encounter, start

    enc = add(encounter(), "A", "hp=30 agi=2 weapons=longsword:1", "C4", "a", owner="1")
    enc = add(enc, "Ally", "hp=30 agi=2 pc=yes weapons=longsword:1", "C6", "a", owner=None)
    enc = add(enc, "Bly", "hp=30 agi=1 pc=yes weapons=longsword:1", "C7", "a", owner=None)
    enc = add(enc, "Cly", "hp=30 agi=1 pc=yes weapons=longsword:1", "C8", "a", owner=None)
    enc = add(enc, "Orc", "hp=9 agi=0 weapons=greataxe:1", "H4", "b", owner=None)
    (began,) = [e for e in SYSTEM.resolve(enc, make_action(kind="init_roll"), Dice.fixed([])).events if e.kind == "round"]
    gm = SYSTEM.present.view(enc, frozenset()).text(began)
    assert "tied players (A, Ally; Bly, Cly)" in gm, gm
    hidden = SYSTEM.present.view(enc, frozenset({"Ally", "Bly", "Cly"}))
    public = hidden.readable(hidden.marked(began))
    assert "tied players" not in public and public.startswith("**Round 1** begins: order A 2, Ally, Bly, Cly"), public
    assert start(enc).round == 1
