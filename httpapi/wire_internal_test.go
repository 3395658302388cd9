package httpapi

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/contentgen/contentgen/contentgen"
)

// TestPostsRecordShape pins the answer of a posts run byte for byte: its
// keys in the order of the specification, the counts inside it.
func TestPostsRecordShape(t *testing.T) {
	t.Parallel()
	res := &contentgen.PostsResult{
		PostType: "book", IDs: []int64{7, 8}, WithFeaturedImage: 1, WithoutFeaturedImage: 1,
		Authors: 2, Terms: map[string]int{"genre": 3}, Comments: 4,
		RelatedPosts: map[string]int{"publisher": 2, "imprint": 1}, TimeSaved: 90 * time.Minute,
	}
	b, err := json.Marshal(newPostsRecord(res, messagesFor("en_US")))
	require.NoError(t, err)
	require.Equal(t, `{"success":true,"count":2,"ids":[7,8],"message":"`+messagesFor("en_US").PostsGenerated(2)+`","warnings":[],`+
		`"variation_stats":{"with_featured_image":1,"without_featured_image":1},`+
		`"auto_created":{"authors":2,"terms":{"genre":3},"comments":4,"related_posts":3,"related_per_cpt":{"imprint":1,"publisher":2}},`+
		`"time_saved":"1 hour 30 minutes"}`, string(b))
}
