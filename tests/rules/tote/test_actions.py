"""TOTE: the melee actions, their costs (the text's table) and effects."""

from __future__ import annotations

import pytest

from rules.errors import IllegalAction, InputError, NotAllowed, NotYourTurn
from rules.events import EffectEnded
from rules.models import Encounter
from rules.system import Resolution
from rules.systems.tote import MELEE_COSTS
from tests.rules.tote.build import (
    BORIN,
    GRAK,
    SYSTEM,
    THRAIN,
    act,
    engaged_round_two,
    fight,
    pass_round,
    resolve,
    step,
    text,
    who,
)


# -- melee round costs (the text's table) ---------------------------------------------------------------------
@pytest.mark.parametrize(
    ("name", "target", "options", "dice", "cost"),
    [
        ("assault", "Grak", "", [1, 1, 1, 1], 2),
        ("assist", "Grak", "ally=Thrain", [1, 1, 1, 1], 1),
        ("defend", None, "", [], 0),
        ("grapple", "Grak", "", [1, 1, 1], 0),
        ("intimidate", "Grak", "", [1, 1, 1], 1),
        ("protect", "Thrain", "", [], 2),
        ("shoot", "Grak", "", [1, 1], 3),
        ("strike", "Grak", "", [1, 1, 1, 1], 1),
    ],
)
def test_melee_action_costs(name: str, target: str | None, options: str, dice: list[int], cost: int) -> None:
    """Each melee action spends its initiative cost from the text's table, and the reply says so."""
    res = act(fight(), "Borin", name, dice, target=target, options=options)
    gained = 1 if name == "defend" else 0
    assert MELEE_COSTS[name] == cost
    assert who(res.encounter, "Borin").initiative == 5 - cost + gained
    assert f"(5 → **{5 - cost}**)" in text(res) if cost else "free" in text(res)


def test_disengage_costs_three() -> None:
    """"Disengage | 3 | Move away from a foe. You will count as disengaged for the next round": it costs 3, ends the
    engagement and moves one band away from that foe, to Close (the other foes keep their distance)."""
    res = act(engaged_round_two(), "Borin", "disengage")
    enc = res.encounter
    assert who(enc, "Borin").initiative == 1 and enc.state.engaged == []
    assert "Borin disengages from Grak" in text(res) and "**Borin** moves melee → close from Grak (1 initiative left)" in text(res)
    assert enc.state.ranges == {"Borin": {"Grak": "close"}}
    with pytest.raises(IllegalAction, match="Grak is at Close from Borin"):  # Grak moves in before it strikes again
        resolve(step(enc, "next", actor="Thrain"), "attack", [6, 1, 3], actor="Grak", target="Borin")


def test_cannot_spend_initiative_it_does_not_have() -> None:
    """A combatant cannot spend initiative it does not have; 0-cost actions stay open at 0."""
    enc = fight(("Ann", "hawk=1", "heroes", 0), ("Grak", "rating=1", "foes", 0))
    with pytest.raises(IllegalAction, match="0 initiative points and strike costs 1") as err:
        resolve(enc, "attack", [1, 1, 1], actor="Ann", target="Grak")
    assert "choose an action it can pay for (defend 0, grapple 0)" in err.value.message
    assert who(step(enc, "act", actor="Ann", action="defend"), "Ann").initiative == 1


def test_a_refused_action_names_every_action_the_points_pay_for() -> None:
    """"A combatant cannot spend initiative it does not have" (docs/systems/tote.md): the refusal
    names each melee action the points still pay for, with its cost, not only the free ones."""
    enc = fight(("Ann", "hawk=1 weapon=bow:1:pierce", "heroes", 2), ("Grak", "rating=1", "foes", 0))
    with pytest.raises(IllegalAction) as err:
        act(enc, "Ann", "disengage")
    assert err.value.message == (
        "Ann has 2 initiative points and disengage costs 3: choose an action it can pay for (defend 0, grapple 0, "
        "assist 1, intimidate 1, strike 1, assault 2, protect 2) or pass with `/init next`."
    )


