"""One error root. Every message is safe to show a player and says what to do instead."""
from __future__ import annotations

__all__ = [
    "RulesError",
    "InputError",
    "SheetError",
    "IllegalAction",
    "NotYourTurn",
    "NotAllowed",
    "NotFound",
    "DiceError",
]


class RulesError(Exception):
    """Root of every error the bot shows to a player."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message

    def __str__(self) -> str:
        return self.message


class InputError(RulesError):
    """An option could not be read (a cell, a path, a number...)."""


class SheetError(InputError):
    """A sheet key or value is not accepted by the system."""


class DiceError(InputError):
    """A dice expression or a list of given die results is not usable."""


class IllegalAction(RulesError):
    """The rules do not allow this action now."""


class NotYourTurn(IllegalAction):
    """The combatant cannot act at this point of the round."""


class NotAllowed(RulesError):
    """The caller may not do this (not the GM, not the owner)."""


class NotFound(RulesError):
    """No encounter here, no such combatant, no such weapon..."""
