"""Where TOTE combatants stand: no grid, but range bands between foes, and engagement.

Distance is between two combatants (see `state.py`): a move changes the mover's distance to
its foes (or to one foe, named with ``target``), and the two of a pair always agree on it.
A combatant's own band, shown on the board, is its distance to its nearest foe.
"""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rules.dice import Dice
from rules.errors import IllegalAction, InputError
from rules.events import EffectEnded, Event, StatusChanged
from rules.models import Combatant, Encounter, Status
from rules.systems.tote.events import BandMoved, EscapeFailed, MeleeNext, Tested
from rules.systems.tote.options import opts
from rules.systems.tote.sheet import is_enemy, level
from rules.systems.tote.skill import run_test
from rules.systems.tote.state import PROTECT, ToteCombatant, ToteEncounter
from rules.systems.tote.tables import BANDS, DISTANCE_COSTS, MELEE_COSTS

__all__ = [
    "BAND_WORDS",
    "round_distance",
    "is_melee",
    "costs",
    "band_name",
    "pair_band",
    "band_of",
    "nearest_band",
    "distance_now",
    "foes_in_fight",
    "forget_pairs",
    "place_band",
    "placed_apart",
    "engaged_with",
    "engage",
    "release",
    "disengaged",
    "take_out",
    "end_protects",
    "wanted_band",
    "move_band",
    "all_at",
    "hold_pairs",
]

BAND_WORDS = (*BANDS, "in", "away", "escape")


def round_distance(enc: Encounter) -> str:
    """The round type: "melee", or the band ("far"/"close") the GM set for distance rounds;
    before the fight it comes from the encounter option ``distance``."""
    return ToteEncounter.of(enc).distance or opts(enc).distance


def is_melee(enc: Encounter) -> bool:
    return round_distance(enc) == "melee"


def costs(enc: Encounter) -> dict[str, int]:
    return MELEE_COSTS if is_melee(enc) else DISTANCE_COSTS


def band_name(text: str, where: str) -> str:
    band = text.strip().lower()
    if band not in BANDS:
        raise InputError(
            f"`{text}` is not a range band: TOTE has no map, so `{where}` takes far, close or melee "
            f"(the distance from the foes)."
        )
    return band


def _nearer(*bands: str) -> str:
    return min(bands, key=BANDS.index)


def pair_band(enc: Encounter, a: Combatant, b: Combatant, index: dict[tuple[str, str], str] | None = None) -> str:
    """The distance between ``a`` and ``b``: set by a move, else the nearer of their own bands.

    ``index`` is `ToteEncounter.range_index()` when the caller looks up many pairs."""
    st = ToteEncounter.of(enc)
    pair = (a.name, b.name) if a.name < b.name else (b.name, a.name)
    band = (st.range_index() if index is None else index).get(pair)
    if band is not None:
        return band
    placed = [s.band for s in (ToteCombatant.of(a), ToteCombatant.of(b)) if s.band]
    return _nearer(*placed) if placed else round_distance(enc)


def _set_pairs(enc: Encounter, c: Combatant, bands: dict[str, str]) -> None:
    """Set the distance between ``c`` and each foe named in ``bands``."""
    st = ToteEncounter.of(enc)
    index = dict(st.range_index())
    for other, band in bands.items():
        index[(c.name, other) if c.name < other else (other, c.name)] = band
    ranges: dict[str, dict[str, str]] = {}
    for (a, b), band in index.items():
        ranges.setdefault(a, {})[b] = band
    st.ranges = ranges  # type: ignore[assignment]  # bands read from the pairs set before and those passed in, each a band word


def forget_pairs(enc: Encounter, name: str) -> None:
    """Drop the distances moves set between ``name`` and anyone (it left, or was placed again with ``at:``)."""
    st = ToteEncounter.of(enc)
    if any(name == a or name in row for a, row in st.ranges.items()):
        st.ranges = {a: {b: v for b, v in row.items() if b != name} for a, row in st.ranges.items() if a != name}


def place_band(enc: Encounter, c: Combatant, text: str) -> None:
    """``at:`` puts ``c`` at that band from every foe, whatever a foe's own band says.

    Before a fight that starts in melee every pair of foes is in melee at `/init roll`, and so
    is it in melee rounds with option ``into_melee=everyone``: a farther band could not hold, so
    it is refused with what to do instead. Otherwise one placed in a melee round keeps its band."""
    band = band_name(text, "at")
    if band != "melee" and is_melee(enc) and (not enc.started or opts(enc).into_melee == "everyone"):
        where = (
            "This is a melee round: every pair of foes is in melee"
            if enc.started
            else "The fight starts in melee (option `distance=melee`): every pair of foes is in melee at `/init roll`"
        )
        fix = (
            f"the GM sets distance rounds with `/act action:distance options:{band}`"
            if enc.started
            else f"for distance rounds set `/encounter settings options:distance={band}` first"
        )
        raise IllegalAction(f"{where}, so `at:{band}` cannot hold: {fix}, or leave `at` out.")
    if not enc.started:
        _check_start(enc, c, band)
    ToteCombatant.of(c).band = band  # type: ignore[assignment]  # a band word, checked against BANDS where it was read
    forget_pairs(enc, c.name)
    _set_pairs(enc, c, {o.name: band for o in enc.enemies_of(c)})


