"""``python -m bot benchmark [--quick] [--profile] [--backends sqlite,postgresql] [--db URL]``:
how fast the bot is, measured offline (DESIGN.md, "Performance and reliability").

For each backend (SQLite on disk; PostgreSQL on a throwaway server that the benchmark starts
itself, or the one ``--db postgresql://...`` names), in a process of its own so its memory is
its own, it prints:

1. the realistic mix through the offline harness (the real discord.py tree, service and
   store): every channel plays a fight of one system in turn (Coup-De-Grace, Knights of
   Valour, the open system and the damage-grid game on a 12x10 map with walls, TOTE with no
   map, War & Combat on a 16x12 hex map), each command with
   an autocompleted option typed with 3 autocomplete requests; a mover walks `/move to:` around a
   wall to the other side of its foe, attacks that hit and damage (typed `roll:`), the GM
   restores the foe where the system lets an edit heal, an onlooker reads `/encounter status`
   or `/map`, and `/init next` ends the activation (in War & Combat, the step its phase or
   flurry asks for: a move into contact, a declaration, an attack, a hold, a retreat; every
   channel's fight and map its own). The
   share of each command is printed. 1, 50 and 500 busy channels (closed loop: each channel
   sends its next command when the last is answered); commands/s, p50/p95/p99, CPU per
   command of this process and of the map workers (and the rate they allow on this
   machine's cores), and the longest event-loop stall (a probe task sleeping 1 ms records
   its lateness; garbage collections included), with the commands in flight when the loop
   stalled over 20 ms, and the longest garbage collection (its CPU time, its generation); the
   autocomplete requests and the bot-token requests each command sends;
2. the group-commit floor: the same writes (the mix's encounters, the same state sizes) as
   `Change`s through `Store.apply` from as many tasks, batched as the store batches them, and
   on SQLite the same batches with plain sqlite3 in a loop; the bot's write rate as a
   fraction of the floor's;
3. 10,000 stored encounters, touched: start-up on them, then one activation each for a
   random sample (the first command to each is a cold load);
4. RSS idle and after the commands of the run (their number is printed), bytes of undo
   data per logged action at 60 combatants, and the resident memory (`tracemalloc`) of a
   cached encounter of each script, loaded and after a write, against what the cache counts;
   4b. a write's work on the whole state (serialise, read back, the state hook, the undo
   delta), on the mix's fights and the largest, beside the alternatives tried;
5. the largest map and encounter (the slowest rules step's, below): a turn's commands through
   the harness, each once, for every system with a map, and the loop's longest step then;
   5b. growth: a turn's writes with 2 to 100 combatants on the walled 12x10, 40x40 and 100x100
   maps, 100 over 10 beside its target.

Then, once: the slowest rules step (its CPU time, under the bot's collector settings: a far
`/move` on the largest map of every registered system with a grid, walls and 100 combatants),
map pictures against a minimal Pillow drawing of the same board, and the targets beside the
figures of both backends, issue 25's in a table of their own. It never asserts and always
exits 0. ``--quick`` takes a few minutes, the full run under about fifteen.
``--profile`` also profiles the 50-channel run.
"""
from bot.offline.bench.growth import time_rules_steps
from bot.offline.bench.mix import FULL, QUICK, Config
from bot.offline.bench.report import targets
from bot.offline.bench.run import main, measure

__all__ = ["Config", "QUICK", "FULL", "measure", "targets", "time_rules_steps", "main"]
