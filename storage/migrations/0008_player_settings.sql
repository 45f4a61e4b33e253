-- A player's own settings (issue 28, /uno settings): stored per Discord user, not per server,
-- and deleted by /uno forget-me. NULL means "the default": ``alerts`` 'now' or 'never' (NULL:
-- after the server's delay), ``language`` one of the bot's languages (NULL: the user's
-- Discord language), ``hand_picture`` 0 for a hand as text and card emojis (1: the picture).
-- A player who keeps every default has no row.
CREATE TABLE player_settings (
    user_id       BIGINT PRIMARY KEY,
    alerts        TEXT,
    language      TEXT,
    hand_picture  INTEGER NOT NULL DEFAULT 1
);
