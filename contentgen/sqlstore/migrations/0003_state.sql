-- The StateStore: one value per name; a NULL value reads as none.
CREATE TABLE ${state} (
	name TEXT PRIMARY KEY,
	value ${bytes}
);
