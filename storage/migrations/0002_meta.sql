-- Small key/value facts about the bot itself (for example the hash of the synced commands).
CREATE TABLE meta (
    key   TEXT PRIMARY KEY,
    value TEXT NOT NULL
);
