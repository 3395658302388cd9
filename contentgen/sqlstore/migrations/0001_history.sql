-- History entries. seq keeps the insertion order; meta is the entry's
-- meta as JSON, meta_index its top-level values as history.MetaString
-- formats them (see metaIndex), for Filter.MetaEquals; created_day is the
-- UTC day of created_at (microseconds since 1970), for Stats.Daily.
CREATE TABLE ${history} (
	seq ${id},
	id TEXT NOT NULL UNIQUE,
	content_type TEXT NOT NULL,
	content_id BIGINT NOT NULL,
	content_subtype TEXT NOT NULL,
	meta TEXT,
	meta_index TEXT NOT NULL,
	created_at BIGINT NOT NULL,
	created_day TEXT NOT NULL
);
CREATE INDEX ${history}_created ON ${history} (created_at, seq);
CREATE INDEX ${history}_content ON ${history} (content_type, content_id);
