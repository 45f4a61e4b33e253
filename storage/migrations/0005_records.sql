-- Bounded data (issue 12): a finished table's per-move log is compacted into one compressed
-- record (its actions and its final state, seed included), and whole finished tables are
-- deleted after the retention period. Results and ratings stay (match_results,
-- player_results, player_stats).
CREATE TABLE table_records (
    table_id TEXT    PRIMARY KEY REFERENCES tables (id) ON DELETE CASCADE,
    actions  INTEGER NOT NULL,  -- how many action lines it holds
    record   BLOB    NOT NULL,  -- zlib-compressed JSON: [[version, seat, action], ...]
    state    BLOB               -- the table's state, zlib-compressed (tables.state is then '')
) WITHOUT ROWID;
ALTER TABLE tables ADD COLUMN compacted INTEGER NOT NULL DEFAULT 0 CHECK (compacted IN (0, 1));
-- The compaction job's next tables, and the retention job's oldest: index walks.
CREATE INDEX tables_to_compact ON tables (updated_at)
    WHERE status IN ('finished', 'closed') AND compacted = 0;
CREATE INDEX tables_done ON tables (updated_at) WHERE status IN ('finished', 'closed');