# -- melee actions: effects -------------------------------------------------------------------------------
def test_attack_is_a_strike_against_block() -> None:
    """`/attack` in a melee round is a Strike (1) against the foe's Block 8; damage = weapon damage."""
    res = resolve(fight(), "attack", [2, 3, 6, 3], actor="Borin", target="Grak")
    enc = res.encounter
    assert who(enc, "Grak").hp == 4 and who(enc, "Grak").state.filled == 2
    line = text(res)
    for part in (
        "Strike [2✍, 3✍, 6✍]",
        "keep 6",
        "Paragon 3✍",
        "= **9** vs Block 8: hit, 1 success",
        "fills [5] [4]",
        "(5 → **4**)",
    ):
        assert part in line


def test_extra_successes_add_damage() -> None:
    """Each success beyond the first adds one box: 6 + 4 with others 5 and 4 also meeting 8 is 3 successes."""
    enc = step(fight(), "attack", [5, 4, 6, 4], actor="Borin", target="Grak")
    assert who(enc, "Grak").hp == 6 - (2 + 2)


def test_resist_and_critical_effect_change_damage() -> None:
    """A resisted kind marks fewer boxes; a weapon's effect adds on a critical."""
    foe = ("Grak", "rating=2 resist=slash", "foes", 3)
    enc = step(fight(BORIN, foe), "attack", [6, 1, 1, 3], actor="Borin", target="Grak")
    assert who(enc, "Grak").hp == 6 - (2 - 1)
    maul = ("Ann", "strike=1 weapon=maul:2:1:bash", "heroes", 5)
    res = resolve(fight(maul, GRAK), "attack", [4, 4], actor="Ann", target="Grak")
    assert who(res.encounter, "Grak").hp == 6 - (2 + 1 + 1)  # 1 extra success (critical) + effect 1
    assert "effect (critical)" in text(res)


def test_damage_engages_the_pair_and_restricts_targets() -> None:
    """Melee damage engages the pair; an engaged combatant must target that foe."""
    two_foes = (BORIN, THRAIN, GRAK, ("Mog", "rating=1", "foes", 1))
    enc = step(fight(*two_foes), "attack", [2, 3, 6, 3], actor="Borin", target="Grak")
    assert enc.state.engaged == [("Borin", "Grak")]
    enc = pass_round(enc)
    with pytest.raises(IllegalAction, match="engaged with Grak: its actions must target that foe"):
        resolve(enc, "attack", [1, 1, 1, 1], actor="Borin", target="Mog")
    assert (
        who(step(enc, "attack", [1, 1, 1, 1], actor="Borin"), "Borin").state.acted == 2
    )  # the target defaults to Grak


def test_unengaged_combatants_gain_one_initiative_each_melee_round() -> None:
    """At a melee round's start, those that neither dealt nor took melee damage last round gain 1."""
    enc = engaged_round_two()
    assert (who(enc, "Borin").initiative, who(enc, "Grak").initiative, who(enc, "Thrain").initiative) == (4, 3, 3)
    enc = pass_round(enc)
    # nobody dealt melee damage in round 2: all gain, engaged or not
    assert (who(enc, "Borin").initiative, who(enc, "Grak").initiative, who(enc, "Thrain").initiative) == (5, 4, 4)


def test_first_round_has_no_gain_and_the_gain_is_a_gm_option() -> None:
    """The starting initiative counts as round 1's; `unengaged_gain=2` changes the gain."""
    enc = fight(unengaged_gain="2")
    assert who(enc, "Borin").initiative == 5
    assert who(pass_round(enc), "Borin").initiative == 7


def test_assault_gets_plus_two_and_offers_a_free_return() -> None:
    """Assault (2): +2 to hit; the foe may return an attack at +2 for free, and that is its action."""
    res = act(fight(), "Borin", "assault", [2, 3, 6, 3], target="Grak")
    enc = res.encounter
    assert "+2 Assault" in text(res) and who(enc, "Grak").hp == 3  # 11 vs 8: 2 successes, axe 2 + 1
    assert SYSTEM.turn(enc).actors == ("Grak",) and enc.current == "Grak"
    back = resolve(enc, "attack", [6, 1, 1], actor="Grak")
    enc = back.encounter
    assert "+2 Assault return" in text(back) and who(enc, "Borin").hp == 4
    assert who(enc, "Grak").initiative == 3 and who(enc, "Grak").state.acted == 1
    assert enc.current == "Thrain"


