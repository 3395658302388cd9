package wphost

// envRoot names the WordPress directory (holding wp-load.php) of the
// tests that run PHP.
const envRoot = "CONTENTGEN_TEST_WORDPRESS_ROOT"