def placed_apart(enc: Encounter, but: Combatant | None = None) -> list[Combatant]:
    """The combatants (other than ``but``) that ``at:`` placed at close or far before the fight."""
    return [o for o in enc.combatants if o is not but and o.status != "out" and ToteCombatant.of(o).band in ("close", "far")]


def _check_start(enc: Encounter, c: Combatant, band: str) -> None:
    """Before a fight that starts in distance rounds, a pair placed in Melee starts melee rounds
    at `/init roll`, where one placed in melee is in melee with every foe: ``at:melee`` beside a combatant placed
    at close or far (or the other way round) could not hold both, so it is refused."""
    rule = '("Combatants that move from Close go into Melee Rounds": one placed in melee is in melee with every foe)'
    if band == "melee":
        apart = placed_apart(enc, c)
        if apart:
            names = ", ".join(f"{o.name} ({ToteCombatant.of(o).band})" for o in apart)
            raise IllegalAction(
                f"A combatant placed in melee starts the fight in melee rounds {rule}, so {names} would lose "
                f"the place `at:` gave: leave `at` out for {c.name}, or first place "
                f"{'them' if len(apart) > 1 else apart[0].name} in melee (`/combatant edit name:{apart[0].name} at:melee`)."
            )
        return
    close_in = [o for o in enc.combatants if o is not c and o.status != "out" and ToteCombatant.of(o).band == "melee"]
    if close_in:
        names = ", ".join(o.name for o in close_in)
        raise IllegalAction(
            f"{names} {'stands' if len(close_in) == 1 else 'stand'} in melee, which starts the fight in melee rounds {rule}, so `at:{band}` cannot hold: "
            f"leave `at` out, or first place {'them' if len(close_in) > 1 else names} at {band} "
            f"(`/combatant edit name:{close_in[0].name} at:{band}`)."
        )


def foes_in_fight(enc: Encounter, c: Combatant) -> list[Combatant]:
    return [o for o in enc.enemies_of(c) if o.status == "active"]


def band_of(enc: Encounter, c: Combatant) -> str:
    """``c``'s distance from its nearest foe still in the fight (its own band when there is none)."""
    foes = foes_in_fight(enc, c)
    if foes:
        index = ToteEncounter.of(enc).range_index()
        return _nearer(*(pair_band(enc, c, o, index) for o in foes))
    return ToteCombatant.of(c).band or round_distance(enc)


def nearest_band(enc: Encounter) -> str | None:
    """The nearest distance between any two active foes (None: nobody faces anyone)."""
    active = [c for c in enc.combatants if c.status == "active"]
    index = ToteEncounter.of(enc).range_index()
    bands = {pair_band(enc, a, b, index) for i, a in enumerate(active) for b in active[i + 1 :] if a.side != b.side}
    return _nearer(*bands) if bands else None


def distance_now(enc: Encounter) -> str:
    """The one name of the round's distance, for the board and every reply: melee, or in
    distance rounds the nearest band between two foes (close or far)."""
    if is_melee(enc):
        return "melee"
    return "far" if (nearest_band(enc) or round_distance(enc)) == "far" else "close"


def all_at(enc: Encounter, band: str) -> None:
    """Everyone still in the fight stands at ``band`` from every foe."""
    ToteEncounter.of(enc).ranges = {}
    for c in enc.combatants:
        if c.status != "out":
            ToteCombatant.of(c).band = band  # type: ignore[assignment]  # a band word, checked against BANDS where it was read


def hold_pairs(enc: Encounter) -> None:
    """Melee rounds begin: every pair of foes not out keeps the distance it is at now, written
    down, so that the round type changing to melee moves nobody ("Combatants that move from
    Close go into Melee Rounds": only those). Called before the round type changes."""
    shown = [c for c in enc.combatants if c.status != "out"]
    index = ToteEncounter.of(enc).range_index()
    for c in shown:
        _set_pairs(enc, c, {o.name: pair_band(enc, c, o, index) for o in shown if o.side != c.side and o.name > c.name})
        index = ToteEncounter.of(enc).range_index()


# -- engagement ------------------------------------------------------------------------------------
def engaged_with(enc: Encounter, name: str) -> list[str]:
    return [b if a == name else a for a, b in ToteEncounter.of(enc).engaged if name in (a, b)]


def engage(enc: Encounter, a: str, b: str) -> bool:
    pair = (a, b) if a <= b else (b, a)
    st = ToteEncounter.of(enc)
    if pair in st.engaged:
        return False
    st.engaged = [*st.engaged, pair]
    return True


