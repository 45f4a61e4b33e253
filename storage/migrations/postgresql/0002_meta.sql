-- Small key/value facts about the bot itself (for example the hash of the synced commands).
CREATE TABLE meta (
    key   TEXT COLLATE "C" PRIMARY KEY,
    value TEXT NOT NULL
);
