-- Finished matches, per-server seasons, boards, ratings, tournaments and server settings.
-- Boards read only the aggregate table player_stats, kept up to date when a result is written,
-- so no query ever scans the (large) result history.

-- Season 1 of every server exists without a row; new_season() writes the rows.
CREATE TABLE seasons (
    guild_id   INTEGER NOT NULL,
    season     INTEGER NOT NULL CHECK (season >= 1),
    started_at REAL,  -- NULL for season 1: it began with the server's first match
    ended_at   REAL,  -- NULL while current
    PRIMARY KEY (guild_id, season)
) WITHOUT ROWID;

CREATE TABLE tournaments (
    id         INTEGER PRIMARY KEY,
    guild_id   INTEGER NOT NULL,
    name       TEXT    NOT NULL COLLATE NOCASE,  -- "Spring Cup" and "spring cup" are one name
    created_at REAL    NOT NULL,
    UNIQUE (guild_id, name)
);

-- R-TEAM-3 teams: a Discord role per team.
CREATE TABLE tournament_teams (
    tournament_id INTEGER NOT NULL REFERENCES tournaments (id) ON DELETE CASCADE,
    name          TEXT    NOT NULL,
    role_id       INTEGER NOT NULL,
    PRIMARY KEY (tournament_id, name),
    UNIQUE (tournament_id, role_id)
);

-- One row per finished table: the primary key is what makes recording exactly-once.
-- No foreign key to tables: results outlive the table snapshots.
CREATE TABLE match_results (
    table_id      TEXT    PRIMARY KEY,
    guild_id      INTEGER NOT NULL,
    season        INTEGER NOT NULL,
    preset        TEXT    NOT NULL,
    tournament_id INTEGER REFERENCES tournaments (id),
    finished_at   REAL    NOT NULL,
    players       INTEGER NOT NULL  -- seats at the table, computer players included (R-SCORE-4 N)
) WITHOUT ROWID;
CREATE INDEX match_results_tournament ON match_results (tournament_id)
    WHERE tournament_id IS NOT NULL;

-- One row per human player of a finished table (computer players are never stored).
-- user_id and name become NULL when a tournament row is anonymised by forget_user().
CREATE TABLE player_results (
    table_id         TEXT    NOT NULL REFERENCES match_results (table_id) ON DELETE CASCADE,
    user_id          INTEGER,
    name             TEXT,
    place            INTEGER NOT NULL CHECK (place >= 1),
    team             INTEGER,
    team_role        INTEGER,
    points           INTEGER NOT NULL,
    won              INTEGER NOT NULL CHECK (won IN (0, 1)),
    left_game        INTEGER NOT NULL CHECK (left_game IN (0, 1)),
    match_points     INTEGER NOT NULL,
    hands_played     INTEGER NOT NULL,
    hands_won        INTEGER NOT NULL,
    uno_calls        INTEGER NOT NULL,
    catches_made     INTEGER NOT NULL,
    catches_suffered INTEGER NOT NULL,
    challenges_won   INTEGER NOT NULL,
    challenges_lost  INTEGER NOT NULL,
    cards_drawn      INTEGER NOT NULL,
    colours          TEXT    NOT NULL,  -- JSON object colour -> cards played
    mu               REAL,              -- the rating after this match
    sigma            REAL,
    UNIQUE (table_id, user_id)
);
CREATE INDEX player_results_user ON player_results (user_id);

-- The boards: one row per server, season and human player, updated with every result.
-- Each sort key has its own index so a page is an index walk and a rank is a COUNT over an
-- index range.
CREATE TABLE player_stats (
    guild_id         INTEGER NOT NULL,
    season           INTEGER NOT NULL,
    user_id          INTEGER NOT NULL,
    name             TEXT    NOT NULL,  -- the name at the last match
    mu               REAL    NOT NULL,
    sigma            REAL    NOT NULL,
    rating           REAL    NOT NULL,  -- the displayed number, stored so it can be indexed
    matches          INTEGER NOT NULL,
    wins             INTEGER NOT NULL,
    points           INTEGER NOT NULL,
    match_points     INTEGER NOT NULL,
    hands_played     INTEGER NOT NULL,
    hands_won        INTEGER NOT NULL,
    uno_calls        INTEGER NOT NULL,
    catches_made     INTEGER NOT NULL,
    catches_suffered INTEGER NOT NULL,
    challenges_won   INTEGER NOT NULL,
    challenges_lost  INTEGER NOT NULL,
    cards_drawn      INTEGER NOT NULL,
    left_games       INTEGER NOT NULL,
    current_streak   INTEGER NOT NULL,
    best_streak      INTEGER NOT NULL,
    colours          TEXT    NOT NULL,  -- JSON object colour -> cards played
    last_played      REAL    NOT NULL,
    PRIMARY KEY (guild_id, season, user_id)
) WITHOUT ROWID;
CREATE INDEX player_stats_by_rating ON player_stats (guild_id, season, rating DESC, user_id);
CREATE INDEX player_stats_by_wins ON player_stats (guild_id, season, wins DESC, user_id);
CREATE INDEX player_stats_by_points ON player_stats (guild_id, season, points DESC, user_id);
CREATE INDEX player_stats_by_match_points
    ON player_stats (guild_id, season, match_points DESC, user_id);
CREATE INDEX player_stats_by_games ON player_stats (guild_id, season, matches DESC, user_id);
-- forget_user() works across every server.
CREATE INDEX player_stats_user ON player_stats (user_id);

-- Per-server defaults for new tables; NULL means "not set: use the bot's default".
CREATE TABLE guild_settings (
    guild_id     INTEGER PRIMARY KEY,
    preset       TEXT,
    target       INTEGER CHECK (target > 0),
    turn_seconds INTEGER CHECK (turn_seconds >= 0),
    ping_turns   INTEGER NOT NULL CHECK (ping_turns IN (0, 1)),
    language     TEXT
);