def release(enc: Encounter, name: str, other: str | None = None) -> None:
    st = ToteEncounter.of(enc)
    st.engaged = [p for p in st.engaged if name not in p or (other is not None and other not in p)]


def disengaged(enc: Encounter, c: Combatant, round_: int | None = None) -> bool:
    """"You will count as disengaged for the next round": true from the Disengage to the end of the
    next round (in ``round_``, default the round under way)."""
    until = ToteCombatant.of(c).disengaged
    return until is not None and (enc.round if round_ is None else round_) <= until


def take_out(enc: Encounter, t: Combatant, status: Status, cause: str) -> list[Event]:
    """``t`` unconscious or out of the fight: its engagements and the Protects it gave end."""
    t.status = status
    release(enc, t.name)
    return [StatusChanged(actor=t.name, status=status, cause=cause), *end_protects(enc, t.name)]


def end_protects(enc: Encounter, name: str) -> list[Event]:
    """The Protects ``name`` gave end: "If that ally is attacked, you are instead the target of the
    attack", and a protector unconscious or gone takes no attack."""
    guards = [e for e in enc.effects if e.code == PROTECT and e.source == name]
    enc.effects = [e for e in enc.effects if e not in guards]
    return [EffectEnded(actor=e.target, name=e.name) for e in guards]


# -- moves ----------------------------------------------------------------------------------------
def wanted_band(to: str | None, word: str | None) -> str:
    """Where a move goes: ``to`` (`/move to:`) or the action's word (`options:close`), given once."""
    words = ([to.strip().lower()] if to else []) + ([word] if word else [])
    if len(words) != 1 or words[0] not in BAND_WORDS:
        raise InputError(
            "Say where to move, once: a band (`far`, `close`, `melee`), or `in`, `away`, `escape` "
            "(`to:close`, or `options:close` with `/act`)."
        )
    return words[0]


def move_band(
    enc: Encounter, c: Combatant, want: str, words: Mapping[str, Any], dice: Dice, only: Combatant | None = None
) -> list[Event]:
    """Move ``c`` one band nearer or farther from its foes (or from ``only``); away from Far is an escape
    (a Move test, with the action's words ``keep``/``bonus``)."""
    here = pair_band(enc, c, only) if only is not None else band_of(enc, c)
    step = BANDS.index(here)
    if want == "in":
        if step == 0:
            bands = [] if only is not None else [(o, pair_band(enc, c, o)) for o in foes_in_fight(enc, c)]
            farther = [(o, band) for o, band in bands if band != "melee"]
            closer = (f"; to close on {farther[0][0].name} (at {farther[0][1].capitalize()}) alone: "
                      f"`/act action:move target:{farther[0][0].name} options:in`") if farther else ""
            raise IllegalAction(f"{c.name} is already in melee{' with ' + only.name if only else ''}{closer}.")
        want = BANDS[step - 1]
    elif want == "away":
        want = "escape" if here == "far" else BANDS[step + 1]
    if want == "escape":
        if here != "far" or only is not None:
            raise IllegalAction(
                f"{c.name} is at {here.capitalize()}: only a move away from Far (from every foe) tries to Escape Foes."
            )
        return _escape(enc, c, words, dice)
    if want == here:
        raise IllegalAction(f"{c.name} is already at {here.capitalize()}.")
    if abs(BANDS.index(want) - step) != 1:
        raise IllegalAction(f"{c.name} is at {here.capitalize()}: a move goes one band, to Close.")
    delta = BANDS.index(want) - step
    foes = [only] if only is not None else foes_in_fight(enc, c)
    last, index = len(BANDS) - 1, ToteEncounter.of(enc).range_index()
    _set_pairs(enc, c, {o.name: BANDS[min(max(BANDS.index(pair_band(enc, c, o, index)) + delta, 0), last)] for o in foes})
    if only is None:
        ToteCombatant.of(c).band = want  # type: ignore[assignment]  # a band word, checked against BANDS where it was read
    events: list[Event] = [
        BandMoved(actor=c.name, path=[here, want], unit="initiative", left=c.initiative or 0, foes=[o.name for o in foes])
    ]
    if want == "melee" and not is_melee(enc):
        events.append(MeleeNext(actor=c.name))
    return events


def _escape(enc: Encounter, c: Combatant, words: Mapping[str, Any], dice: Dice) -> list[Event]:
    foes = foes_in_fight(enc, c)
    top = max(foes, key=level, default=None)
    lvl = level(top) if top else 0
    base = opts(enc).escape_base
    r, test = run_test(enc, c, "move", base + lvl, dice, words)
    tested = Tested(
        actor=c.name,
        what="escape",
        target=top.name if top else None,
        test=test,
        base=base,
        level=lvl,
        level_of_enemy=top is None or is_enemy(top),
        level_from=top.name if top else None,
    )
    if not r.success:
        return [tested, EscapeFailed(actor=c.name)]
    ToteCombatant.of(c).escaped = True
    return [tested, *take_out(enc, c, "out", "escaped")]
