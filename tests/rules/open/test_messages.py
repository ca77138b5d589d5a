"""The open system's refusals say what to do instead (docs/commands.md: "Bad input gets a clear message that says
what to do instead and changes nothing"), and its down-and-out lines (docs/systems/open.md, "Down and out")."""
from __future__ import annotations

from rules.errors import IllegalAction, InputError, NotAllowed
from tests.scenario import PLAYER, Scenario

SWORD = "weapons=longsword:+5:1d8+3:slashing"
TESS = "900000000000000003"


def duel(grak_at: str = "J5") -> Scenario:
    """Aria (the player's) acts first; Grak (3 HP) and Orc are the GM's."""
    s = Scenario("open").add("Aria", f"hp=20 init=+60 {SWORD}", at="E5")
    s.add("Grak", f"hp=3 {SWORD}", at=grak_at, owner=None, side="foes").add("Orc", "hp=9", at="L9", owner=None, side="foes")
    s.run("init_roll", [10, 1, 2])
    return s


def grak_out() -> Scenario:
    """Aria's hit takes Grak out (the GM's are out at 0 HP); the turn passes to Orc."""
    s = duel(grak_at="F5")
    s.run("attack", [15, 4], actor="Aria", target="Grak")
    assert s.get("Grak").status == "out"
    return s


def test_a_move_refuses_words_it_does_not_read() -> None:
    """`/move to:E4 options:"sneaky"` is refused, saying to leave `options` out, and does not move."""
    s = duel()
    assert "Leave `options` out" in s.refused("move", error=InputError, actor="Aria", to="E4", options={"sneaky": ""})


def test_refusals_that_say_what_to_do() -> None:
    """Standing when not prone, acting while paralysed and attacking one who is out each say what to do instead."""
    s = duel()
    assert "move or act instead" in s.refused("act", error=IllegalAction, actor="Aria", action="stand")
    s.run("effect_add", effect="paralysed", actor="Aria", rounds=2)
    for kind, fields in (("attack", {"target": "Grak"}), ("act", {"action": "dash"})):
        assert "End the turn with `/init next`" in s.refused(kind, error=IllegalAction, actor="Aria", **fields)
    s = grak_out()
    s.run("next", actor="Aria")
    s.run("next", actor="Orc")
    assert "pick another target" in s.refused("attack", error=IllegalAction, actor="Aria", target="Grak")


def test_only_the_owner_or_the_gm_answers_an_opportunity_attack() -> None:
    """Another player answering Aria's opportunity attack is told only its owner or the GM answers, not to name Aria."""
    s = Scenario("open").add("Aria", f"hp=20 init=+0 {SWORD}", at="E5").add("Pike", "hp=20 init=+0", at="B2")
    s.add("Grak", f"hp=60 init=+60 {SWORD}", at="F5", owner=None, side="foes")
    s.run("init_roll", [10, 10, 1, 12, 5])
    s.run("move", actor="Grak", path="E")
    text = s.refused("act", error=NotAllowed, actor="Pike", action="opportunity", options={"yes": ""}, gm=False,
                     user_id=TESS)
    assert "only its owner or the GM" in text and "combatant:Aria" not in text
    assert "combatant:Aria" in s.refused("act", error=NotAllowed, actor="Pike", action="opportunity",
                                         options={"yes": ""}, gm=False, user_id=PLAYER)


def test_healing_does_not_bring_back_the_dead_but_the_gms_hp_does() -> None:
    """"one that is out (dead) stays out: `/combatant hp` on it is refused, and the GM's `/combatant edit
    sheet:"hp=5"` brings it back"."""
    s = grak_out()
    assert "healing does not bring it back" in s.refused("edit", error=IllegalAction, actor="Grak", hp_change=5)
    s.run("edit", actor="Grak", raw_sheet={"hp": "2"})
    assert (s.get("Grak").status, s.get("Grak").hp) == ("active", 2)


def test_the_third_failed_death_save_says_dead() -> None:
    """The line for a combatant out after three failed death saves says so, not that it begins death saves."""
    from rules.events import StatusChanged
    s = duel()
    line = s.system.present.text(StatusChanged(actor="Aria", status="out", cause="death_saves"))
    assert line == "**Aria** is now **out**: dead after three failed death saves"


def test_the_opportunity_answer_offers_only_words_a_player_types() -> None:
    """open.md: "`/act action:opportunity options:"yes"` types it; the GM can answer for them; the turn's deadline
    answers no": `deadline` is the bot's word at the deadline, so neither `/help` nor a refusal offers it to a player;
    a `tag` naming no waiting question says so, not that the waiting one was answered."""
    s = Scenario("open").add("Aria", f"hp=20 init=+0 {SWORD}", at="E5")
    s.add("Grak", f"hp=60 init=+60 {SWORD}", at="F5", owner=None, side="foes")
    s.run("init_roll", [10, 1])
    s.run("move", actor="Grak", path="E")
    text = s.refused("act", actor="Aria", action="opportunity", options={"maybe": ""}, gm=False, user_id=PLAYER)
    assert "`yes|no`" in text and "deadline" not in text
    words = s.system.actions.get("opportunity").words
    assert "deadline" not in words.word_lines() and "deadline" not in words.completions("d")
    text = s.refused("act", actor="Aria", action="opportunity", options={"tag": "foo", "yes": ""}, gm=False,
                     user_id=PLAYER)
    assert "`tag=foo` names no question waiting" in text and 'options:"yes"' in text


def test_a_combatant_with_no_weapon_is_told_who_can_add_one() -> None:
    """docs/commands.md: once the fight has started "an owner's `/combatant edit` may change only cosmetic sheet
    keys": a player whose combatant has no weapon mid-fight is told the GM adds one, with the command to use."""
    s = Scenario("open").add("Borin", "hp=30 init=+0", at="B2").add("Grak", "hp=9", at="C2", owner=None, side="foes")
    s.run("init_roll", [15, 1])
    text = s.refused("attack", actor="Borin", target="Grak", gm=False, user_id=PLAYER)
    assert "the GM" in text and '`/combatant edit name:Borin sheet:"weapons=' in text
