-- The StateStore, as migrations/0003_state.sql.
CREATE TABLE ${state} (
	name VARCHAR(700) PRIMARY KEY,
	value ${bytes}
) ${table};