def test_assault_return_can_be_declined() -> None:
    """`/init next` lets the Assault go unanswered: the foe keeps its action for later in the round."""
    enc = step(fight(), "act", [1, 1, 1, 1], actor="Borin", action="assault", target="Grak")
    enc = step(enc, "next", actor="Grak")
    assert enc.state.pending_return is None and enc.current == "Grak" and who(enc, "Grak").state.acted is None


def test_no_return_from_a_foe_that_already_acted() -> None:
    """A foe that has already acted this round cannot return the Assault."""
    enc = step(fight(), "next", actor="Borin")
    enc = step(enc, "next", actor="Grak")
    res = act(enc, "Thrain", "assault", [1, 1, 1], target="Grak")
    assert "no return attack" in text(res) and res.encounter.round == 2


def test_only_the_return_is_open_while_it_is_pending() -> None:
    """While a return is pending, others wait and the foe may only return or decline."""
    enc = step(fight(), "act", [1, 1, 1, 1], actor="Borin", action="assault", target="Grak")
    with pytest.raises(NotYourTurn, match="answers Borin's Assault"):
        act(enc, "Thrain", "defend")
    with pytest.raises(IllegalAction, match="only return"):
        act(enc, "Grak", "defend")


def test_assist_gives_the_ally_one_initiative_and_strikes() -> None:
    """Assist (1): the ally gains 1 initiative and the assister makes a Strike test."""
    res = act(fight(), "Borin", "assist", [2, 3, 6, 3], target="Grak", options="ally=Thrain")
    assert who(res.encounter, "Thrain").initiative == 3 and who(res.encounter, "Grak").hp == 4
    assert "Assist strike" in text(res)
    with pytest.raises(InputError, match="needs an ally"):
        act(fight(), "Borin", "assist", [1, 1, 1, 1], target="Grak")


def test_defend_gains_one_and_makes_attacks_harder() -> None:
    """Defend (0): +1 initiative, and attacks against the defender take −2 this round (To-Hit 8 acts as 10)."""
    enc = fight(("Ann", "hawk=1", "heroes", 5), ("Grak", "rating=2", "foes", 3))
    enc_plain = step(enc, "next", actor="Ann")
    assert who(step(enc_plain, "attack", [6, 1, 3], actor="Grak"), "Ann").hp == 5  # 9 vs 8: hit, fists 1
    enc_def = step(enc, "act", actor="Ann", action="defend")
    assert who(enc_def, "Ann").initiative == 6
    res = resolve(enc_def, "attack", [6, 1, 3], actor="Grak")
    assert who(res.encounter, "Ann").hp == 6 and "−2 Defend" in text(res)  # 9 − 2 = 7: a miss


def test_a_defend_taken_as_the_last_action_of_a_round_ends_with_that_round() -> None:
    """"Defend | 0 | All attacks against you suffer a -2 penalty this round" (tote.txt): a Defend that ends the
    round ends with it, as one taken mid-round does, and the next round's attacks on the defender take nothing."""
    enc = fight(("Ann", "strike=1 hawk=1", "heroes", 5), ("Grak", "rating=2", "foes", 3))
    mid = resolve(step(enc, "act", actor="Ann", action="defend"), "next", actor="Grak")
    last = resolve(step(enc, "next", actor="Ann"), "act", actor="Grak", action="defend")
    for res, name in ((mid, "Ann"), (last, "Grak")):
        assert [(e.actor, e.name) for e in res.events if isinstance(e, EffectEnded)] == [(name, "Defend")]
        assert res.encounter.effects == [] and f"Effect **Defend** on **{name}** ends" in text(res)
    assert last.encounter.round == 2
    hit = resolve(last.encounter, "attack", [6, 2], actor="Ann", target="Grak")
    assert "Defend" not in text(hit) and who(hit.encounter, "Grak").hp < who(last.encounter, "Grak").hp  # 6 + 2 = 8 vs 8


def test_defend_may_strike_a_named_foe() -> None:
    """Defend with a `target` also makes a Strike test at that foe."""
    res = act(fight(), "Borin", "defend", [2, 3, 6, 3], target="Grak")
    assert who(res.encounter, "Grak").hp == 4 and who(res.encounter, "Borin").initiative == 6


