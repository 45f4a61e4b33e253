-- Tables (game rooms) and their action log (PostgreSQL; the same schema as ../0001_tables.sql).
-- Discord ids are 64-bit: BIGINT. Text keys sort bytewise (COLLATE "C"), as in SQLite.
CREATE TABLE tables (
    id          TEXT COLLATE "C" PRIMARY KEY,
    guild_id    BIGINT  NOT NULL,
    channel_id  BIGINT  NOT NULL,
    status      TEXT    NOT NULL CHECK (status IN ('lobby', 'playing', 'finished', 'closed')),
    version     INTEGER NOT NULL CHECK (version >= 0),
    state       TEXT    NOT NULL,  -- JSON: lobby, seats and the engine's match snapshot
    message_id  BIGINT,            -- the public table message, edited in place
    deadline    DOUBLE PRECISION,  -- when the current turn times out (unix seconds), if timed
    created_at  DOUBLE PRECISION NOT NULL,
    updated_at  DOUBLE PRECISION NOT NULL
);

-- One live table per channel (threads are channels too).
CREATE UNIQUE INDEX tables_one_live_per_channel
    ON tables (channel_id) WHERE status IN ('lobby', 'playing');

CREATE INDEX tables_live_deadline ON tables (deadline) WHERE status IN ('lobby', 'playing');

-- Who sits where, for "my tables" queries; rewritten with every save.
CREATE TABLE table_seats (
    table_id TEXT COLLATE "C" NOT NULL REFERENCES tables (id) ON DELETE CASCADE,
    seat     INTEGER NOT NULL,
    user_id  BIGINT  NOT NULL,
    PRIMARY KEY (table_id, seat)
);
CREATE INDEX table_seats_user ON table_seats (user_id);

-- Every accepted action, in order: with the seed it replays the table exactly.
CREATE TABLE actions (
    table_id TEXT COLLATE "C" NOT NULL REFERENCES tables (id) ON DELETE CASCADE,
    version  INTEGER NOT NULL,  -- the table version this action produced
    position INTEGER NOT NULL,  -- order within one save
    seat     INTEGER,           -- NULL for table-level actions (start, next hand)
    action   TEXT    NOT NULL,
    at       DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (table_id, version, position)
);
