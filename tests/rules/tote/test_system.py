"""TOTE: refusals change nothing, presentation, export, and random play."""

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
from rules.report import board_report
from rules.sheet import parse_options
from rules.systems.tote import DISTANCE_COSTS, MELEE_COSTS
from tests.rules.tote.build import (
    BORIN,
    GRAK,
    SYSTEM,
    THRAIN,
    engaged_round_two,
    fight,
    resolve,
    who,
)


# -- every error leaves the encounter unchanged ---------------------------------------------------------------
@pytest.mark.parametrize(
    ("kind", "fields", "dice"),
    [
        ("attack", {"actor": "Thrain", "target": "Grak"}, [1, 1, 1]),
        ("attack", {"actor": "Borin", "target": "Thrain"}, [1, 1, 1, 1]),
        ("attack", {"actor": "Borin", "target": "Grak", "weapon": "spear"}, [1, 1, 1, 1]),
        ("attack", {"actor": "Borin", "target": "Grak", "options": "kepp=3"}, [1, 1, 1, 1]),
        ("attack", {"actor": "Borin", "target": "Grak"}, [1, 1, 1]),
        ("attack", {"actor": "Borin", "target": "Grak"}, [1, 1, 1, 9]),
        ("act", {"actor": "Borin", "action": "dance"}, []),
        ("act", {"actor": "Borin", "action": "assist", "target": "Grak", "options": "ally=Grak"}, [1, 1, 1, 1]),
        ("act", {"actor": "Borin", "action": "distance", "options": "near", "is_gm": True}, []),
        ("move", {"actor": "Borin", "path": "N N E"}, []),
        ("init_set", {"actor": "Borin", "value": 200}, []),
        ("init_order", {"order": "Nobody"}, []),
        ("coupdegrace", {"actor": "Borin", "target": "Grak"}, []),
    ],
)
def test_rejected_actions_change_nothing(kind: str, fields: dict[str, object], dice: list[int]) -> None:
    """A rejected action raises a player-facing error and leaves the encounter passed in untouched."""
    enc = fight()
    before = enc.model_dump()
    with pytest.raises(RulesError) as err:
        resolve(enc, kind, dice, **fields)
    assert err.value.message and enc.model_dump() == before


# -- presentation and export ----------------------------------------------------------------------------------
def test_status_line_and_board_show_bands_initiative_track_and_engagements() -> None:
    """The board shows the round type, engagements, and per combatant band, initiative and injury track."""
    enc = engaged_round_two()
    line = SYSTEM.present.status_line(enc, who(enc, "Grak"), SYSTEM.facts(enc))
    for part in ("rating 2", "melee", "init 3", "[x][x][3][2][1][U] 4 left", "engaged: Borin"):
        assert part in line
    board = board_report(SYSTEM, enc).text()
    assert "Melee round" in board and "Engaged: Borin ⇄ Grak" in board and "Borin to act (4 initiative)" in board


def test_export_fields_follow_the_design() -> None:
    """`hp` is the unfilled boxes (U included), `initiative` the points; no cell, no facing."""
    data = engaged_round_two().model_dump()
    grak = next(c for c in data["combatants"] if c["name"] == "Grak")
    assert (grak["hp"], grak["initiative"], grak["status"], grak["position"], grak["facing"]) == (
        4,
        3,
        "active",
        None,
        None,
    )
    assert (data["round"], data["phase"], data["current"], data["order"]) == (
        2,
        "melee",
        "Borin",
        ["Borin", "Thrain", "Grak"],
    )


PACKAGE = Path(__file__).parents[3].joinpath("rules/systems/tote")


def test_every_option_read_is_declared_and_every_declared_option_is_read() -> None:
    """The options the package reads (`opts(enc).NAME`, `values.NAME`) are exactly those `options.py` declares."""
    read = set()
    for path in PACKAGE.glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Attribute) and (
                (isinstance(node.value, ast.Call) and getattr(node.value.func, "id", None) == "opts")
                or (isinstance(node.value, ast.Name) and node.value.id == "values")
            ):
                read.add(node.attr)
    assert read == set(SYSTEM.options_help)


def test_package_stays_pure_and_small() -> None:
    """The package imports nothing from discord, aiosqlite, bot, cogs or data, nor random or time; no module passes 600 lines."""
    names = set()
    for path in PACKAGE.glob("*.py"):
        source = path.read_text()
        assert len(source.splitlines()) <= 600, path.name
        for node in ast.walk(ast.parse(source)):
            if isinstance(node, ast.Import):
                names |= {a.name.split(".")[0] for a in node.names}
            elif isinstance(node, ast.ImportFrom) and node.module:
                names.add(node.module.split(".")[0])
    assert not names & {"discord", "aiosqlite", "bot", "cogs", "data", "random", "time"}


# -- property: random play never corrupts the state -------------------------------------------------------------
_NAMES = ("Borin", "Thrain", "Grak", "Mog")
_STEPS = st.tuples(
    st.sampled_from(("attack", "act", "move", "next", "coupdegrace", "init_set")),
    st.sampled_from(_NAMES),
    st.sampled_from((None, *_NAMES)),
    st.sampled_from((*MELEE_COSTS, *DISTANCE_COSTS, "distance")),
    st.sampled_from(("", "far", "close", "in", "away", "ally=Thrain", "keep=6", "bonus=2")),
    st.integers(0, 2**16),
)


@settings(max_examples=60, deadline=None)
@given(st.lists(_STEPS, max_size=30))
def test_random_play_keeps_the_state_sound(steps: list[tuple[str, str, str | None, str, str, int]]) -> None:
    """Property: any sequence of commands either applies or raises a RulesError without touching the input."""
    enc = fight(BORIN, THRAIN, GRAK, ("Mog", "rating=1 track=2,1,U", "foes", 1))
    for kind, actor, target, name, options, seed in steps:
        before = enc.model_dump()
        action = make_action(
            kind,
            lenient=True,
            actor=actor,
            target=target,
            action=name,
            options=parse_options(options),
            value=seed % 6,
            is_gm=seed % 2 == 0,
        )
        try:
            enc = SYSTEM.resolve(enc, action, Dice(rng=random.Random(seed))).encounter
        except RulesError:
            assert enc.model_dump() == before
            continue
        for c in enc.combatants:
            assert c.initiative is None or c.initiative >= 0
            assert c.hp == len(c.sheet["track"]) - c.state.filled
            assert c.hp > 0 if c.status == "active" else c.status == "out" or c.hp == 0
        for a, b in enc.state.engaged:
            assert (
                enc.get(a).status == "active" and enc.get(b).status == "active" and enc.get(a).side != enc.get(b).side
            )
        if enc.started and not enc.winner and enc.current:
            assert enc.current in enc.order and enc.get(enc.current).status == "active"


def test_the_gm_s_hp_on_one_out_of_the_fight_names_what_took_it_out() -> None:
    """The GM's `/combatant hp` on a combatant out of the fight (a coup-de-grace took it out) is
    refused, the track as it is: `/undo` back to the command that took it out (not one that
    filled the track), which `/log` shows."""
    enc = fight(BORIN, GRAK)
    who(enc, "Grak").status = "out"
    with pytest.raises(RulesError) as refused:
        SYSTEM.change_hp(enc, who(enc, "Grak"), 1)
    assert "Grak is out of the fight: the track stays as it is" in str(refused.value)
    assert "`/undo` back to the command that took them out (`/log` shows which it was)" in str(refused.value)