def test_disengaged_counts_as_unengaged_next_round() -> None:
    """"You will count as disengaged for the next round": a combatant that disengaged gains initiative next round
    ("all unengaged combatants gain 1 Initiative") and stays unengaged."""
    enc = step(engaged_round_two(), "act", actor="Borin", action="disengage")  # 4 -> 1, at Close from Grak
    enc = step(enc, "next", actor="Thrain")
    enc = step(enc, "next", actor="Grak")
    assert enc.round == 3 and enc.state.engaged == []
    assert (who(enc, "Borin").initiative, who(enc, "Grak").initiative, who(enc, "Thrain").initiative) == (2, 4, 4)


def test_disengage_needs_an_engagement() -> None:
    """Disengaging while unengaged is refused."""
    with pytest.raises(IllegalAction, match="not engaged"):
        act(fight(), "Borin", "disengage")


def test_grapple_is_a_brawl_attack() -> None:
    """Grapple (0): a Brawl test against Block; a hit marks 1 box and engages."""
    res = act(fight(), "Borin", "grapple", [5, 2, 4], target="Grak")
    enc = res.encounter
    assert "Brawl [5✍, 2✍]" in text(res) and who(enc, "Grak").hp == 5 and enc.state.engaged == [("Borin", "Grak")]
    assert who(enc, "Borin").initiative == 5


def test_intimidate_against_a_hero_uses_stag() -> None:
    """An enemy's Intimidate targets 7 + the hero's Stag; each success lowers its initiative by 1."""
    enc = fight(("Ann", "stag=3", "heroes", 2), ("Grak", "rating=2", "foes", 4))
    res = act(enc, "Grak", "intimidate", [6, 4, 1], target="Ann")
    assert "vs 7 + Stag 3 = 10" in text(res) and who(res.encounter, "Ann").initiative == 2
    res = act(enc, "Grak", "intimidate", [6, 4, 6], target="Ann")
    assert who(res.encounter, "Ann").initiative == 0  # 12: 2 successes + critical 1 = 3, floored at 0


def test_a_hidden_foes_intimidate_shows_players_the_heros_own_numbers() -> None:
    """"Players' combatants always show their numbers" (docs/systems/tote.md): a hidden foe's Intimidate against a
    hero ("7 + the hero's Stag") hides the foe's roll, not the hero's Stag, nor the hero's initiative it lowers
    (the board shows it to everyone)."""
    enc = fight(("Ann", "stag=3", "heroes", 2), ("Grak", "rating=2", "foes", 4))
    res = act(enc, "Grak", "intimidate", [6, 4, 6], target="Ann")
    hidden = SYSTEM.present.view(enc, frozenset({"Grak"}))
    lines = [hidden.readable(hidden.marked(e)) for e in res.events]
    assert any("the GM's roll vs 7 + Stag 3 = 10: success" in line for line in lines), lines
    assert any("**Ann** initiative **" in line and "intimidated" in line for line in lines), lines


def test_protect_redirects_attacks_on_the_ally() -> None:
    """Protect (2): attacks on the ally hit the protector instead this round."""
    enc = fight(BORIN, ("Thrain", "strike=2 hawk=1", "heroes", 4), GRAK)
    enc = step(enc, "next", actor="Borin")
    enc = step(enc, "act", actor="Thrain", action="protect", target="Borin")
    res = resolve(enc, "attack", [6, 1, 3], actor="Grak", target="Borin")
    assert "Thrain protects Borin" in text(res)
    assert who(res.encounter, "Thrain").hp == 4 and who(res.encounter, "Borin").hp == 6


def _round_end(enc: Encounter) -> Resolution:
    """Everyone still to act passes until the round ends: the reply of the action that ended it."""
    while True:
        res = resolve(enc, "next", actor=enc.current)
        if res.encounter.round > enc.round:
            return res
        enc = res.encounter


