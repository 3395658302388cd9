<?php
/**
 * Plugin Name: contentgen REST companion
 * Description: REST routes under contentgen/v1 that the contentgen REST host needs: arbitrary meta of posts, terms, users and comments in bulk, queries by meta, existence checks, roles, counts, comments on any post and media records without files. Only users with manage_options may use them.
 * Version: 1.0.0
 *
 * Install as a must-use plugin: copy this file into wp-content/mu-plugins/.
 */

if ( ! defined( 'ABSPATH' ) ) {
	exit;
}

/** REST namespace of the routes of this plugin. */
const CONTENTGEN_REST_NAMESPACE = 'contentgen/v1';

/** Most objects one call may name. */
const CONTENTGEN_REST_MAX_ITEMS = 1000;

/**
 * Whether the current user may use the routes and see the contentgen field.
 */
function contentgen_rest_allowed() {
	return current_user_can( 'manage_options' );
}

/**
 * A WP_Error in the REST error format.
 */
function contentgen_rest_error( $code, $message, $status, $extra = array() ) {
	return new WP_Error( $code, $message, array_merge( array( 'status' => $status ), $extra ) );
}

/**
 * The WordPress meta type of a contentgen object kind, or '' when the kind is unknown.
 */
function contentgen_rest_meta_type( $kind ) {
	switch ( $kind ) {
		case 'post':
		case 'media':
			return 'post';
		case 'term':
			return 'term';
		case 'user':
			return 'user';
		case 'comment':
			return 'comment';
	}
	return '';
}

/**
 * Whether an object of the kind exists. Posts exclude attachments, revisions
 * and auto-drafts; media are attachments only.
 */
function contentgen_rest_exists( $kind, $id ) {
	$id = (int) $id;
	if ( $id <= 0 ) {
		return false;
	}
	switch ( $kind ) {
		case 'post':
			$p = get_post( $id );
			return $p && 'attachment' !== $p->post_type && 'revision' !== $p->post_type && 'auto-draft' !== $p->post_status;
		case 'media':
			$p = get_post( $id );
			return $p && 'attachment' === $p->post_type;
		case 'term':
			$t = get_term( $id );
			return $t instanceof WP_Term;
		case 'user':
			return false !== get_userdata( $id );
		case 'comment':
			return get_comment( $id ) instanceof WP_Comment;
	}
	return false;
}

/**
 * All meta of an object as key => first value (raw strings; serialised values stay serialised).
 */
function contentgen_rest_meta( $type, $id ) {
	$all = get_metadata( $type, (int) $id );
	$out = array();
	if ( is_array( $all ) ) {
		foreach ( $all as $k => $values ) {
			$v = is_array( $values ) && count( $values ) > 0 ? $values[0] : '';
			$out[ (string) $k ] = is_scalar( $v ) ? (string) $v : maybe_serialize( $v );
		}
	}
	return (object) $out;
}

/**
 * Checks the kind and id list of a request.
 */
function contentgen_rest_ids( $request ) {
	$kind = (string) $request->get_param( 'kind' );
	if ( '' === contentgen_rest_meta_type( $kind ) ) {
		return contentgen_rest_error( 'contentgen_invalid_kind', 'kind must be post, media, term, user or comment.', 400, array( 'params' => array( 'kind' => 'invalid' ) ) );
	}
	$ids = $request->get_param( 'ids' );
	if ( null === $ids ) {
		$ids = array();
	}
	if ( ! is_array( $ids ) || count( $ids ) > CONTENTGEN_REST_MAX_ITEMS ) {
		return contentgen_rest_error( 'contentgen_invalid_ids', 'ids must be a list of at most ' . CONTENTGEN_REST_MAX_ITEMS . ' integers.', 400, array( 'params' => array( 'ids' => 'invalid' ) ) );
	}
	return array( $kind, array_map( 'intval', $ids ) );
}

/**
 * POST /contentgen/v1/read {kind, ids, meta}: existence (and meta) of objects, in order.
 */
