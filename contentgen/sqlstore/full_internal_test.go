package sqlstore

import (
	"errors"
	"fmt"
	"io/fs"
	"syscall"
	"testing"

	"github.com/go-sql-driver/mysql"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/stretchr/testify/require"

	"github.com/contentgen/contentgen/contentgen"
)

// TestFullStorageErrorsOfEveryEngine checks that the errors of a full
// storage of each engine, and of a file write, wrap ErrHostFull, and that
// other errors do not.
func TestFullStorageErrorsOfEveryEngine(t *testing.T) {
	t.Parallel()
	for _, err := range []error{
		&pgconn.PgError{Code: "53100", Message: "could not extend file: No space left on device"},
		&mysql.MySQLError{Number: 1114, Message: "The table 'posts' is full"},
		&mysql.MySQLError{Number: 1021, Message: "Disk full"},
		&fs.PathError{Op: "write", Path: "/media/x.jpg", Err: syscall.ENOSPC},
	} {
		got := fail(t.Context(), "writing", fmt.Errorf("inserting: %w", err))
		require.ErrorIs(t, got, contentgen.ErrHostFull, err.Error())
		require.ErrorIs(t, got, err, "the cause stays")
	}
	for _, err := range []error{
		&pgconn.PgError{Code: "23505"},
		&mysql.MySQLError{Number: 1062},
		&fs.PathError{Op: "write", Path: "/media/x.jpg", Err: syscall.EACCES},
		errors.New("other"),
	} {
		require.NotErrorIs(t, fail(t.Context(), "writing", err), contentgen.ErrHostFull, err.Error())
	}
}