def test_protect_is_listed_while_it_runs_and_told_when_it_ends_with_the_round() -> None:
    """"Protect | 2 | If you are unengaged, nominate an ally. If that ally is attacked, you are instead the target of
    the attack." (tote.txt, "Actions for the Round"): an effect on the ally for the round, as Defend is on the
    defender: listed (`/effect list`, the board) while it runs, and its end told before the next round begins."""
    enc = fight(BORIN, ("Thrain", "strike=2 hawk=1", "heroes", 4), GRAK)
    enc = step(enc, "next", actor="Borin")
    enc = step(enc, "act", actor="Thrain", action="protect", target="Borin")
    assert SYSTEM.present.effect_lines(enc) == ["Protect (by Thrain) on Borin, until the end of the round"]
    res = _round_end(enc)
    assert [(e.actor, e.name) for e in res.events if isinstance(e, EffectEnded)] == [("Borin", "Protect (by Thrain)")]
    lines = text(res).splitlines()
    assert lines.index("Effect **Protect (by Thrain)** on **Borin** ends") < next(i for i, x in enumerate(lines) if "**Round 2**" in x)
    assert res.encounter.effects == [] and dict(SYSTEM.facts(res.encounter).protecting) == {}


def test_a_protect_taken_as_the_last_action_of_a_round_ends_with_that_round() -> None:
    """"Protect | 2 | ... If that ally is attacked, you are instead the target of the attack", for the round it is
    taken in: taken as the round's last action it ends with that round, and the next round's attack on the ally
    hits the ally."""
    enc = fight(BORIN, GRAK, THRAIN)  # Borin 5, Grak 3, Thrain 2: Thrain acts last
    enc = step(step(enc, "next", actor="Borin"), "next", actor="Grak")
    res = act(enc, "Thrain", "protect", target="Borin")
    assert res.encounter.round == 2 and res.encounter.effects == []
    assert "Effect **Protect (by Thrain)** on **Borin** ends" in text(res)
    hit = resolve(step(res.encounter, "next", actor="Borin"), "attack", [6, 1, 3], actor="Grak", target="Borin")
    assert "Thrain protects Borin" not in text(hit) and who(hit.encounter, "Thrain").hp == who(enc, "Thrain").hp


def test_a_protect_ends_with_its_protector_leaving_the_fight() -> None:
    """"If that ally is attacked, you are instead the target of the attack": with the protector removed from the
    encounter there is nobody to take the attack, so its Protect ends, told in the reply."""
    enc = fight(BORIN, ("Thrain", "strike=2 hawk=1", "heroes", 4), GRAK)
    enc = step(step(enc, "next", actor="Borin"), "act", actor="Thrain", action="protect", target="Borin")
    res = resolve(enc, "remove", actor="Thrain", is_gm=True)
    assert res.encounter.effects == [] and "Effect **Protect (by Thrain)** on **Borin** ends" in text(res)


@pytest.mark.parametrize("how", ["attack", "hp"])
def test_a_protect_ends_with_its_protector_unconscious(how: str) -> None:
    """"If that ally is attacked, you are instead the target of the attack": a protector left unconscious (by the
    attack it took for the ally, or the GM's marks) takes no attack, so its Protect ends, told in the reply, and is
    no longer listed."""
    enc = fight(BORIN, ("Thrain", "strike=2 hawk=1 track=1,U", "heroes", 4), GRAK, ("Dwalin", "strike=2 hawk=1", "heroes", 1))
    enc = step(step(enc, "next", actor="Borin"), "act", actor="Thrain", action="protect", target="Borin")
    if how == "attack":
        res = resolve(enc, "attack", [6, 6, 6], actor="Grak", target="Borin")
        assert "Thrain protects Borin" in text(res) and "now engaged" not in text(res)  # one left unconscious engages nobody
    else:
        res = resolve(enc, "edit", actor="Thrain", hp_change=-2, is_gm=True)
    enc = res.encounter
    assert who(enc, "Thrain").status == "downed" and enc.round == 1  # Dwalin is still to act
    assert enc.effects == [] and "Effect **Protect (by Thrain)** on **Borin** ends" in text(res)
    assert SYSTEM.present.effect_lines(enc) == []


def _two_protectors() -> Encounter:
    """Thrain and Dwalin both protect Borin in round 1."""
    enc = fight(BORIN, ("Thrain", "strike=2 hawk=1", "heroes", 4), ("Dwalin", "strike=2 hawk=1", "heroes", 4), GRAK)
    enc = step(enc, "next", actor="Borin")
    enc = step(enc, "act", actor="Thrain", action="protect", target="Borin")
    return step(enc, "act", actor="Dwalin", action="protect", target="Borin")