function contentgen_rest_read( WP_REST_Request $request ) {
	$parsed = contentgen_rest_ids( $request );
	if ( is_wp_error( $parsed ) ) {
		return $parsed;
	}
	list( $kind, $ids ) = $parsed;
	$with_meta = (bool) $request->get_param( 'meta' );
	$type      = contentgen_rest_meta_type( $kind );
	if ( $with_meta && $ids ) {
		update_meta_cache( $type, $ids );
	}
	$out = array();
	foreach ( $ids as $id ) {
		$exists = contentgen_rest_exists( $kind, $id );
		$item   = array( 'id' => $id, 'exists' => $exists );
		if ( $with_meta ) {
			$item['meta'] = $exists ? contentgen_rest_meta( $type, $id ) : null;
		}
		$out[] = $item;
	}
	return rest_ensure_response( array( 'objects' => $out ) );
}

/**
 * Runs $fn in one database transaction; rolls back when it returns a WP_Error or throws.
 */
function contentgen_rest_transaction( $fn ) {
	global $wpdb;
	$wpdb->query( 'START TRANSACTION' );
	try {
		$result = $fn();
	} catch ( Throwable $e ) {
		$wpdb->query( 'ROLLBACK' );
		wp_cache_flush();
		return contentgen_rest_error( 'contentgen_failed', 'The change failed and was undone.', 500 );
	}
	if ( is_wp_error( $result ) ) {
		$wpdb->query( 'ROLLBACK' );
		wp_cache_flush();
		return $result;
	}
	$wpdb->query( 'COMMIT' );
	return $result;
}

/**
 * Converts a GMT date "Y-m-d H:i:s" to the site's local time.
 */
function contentgen_rest_local_date( $gmt ) {
	return get_date_from_gmt( $gmt, 'Y-m-d H:i:s' );
}

/**
 * Checks a GMT date given as "YYYY-MM-DD HH:MM:SS"; '' when absent, false when malformed.
 */
function contentgen_rest_date( $v ) {
	if ( null === $v || '' === $v ) {
		return '';
	}
	if ( ! is_string( $v ) || ! preg_match( '/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/', $v ) ) {
		return false;
	}
	return $v;
}

/**
 * POST /contentgen/v1/write {kind, items: [{id, meta, parent, featured, registered}]}: sets meta
 * (leaving other keys), post parents, featured images and user registration dates, all or nothing.
 */
