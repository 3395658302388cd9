<?php
// Inserts N posts (default 500) through wp_insert_post, each with content,
// an excerpt, three meta values, a category and a tag, and prints JSON:
// {"ns": nanoseconds of the insert loop, "ids": [the new post ids]}.
// usage: php insert_posts.php WORDPRESS_ROOT CATEGORY_ID TAG_ID [N]
$_SERVER['HTTP_HOST'] = 'localhost';
$_SERVER['REQUEST_URI'] = '/';
require rtrim( $argv[1], '/' ) . '/wp-load.php';
$cat = (int) $argv[2];
$tag = (int) $argv[3];
$n   = isset( $argv[4] ) ? (int) $argv[4] : 500;
wp_set_current_user( 1 );
$content = str_repeat( '<p>Lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod tempor incididunt ut labore et dolore magna aliqua.</p>', 8 );
$ids   = array();
$start = hrtime( true );
for ( $i = 0; $i < $n; $i++ ) {
	$id = wp_insert_post(
		array(
			'post_type'    => 'post',
			'post_status'  => 'publish',
			'post_title'   => "Benchmark post $i",
			'post_content' => $content,
			'post_excerpt' => 'A short excerpt of the benchmark post.',
			'post_author'  => 1,
			'post_category' => array( $cat ),
			'tax_input'    => array( 'post_tag' => array( $tag ) ),
			'meta_input'   => array( '_svc_generated' => '1', 'rating' => (string) ( $i % 5 ), 'source' => 'benchmark' ),
		),
		true
	);
	if ( is_wp_error( $id ) ) {
		fwrite( STDERR, $id->get_error_message() );
		exit( 1 );
	}
	$ids[] = $id;
}
$ns = hrtime( true ) - $start;
echo json_encode( array( 'ns' => $ns, 'ids' => $ids ) );
