-- Templates and the acknowledged field state. Configurations are JSON;
-- field_signature is NULL when none was recorded; times are microseconds
-- since 1970, NULL for the zero time.
CREATE TABLE ${templates} (
	id ${id},
	name TEXT NOT NULL,
	description TEXT NOT NULL,
	post_type TEXT NOT NULL,
	is_default BOOLEAN NOT NULL,
	is_system BOOLEAN NOT NULL,
	field_config TEXT NOT NULL,
	taxonomy_config TEXT NOT NULL,
	parent_id BIGINT NOT NULL,
	field_signature TEXT,
	created_at BIGINT,
	updated_at BIGINT
);
CREATE INDEX ${templates}_post_type ON ${templates} (post_type);
CREATE TABLE ${template_sync_mark} (
	id INTEGER PRIMARY KEY CHECK (id = 1),
	signatures TEXT,
	seen_at BIGINT
);