function contentgen_rest_write( WP_REST_Request $request ) {
	$kind = (string) $request->get_param( 'kind' );
	$type = contentgen_rest_meta_type( $kind );
	if ( '' === $type ) {
		return contentgen_rest_error( 'contentgen_invalid_kind', 'kind must be post, media, term, user or comment.', 400, array( 'params' => array( 'kind' => 'invalid' ) ) );
	}
	$items = $request->get_param( 'items' );
	if ( ! is_array( $items ) || count( $items ) > CONTENTGEN_REST_MAX_ITEMS ) {
		return contentgen_rest_error( 'contentgen_invalid_items', 'items must be a list of at most ' . CONTENTGEN_REST_MAX_ITEMS . ' objects.', 400, array( 'params' => array( 'items' => 'invalid' ) ) );
	}
	$missing = array();
	foreach ( $items as $i => $item ) {
		if ( ! is_array( $item ) || ! isset( $item['id'] ) ) {
			return contentgen_rest_error( 'contentgen_invalid_items', "items[$i] needs an id.", 400, array( 'params' => array( 'items' => 'invalid' ) ) );
		}
		if ( isset( $item['meta'] ) && ! is_array( $item['meta'] ) ) {
			return contentgen_rest_error( 'contentgen_invalid_items', "items[$i].meta must be an object.", 400, array( 'params' => array( 'items' => 'invalid' ) ) );
		}
		if ( isset( $item['registered'] ) && false === contentgen_rest_date( $item['registered'] ) ) {
			return contentgen_rest_error( 'contentgen_invalid_items', "items[$i].registered must be YYYY-MM-DD HH:MM:SS.", 400, array( 'params' => array( 'items' => 'invalid' ) ) );
		}
		if ( ! contentgen_rest_exists( $kind, $item['id'] ) ) {
			$missing[] = (int) $item['id'];
		}
		if ( ! empty( $item['parent'] ) && ! contentgen_rest_exists( 'post', $item['parent'] ) ) {
			return contentgen_rest_error( 'contentgen_invalid_parent', "items[$i].parent names no post.", 400, array( 'params' => array( 'items' => 'invalid' ) ) );
		}
		if ( ! empty( $item['featured'] ) && ! contentgen_rest_exists( 'media', $item['featured'] ) ) {
			return contentgen_rest_error( 'rest_invalid_featured_media', "items[$i].featured names no media item.", 400, array( 'params' => array( 'items' => 'invalid' ) ) );
		}
	}
	if ( $missing ) {
		return contentgen_rest_error( 'contentgen_not_found', 'Some objects do not exist.', 404, array( 'ids' => $missing ) );
	}
	return contentgen_rest_transaction(
		function () use ( $items, $type, $kind ) {
			global $wpdb;
			foreach ( $items as $item ) {
				$id = (int) $item['id'];
				if ( ! empty( $item['meta'] ) ) {
					foreach ( $item['meta'] as $k => $v ) {
						if ( ! is_scalar( $v ) && null !== $v ) {
							return contentgen_rest_error( 'contentgen_invalid_items', 'Meta values must be strings.', 400, array( 'params' => array( 'items' => 'invalid' ) ) );
						}
						$k = (string) $k;
						$v = (string) $v;
						if ( '' === $k ) {
							continue;
						}
						// update_metadata returns false when the value is unchanged: not an error.
						if ( ! metadata_exists( $type, $id, $k ) ) {
							add_metadata( $type, $id, wp_slash( $k ), wp_slash( $v ), true );
						} else {
							update_metadata( $type, $id, wp_slash( $k ), wp_slash( $v ) );
						}
					}
				}
				if ( ( 'post' === $kind || 'media' === $kind ) && isset( $item['parent'] ) ) {
					$wpdb->update( $wpdb->posts, array( 'post_parent' => (int) $item['parent'] ), array( 'ID' => $id ) );
					clean_post_cache( $id );
				}
				if ( ( 'post' === $kind ) && ! empty( $item['featured'] ) ) {
					update_post_meta( $id, '_thumbnail_id', (int) $item['featured'] );
				}
				if ( 'user' === $kind && ! empty( $item['registered'] ) ) {
					$wpdb->update( $wpdb->users, array( 'user_registered' => $item['registered'] ), array( 'ID' => $id ) );
					clean_user_cache( $id );
				}
			}
			return rest_ensure_response( array( 'written' => count( $items ) ) );
		}
	);
}

/**
 * POST /contentgen/v1/query {kind, key, value, has_value}: ids (ascending) of objects
 * whose meta has the key (and, with has_value, exactly that value).
 */
