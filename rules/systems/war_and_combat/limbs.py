"""Which limbs still serve: the wound effects' limits on arms and legs.

- Fumble? (failed) and Stumble? (failed): the limb "cannot be used to perform an action for the
  remainder of the round" / "may not stand on the leg for the rest of the round": a timed
  condition on the encounter (code ``"<limb> unusable"``) that ends with the round.
- Fumble and Stumble: the limb is impaired for good; Disabled: disabled. An impaired or
  disabled arm makes no attack or defence ("he can no longer make attacks or defenses with the
  injured arm"); two legs impaired or disabled crawl ("A crawling character has a base Defense
  of 5, plus Fighter rank").
- Which arm holds what (the text leaves it to the GM): the weapon in the sheet's `hand` (right
  by default), the shield on the other arm; a two-handed weapon (`TWO_HANDED`) needs both.
"""
from __future__ import annotations

from rules.effects import active
from rules.errors import IllegalAction
from rules.events import EffectAdded
from rules.models import Combatant, Encounter
from rules.systems.war_and_combat import sheet
from rules.systems.war_and_combat.catalogue import Weapon
from rules.systems.war_and_combat.state import WacCombatant
from rules.systems.war_and_combat.turns import add_effect

__all__ = ["TWO_HANDED", "unusable_code", "make_unusable", "limb_out", "arm_ready", "hands_ready", "crawling", "shield"]

#: the catalogue weapons wielded with both arms (the text leaves it to the weapon pages we lack)
TWO_HANDED = frozenset({"polearm", "two-handed sword", "bow", "longbow", "crossbow"})


def unusable_code(limb: str) -> str:
    return f"{limb} unusable"


def make_unusable(enc: Encounter, c: Combatant, limb: str) -> EffectAdded:
    """The limb serves no action for the rest of the round."""
    return add_effect(enc, c, unusable_code(limb), 1)


def limb_out(enc: Encounter, c: Combatant, limb: str) -> bool:
    """Impaired, disabled, or unusable this round."""
    st = WacCombatant.of(c)
    return limb in st.impaired or limb in st.disabled or active(enc.effects, c.name, unusable_code(limb)) is not None


def arm_ready(enc: Encounter, c: Combatant) -> None:
    """Refuse an attack with a weapon in an arm that cannot make one."""
    arm = sheet.weapon_arm(c)
    if limb_out(enc, c, arm):
        other = sheet.shield_arm(c).split()[0]
        raise IllegalAction(
            f"{c.name}'s {arm} cannot make an attack: in a movement or adjustment step take the weapon in the "
            f"other hand (`/act action:wield options:\"hand={other}\"`), or wield another weapon there."
        )


def hands_ready(enc: Encounter, c: Combatant, w: Weapon) -> None:
    """Refuse a two-handed weapon when the other arm cannot help."""
    arm = sheet.shield_arm(c)
    if w.name in TWO_HANDED and limb_out(enc, c, arm):
        raise IllegalAction(f"A {w.name} needs both arms, and {c.name}'s {arm} cannot help: draw a one-handed "
                            "weapon (`/act action:wield`) in a movement or adjustment step.")


def crawling(c: Combatant) -> bool:
    """Both legs impaired or disabled: "to a crawl if both legs are impaired"."""
    st = WacCombatant.of(c)
    return len({x for x in st.impaired + st.disabled if x.endswith("leg")}) >= 2


def shield(enc: Encounter, c: Combatant) -> int:
    """The shield's Defense bonus, none when its arm cannot defend or it was dropped."""
    if limb_out(enc, c, sheet.shield_arm(c)) or "shield" in WacCombatant.of(c).dropped:
        return 0
    return sheet.shield_bonus(c)
