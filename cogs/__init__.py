"""discord.py extensions: thin adapters from interactions to the engine. See issue #3."""
