package fill

import (
	"context"
	"math/rand/v2"
	"slices"
)

// RefKind is the kind of object a relational value points at.
type RefKind string

// Kinds of Ref.
const (
	RefPost  RefKind = "post"
	RefTerm  RefKind = "term"
	RefUser  RefKind = "user"
	RefMedia RefKind = "media"
)

// Ref is the placeholder value of a relational field (relationship,
// post_object, taxonomy, user, image, file, gallery) until a Lookup of
// existing ids resolves it. Collect the Refs of a batch with CollectRefs
// to learn how many objects of which types it needs before resolving.
type Ref struct {
	// Field is the name of the field the value belongs to.
	Field string
	Kind  RefKind
	// Targets are the post types (RefPost), the taxonomy (RefTerm) or the
	// roles (RefUser) the ids must belong to; empty means any.
	Targets []string
	// Count is how many ids the value wants (at least 1).
	Count int
	// Multiple makes the resolved value a list ([]int64) even with one id;
	// otherwise it is one int64.
	Multiple bool
	// Format is the field's return format ("id", "object", "url",
	// "array"); see Filler.Resolve.
	Format string
}

// Lookup supplies the ids of existing objects to resolve Refs with.
// Implementations return ids in a stable order (sorted), so that
// resolution is deterministic for a seed.
type Lookup interface {
	// IDs returns the ids of existing objects of kind belonging to one of
	// targets (any when targets is empty); nil when there are none. A
	// failure to look them up is returned as the error; a done ctx gives
	// ctx.Err().
	IDs(ctx context.Context, kind RefKind, targets []string) ([]int64, error)
}

// URLLookup is an optional Lookup capability: the public URL of a media
// item, used for image and file fields whose return format is "url" or
// "array".
type URLLookup interface {
	URL(ctx context.Context, kind RefKind, id int64) (string, error)
}

// LookupFunc adapts a function to Lookup.
type LookupFunc func(ctx context.Context, kind RefKind, targets []string) ([]int64, error)

// IDs implements Lookup.
func (f LookupFunc) IDs(ctx context.Context, kind RefKind, targets []string) ([]int64, error) {
	return f(ctx, kind, targets)
}

// CollectRefs returns the Refs inside v (a value from Filler.Value or
// Filler.Fill, including repeater rows and groups), in a stable order.
func CollectRefs(v any) []Ref {
	var out []Ref
	var walk func(v any)
	walk = func(v any) {
		switch x := v.(type) {
		case Ref:
			out = append(out, x)
		case []any:
			for _, e := range x {
				walk(e)
			}
		case []map[string]any:
			for _, e := range x {
				walk(e)
			}
		case map[string]any:
			for _, k := range sortedKeys(x) {
				walk(x[k])
			}
		}
	}
	walk(v)
	return out
}

func sortedKeys(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// resolveRef picks ref.Count distinct ids from lk. With too few ids it
// uses what there is: a single value becomes nil, a list shorter or empty.
func resolveRef(ctx context.Context, r *rand.Rand, ref Ref, lk Lookup, storage bool) (any, error) {
	pool, err := lk.IDs(ctx, ref.Kind, ref.Targets)
	if err != nil {
		return nil, err
	}
	n := min(ref.Count, len(pool))
	picked := make([]int64, 0, n)
	if n > 0 {
		// Partial Fisher-Yates over a copy keeps the pool untouched.
		p := slices.Clone(pool)
		for i := 0; i < n; i++ {
			j := i + r.IntN(len(p)-i)
			p[i], p[j] = p[j], p[i]
			picked = append(picked, p[i])
		}
	}
	format := func(id int64) (any, error) {
		ul, ok := lk.(URLLookup)
		if storage || ref.Kind != RefMedia || !ok || ref.Format != "url" && ref.Format != "array" {
			return id, nil
		}
		u, err := ul.URL(ctx, ref.Kind, id)
		if err != nil || ref.Format == "url" {
			return u, err
		}
		return map[string]any{"id": id, "url": u}, nil
	}
	if !ref.Multiple {
		if len(picked) == 0 {
			return nil, nil
		}
		return format(picked[0])
	}
	if storage || ref.Kind != RefMedia || (ref.Format != "url" && ref.Format != "array") {
		return picked, nil
	}
	out := make([]any, len(picked))
	for i, id := range picked {
		if out[i], err = format(id); err != nil {
			return nil, err
		}
	}
	return out, nil
}