function contentgen_rest_query( WP_REST_Request $request ) {
	global $wpdb;
	$kind = (string) $request->get_param( 'kind' );
	$key  = (string) $request->get_param( 'key' );
	if ( '' === contentgen_rest_meta_type( $kind ) ) {
		return contentgen_rest_error( 'contentgen_invalid_kind', 'kind must be post, media, term, user or comment.', 400, array( 'params' => array( 'kind' => 'invalid' ) ) );
	}
	if ( '' === $key ) {
		return contentgen_rest_error( 'contentgen_invalid_key', 'key must not be empty.', 400, array( 'params' => array( 'key' => 'invalid' ) ) );
	}
	$value_sql = '';
	if ( $request->get_param( 'has_value' ) ) {
		// BINARY: meta values compare exactly, not by the column's case-insensitive collation.
		$value_sql = $wpdb->prepare( ' AND m.meta_value = BINARY %s', (string) $request->get_param( 'value' ) );
	}
	switch ( $kind ) {
		case 'post':
		case 'media':
			$op  = 'media' === $kind ? '=' : '<>';
			$sql = $wpdb->prepare( "SELECT DISTINCT m.post_id FROM {$wpdb->postmeta} m JOIN {$wpdb->posts} p ON p.ID = m.post_id WHERE m.meta_key = %s AND p.post_type $op 'attachment'", $key ) . $value_sql . ' ORDER BY m.post_id';
			break;
		case 'term':
			$sql = $wpdb->prepare( "SELECT DISTINCT m.term_id FROM {$wpdb->termmeta} m WHERE m.meta_key = %s", $key ) . $value_sql . ' ORDER BY m.term_id';
			break;
		case 'user':
			$sql = $wpdb->prepare( "SELECT DISTINCT m.user_id FROM {$wpdb->usermeta} m WHERE m.meta_key = %s", $key ) . $value_sql . ' ORDER BY m.user_id';
			break;
		default:
			$sql = $wpdb->prepare( "SELECT DISTINCT m.comment_id FROM {$wpdb->commentmeta} m WHERE m.meta_key = %s", $key ) . $value_sql . ' ORDER BY m.comment_id';
	}
	$ids = array_map( 'intval', $wpdb->get_col( $sql ) );
	return rest_ensure_response( array( 'ids' => $ids ) );
}

/**
 * GET /contentgen/v1/roles: the registered roles with their granted capabilities.
 */
function contentgen_rest_roles() {
	$out = array();
	foreach ( wp_roles()->roles as $slug => $role ) {
		$caps = array();
		foreach ( (array) $role['capabilities'] as $cap => $granted ) {
			if ( $granted ) {
				$caps[] = (string) $cap;
			}
		}
		$out[] = array(
			'slug'         => (string) $slug,
			'name'         => translate_user_role( $role['name'] ),
			'capabilities' => $caps,
		);
	}
	return rest_ensure_response( array( 'roles' => $out ) );
}

/**
 * GET /contentgen/v1/counts: posts per type and status, terms per taxonomy.
 */
function contentgen_rest_counts() {
	$posts = array();
	foreach ( get_post_types( array( 'show_in_rest' => true ) ) as $type ) {
		$posts[ $type ] = (object) array_map( 'intval', (array) wp_count_posts( $type ) );
	}
	$terms = array();
	foreach ( get_taxonomies( array( 'show_in_rest' => true ) ) as $tax ) {
		$n              = wp_count_terms( array( 'taxonomy' => $tax, 'hide_empty' => false ) );
		$terms[ $tax ] = is_wp_error( $n ) ? 0 : (int) $n;
	}
	return rest_ensure_response( array( 'posts' => (object) $posts, 'terms' => (object) $terms ) );
}

/**
 * POST /contentgen/v1/comments {comments: [...]}: creates comments on posts of any status
 * in one transaction, all or nothing; returns their ids in input order.
 */
