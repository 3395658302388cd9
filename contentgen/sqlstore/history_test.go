package sqlstore_test

import (
	"testing"
	"time"

	"github.com/contentgen/contentgen/contentgen/sqlstore"
	"github.com/contentgen/contentgen/history"
	"github.com/contentgen/contentgen/history/historytest"
)

func TestHistoryConformance(t *testing.T) {
	forEachEngine(t, func(t *testing.T, e engine) {
		historytest.RunWithClock(t, func(t *testing.T, now func() time.Time) history.Store {
			return e.open(t, &sqlstore.Options{Now: now}).History()
		})
	})
}
