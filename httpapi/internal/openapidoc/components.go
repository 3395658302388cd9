package openapidoc

import (
	"github.com/contentgen/contentgen/templates"
	"github.com/contentgen/contentgen/templates/fields"
)

// textSources are the values of text_source.
var textSources = []string{"realtext", "lorem", "ai"}

// textSourceDesc says what each text source writes.
const textSourceDesc = "Where titles, bodies, excerpts and comments come from: lorem (Latin placeholder text), realtext (the locale's own language, about a topic) or ai (written by the AI provider of the AI settings in the locale's language, about the topic realtext would choose; what the provider cannot write is written as realtext, with one warning that counts it, and the message names the tokens spent)."

// Values shared by several schemas.
var (
	postStatuses     = []string{"publish", "draft", "pending", "private", "future"}
	imageProviders   = []string{"provider_keyword", "provider_curated", "provider_random", "provider_local"}
	aiProviders      = []string{"ai_one", "ai_two", "ai_three"}
	contentTypes     = []string{"post", "term", "user", "comment", "media"}
	modes            = []string{templates.ModeNone, templates.ModeChoose, templates.ModeCreate}
	selectionModes   = []string{templates.SelectionRandom, templates.SelectionRotate}
	fieldCategories  = []string{"text", "number", "choice", "date", "media", "relational", "layout", "special"}
	cardinalities    = []string{"many_to_one", "many_to_many", "one_to_one", "one_to_many"}
	variationProfile = []string{"random", "minimal", "partial"}
)

// Error codes by the statuses they come with (httpapi/errors.go).
var (
	codesBadRequest = []string{"invalid_post_type", "invalid_taxonomy", "invalid_count", "invalid_parameter", "no_file", "partial_upload"}
	codesTooLarge   = []string{"request_too_large", "too_large"}
	codesInternal   = []string{"internal_error", "generation_failed", "write_failed"}
	allCodes        = concat(codesBadRequest, []string{"rest_not_logged_in", "too_many_attempts", "rest_forbidden", "cross_origin_request", "not_found", "method_not_allowed", "conflict"},
		codesTooLarge, []string{"unsupported_type", "unsupported_media_type", "not_configured", "request_canceled"}, codesInternal, []string{"insufficient_storage"})
)

func concat(lists ...[]string) []string {
	var out []string
	for _, l := range lists {
		out = append(out, l...)
	}
	return out
}