function contentgen_rest_comments( WP_REST_Request $request ) {
	$in = $request->get_param( 'comments' );
	if ( ! is_array( $in ) || count( $in ) > CONTENTGEN_REST_MAX_ITEMS ) {
		return contentgen_rest_error( 'contentgen_invalid_comments', 'comments must be a list of at most ' . CONTENTGEN_REST_MAX_ITEMS . ' objects.', 400, array( 'params' => array( 'comments' => 'invalid' ) ) );
	}
	$statuses = array( 'approved' => '1', 'hold' => '0', 'spam' => 'spam', 'trash' => 'trash' );
	return contentgen_rest_transaction(
		function () use ( $in, $statuses ) {
			$ids = array();
			foreach ( $in as $i => $c ) {
				if ( ! is_array( $c ) ) {
					return contentgen_rest_error( 'contentgen_invalid_comments', "comments[$i] must be an object.", 400 );
				}
				$post   = isset( $c['post'] ) ? (int) $c['post'] : 0;
				$parent = isset( $c['parent'] ) ? (int) $c['parent'] : 0;
				$user   = isset( $c['author'] ) ? (int) $c['author'] : 0;
				if ( ! contentgen_rest_exists( 'post', $post ) ) {
					return contentgen_rest_error( 'rest_comment_invalid_post_id', "comments[$i].post names no post.", 400 );
				}
				if ( $parent ) {
					$p = get_comment( $parent );
					if ( ! $p || (int) $p->comment_post_ID !== $post ) {
						return contentgen_rest_error( 'rest_comment_invalid_parent', "comments[$i].parent names no comment on that post.", 400 );
					}
				}
				if ( $user && false === get_userdata( $user ) ) {
					return contentgen_rest_error( 'rest_comment_author_invalid', "comments[$i].author names no user.", 400 );
				}
				$status = isset( $c['status'] ) ? (string) $c['status'] : 'approved';
				if ( ! isset( $statuses[ $status ] ) ) {
					return contentgen_rest_error( 'rest_invalid_param', "comments[$i].status is not one of approved, hold, spam, trash.", 400 );
				}
				$date = contentgen_rest_date( isset( $c['date_gmt'] ) ? $c['date_gmt'] : '' );
				if ( false === $date ) {
					return contentgen_rest_error( 'rest_invalid_param', "comments[$i].date_gmt must be YYYY-MM-DD HH:MM:SS.", 400 );
				}
				if ( '' === $date ) {
					$date = current_time( 'mysql', true );
				}
				$meta = isset( $c['meta'] ) && is_array( $c['meta'] ) ? $c['meta'] : array();
				$data = array(
					'comment_post_ID'      => $post,
					'comment_parent'       => $parent,
					'user_id'              => $user,
					'comment_author'       => isset( $c['author_name'] ) ? (string) $c['author_name'] : '',
					'comment_author_email' => isset( $c['author_email'] ) ? (string) $c['author_email'] : '',
					'comment_author_url'   => isset( $c['author_url'] ) ? (string) $c['author_url'] : '',
					'comment_content'      => isset( $c['content'] ) ? (string) $c['content'] : '',
					'comment_approved'     => $statuses[ $status ],
					'comment_date_gmt'     => $date,
					'comment_date'         => contentgen_rest_local_date( $date ),
					'comment_type'         => 'comment',
				);
				$id = wp_insert_comment( wp_slash( $data ) );
				if ( ! $id ) {
					return contentgen_rest_error( 'contentgen_comment_failed', "comments[$i] could not be stored.", 500 );
				}
				foreach ( $meta as $k => $v ) {
					add_comment_meta( $id, wp_slash( (string) $k ), wp_slash( (string) $v ), true );
				}
				$ids[] = (int) $id;
			}
			return rest_ensure_response( array( 'ids' => $ids ) );
		}
	);
}

/**
 * POST /contentgen/v1/media {media: [...]}: creates media records without files (the URL
 * points elsewhere) in one transaction, all or nothing; returns their ids in input order.
 */
