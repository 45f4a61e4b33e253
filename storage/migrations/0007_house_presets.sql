-- House presets (issue 21): a server saves a table's rules under a name and opens tables
-- from it. ``key`` is the name in lower case (names are unique regardless of case), ``base``
-- the preset the rules start from, ``options`` the house rules over it (JSON, as
-- guild_settings.options).
CREATE TABLE house_presets (
    guild_id    BIGINT NOT NULL,
    key         TEXT NOT NULL,
    name        TEXT NOT NULL,
    base        TEXT NOT NULL,
    options     TEXT NOT NULL DEFAULT '{}',
    created_at  DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (guild_id, key)
);
