-- House rules (RULES.md §12): the options a table was played with, beside its preset, and a
-- server's default options for new tables. JSON objects of option name to value; '{}' when
-- the preset is played as it is.
ALTER TABLE match_results ADD COLUMN options TEXT NOT NULL DEFAULT '{}';
ALTER TABLE guild_settings ADD COLUMN options TEXT NOT NULL DEFAULT '{}';
