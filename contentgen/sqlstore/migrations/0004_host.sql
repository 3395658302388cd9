-- The content of the Host. Registered post types, taxonomies and roles
-- are configuration (JSON) in host_registry, in registration order.
-- Reference columns hold 0 for none; the Host checks references inside
-- its transactions. Times are microseconds since 1970.
CREATE TABLE ${host_registry} (
	kind TEXT NOT NULL,
	name TEXT NOT NULL,
	position BIGINT NOT NULL,
	config TEXT NOT NULL,
	PRIMARY KEY (kind, name)
);
CREATE TABLE ${posts} (
	id ${id},
	type TEXT NOT NULL,
	status TEXT NOT NULL,
	title TEXT NOT NULL,
	content TEXT NOT NULL,
	excerpt TEXT NOT NULL,
	author_id BIGINT NOT NULL,
	parent_id BIGINT NOT NULL,
	date BIGINT NOT NULL,
	featured_media_id BIGINT NOT NULL
);
CREATE INDEX ${posts}_type_status ON ${posts} (type, status);
CREATE INDEX ${posts}_author ON ${posts} (author_id);
CREATE INDEX ${posts}_parent ON ${posts} (parent_id);
CREATE INDEX ${posts}_featured ON ${posts} (featured_media_id);
CREATE TABLE ${terms} (
	id ${id},
	taxonomy TEXT NOT NULL,
	name TEXT NOT NULL,
	slug TEXT NOT NULL,
	description TEXT NOT NULL,
	parent_id BIGINT NOT NULL,
	UNIQUE (taxonomy, slug)
);
CREATE INDEX ${terms}_parent ON ${terms} (parent_id);
CREATE TABLE ${term_links} (
	post_id BIGINT NOT NULL,
	term_id BIGINT NOT NULL,
	taxonomy TEXT NOT NULL,
	position INTEGER NOT NULL,
	PRIMARY KEY (post_id, term_id)
);
CREATE INDEX ${term_links}_term ON ${term_links} (term_id);
CREATE TABLE ${users} (
	id ${id},
	login TEXT NOT NULL UNIQUE,
	email TEXT NOT NULL,
	email_lower TEXT NOT NULL,
	display_name TEXT NOT NULL,
	first_name TEXT NOT NULL,
	last_name TEXT NOT NULL,
	description TEXT NOT NULL,
	url TEXT NOT NULL,
	registered BIGINT NOT NULL
);
CREATE UNIQUE INDEX ${users}_email ON ${users} (email_lower) WHERE email_lower <> '';
CREATE TABLE ${user_roles} (
	user_id BIGINT NOT NULL,
	position INTEGER NOT NULL,
	role TEXT NOT NULL,
	PRIMARY KEY (user_id, position)
);
CREATE INDEX ${user_roles}_role ON ${user_roles} (role);
CREATE TABLE ${comments} (
	id ${id},
	post_id BIGINT NOT NULL,
	parent_id BIGINT NOT NULL,
	user_id BIGINT NOT NULL,
	author_name TEXT NOT NULL,
	author_email TEXT NOT NULL,
	author_url TEXT NOT NULL,
	content TEXT NOT NULL,
	status TEXT NOT NULL,
	date BIGINT NOT NULL
);
CREATE INDEX ${comments}_post ON ${comments} (post_id);
CREATE INDEX ${comments}_parent ON ${comments} (parent_id);
CREATE INDEX ${comments}_user ON ${comments} (user_id);
CREATE TABLE ${media} (
	id ${id},
	title TEXT NOT NULL,
	filename TEXT NOT NULL,
	mime_type TEXT NOT NULL,
	url TEXT NOT NULL,
	width BIGINT NOT NULL,
	height BIGINT NOT NULL,
	filesize BIGINT NOT NULL,
	parent_id BIGINT NOT NULL,
	date BIGINT NOT NULL,
	sizes TEXT NOT NULL
);
CREATE INDEX ${media}_parent ON ${media} (parent_id);
CREATE TABLE ${meta} (
	kind TEXT NOT NULL,
	object_id BIGINT NOT NULL,
	meta_key TEXT NOT NULL,
	meta_value TEXT NOT NULL,
	PRIMARY KEY (kind, object_id, meta_key)
);
CREATE INDEX ${meta}_key_value ON ${meta} (kind, meta_key, meta_value);
