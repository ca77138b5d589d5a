"""TOTE's literal data: totems, skills, range bands, the action cost tables, damage kinds,
the default injury track, and the weapons that can shoot.

Source: ``shared/rules/tote.txt`` (the cost tables are its two tables); the shooting weapons
are the project's list (the text names none).
"""
from __future__ import annotations

__all__ = [
    "TOTEMS",
    "SKILLS",
    "BANDS",
    "DAMAGE_KINDS",
    "DEFAULT_TRACK",
    "MELEE_COSTS",
    "DISTANCE_COSTS",
    "ATTACK_SKILLS",
    "SHOOTING_WEAPONS",
    "REACH_WORDS",
]

TOTEMS = ("bear", "coyote", "hawk", "stag", "turtle", "wolf", "bison", "owl")
SKILLS = ("plan", "strike", "shoot", "brawl", "impress", "move")
#: range bands, nearest first
BANDS = ("melee", "close", "far")
DAMAGE_KINDS = ("bash", "pierce", "slash")
DEFAULT_TRACK = ("5", "4", "3", "2", "1", "U")
#: "Melee Rounds": action -> initiative cost
MELEE_COSTS = {
    "assault": 2,
    "assist": 1,
    "defend": 0,
    "disengage": 3,
    "grapple": 0,
    "intimidate": 1,
    "protect": 2,
    "shoot": 3,
    "strike": 1,
}
#: "Distance Rounds": action -> initiative cost
DISTANCE_COSTS = {"move": 0, "shoot": 0, "shoot-and-move": 1}
#: the skills an enemy's `tohit` applies to
ATTACK_SKILLS = ("strike", "shoot", "brawl")
#: a weapon word in a sheet -> the farthest band it shoots to
REACH_WORDS = {"thrown": "close", "ranged": "far"}
#: weapons that shoot without a word in the sheet (name -> farthest band)
SHOOTING_WEAPONS = {
    "bow": "far",
    "longbow": "far",
    "shortbow": "far",
    "crossbow": "far",
    "sling": "far",
    "gun": "far",
    "pistol": "far",
    "rifle": "far",
    "javelin": "close",
    "dart": "close",
    "darts": "close",
}
