package sqlstore_test

import (
	"context"
	"fmt"
	"log"
	"os"
	"path/filepath"

	"github.com/contentgen/contentgen/contentgen/sqlstore"
	"github.com/contentgen/contentgen/history"
)

// Open a SQLite file, record a batch of history in one transaction, and
// read it back after reopening the file.
func Example() {
	dir, err := os.MkdirTemp("", "sqlstore-example")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, "contentgen.db")
	ctx := context.Background()

	db, err := sqlstore.Open(ctx, path, nil)
	if err != nil {
		log.Fatal(err)
	}
	err = db.InTx(ctx, func(ctx context.Context) error {
		// Content written to the host in this transaction would be kept
		// or undone with these entries.
		return db.History().Add(ctx, []history.Entry{
			{ContentType: history.TypePost, ContentID: 1, ContentSubtype: "post"},
			{ContentType: history.TypePost, ContentID: 2, ContentSubtype: "page"},
		})
	})
	if err != nil {
		log.Fatal(err)
	}
	if err := db.Close(); err != nil {
		log.Fatal(err)
	}

	db, err = sqlstore.Open(ctx, path, nil)
	if err != nil {
		log.Fatal(err)
	}
	defer db.Close()
	version, err := db.SchemaVersion(ctx)
	if err != nil {
		log.Fatal(err)
	}
	_, total, err := db.History().List(ctx, history.Filter{ContentSubtypes: []string{"page"}})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(db.Engine(), version > 0, total)
	// Output: sqlite true 1
}
