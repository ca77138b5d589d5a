"""A turn's key as text: what its reminder row waits on and what its buttons' tag hashes."""
from __future__ import annotations

import hashlib
import json

from bot.service.clock import turn_reminder
from bot.service.turntext import turn_key_json, turn_tag
from rules.models import Combatant, Encounter
from rules.turns import Turn
from tests.scenario import GM


def test_a_turns_key_is_written_as_json_dumps_writes_it_for_the_reminder_and_the_tag() -> None:
    """The reminder's ``turn_key`` and the tag's hash read the key as ``json.dumps(list(key), default=str)`` writes it (tuples, other alphabets, values JSON has no type for)."""
    enc = Encounter(system="open", round=3, combatants=[Combatant(name="Þrór", side="dwarves", owner_id="7", hp=3, sheet={"hp": 3})])
    for key in [(), (3, "Þrór"), (2, ("a", 1), None, 1.5), (1, frozenset({"x"}), b"raw")]:
        turn = Turn(actors=("Þrór",), key=key, current="Þrór")
        written = json.dumps(list(key), default=str)
        assert turn_key_json(turn) == written
        reminder = turn_reminder(enc, turn, 1, "2", 1000.0)
        assert reminder is not None and reminder.turn_key == written
        assert turn_tag(enc, turn) == f"r3.{hashlib.sha256(written.encode()).hexdigest()[:8]}"


def _over(key: str) -> Encounter:
    """A started two-sided fight of ``key`` in which nobody is left to act (a round or phase the GM moves on)."""
    from rules.registry import get_system
    from rules.systems.coup_de_grace.state import CdgEncounter
    from rules.systems.damage_grid.state import DgEncounter
    from tests.scenario import Scenario

    sheets = {"coup-de-grace": ("class=unarmoured weapons=sword",) * 2, "damage-grid": ("body=2 weapons=gravity-saber:2:4:3:melee",) * 2,
              "tote": ("strike=3 hawk=2", "rating=2 weapon=club:2:bash")}[key]
    s = Scenario(key, map=None if key == "tote" else "8x6")
    s.add("Borin", sheets[0], side="dwarves", owner="7", at=None if key == "tote" else "B2")
    s.add("Grak", sheets[1], side="orcs", owner=None, at=None if key == "tote" else "F5")
    s.run("init_roll", {"damage-grid": [], "coup-de-grace": [6, 2], "tote": [6, 5, 3, 4, 2]}[key])
    enc = s.enc
    enc.current = None
    if key == "tote":
        for c in enc.combatants:
            c.initiative = None
    else:  # the side with priority has nobody left to activate
        state = (CdgEncounter if key == "coup-de-grace" else DgEncounter).of(enc)
        state.priority = None
    assert get_system(key).turn(enc).over
    return enc


def test_a_turn_nobody_can_act_in_pings_the_gm() -> None:
    """docs/commands.md: "With nobody acting (a round or phase to move on ...), only the GM goes on, with `/init next`":
    such a turn (Coup-De-Grace's "Round 1 is over", the damage grid's "`/init next` goes on", TOTE's "Nobody is ready
    to act: the GM rolls initiative") waits for the GM, who is pinged and reminded as a player is on their turn (it
    pinged nobody, and the fight waited unseen)."""
    from bot.service.turntext import turn_ping, turn_users
    from rules.registry import get_system

    for key in ("coup-de-grace", "damage-grid", "tote"):
        enc = _over(key)
        system = get_system(key)
        turn = system.turn(enc)
        assert turn.gm and turn_users(enc, turn) == (GM,), key
        ping = turn_ping(enc, turn, 1, system.facts(enc))
        assert ping is not None and ping.user_ids == (GM,), key
        assert turn_reminder(enc, turn, 1, "2", 1000.0) is not None, key