def test_two_protects_on_one_ally_name_their_protectors() -> None:
    """"Protect | 2 | If you are unengaged, nominate an ally": two protectors may nominate the same ally; each Protect
    names its protector ("each Protect on an ally names its protector", docs/systems/tote.md) in `/effect list`, on
    the board and in its end line, so the two are told apart."""
    enc = _two_protectors()
    assert SYSTEM.present.effect_lines(enc) == [
        "Protect (by Thrain) on Borin, until the end of the round", "Protect (by Dwalin) on Borin, until the end of the round",
    ]
    assert "Protect (by Dwalin) on Borin" in " ".join(SYSTEM.present.board(enc, SYSTEM.facts(enc)).lines)
    lines = text(_round_end(enc)).splitlines()
    assert "Effect **Protect (by Thrain)** on **Borin** ends" in lines and "Effect **Protect (by Dwalin)** on **Borin** ends" in lines


def test_effect_remove_picks_one_of_two_protects() -> None:
    """"each Protect on an ally names its protector" (docs/systems/tote.md): `/effect remove name:"Protect (by Dwalin)"`
    ends that one and keeps Thrain's; `name:Protect` alone, with two, is refused naming both, changing nothing."""
    enc = _two_protectors()
    with pytest.raises(InputError) as refused:
        resolve(enc, "effect_remove", actor="Borin", effect="Protect", is_gm=True)
    assert str(refused.value) == ("Borin has 2 effects called Protect: say which, `Protect (by Thrain)` or "
                                  "`Protect (by Dwalin)`.")
    res = resolve(enc, "effect_remove", actor="Borin", effect="protect (by dwalin)", is_gm=True)
    assert [(e.name, e.source) for e in res.encounter.effects] == [("Protect (by Thrain)", "Thrain")]
    assert dict(SYSTEM.facts(res.encounter).protecting) == {"Thrain": "Borin"}
    assert "Effect **Protect (by Dwalin)** on **Borin** removed" in text(res)
    one = resolve(res.encounter, "effect_remove", effect="Protect", is_gm=True)
    assert one.encounter.effects == []


def test_protect_and_shoot_need_an_unengaged_combatant() -> None:
    """Protect and the melee-round Shoot are refused to an engaged combatant."""
    enc = engaged_round_two()
    with pytest.raises(IllegalAction, match="only an unengaged combatant can Protect"):
        act(enc, "Borin", "protect", target="Thrain")
    with pytest.raises(IllegalAction, match="only an unengaged combatant can Shoot"):
        act(enc, "Borin", "shoot", [6, 6], target="Grak")


def test_shoot_in_melee_does_not_engage() -> None:
    """"Shoot | 3 | If you are unengaged, make a Shoot test against any one foe": its damage is not melee damage
    ("An unengaged combatant is one that neither dealt nor received melee damage"), so it engages nobody."""
    res = act(fight(), "Borin", "shoot", [6, 3], target="Grak", weapon="bow")
    assert who(res.encounter, "Grak").hp == 5 and res.encounter.state.engaged == []
    assert who(res.encounter, "Borin").state.melee_round is None


def test_distance_actions_are_refused_in_melee() -> None:
    """In melee rounds `/move` is refused with what to do instead."""
    with pytest.raises(IllegalAction, match="disengage"):
        resolve(fight(), "move", actor="Borin", to="close")




def test_a_player_removing_two_protects_is_told_the_gm_removes_them() -> None:
    """"Protect | 2 | If you are unengaged, nominate an ally." (tote.txt): two allies protect Borin, and his player's
    `/effect remove name:Protect target:Borin` is told at once that Protect is a rule's effect the GM removes, not
    asked to say which of two they could remove neither of; the GM is still asked which."""
    enc = fight(BORIN, ("Thrain", "strike=2 hawk=1", "heroes", 4), ("Ann", "strike=2 hawk=1", "heroes", 3), GRAK)
    enc = step(enc, "next", actor="Borin")
    enc = step(enc, "act", actor="Thrain", action="protect", target="Borin")
    enc = step(enc, "act", actor="Ann", action="protect", target="Borin")
    assert len(enc.effects) == 2
    with pytest.raises(NotAllowed) as refusal:
        resolve(enc, "effect_remove", actor="Borin", effect="Protect", is_gm=False)
    assert str(refusal.value) == "Protect is a rule's effect: it ends by the rules, or the GM removes it."
    with pytest.raises(InputError, match="say which"):
        resolve(enc, "effect_remove", actor="Borin", effect="Protect", is_gm=True)


