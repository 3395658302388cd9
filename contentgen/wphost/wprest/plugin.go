package wprest

import (
	_ "embed"
	"errors"
	"fmt"
	"os"
	"path/filepath"
)

// MUPlugin is the companion must-use plugin (mu-plugin/contentgen.php):
// REST routes under contentgen/v1 and a read-only "contentgen" field on
// REST objects, usable only by users with manage_options. See the package
// doc for what needs it.
//
//go:embed mu-plugin/contentgen.php
var MUPlugin []byte

// MUPluginFile is the file name of the plugin in wp-content/mu-plugins.
const MUPluginFile = "contentgen.php"

// InstallMUPlugin writes MUPlugin into dir, a site's wp-content/mu-plugins
// folder (created when missing, if its parent wp-content exists). An
// existing file of the same name is replaced.
func InstallMUPlugin(dir string) error {
	if dir == "" {
		return invalid("dir", "the mu-plugins folder is required")
	}
	if fi, err := os.Stat(filepath.Dir(filepath.Clean(dir))); err != nil || !fi.IsDir() {
		return invalid("dir", fmt.Sprintf("%q is not inside an existing wp-content folder", dir))
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("wprest: creating %s: %w", dir, err)
	}
	tmp, err := os.CreateTemp(dir, ".contentgen-*.php.tmp")
	if err != nil {
		return fmt.Errorf("wprest: installing the plugin: %w", err)
	}
	_, werr := tmp.Write(MUPlugin)
	cerr := tmp.Close()
	if err := errors.Join(werr, cerr, os.Chmod(tmp.Name(), 0o644)); err != nil {
		os.Remove(tmp.Name())
		return fmt.Errorf("wprest: installing the plugin: %w", err)
	}
	if err := os.Rename(tmp.Name(), filepath.Join(dir, MUPluginFile)); err != nil {
		os.Remove(tmp.Name())
		return fmt.Errorf("wprest: installing the plugin: %w", err)
	}
	return nil
}