// schemas are the reusable schemas of components.
func schemas() obj {
	s := obj{}
	add := func(name string, schema obj) { s[name] = schema }

	// Envelopes of failures.
	add("Error", withDesc(record(props{
		"success": constant(false, ""),
		"code":    enum("Machine-readable error code; one table maps codes to HTTP statuses.", allCodes...),
		"message": str("Client-safe description naming the parameter at fault, in the admin_locale language where translated."),
	}), "The error envelope of every endpoint."))
	add("ErrorWithoutCode", withDesc(record(props{
		"success": constant(false, ""),
		"message": str("What went wrong."),
	}), "The error envelope without code that the upload endpoints and DELETE /history/{id} use for some failures, as the specification fixes them."))
	add("Success", record(props{"success": constant(true, ""), "message": str("Human-readable summary.")}))

	// Generation.
	add("TaxonomySetting", record(props{
		"mode":           enum("none leaves the taxonomy alone, choose picks from term_ids, create makes new terms (and with use_existing also picks existing ones).", modes...),
		"term_ids":       ids("The pool of mode choose."),
		"count_min":      count("Terms per post, at least."),
		"count_max":      count("Terms per post, at most."),
		"selection_mode": enum("", selectionModes...),
		"use_existing":   boolean("Mode create: also pick existing terms."),
	}, "term_ids", "count_min", "count_max", "selection_mode", "use_existing"))
	add("TaxonomyConfig", mapOf(ref("TaxonomySetting"), "Taxonomy slug to setting."))
	add("FieldSetting", record(props{
		"mode":       enum("none leaves the field empty (a required field is filled anyway), choose picks from choose.values, create generates a value for the field type.", modes...),
		"field_type": str("The field type, for custom fields."),
		"create": record(props{
			"method":              enum("Text-like fields.", "words", "paragraphs", "sentence"),
			"word_count_min":      count(""),
			"word_count_max":      count(""),
			"paragraph_count_min": count(""),
			"paragraph_count_max": count(""),
			"include_html":        boolean("post_content."),
			"html_options":        record(props{"headings": boolean(""), "lists": boolean("")}),
			"min":                 number("number fields."),
			"max":                 number("number fields."),
			"decimal_places":      count("number fields."),
		}, "method", "word_count_min", "word_count_max", "paragraph_count_min", "paragraph_count_max", "include_html", "html_options", "min", "max", "decimal_places"),
		"choose": record(props{
			"values":         arr(anyValue(""), "The allowed values."),
			"selection_mode": enum("", selectionModes...),
		}, "selection_mode"),
	}, "field_type", "create", "choose"))
	add("FieldConfig", record(props{
		"core_fields":   coreFields(),
		"custom_fields": mapOf(ref("FieldSetting"), "Custom field name to setting."),
		"content_format": enum("The format of post bodies and wysiwyg values: html (default), blocks (block editor markup) or markdown (CommonMark).",
			"html", "blocks", "markdown"),
		"text_source": enum(textSourceDesc+" Unset leaves it to the request and the text_source setting.", textSources...),
	}, "core_fields", "custom_fields", "content_format", "text_source"))

	add("PostsRequest", body("Parameters of a posts run. Every parameter is optional.", props{
		"post_type":                       withDefault(str("A registered post type."), "post"),
		"count":                           withDefault(intIn(1, 500, "Posts to create; the server may set a lower maximum."), 5),
		"post_status":                     withDefault(enum("random picks among the statuses.", append(postStatuses[:len(postStatuses):len(postStatuses)], "random")...), "publish"),
		"set_featured_image":              withDefault(boolean("No effect when the post type has no thumbnail support."), true),
		"download_images":                 withDefault(boolean("true downloads new images; false reuses images of the media library."), true),
		"image_provider":                  enum("Default: the default_image_provider setting.", imageProviders...),
		"image_category":                  str("A category hint, ignored by providers without category support."),
		"image_width":                     withDefault(intIn(100, 4000, ""), 1200),
		"image_height":                    withDefault(intIn(100, 4000, ""), 800),
		"populate_custom_fields":          withDefault(boolean(""), true),
		"auto_taxonomies":                 withDefault(boolean(""), true),
		"delete_existing_before_generate": withDefault(boolean("Delete the generated posts of this type first."), false),
		"delete_related_media":            boolean("With delete_existing_before_generate; defaults to the setting."),
		"delete_related_terms":            boolean("With delete_existing_before_generate; defaults to the setting."),
		"delete_related_authors":          boolean("With delete_existing_before_generate; defaults to the setting."),
		"delete_related_comments":         boolean("With delete_existing_before_generate; defaults to the setting."),
		"delete_scope":                    withDefault(enum("", "current_type", "all"), "current_type"),
		"taxonomy_config":                 ref("TaxonomyConfig"),
		"auto_comments":                   withDefault(boolean(""), false),
		"comments_per_post_min":           withDefault(intIn(0, 100, "With auto_comments."), 0),
		"comments_per_post_max":           withDefault(intIn(0, 100, "With auto_comments."), 10),
		"enable_comment_threading":        withDefault(boolean(""), true),
		"comment_reply_probability":       withDefault(intIn(0, 100, "Percent."), 40),
		"related_cpt_options": mapOf(body("", props{
			"enabled":     boolean("false creates no related posts of this type."),
			"count":       count("Exactly this many related posts."),
			"template_id": id("The template related posts are made with."),
		}), "Per target post type: how related posts are auto-created."),
		"template_id":       id("A saved template to apply."),
		"field_config":      ref("FieldConfig"),
		"enable_variation":  boolean("false gives fully populated content."),
		"variation_profile": enum("", variationProfile...),
		"locale":            str("A locale code; near codes resolve to the closest supported locale. Defaults to the locale setting."),
		"date_from":         str("Earliest post date, YYYY-MM-DD or YYYY-MM-DD HH:MM:SS."),
		"date_to":           str("Latest post date; a bare day includes the whole day."),
		"seed":              integer("Fixes every random choice of the run."),
		"content_format": withDefault(enum("The format of post bodies and wysiwyg values; defaults to the template's, else html.",
			"html", "blocks", "markdown"), "html"),
		"text_source": enum(textSourceDesc+" Defaults to the template's, else the text_source setting.", textSources...),
	}))
	add("PostsResult", withDesc(ok(props{
		"count":    count("Posts created."),
		"ids":      ids("The posts created."),
		"message":  str(""),
		"warnings": strList("What went wrong without failing the run (an image that could not be fetched, a skipped provider)."),
		"variation_stats": record(props{
			"with_featured_image":    count(""),
			"without_featured_image": count("Including failed image downloads."),
		}),
		"auto_created": record(props{
			"authors":         count(""),
			"terms":           mapOf(count(""), "Taxonomy slug to terms created."),
			"comments":        count(""),
			"related_posts":   count(""),
			"related_per_cpt": mapOf(count(""), "Post type slug to related posts created."),
		}),
		"time_saved": str("Formatted estimate, such as \"1 hour 12 minutes\"."),
	}), "The generation result of posts."))
	add("ItemsResult", withDesc(ok(props{
		"count":         count("Items created."),
		"ids":           ids("The items created."),
		"deleted_count": count("Items removed by delete_existing."),
		"message":       str(""),
		"warnings":      strList("Steps that failed without failing the run, such as avatars an image provider could not give."),
		"time_saved":    str("Formatted estimate."),
	}), "The generation result of terms, users and comments."))

	// Stream events.
	add("InfoEvent", record(props{"type": constant("info", ""), "message": str("Progress, such as a post created.")}))
	add("WarningEvent", record(props{"type": constant("warning", ""), "message": str("A step that failed without failing the run.")}))
	add("CompleteEvent", record(props{"type": constant("complete", ""), "result": ref("PostsResult")}))
	add("ErrorEvent", record(props{
		"type":    constant("error", ""),
		"code":    enum("", allCodes...),
		"message": str(""),
	}))
	add("StreamEvent", obj{
		"description": "The JSON object of one data: line of the event stream. info and warning events come while the run goes on; the stream ends with one complete event, or one error event when the run fails after the stream started.",
		"oneOf":       []any{ref("InfoEvent"), ref("WarningEvent"), ref("CompleteEvent"), ref("ErrorEvent")},
	})

	// Runs.
	add("RunRequest", body("A run: kind and count, and the parameters of the generate endpoint of the kind.", props{
		"kind":       enum("", "posts", "terms", "users", "comments"),
		"count":      id("Items to make; no upper limit. For comments, the comments in all, spread over the posts (see POST /runs)."),
		"batch_size": withDefault(intIn(1, 500, "Items per batch (per job)."), 500),
	}, "kind", "count"))
	add("Run", record(props{
		"id":                    str(""),
		"kind":                  enum("", "posts", "terms", "users", "comments"),
		"status":                enum("", "queued", "running", "succeeded", "failed", "cancelled"),
		"done":                  count("Items made."),
		"total":                 count("Items asked for."),
		"batches":               count(""),
		"batches_done":          count(""),
		"batch_size":            intIn(1, 500, ""),
		"seed":                  integer("The run's seed: its request's, or one drawn when it was submitted. A batch's number and the seed fix what the batch makes."),
		"batch_timeout_seconds": count("How long a batch may take before it is cancelled, counted among the errors and run again."),
		"errors":                count("Failed attempts of batches; a failed batch is run again."),
		"last_error":            str("The message of the last failed attempt; empty when none."),
		"warnings":              strList("The distinct warnings of the batches."),
		"created_at":            timestamp(""),
		"started_at":            nullable(timestamp("When the first batch began; null before.")),
		"ended_at":              nullable(timestamp("When the run reached a final status; null before.")),
		"workers": arr(record(props{
			"name":    str("A worker process."),
			"batches": count(""),
			"items":   count(""),
		}), "The workers that did batches of the run."),
	}))
	add("RunEvent", obj{
		"description": "The JSON object of one data: line of a run's event stream.",
		"oneOf": []any{
			record(props{"type": constant("progress", ""), "run": ref("Run")}),
			record(props{"type": constant("complete", "The run is succeeded, failed or cancelled."), "run": ref("Run")}),
			ref("ErrorEvent"),
		},
	})

	// History.
	add("HistoryEntry", record(props{
		"id":              str("Entry id, used to delete it."),
		"content_type":    enum("", contentTypes...),
		"content_id":      digits("The host object id, as a string."),
		"content_subtype": str("Post type or taxonomy slug."),
		"meta":            openObject("Generation options at creation time, such as locale, template_name, custom_fields_populated."),
		"created_at":      timestamp(""),
		"content_title":   nullable(str("Current title; null when the content no longer exists.")),
		"content_exists":  boolean("Checked live; false when the content was deleted outside the service."),
		"template_name":   nullable(str("meta.template_name, or null.")),
	}))
	add("Duration", record(props{
		"hours":           count(""),
		"minutes":         intIn(0, 59, ""),
		"seconds":         intIn(0, 59, ""),
		"total_seconds":   count(""),
		"formatted":       str("Such as \"2 hours 5 minutes\"."),
		"formatted_short": str("Such as \"2h 5m\"."),
	}))

	// Settings.
	add("GeneralSettings", record(props{
		"admin_locale":                 str("auto or a locale code: the language of the API's messages."),
		"locale":                       str("auto or a locale code: the default generation locale."),
		"default_post_count":           integer(""),
		"default_term_count":           integer(""),
		"default_user_count":           integer(""),
		"delete_history_on_deactivate": boolean(""),
		"delete_media_with_posts":      boolean(""),
		"auto_select_default_template": boolean(""),
		"delete_related_media":         boolean(""),
		"delete_related_terms":         boolean(""),
		"delete_related_authors":       boolean(""),
		"delete_related_comments":      boolean(""),
		"default_image_provider":       enum("", imageProviders...),
		"telemetry_enabled":            boolean(""),
		"save_and_generate_auto_run":   boolean(""),
		"child_generate_behavior":      enum("", "ask", "child_only", "parent_chain"),
		"hourly_rate":                  withMin(number("USD per hour."), 1),
		"text_source":                  enum(textSourceDesc, textSources...),
	}))
	aiProps := props{
		"enabled":              boolean(""),
		"provider":             enum("", aiProviders...),
		"has_api_key":          boolean("Whether the current provider has a key."),
		"secondary_ai_enabled": boolean(""),
	}
	add("AISettings", record(aiProps))
	add("AISettingsDetail", record(merge(aiProps, props{
		"providers": mapOf(record(props{
			"has_api_key":    boolean(""),
			"masked_api_key": str("The key masked as ********abcd; empty when none."),
		}), "Provider slug to its stored key."),
	})))

	// Information records.
	add("PostType", record(props{
		"name":         str(""),
		"label":        str(""),
		"labels":       mapOf(str(""), "At least name and singular_name."),
		"description":  str(""),
		"public":       boolean(""),
		"hierarchical": boolean(""),
		"has_archive":  boolean(""),
		"supports":     mapOf(boolean(""), "Feature to true."),
		"taxonomies":   strList(""),
		"menu_icon":    nullable(str("")),
		"count":        mapOf(count(""), "Post status to number of posts."),
	}))
	taxonomyProps := props{
		"name":         str(""),
		"label":        str(""),
		"labels":       mapOf(str(""), "At least name and singular_name."),
		"hierarchical": boolean(""),
		"public":       boolean(""),
		"post_types":   strList(""),
		"count":        count(""),
	}
	add("Taxonomy", record(taxonomyProps))
	add("TaxonomyOption", record(merge(taxonomyProps, props{"modes": arr(enum("", modes...), "")})))
	add("Term", record(props{
		"id":           id(""),
		"name":         str(""),
		"slug":         str(""),
		"taxonomy":     str(""),
		"description":  str(""),
		"parent":       count("Parent term id; 0 at the top level."),
		"count":        count("Posts with the term."),
		"is_generated": boolean(""),
	}))
	add("User", record(props{
		"id":           id(""),
		"login":        str(""),
		"display_name": str(""),
		"email":        str(""),
		"first_name":   str(""),
		"last_name":    str(""),
		"url":          str(""),
		"roles":        strList(""),
		"registered":   timestamp(""),
		"is_generated": boolean(""),
	}))
	add("Language", record(props{
		"code":        str("A value of the locale parameter."),
		"name":        str("English name."),
		"native_name": str(""),
		"flag":        str("Flag emoji; empty when the code has no region."),
	}))
	add("ImageProvider", record(props{
		"name":              str(""),
		"description":       str(""),
		"url":               str(""),
		"supports_category": boolean(""),
		"requires_api_key":  boolean(""),
		"configured":        boolean(""),
	}))

	// Media.
	dims := nullable(obj{"type": "string", "pattern": `^[0-9]+x[0-9]+$`, "description": "WxH"})
	ratio := nullable(str("Such as 16:9."))
	imageProps := props{
		"id": id(""), "title": str(""), "url": str(""), "thumbnail": str(""),
		"dimensions": dims, "ratio": ratio,
	}
	add("MediaImage", record(merge(imageProps, props{"medium": str(""), "generated": boolean("")})))
	add("DownloadedImage", record(imageProps))
	add("MediaFile", record(props{
		"id": id(""), "title": str(""), "filename": str(""), "url": str(""), "mime_type": str(""),
		"extension": str("Lower case, without the dot."), "filesize": count("Bytes."), "uploaded": boolean("Marked _svc_uploaded."),
	}))
	add("UploadResult", ok(props{
		"message": str(""),
		"file":    record(props{"id": id(""), "title": str(""), "url": str(""), "filename": str("")}),
	}))

	// Templates.
	templateProps := props{
		"id":              id(""),
		"name":            str(""),
		"description":     str(""),
		"post_type":       str(""),
		"is_default":      boolean("At most one default per post type."),
		"is_system":       boolean("A starter template; it cannot be changed or deleted."),
		"field_config":    ref("FieldConfig"),
		"taxonomy_config": ref("TaxonomyConfig"),
		"parent_id":       id("The parent template of a variant; absent for plain templates."),
		"linked_parents": arr(record(props{"id": id(""), "name": str(""), "post_type": str("")}),
			"The chain of templates a variant inherits from, nearest first; empty for a plain template."),
		"created_at": timestamp(""),
		"updated_at": timestamp(""),
	}
	add("Template", record(templateProps, "parent_id", "linked_parents"))
	summaryProps := merge(templateProps)
	delete(summaryProps, "field_config")
	delete(summaryProps, "linked_parents")
	add("TemplateSummary", withDesc(record(summaryProps, "parent_id"), "A template as lists show it, without field_config."))
	add("TemplateAnswer", ok(props{"message": str(""), "template": ref("Template")}, "message"))
	add("ExportedTemplate", record(props{
		"name": str(""), "description": str(""), "post_type": str(""),
		"field_config": ref("FieldConfig"), "taxonomy_config": ref("TaxonomyConfig"),
	}))
	add("StaleTemplate", record(props{
		"id":             id(""),
		"name":           str(""),
		"post_type":      str(""),
		"added_fields":   strList(""),
		"removed_fields": strList(""),
		"changed_fields": strList("Fields whose type or required flag changed."),
		"saved_at":       timestamp("When the template was last saved."),
	}))
	add("FieldInfo", record(props{
		"key":      str("Custom fields only."),
		"name":     str(""),
		"label":    str(""),
		"type":     str(""),
		"category": enum("", fieldCategories...),
		"required": boolean(""),
		"modes":    arr(enum("", modes...), "The modes the field accepts."),
		"default":  refDesc("FieldSetting", "The setting used when a template does not configure the field."),
	}, "key"))
	add("CustomField", record(props{
		"key":           str(""),
		"name":          str("The meta key."),
		"label":         str(""),
		"type":          str("Field type; unknown types are generated as short text."),
		"required":      boolean(""),
		"instructions":  str(""),
		"min":           number(""),
		"max":           number(""),
		"step":          number(""),
		"detected_type": str("Semantic type, such as isbn or price; empty when undetected."),
	}, "min", "max", "step"))
	add("SyncStatus", withDesc(props2obj(syncProps()), "The sync status of templates against their post types' fields."))

	// Content read endpoints.
	postProps := props{
		"id":        id(""),
		"post_type": str(""),
		"status":    str(""),
		"title":     str(""),
		"excerpt":   str(""),
		"date":      timestamp(""),
		"author": nullable(record(props{
			"id": id(""), "name": str(""), "avatar_url": str("Empty when the author has no avatar."),
		})),
		"featured_media": nullable(record(props{"id": id(""), "url": str(""), "alt": str("")})),
		"terms": mapOf(arr(record(props{"id": id(""), "name": str(""), "slug": str("")}), ""),
			"Taxonomy slug to the post's terms."),
		"generated": boolean(""),
	}
	add("ContentPost", record(postProps))
	add("ContentPostDetail", record(merge(postProps, props{
		"content": str("HTML."),
		"meta":    mapOf(str(""), ""),
		"comments": arr(record(props{
			"id": id(""), "parent": count("0 for a top-level comment."), "author_name": str(""),
			"avatar_url": str(""), "content": str(""), "date": timestamp(""), "status": str(""),
		}), "Oldest first."),
	})))
	add("ContentUser", record(props{
		"id": id(""), "login": str(""), "display_name": str(""), "email": str(""), "roles": strList(""),
		"registered": timestamp(""), "avatar_url": str(""), "description": str(""), "generated": boolean(""),
	}))
	add("ContentMedia", record(props{
		"id": id(""), "title": str(""), "url": str(""), "thumbnail": str(""), "mime_type": str(""),
		"width": count(""), "height": count(""), "date": timestamp(""), "generated": boolean("Generated or uploaded through the service."),
	}))

	// Licence.
	stamp := nullable(timestamp(""))
	add("License", record(props{
		"status":       enum("", "active", "inactive", "expired", "invalid"),
		"plan":         str(""),
		"expires_at":   stamp,
		"site":         str(""),
		"activated_at": stamp,
		"checked_at":   stamp,
		"license_key":  str("Masked."),
		"message":      str(""),
	}))
	add("LicenseAnswer", ok(props{"message": str(""), "license": ref("License")}, "message"))
	return s
}

