-- post_counts, as migrations/0005_post_counts.sql.
CREATE TABLE ${post_counts} (
	first_id BIGINT NOT NULL,
	type VARCHAR(255) NOT NULL,
	status VARCHAR(255) NOT NULL,
	marked INTEGER NOT NULL,
	n BIGINT NOT NULL,
	PRIMARY KEY (first_id, type, status, marked)
) ${table};
INSERT INTO ${post_counts} (first_id, type, status, marked, n)
SELECT p.id - p.id % 1024, p.type, p.status,
	CASE WHEN EXISTS (SELECT 1 FROM ${meta} m WHERE m.kind = 'post' AND m.object_id = p.id AND m.meta_key = '_svc_generated' AND m.meta_value = '1') THEN 1 ELSE 0 END,
	COUNT(*)
FROM ${posts} p
GROUP BY 1, 2, 3, 4;
