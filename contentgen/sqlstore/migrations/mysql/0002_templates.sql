-- Templates and the acknowledged field state, as
-- migrations/0002_templates.sql. unit_locks holds a row per lock of
-- dialect.lockUnit, locked until the transaction that took it ends.
CREATE TABLE ${templates} (
	id ${id},
	name LONGTEXT NOT NULL,
	description LONGTEXT NOT NULL,
	post_type VARCHAR(255) NOT NULL,
	is_default BOOLEAN NOT NULL,
	is_system BOOLEAN NOT NULL,
	field_config LONGTEXT NOT NULL,
	taxonomy_config LONGTEXT NOT NULL,
	parent_id BIGINT NOT NULL,
	field_signature LONGTEXT,
	created_at BIGINT,
	updated_at BIGINT,
	INDEX templates_post_type (post_type)
) ${table};
CREATE TABLE ${template_sync_mark} (
	id INTEGER PRIMARY KEY CHECK (id = 1),
	signatures LONGTEXT,
	seen_at BIGINT
) ${table};
CREATE TABLE ${unit_locks} (
	id BIGINT PRIMARY KEY
) ${table};
