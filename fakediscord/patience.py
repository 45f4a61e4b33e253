"""How long a test waits for something before it calls it lost: one figure for the suite.

Every wait of the end-to-end tests waits for an event (a response, an edit, a stored
version, a line of the bot's log), never for a time; the patience below is only the net that
turns a wait for something that never comes into a failure instead of a hang. It is long on
purpose: a slow, busy machine (CI beside a CPU hog, five workers on two cores) makes every
event later, and a passing test never waits for the net, so a long one costs nothing.

What a test asserts about time it reads from the fake clock (``fake.clock``), and bounds it
by what the test itself observed on that clock, never by how fast this machine is.
"""

from __future__ import annotations

#: Seconds of real time a wait gives the bot before it fails the test.
PATIENCE = 120.0
#: Seconds a whole process may run (a start of the bot, a command of the CLI, a nested test
#: run) before it counts as hung: several starts' worth of a loaded machine.
PROCESS_PATIENCE = 4 * PATIENCE
