-- Turn notifications (a server setting): how many seconds after a person's turn begins the
-- bot mentions them in a message of its own, if they have not acted. NULL: the bot's default;
-- 0: at once; -1: never. The old ping_turns flag (a mention in the table message, which never
-- notified: Discord does not notify mentions in edited messages) is kept for older versions
-- of the bot and follows turn_ping.
ALTER TABLE guild_settings ADD COLUMN turn_ping INTEGER;
UPDATE guild_settings SET turn_ping = 0 WHERE ping_turns = 1;
