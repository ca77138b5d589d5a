"""Reports: events and encounters turned into Discord-neutral text (title, lines, fields, colour)."""
from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from rules.events import LegacyEvent as Event

if TYPE_CHECKING:  # pragma: no cover
    from rules.models import Encounter
    from rules.system import RuleSystem

__all__ = ["Report", "user_ref", "render_users", "describe", "describe_check", "die_text", "dice_text", "TYPED", "signed", "COLOURS", "events_report", "board_report"]

COLOURS = {
    "info": 0x5865F2,
    "hit": 0xED4245,
    "miss": 0x99AAB5,
    "good": 0x57F287,
    "turn": 0xFEE75C,
    "error": 0xED4245,
}


#: a user named in report text: ``{user:<id>}``. Text for players never holds a platform's
#: mention syntax; the front end renders each reference its own way (`bot.render.discord_text`
#: as a Discord mention that pings nobody, the console as ``@name``).
USER_REF = re.compile(r"\{user:([0-9]{1,20})\}")


def user_ref(user_id: str) -> str:
    """The reference to the user ``user_id`` in report text (``{user:123}``)."""
    return f"{{user:{user_id}}}"


def render_users(text: str, show: Callable[[str], str]) -> str:
    """``text`` with every user reference replaced by ``show(user_id)``."""
    return USER_REF.sub(lambda m: show(m.group(1)), text) if "{user:" in text else text


@dataclass
class Report:
    title: str
    lines: list[str] = field(default_factory=list)
    fields: list[tuple[str, str]] = field(default_factory=list)
    colour: int = COLOURS["info"]
    footer: str | None = None

    def text(self) -> str:
        parts = [self.title, *self.lines]
        for name, value in self.fields:
            parts.append(f"{name}: {value}")
        if self.footer:
            parts.append(self.footer)
        return "\n".join(parts)


def signed(n: int) -> str:
    return f"+{n}" if n >= 0 else f"−{abs(n)}"


#: follows a die result that the caller typed with `roll:`; a result the bot rolled stands bare
TYPED = "✍"


def die_text(value: int, typed: bool) -> str:
    return f"{value}{TYPED}" if typed else str(value)


def dice_text(e: Event) -> str:
    """``5✍, 3``: the event's dice, typed ones marked."""
    return ", ".join(die_text(d, i in e.typed) for i, d in enumerate(e.dice))


def describe_check(e: Event) -> str:
    """``🎲 4 (d6) +1 backstab −1 distraction = 4 vs DV 5: miss``."""
    bits: list[str] = []
    if e.dice:
        shown = dice_text(e)
        label = f" ({e.dice_label})" if e.dice_label else ""
        kept = f" keep {e.kept}" if e.kept is not None and len(e.dice) > 1 else ""
        bits.append(f"🎲 {shown}{label}{kept}")
    for m in e.modifiers:
        bits.append(f"{signed(m.value)} {m.name}")
    text = " ".join(bits)
    if e.total is not None:
        text += f" = **{e.total}**"
    if e.against is not None:
        text += f" vs {e.against_label or 'target'} {e.against}"
    if e.success is not None:
        text += ": " + (e.note or ("success" if e.success else "failure"))
    elif e.note:
        text += f": {e.note}"
    return text


def _attack(e: Event) -> str:
    head = f"**{e.actor}** attacks **{e.target}**"
    if e.weapon:
        head += f" with {e.weapon}"
    if e.note is None and e.success is not None:
        e = e.model_copy(update={"note": "hit" if e.success else "miss"})
    return f"{head}: {describe_check(e)}"


def _move(e: Event) -> str:
    path = " → ".join(e.path or [])
    cost = f" for {e.cost:g} {e.data.get('unit', 'MP')}" if e.cost is not None else ""
    left = e.data.get("left")
    rest = f" ({left:g} left)" if isinstance(left, (int, float)) else ""
    facing = f", facing {e.after}" if e.after else ""
    return f"**{e.actor}** moves {path}{cost}{facing}{rest}"


def _damage(e: Event) -> str:
    change = ""
    if e.before is not None and e.after is not None:
        change = f" ({e.before} → {e.after})"
    extra = f": {e.note}" if e.note else ""
    return f"**{e.target}** takes {e.amount} damage{change}{extra}"


_FORMATTERS: dict[str, Callable[[Event], str]] = {
    "added": lambda e: f"**{e.actor}** joins" + (f": {e.note}" if e.note else ""),
    "edited": lambda e: f"**{e.actor}** updated" + (f": {e.note}" if e.note else ""),
    "removed": lambda e: f"**{e.actor}** removed from the encounter",
    "round": lambda e: f"**Round {e.after}** begins" + (f": {e.note}" if e.note else ""),
    "turn": lambda e: e.note or f"**{e.actor}** to act",
    "initiative": lambda e: f"**{e.actor}** initiative **{e.after}**"
    + (f" ({describe_check(e)})" if e.dice else "")
    + (f": {e.note}" if e.note and not e.dice else ""),
    "move": _move,
    "face": lambda e: f"**{e.actor}** turns to face {e.after}"
    + (f" for {e.cost:g} MP" if e.cost else ""),
    "attack": _attack,
    "damage": _damage,
    "status": lambda e: f"**{e.actor}** is now **{e.after}**" + (f": {e.note}" if e.note else ""),
    "victory": lambda e: f"🏆 **{e.after}** win" + (f": {e.note}" if e.note else "!"),
    "check": lambda e: f"**{e.actor}** {e.data.get('what', 'rolls')}: {describe_check(e)}",
    "note": lambda e: e.note or "",
}


def describe(e: Event, system: "RuleSystem | None" = None) -> str:
    if system is not None:
        text = system.describe(e)
        if text is not None:
            return text
    fmt = _FORMATTERS.get(e.kind)
    if fmt is None:
        return e.note or e.kind
    return fmt(e)


def events_report(title: str, events: Sequence[Any], system: "RuleSystem | None" = None) -> Report:
    """The report of one command's events, in the system's words (`RuleSystem.present`)."""
    if system is None:
        lines = [t for t in (describe(e) for e in events) if t]
        return Report(title=title, lines=lines)
    return system.present.report(title, events)


def board_report(system: "RuleSystem", enc: "Encounter") -> Report:
    """The status board (`rules.present.Presenter.board`)."""
    return system.present.board(enc)
