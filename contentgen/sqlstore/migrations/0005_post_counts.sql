-- post_counts holds the number of posts per block of 1024 ids (first_id
-- is the first id of the block), post type, status and whether they
-- carry the generated marker (marked: 1 for meta _svc_generated = '1').
-- Every write of the Host keeps it up to date in its own transaction
-- (Host.countPosts), so that a listing finds its exact total and the
-- block of a deep page without reading the posts. Rows may hold 0.
CREATE TABLE ${post_counts} (
	first_id BIGINT NOT NULL,
	type TEXT NOT NULL,
	status TEXT NOT NULL,
	marked INTEGER NOT NULL,
	n BIGINT NOT NULL,
	PRIMARY KEY (first_id, type, status, marked)
);
INSERT INTO ${post_counts} (first_id, type, status, marked, n)
SELECT p.id - p.id % 1024, p.type, p.status,
	CASE WHEN EXISTS (SELECT 1 FROM ${meta} m WHERE m.kind = 'post' AND m.object_id = p.id AND m.meta_key = '_svc_generated' AND m.meta_value = '1') THEN 1 ELSE 0 END,
	COUNT(*)
FROM ${posts} p
GROUP BY 1, 2, 3, 4;