func syncProps() props {
	return props{
		"in_sync":            boolean("No template is stale."),
		"stale_count":        count(""),
		"changed_post_types": strList(""),
		"has_unseen_changes": boolean("Fields changed since the last POST /sync/mark-seen and templates are stale."),
		"unseen_post_types":  strList(""),
		"last_seen":          obj{"type": "string", "pattern": `^(` + timestampPattern[1:len(timestampPattern)-1] + `)?$`, "description": "When changes were last marked seen; empty if never."},
		"stale":              arr(ref("StaleTemplate"), ""),
	}
}

func props2obj(p props) obj { return record(p) }

func withDefault(s obj, v any) obj {
	s["default"] = v
	return s
}

func withMin(s obj, min float64) obj {
	s["minimum"] = min
	return s
}

func withMax(s obj, max float64) obj {
	s["maximum"] = max
	return s
}

// nonEmpty is a string of at least one character.
func nonEmpty(desc string) obj { return withDesc(obj{"type": "string", "minLength": 1}, desc) }

// maxHourlyRate is the largest hourly_rate the settings take.
const maxHourlyRate = 1_000_000

// coreFields is field_config.core_fields: a setting per core field of
// fields.CoreFields, and no other name.
func coreFields() obj {
	p := obj{}
	for _, f := range fields.CoreFields() {
		p[f.Name] = ref("FieldSetting")
	}
	return obj{"type": "object", "properties": p, "additionalProperties": false,
		"description": "Core field name (post_title, post_content, post_excerpt, post_status, post_date, post_author) to setting."}
}
