package sqlstore

// FailMediaWrites makes every media file write of h fail with the error
// fail returns for its path (nil lets it through), as a full disk does.
func FailMediaWrites(h *Host, fail func(path string) error) { h.files.failWrite = fail }
