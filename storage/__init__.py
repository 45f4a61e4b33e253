"""Persistence: the only package that talks SQL (aiosqlite). See issue #3."""