def test_the_boards_gm_change_counts_injury_track_boxes() -> None:
    """TOTE has no hit points but an Injury Track: the GM's `/combatant hp` is listed under the board's GM changes as
    the boxes marked or cleared and those left, in the reply's words, not as `hp-2`."""
    enc = step(fight(BORIN, GRAK), "edit", actor="Borin", hp_change=-2, is_gm=True)
    assert enc.gm_edits[-1] == "round 1: Borin 2 boxes marked (4 left)"
    enc = step(enc, "edit", actor="Borin", hp_change=1, is_gm=True)
    assert enc.gm_edits[-1] == "round 1: Borin 1 box cleared (5 left)"


# -- success counts against a hidden foe's number ---------------------------------------------------------------
def _lines(res: Resolution, enc: Encounter, hidden: frozenset[str]) -> str:
    view = SYSTEM.present.view(res.encounter, hidden)
    return "\n".join(view.readable(view.marked(e)) for e in res.events)


def test_an_intimidate_on_a_hidden_foe_shows_players_no_success_count() -> None:
    """"No other number of a hidden combatant reaches players either, on any path ... Players' combatants always show
    their numbers, but for those worked out with a hidden combatant's" (docs/commands.md): Intimidate is "an Impress
    test against 7 + the foe's Rating", so beside the hero's dice its count of successes brackets the Rating the line
    hides; players read success or failure, the GM the count."""
    enc = fight(BORIN, THRAIN, ("Zug", "rating=0", "foes", 3))
    res = act(enc, "Borin", "intimidate", [6, 5, 2], target="Zug")  # 8 and 7 both meet 7 + 0: 2 successes
    public, gm = _lines(res, enc, frozenset({"Zug"})), _lines(res, enc, frozenset())
    assert "vs 7 + Rating ? = ?: success" in public and "successes" not in public and "1 success" not in public, public
    assert "vs 7 + Rating 0 = 7: success, 2 successes" in gm, gm


def test_a_hit_on_a_hidden_foe_shows_players_no_success_count() -> None:
    """"No other number of a hidden combatant reaches players ... its defence and the terms of it, ... Block"
    (docs/commands.md): a Strike's count of successes brackets the hidden Block between two totals the hero's dice
    show, and so does the damage's "+1 per extra success"; players read the hit, the GM the count."""
    enc = fight(BORIN, THRAIN, GRAK)
    res = resolve(enc, "attack", [6, 6, 1, 3], actor="Borin", target="Grak")  # 9, 9 and 4 vs Block 8: 2 successes
    public, gm = _lines(res, enc, frozenset({"Grak"})), _lines(res, enc, frozenset())
    assert "vs **Grak**'s Block: hit" in public and "success" not in public.replace("extra successes", ""), public
    assert "**Grak** is hit: axe 2 +? for extra successes" in public, public
    assert "vs Block 8: hit, 2 successes" in gm and "+1 for 1 extra success" in gm, gm


def test_a_passed_escape_from_a_hidden_foe_shows_players_no_success_count() -> None:
    """Escape Foes: "players see the 7 ... but not a hidden foe's Rating or the total" (docs/systems/tote.md): the
    count of successes would bracket that Rating, so a passed escape reads as a success alone."""
    enc = fight(("Ann", "move=2", "heroes", 5), ("Grak", "rating=0", "foes", 3), distance="far")
    res = resolve(enc, "move", [6, 5, 2], actor="Ann", to="away")  # 8 and 7 meet 7 + 0: 2 successes
    (tested,) = [e for e in res.events if e.kind == "check"]
    view = SYSTEM.present.view(enc, frozenset({"Grak"}))
    line = view.readable(view.marked(tested))
    assert line.endswith(": success"), line