function contentgen_rest_media( WP_REST_Request $request ) {
	$in = $request->get_param( 'media' );
	if ( ! is_array( $in ) || count( $in ) > CONTENTGEN_REST_MAX_ITEMS ) {
		return contentgen_rest_error( 'contentgen_invalid_media', 'media must be a list of at most ' . CONTENTGEN_REST_MAX_ITEMS . ' objects.', 400, array( 'params' => array( 'media' => 'invalid' ) ) );
	}
	return contentgen_rest_transaction(
		function () use ( $in ) {
			$ids = array();
			foreach ( $in as $i => $m ) {
				if ( ! is_array( $m ) ) {
					return contentgen_rest_error( 'contentgen_invalid_media', "media[$i] must be an object.", 400 );
				}
				$parent = isset( $m['post'] ) ? (int) $m['post'] : 0;
				if ( $parent && ! contentgen_rest_exists( 'post', $parent ) ) {
					return contentgen_rest_error( 'rest_invalid_param', "media[$i].post names no post.", 400 );
				}
				$date = contentgen_rest_date( isset( $m['date_gmt'] ) ? $m['date_gmt'] : '' );
				if ( false === $date ) {
					return contentgen_rest_error( 'rest_invalid_param', "media[$i].date_gmt must be YYYY-MM-DD HH:MM:SS.", 400 );
				}
				if ( '' === $date ) {
					$date = current_time( 'mysql', true );
				}
				$url = isset( $m['url'] ) ? esc_url_raw( (string) $m['url'] ) : '';
				$id  = wp_insert_attachment(
					wp_slash(
						array(
							'post_title'     => isset( $m['title'] ) ? (string) $m['title'] : '',
							'post_mime_type' => isset( $m['mime_type'] ) ? (string) $m['mime_type'] : '',
							'guid'           => $url,
							'post_status'    => 'inherit',
							'post_date_gmt'  => $date,
							'post_date'      => contentgen_rest_local_date( $date ),
						)
					),
					false,
					$parent,
					true
				);
				if ( is_wp_error( $id ) || ! $id ) {
					return contentgen_rest_error( 'contentgen_media_failed', "media[$i] could not be stored.", 500 );
				}
				$sizes = array();
				if ( isset( $m['sizes'] ) && is_array( $m['sizes'] ) ) {
					foreach ( $m['sizes'] as $s ) {
						if ( is_array( $s ) && ! empty( $s['name'] ) ) {
							$sizes[ (string) $s['name'] ] = array(
								'file'      => isset( $s['url'] ) ? wp_basename( (string) $s['url'] ) : '',
								'width'     => isset( $s['width'] ) ? (int) $s['width'] : 0,
								'height'    => isset( $s['height'] ) ? (int) $s['height'] : 0,
								'mime-type' => isset( $s['mime_type'] ) ? (string) $s['mime_type'] : '',
							);
						}
					}
				}
				update_post_meta(
					$id,
					'_wp_attachment_metadata',
					array(
						'width'    => isset( $m['width'] ) ? (int) $m['width'] : 0,
						'height'   => isset( $m['height'] ) ? (int) $m['height'] : 0,
						'filesize' => isset( $m['filesize'] ) ? (int) $m['filesize'] : 0,
						'file'     => isset( $m['filename'] ) ? (string) $m['filename'] : '',
						'sizes'    => $sizes,
					)
				);
				if ( isset( $m['meta'] ) && is_array( $m['meta'] ) ) {
					foreach ( $m['meta'] as $k => $v ) {
						update_post_meta( $id, wp_slash( (string) $k ), wp_slash( (string) $v ) );
					}
				}
				$ids[] = (int) $id;
			}
			return rest_ensure_response( array( 'ids' => $ids ) );
		}
	);
}

/**
 * Posts of a term that count for contentgen: any status but trash and auto-draft.
 */
function contentgen_rest_term_count( $term ) {
	global $wpdb;
	return (int) $wpdb->get_var(
		$wpdb->prepare(
			"SELECT COUNT(*) FROM {$wpdb->term_relationships} r JOIN {$wpdb->posts} p ON p.ID = r.object_id WHERE r.term_taxonomy_id = %d AND p.post_status NOT IN ('trash', 'auto-draft')",
			$term->term_taxonomy_id
		)
	);
}

/**
 * The read-only "contentgen" field on REST objects: all meta, the post parent (also of
 * types that are not hierarchical) and the live term count, for manage_options users only.
 */
function contentgen_rest_field( $object, $field, $request, $object_type ) {
	if ( ! contentgen_rest_allowed() ) {
		return null;
	}
	$id = isset( $object['id'] ) ? (int) $object['id'] : 0;
	if ( 'user' === $object_type ) {
		return array( 'meta' => contentgen_rest_meta( 'user', $id ) );
	}
	if ( 'comment' === $object_type ) {
		return array( 'meta' => contentgen_rest_meta( 'comment', $id ) );
	}
	// The terms controller names post_tag objects "tag".
	$taxonomy = 'tag' === $object_type ? 'post_tag' : $object_type;
	if ( ! post_type_exists( $object_type ) && taxonomy_exists( $taxonomy ) ) {
		$term = get_term( $id, $taxonomy );
		return array(
			'meta'  => contentgen_rest_meta( 'term', $id ),
			'count' => $term instanceof WP_Term ? contentgen_rest_term_count( $term ) : 0,
		);
	}
	$post = get_post( $id );
	return array(
		'meta'   => contentgen_rest_meta( 'post', $id ),
		'parent' => $post ? (int) $post->post_parent : 0,
	);
}

