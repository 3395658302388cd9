package wphost

// The environment variables that locate the WordPress site of the tests.
const (
	envURL         = "CONTENTGEN_TEST_WORDPRESS_URL"
	envUser        = "CONTENTGEN_TEST_WORDPRESS_USER"
	envAppPassword = "CONTENTGEN_TEST_WORDPRESS_APP_PASSWORD"
	envDB          = "CONTENTGEN_TEST_WORDPRESS_DB"
	envUploads     = "CONTENTGEN_TEST_WORDPRESS_UPLOADS"
	envRoot        = "CONTENTGEN_TEST_WORDPRESS_ROOT"
)
