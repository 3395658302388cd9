package wphost

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"

	"github.com/go-sql-driver/mysql"
)

// ErrNotCleanedUp is wrapped by the error of Uninstall while the history
// still tracks generated content.
var ErrNotCleanedUp = errors.New("wphost: generated content is still tracked")

// Uninstalled is what Uninstall removed.
type Uninstalled struct {
	// Tables are the dropped tables, such as wp_contentgen_history.
	Tables []string
	// Folders are the removed folders, relative to the uploads directory
	// with forward slashes, such as "2026/11".
	Folders []string
}

// dateFolder matches the year and month folders of the uploads
// directory.
var dateFolder = regexp.MustCompile(`^[0-9]{4}(/[0-9]{2})?$`)

// Uninstall removes what contentgen keeps in a WordPress site beside its
// content: its own tables (the site's prefix and "contentgen_":
// wp_contentgen_history, wp_contentgen_templates, ...) and the empty year
// and month folders of the uploads directory (YYYY/MM, where StoreMedia
// writes files; WordPress makes them again when it needs them). The
// site's own tables and every folder that holds a file stay.
//
// It needs only o.DSN, o.TablePrefix and o.Uploads (empty: no folders
// are removed). It refuses, with an error wrapping ErrNotCleanedUp,
// while the history still has entries: remove the generated content
// first (Generator.DeleteAll), since nothing could find it afterwards.
// The Site of the database must be closed first, and no other process
// may use it meanwhile: a Site opened afterwards makes the tables again.
func Uninstall(ctx context.Context, o *Options) (Uninstalled, error) {
	var out Uninstalled
	if o == nil || o.DSN == "" {
		return out, fmt.Errorf("%w: Options.DSN is required", ErrInvalid)
	}
	prefix := o.TablePrefix
	if prefix == "" {
		prefix = "wp_"
	}
	if !prefixRe.MatchString(prefix) {
		return out, fmt.Errorf("%w: Options.TablePrefix may hold only ASCII letters, digits and '_', at most 32", ErrInvalid)
	}
	cfg, err := mysql.ParseDSN(strings.TrimPrefix(o.DSN, "mysql://"))
	if err != nil {
		return out, fmt.Errorf("%w: Options.DSN: %v", ErrInvalid, err)
	}
	connector, err := mysql.NewConnector(cfg)
	if err != nil {
		return out, fmt.Errorf("%w: Options.DSN: %v", ErrInvalid, err)
	}
	db := sql.OpenDB(connector)
	defer db.Close()
	conn, err := db.Conn(ctx)
	if err != nil {
		return out, fmt.Errorf("wphost: connecting: %w", err)
	}
	defer conn.Close()

	own := prefix + "contentgen_"
	like := strings.NewReplacer("!", "!!", "_", "!_", "%", "!%").Replace(own) + "%"
	rows, err := conn.QueryContext(ctx,
		"SELECT table_name FROM information_schema.tables WHERE table_schema = DATABASE() AND table_name LIKE ? ESCAPE '!'", like)
	if err != nil {
		return out, fmt.Errorf("wphost: listing tables: %w", err)
	}
	var tables []string
	for rows.Next() {
		var name string
		if err := rows.Scan(&name); err != nil {
			rows.Close()
			return out, fmt.Errorf("wphost: listing tables: %w", err)
		}
		tables = append(tables, name)
	}
	if err := rows.Close(); err != nil {
		return out, fmt.Errorf("wphost: listing tables: %w", err)
	}
	if err := rows.Err(); err != nil {
		return out, fmt.Errorf("wphost: listing tables: %w", err)
	}
	slices.Sort(tables)

	if slices.Contains(tables, own+"history") {
		var n int
		if err := conn.QueryRowContext(ctx, "SELECT COUNT(*) FROM `"+own+"history`").Scan(&n); err != nil {
			return out, fmt.Errorf("wphost: counting the history: %w", err)
		}
		if n > 0 {
			return out, fmt.Errorf("%w: the history has %d entries; delete the generated content first (contentgen cleanup), or forget entries whose content is gone (contentgen history prune)", ErrNotCleanedUp, n)
		}
	}

	if len(tables) > 0 {
		// The tables refer to each other; they all go.
		if _, err := conn.ExecContext(ctx, "SET FOREIGN_KEY_CHECKS = 0"); err != nil {
			return out, fmt.Errorf("wphost: %w", err)
		}
		for _, t := range tables {
			if _, err := conn.ExecContext(ctx, "DROP TABLE IF EXISTS `"+t+"`"); err != nil {
				_, _ = conn.ExecContext(ctx, "SET FOREIGN_KEY_CHECKS = 1")
				return out, fmt.Errorf("wphost: dropping %s: %w", t, err)
			}
			out.Tables = append(out.Tables, t)
		}
		if _, err := conn.ExecContext(ctx, "SET FOREIGN_KEY_CHECKS = 1"); err != nil {
			return out, fmt.Errorf("wphost: %w", err)
		}
	}

	if o.Uploads != "" {
		folders, err := removeEmptyDateFolders(o.Uploads)
		out.Folders = folders
		if err != nil {
			return out, err
		}
	}
	return out, nil
}

// removeEmptyDateFolders removes the empty YYYY/MM folders of the uploads
// directory, then the YYYY folders left empty.
func removeEmptyDateFolders(uploads string) ([]string, error) {
	var removed []string
	years, err := os.ReadDir(uploads)
	if err != nil {
		return nil, fmt.Errorf("wphost: reading the uploads directory: %w", err)
	}
	for _, y := range years {
		if !y.IsDir() || !dateFolder.MatchString(y.Name()) {
			continue
		}
		yearDir := filepath.Join(uploads, y.Name())
		months, err := os.ReadDir(yearDir)
		if err != nil {
			return removed, fmt.Errorf("wphost: reading %s: %w", yearDir, err)
		}
		left := len(months)
		for _, m := range months {
			rel := y.Name() + "/" + m.Name()
			if !m.IsDir() || !dateFolder.MatchString(rel) {
				continue
			}
			if empty, err := isEmptyDir(filepath.Join(yearDir, m.Name())); err != nil || !empty {
				continue
			}
			if err := os.Remove(filepath.Join(yearDir, m.Name())); err != nil {
				return removed, fmt.Errorf("wphost: removing %s: %w", rel, err)
			}
			removed = append(removed, rel)
			left--
		}
		if left == 0 {
			if err := os.Remove(yearDir); err != nil {
				return removed, fmt.Errorf("wphost: removing %s: %w", y.Name(), err)
			}
			removed = append(removed, y.Name())
		}
	}
	return removed, nil
}

// isEmptyDir reports whether dir has no entries.
func isEmptyDir(dir string) (bool, error) {
	entries, err := os.ReadDir(dir)
	return err == nil && len(entries) == 0, err
}
