"""Playing the real bot against the fake Discord: a world of people (``harness.py``), the
faults of a failing Discord and a player who plays through them (``faults.py``), a private
PostgreSQL server to stop and start (``pgserver.py``), and the soak that plays whole hands
through failures (``soak.py``). The end-to-end tests and the benchmarks share them; neither
is shipped with the bot."""
