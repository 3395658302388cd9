package fields

import "sync"

// DetectionCache keeps the detections of each post type's fields, so that
// detection (and a slower AI detector) runs once per field until cleared.
// It is safe for concurrent use; the zero value is ready to use.
type DetectionCache struct {
	mu sync.Mutex
	m  map[string]map[string]Detection // post type -> field key -> detection
}

func fieldID(f *Field) string {
	if f.Key != "" {
		return f.Key
	}
	return f.Name
}

// Detect returns a copy of fields (sub-fields included) with DetectedType
// set from the cache, running Detect for fields not cached yet and caching
// the result. Fields that already carry a DetectedType keep it.
func (c *DetectionCache) Detect(postType string, fields []Field) []Field {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.m == nil {
		c.m = map[string]map[string]Detection{}
	}
	cached := c.m[postType]
	if cached == nil {
		cached = map[string]Detection{}
		c.m[postType] = cached
	}
	var apply func(fs []Field) []Field
	apply = func(fs []Field) []Field {
		out := make([]Field, len(fs))
		for i, f := range fs {
			f = f.Clone()
			if f.DetectedType == "" {
				id := fieldID(&f)
				d, ok := cached[id]
				if !ok {
					d = Detect(&f)
					cached[id] = d
				}
				f.DetectedType = d.Type
			}
			if len(f.SubFields) > 0 {
				f.SubFields = apply(f.SubFields)
			}
			out[i] = f
		}
		return out
	}
	return apply(fields)
}

// Put stores detections for fields of postType by field key (or name),
// replacing cached ones, for example the checked answers of an AI
// detector.
func (c *DetectionCache) Put(postType string, detections map[string]Detection) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.m == nil {
		c.m = map[string]map[string]Detection{}
	}
	if c.m[postType] == nil {
		c.m[postType] = map[string]Detection{}
	}
	for k, d := range detections {
		c.m[postType][k] = d
	}
}

// Get returns a copy of the cached detections of postType, by field key.
func (c *DetectionCache) Get(postType string) map[string]Detection {
	c.mu.Lock()
	defer c.mu.Unlock()
	out := make(map[string]Detection, len(c.m[postType]))
	for k, d := range c.m[postType] {
		out[k] = d
	}
	return out
}

// Clear forgets the detections of postType and returns how many there
// were.
func (c *DetectionCache) Clear(postType string) int {
	c.mu.Lock()
	defer c.mu.Unlock()
	n := len(c.m[postType])
	delete(c.m, postType)
	return n
}

// ClearAll forgets every detection and returns how many there were.
func (c *DetectionCache) ClearAll() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	n := 0
	for _, m := range c.m {
		n += len(m)
	}
	c.m = nil
	return n
}
