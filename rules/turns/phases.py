"""Declare, then resolve: everyone in a group declares a choice, in any order and at any time,
and the choices are revealed together once all have declared (or the GM forces it).

The procedure, system-neutral and on plain data (names, sides, words):

- a :class:`Declarations` names who must declare (``participants``) and the side of each;
- :meth:`Declarations.declare` records one choice (a participant may change it until the
  reveal); :meth:`~Declarations.waiting` lists who still has to declare, for the board and
  the ping;
- the choices stay hidden from the other sides until :attr:`~Declarations.revealed`: all have
  declared (:meth:`~Declarations.complete`) or the GM forced it (:meth:`~Declarations.force`,
  which gives those still waiting the system's ``default`` choice);
- :meth:`~Declarations.shown_to` is what one side may see now: its own side's choices, and
  every choice after the reveal.

It knows nothing of encounters: a system keeps one in its state and reads the choices when
they are revealed (War & Combat: a flurry's intentions and manoeuvre tactics).
"""
from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field

from rules.errors import IllegalAction

__all__ = ["Declarations", "MAX_PARTICIPANTS"]

#: the most combatants one declaration round takes
MAX_PARTICIPANTS = 100


class Declarations(BaseModel):
    """One round of declarations: who declares, on which side, and what each declared."""

    model_config = ConfigDict(extra="forbid")

    #: name -> side, in the order the system lists them
    participants: dict[str, str] = Field(default_factory=dict, max_length=MAX_PARTICIPANTS)
    #: name -> the declared choice (words -> values), hidden from the other sides until revealed
    made: dict[str, dict[str, str]] = Field(default_factory=dict, max_length=MAX_PARTICIPANTS)
    #: the choices are public: all declared, or the GM forced it
    revealed: bool = False
    #: those whose choice the GM's force filled with the default
    defaulted: list[str] = Field(default_factory=list, max_length=MAX_PARTICIPANTS)

    def waiting(self) -> list[str]:
        """Who still has to declare, in the participants' order (none once revealed)."""
        if self.revealed:
            return []
        return [n for n in self.participants if n not in self.made]

    def complete(self) -> bool:
        return not [n for n in self.participants if n not in self.made]

    def declare(self, name: str, choice: dict[str, str]) -> bool:
        """Record ``name``'s choice (replacing an earlier one); reveal when everyone has declared.
        Returns whether this declaration revealed them all."""
        if name not in self.participants:
            raise IllegalAction(f"{name} has nothing to declare now: only {', '.join(self.participants)} declare.")
        if self.revealed:
            raise IllegalAction("The declarations are already revealed: they cannot change until the next round of them.")
        self.made[name] = dict(choice)
        if self.complete():
            self.revealed = True
            return True
        return False

    def force(self, default: dict[str, str]) -> list[str]:
        """Reveal now: those still waiting get ``default``. Returns who got it."""
        missing = self.waiting()
        for name in missing:
            self.made[name] = dict(default)
        self.defaulted = missing
        self.revealed = True
        return missing

    def choice(self, name: str) -> dict[str, str]:
        """``name``'s revealed choice (empty if it has none)."""
        return self.made.get(name, {})

    def shown_to(self, side: str | None) -> dict[str, dict[str, str] | None]:
        """Every participant's choice as ``side`` may see it now: None where it is hidden (another
        side's, before the reveal) or not made yet. ``side`` None sees everything (the GM)."""
        out: dict[str, dict[str, str] | None] = {}
        for name, own in self.participants.items():
            made = self.made.get(name)
            visible = self.revealed or side is None or own == side
            out[name] = made if visible else None
        return out
