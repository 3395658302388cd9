-- History entries, as migrations/0001_history.sql. Text that is indexed
-- is VARCHAR (InnoDB indexes TEXT only by a prefix); the rest is
-- LONGTEXT. ${table} gives the tables a binary collation, so text
-- compares and sorts by its bytes as on the other engines.
CREATE TABLE ${history} (
	seq ${id},
	id VARCHAR(255) NOT NULL UNIQUE,
	content_type VARCHAR(255) NOT NULL,
	content_id BIGINT NOT NULL,
	content_subtype LONGTEXT NOT NULL,
	meta LONGTEXT,
	meta_index LONGTEXT NOT NULL,
	created_at BIGINT NOT NULL,
	created_day VARCHAR(32) NOT NULL,
	INDEX history_created (created_at, seq),
	INDEX history_content (content_type, content_id)
) ${table};
