"""Every size limit, declared once (the window's and a lesson's narrower ones declared here as such).

Before, ``MAX_PROBES`` was declared five times with four values, and a session saved with 500,000 probes opened
in the window "successfully" measuring with 10,000 and no word; ``MAX_K`` and the counter-bit range three times.
Modules import these; a test checks that no other module declares them again.
"""

from __future__ import annotations

MAX_M = 2 ** 34          # 2 GiB of bits: the largest filter the app, the file format and the grid agree to handle
MAX_K = 64               # hash functions of a filter (a design asking for more is given 64)
MAX_N = 2 ** 53          # above this an item count is no longer exact as a float, and the formulas work in floats
COUNTER_BITS = (1, 8)    # a counting filter's counter width, low and high (one byte per counter)

# The window's grid: 10^8 holds the 1 % design for 10^7 items (m = 95,850,584, k = 7) with a round number; the
# grid keeps one byte of picture per bit (100 MB here) beside the 12.5 MB of bits, and a window that also keeps
# every insert's positions (k x 4 bytes) and items needs about 1-2 GB at that size, so no further.
WINDOW_MAX_M = 100_000_000
SIMULATE_MAX_N = 50_000_000        # ``bloomviz simulate``: items read from a file are held in memory
LESSON_MAX_M = 1 << 28             # a lesson's filter is built in memory from a file someone sent: at most 32 MiB
LESSON_GROWING_MAX_M = WINDOW_MAX_M   # a lesson's growing (scalable) filter, its bits over all its stages
BLOCK_BITS = (64, 1 << 16)         # a blocked filter's block, low and high (powers of two): a cache line and up

# What the window keeps for one filter (its inserts' positions, typed items, history and curve) before it asks
# for a new filter: five auto-plays of 10^6 at m = 10^7 grew the window by 330 MB with no limit in sight
WINDOW_KEPT_BYTES = 1536 << 20

MAX_PROBES = 1_000_000             # a measurement's probes: a session, the lab's grid, Compare
WINDOW_MAX_PROBES = 100_000        # the window's: each new filter draws and measures them (10^6 froze it seconds)
LESSON_MAX_PROBES = 200_000        # a lesson's ``measure probes=`` (its budget counts them at every step too)
SIMULATE_MAX_PROBES = 10_000_000   # ``bloomviz simulate``, which streams them

MAX_ITEM_BYTES = 64 * 1024         # one item is a word, a key, a URL (the window, a session, a line of an items file)

# Text boxes a user pastes into, in characters: Qt's line edit cut a paste silently at its maxLength, or, set
# past it, took 10 MB whole and laid all of it out at every paint (0.03 s at 64 Ki characters, 0.4 s at 1 MiB,
# measured offscreen; the cursor blinks twice a second). A paste past a box's limit is refused, said so
# (gui/widgets/bounded_text.py); a longer list of items is a file (File -> Insert from file streams any length).
ITEM_BOX_CHARS = 128 * 1024        # the item box: one item, or a pasted list of items one a line
ITEM_LINE_CHARS = MAX_ITEM_BYTES   # a box that takes one item (slow motion, predict, a scenario, a foreign file)
PARAGRAPH_CHARS = 1 << 20          # a scenario's paragraph to spell-check
SET_BOX_CHARS = 32 << 20           # a set operation's items, one a line (10^6 of them, as its sample writes)
