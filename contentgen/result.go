package contentgen

// PostsResult is the result of a posts generation run.
type PostsResult struct {
	Success        bool           `json:"success"`
	Count          int            `json:"count"`
	IDs            []int64        `json:"ids"`
	Message        string         `json:"message"`
	Warnings       []string       `json:"warnings"`
	VariationStats VariationStats `json:"variation_stats"`
	AutoCreated    AutoCreated    `json:"auto_created"`
	TimeSaved      string         `json:"time_saved"`
}

// VariationStats counts featured images of a run.
type VariationStats struct {
	WithFeaturedImage    int `json:"with_featured_image"`
	WithoutFeaturedImage int `json:"without_featured_image"`
}

// AutoCreated counts what a posts run created besides the posts.
type AutoCreated struct {
	Authors       int            `json:"authors"`
	Terms         map[string]int `json:"terms"`
	Comments      int            `json:"comments"`
	RelatedPosts  int            `json:"related_posts"`
	RelatedPerCPT map[string]int `json:"related_per_cpt"`
}

// ItemsResult is the result of a terms, users or comments run.
type ItemsResult struct {
	Success      bool    `json:"success"`
	Count        int     `json:"count"`
	IDs          []int64 `json:"ids"`
	DeletedCount int     `json:"deleted_count"`
	Message      string  `json:"message"`
	TimeSaved    string  `json:"time_saved"`
}

// DeleteResult is the result of Generator.Delete.
type DeleteResult struct {
	Success bool   `json:"success"`
	Deleted int    `json:"deleted"`
	Message string `json:"message"`
}

// DeletePostsResult is the result of Generator.DeletePosts.
type DeletePostsResult struct {
	Success            bool           `json:"success"`
	DeletedCount       int            `json:"deleted_count"`
	DeletedStats       DeletedStats   `json:"deleted_stats"`
	DeletedRelatedCPTs map[string]int `json:"deleted_related_cpts"`
	Message            string         `json:"message"`
}

// DeletedStats counts what a post deletion removed.
type DeletedStats struct {
	Posts   int `json:"posts"`
	Media   int `json:"media"`
	Terms   int `json:"terms"`
	Authors int `json:"authors"`
}

// CleanupResult is the result of Generator.CleanupAll.
type CleanupResult struct {
	Success bool         `json:"success"`
	Message string       `json:"message"`
	Stats   CleanupStats `json:"stats"`
}

// CleanupStats counts what CleanupAll removed.
type CleanupStats struct {
	Posts int `json:"posts"`
	Terms int `json:"terms"`
	Users int `json:"users"`
	Media int `json:"media"`
}