/**
 * pre_option filter: no default category while a term is removed, so that posts that lose
 * their last category keep none (see contentgen_rest_before).
 */
function contentgen_rest_no_default_category() {
	return 0;
}

/**
 * wp_check_filetype_and_ext filter: trusts the file name's extension when it is on the
 * site's allow-list even if the content does not look like that type (see contentgen_rest_before).
 */
function contentgen_rest_trust_type( $data, $file, $filename, $mimes ) {
	if ( empty( $data['ext'] ) || empty( $data['type'] ) ) {
		$ft = wp_check_filetype( $filename, $mimes );
		if ( $ft['ext'] && $ft['type'] ) {
			return array( 'ext' => $ft['ext'], 'type' => $ft['type'], 'proper_filename' => false );
		}
	}
	return $data;
}

/**
 * For manage_options users only, two opt-in request parameters of core routes:
 * contentgen_no_default_term on DELETE (a removed category does not give its posts the default
 * category) and contentgen_trust_type on POST /wp/v2/media (the extension decides the type, within
 * the allow-list, instead of a look at the content). Such users can install plugins, so neither
 * grants them anything new.
 */
function contentgen_rest_before( $response, $handler, $request ) {
	if ( ! contentgen_rest_allowed() ) {
		return $response;
	}
	if ( 'DELETE' === $request->get_method() && $request->get_param( 'contentgen_no_default_term' ) ) {
		add_filter( 'pre_option_default_category', 'contentgen_rest_no_default_category' );
	}
	if ( 'POST' === $request->get_method() && $request->get_param( 'contentgen_trust_type' ) ) {
		add_filter( 'wp_check_filetype_and_ext', 'contentgen_rest_trust_type', 10, 4 );
	}
	return $response;
}
add_filter( 'rest_request_before_callbacks', 'contentgen_rest_before', 10, 3 );

add_filter(
	'rest_request_after_callbacks',
	function ( $response ) {
		remove_filter( 'pre_option_default_category', 'contentgen_rest_no_default_category' );
		remove_filter( 'wp_check_filetype_and_ext', 'contentgen_rest_trust_type', 10 );
		return $response;
	}
);

add_action(
	'rest_api_init',
	function () {
		$types = array_merge(
			array_values( get_post_types( array( 'show_in_rest' => true ) ) ),
			array_values( get_taxonomies( array( 'show_in_rest' => true ) ) ),
			// The terms controller names post_tag objects "tag".
			array( 'tag', 'user', 'comment' )
		);
		register_rest_field(
			$types,
			'contentgen',
			array(
				'get_callback' => 'contentgen_rest_field',
				'schema'       => array(
					'description' => 'contentgen: meta, post parent and live term count (manage_options only).',
					'type'        => array( 'object', 'null' ),
					'context'     => array( 'edit' ),
					'readonly'    => true,
				),
			)
		);
		$routes = array(
			'/read'     => array( 'POST', 'contentgen_rest_read' ),
			'/write'    => array( 'POST', 'contentgen_rest_write' ),
			'/query'    => array( 'POST', 'contentgen_rest_query' ),
			'/roles'    => array( 'GET', 'contentgen_rest_roles' ),
			'/counts'   => array( 'GET', 'contentgen_rest_counts' ),
			'/comments' => array( 'POST', 'contentgen_rest_comments' ),
			'/media'    => array( 'POST', 'contentgen_rest_media' ),
		);
		foreach ( $routes as $route => $def ) {
			register_rest_route(
				CONTENTGEN_REST_NAMESPACE,
				$route,
				array(
					'methods'             => $def[0],
					'callback'            => $def[1],
					'permission_callback' => 'contentgen_rest_allowed',
				)
			);
		}
	}
);
