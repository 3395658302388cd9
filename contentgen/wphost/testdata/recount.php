<?php
// Recounts, as WordPress does, the term counts of every taxonomy and the
// comment counts of every post, inside a transaction that is rolled back,
// and prints the recounted values as JSON:
// {"terms": {term_taxonomy_id: count}, "comments": {post_id: count}}.
// usage: php recount.php WORDPRESS_ROOT
$_SERVER['HTTP_HOST'] = 'localhost';
$_SERVER['REQUEST_URI'] = '/';
require rtrim( $argv[1], '/' ) . '/wp-load.php';
global $wpdb;
$wpdb->query( 'START TRANSACTION' );
$out = array( 'terms' => new stdClass(), 'comments' => new stdClass() );
foreach ( get_taxonomies() as $tax ) {
	$tts = $wpdb->get_col( $wpdb->prepare( "SELECT term_taxonomy_id FROM $wpdb->term_taxonomy WHERE taxonomy = %s", $tax ) );
	if ( $tts ) {
		wp_update_term_count_now( array_map( 'intval', $tts ), $tax );
	}
}
foreach ( $wpdb->get_col( "SELECT ID FROM $wpdb->posts" ) as $id ) {
	wp_update_comment_count_now( (int) $id );
}
foreach ( $wpdb->get_results( "SELECT term_taxonomy_id, count FROM $wpdb->term_taxonomy" ) as $r ) {
	$out['terms']->{$r->term_taxonomy_id} = (int) $r->count;
}
foreach ( $wpdb->get_results( "SELECT ID, comment_count FROM $wpdb->posts" ) as $r ) {
	$out['comments']->{$r->ID} = (int) $r->comment_count;
}
$wpdb->query( 'ROLLBACK' );
echo json_encode( $out );
