package hosttest

import "github.com/contentgen/contentgen/contentgen"

// Minimal wraps h so that it offers only the required contentgen.Host
// methods and none of the optional capabilities (Trasher, Transactor,
// Exister, PostDeleter, MediaStorer), whatever h implements. Run the Generator's tests
// over it to cover the paths taken for hosts without them.
func Minimal(h contentgen.Host) contentgen.Host { return minimal{h} }

type minimal struct{ contentgen.Host }
