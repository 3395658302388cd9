-- The content of the Host, as migrations/0004_host.sql. The unique index
-- of the non-empty lowercased emails is on email_key, NULL for an empty
-- one (MySQL has no partial indexes; a unique index admits many NULLs).
-- id_blocks holds the last id handed out of each table of
-- dialect.reserveIDs.
CREATE TABLE ${host_registry} (
	kind VARCHAR(64) NOT NULL,
	name VARCHAR(255) NOT NULL,
	position BIGINT NOT NULL,
	config LONGTEXT NOT NULL,
	PRIMARY KEY (kind, name)
) ${table};
CREATE TABLE ${posts} (
	id ${id},
	type VARCHAR(255) NOT NULL,
	status VARCHAR(255) NOT NULL,
	title LONGTEXT NOT NULL,
	content LONGTEXT NOT NULL,
	excerpt LONGTEXT NOT NULL,
	author_id BIGINT NOT NULL,
	parent_id BIGINT NOT NULL,
	date BIGINT NOT NULL,
	featured_media_id BIGINT NOT NULL,
	INDEX posts_type_status (type, status),
	INDEX posts_author (author_id),
	INDEX posts_parent (parent_id),
	INDEX posts_featured (featured_media_id)
) ${table};
CREATE TABLE ${terms} (
	id ${id},
	taxonomy VARCHAR(255) NOT NULL,
	name LONGTEXT NOT NULL,
	slug VARCHAR(500) NOT NULL,
	description LONGTEXT NOT NULL,
	parent_id BIGINT NOT NULL,
	UNIQUE (taxonomy, slug),
	INDEX terms_parent (parent_id)
) ${table};
CREATE TABLE ${term_links} (
	post_id BIGINT NOT NULL,
	term_id BIGINT NOT NULL,
	taxonomy VARCHAR(255) NOT NULL,
	position INTEGER NOT NULL,
	PRIMARY KEY (post_id, term_id),
	INDEX term_links_term (term_id)
) ${table};
CREATE TABLE ${users} (
	id ${id},
	login VARCHAR(255) NOT NULL UNIQUE,
	email VARCHAR(255) NOT NULL,
	email_lower VARCHAR(255) NOT NULL,
	email_key VARCHAR(255) AS (NULLIF(email_lower, '')) STORED,
	display_name LONGTEXT NOT NULL,
	first_name LONGTEXT NOT NULL,
	last_name LONGTEXT NOT NULL,
	description LONGTEXT NOT NULL,
	url LONGTEXT NOT NULL,
	registered BIGINT NOT NULL,
	UNIQUE INDEX users_email (email_key)
) ${table};
CREATE TABLE ${user_roles} (
	user_id BIGINT NOT NULL,
	position INTEGER NOT NULL,
	role VARCHAR(255) NOT NULL,
	PRIMARY KEY (user_id, position),
	INDEX user_roles_role (role)
) ${table};
CREATE TABLE ${comments} (
	id ${id},
	post_id BIGINT NOT NULL,
	parent_id BIGINT NOT NULL,
	user_id BIGINT NOT NULL,
	author_name LONGTEXT NOT NULL,
	author_email LONGTEXT NOT NULL,
	author_url LONGTEXT NOT NULL,
	content LONGTEXT NOT NULL,
	status LONGTEXT NOT NULL,
	date BIGINT NOT NULL,
	INDEX comments_post (post_id),
	INDEX comments_parent (parent_id),
	INDEX comments_user (user_id)
) ${table};
CREATE TABLE ${media} (
	id ${id},
	title LONGTEXT NOT NULL,
	filename LONGTEXT NOT NULL,
	mime_type LONGTEXT NOT NULL,
	url LONGTEXT NOT NULL,
	width BIGINT NOT NULL,
	height BIGINT NOT NULL,
	filesize BIGINT NOT NULL,
	parent_id BIGINT NOT NULL,
	date BIGINT NOT NULL,
	sizes LONGTEXT NOT NULL,
	INDEX media_parent (parent_id)
) ${table};
CREATE TABLE ${meta} (
	kind VARCHAR(64) NOT NULL,
	object_id BIGINT NOT NULL,
	meta_key VARCHAR(255) NOT NULL,
	meta_value LONGTEXT NOT NULL,
	PRIMARY KEY (kind, object_id, meta_key),
	INDEX meta_key_value (kind, meta_key, meta_value(255))
) ${table};
CREATE TABLE ${id_blocks} (
	name VARCHAR(255) PRIMARY KEY,
	last_id BIGINT NOT NULL
) ${table};
