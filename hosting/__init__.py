"""What a self-hoster touches: settings, the command line, logs and the invite link.

The floor under ``bot.py``: it may import ``storage`` and ``discord``, never ``cogs`` (the
bot and its extensions are handed to the command line by ``bot.py``).
"""
