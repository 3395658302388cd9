package openapidoc

import (
	"slices"
	"strconv"
	"strings"

	"github.com/contentgen/contentgen/contentgen"
	"github.com/contentgen/contentgen/templates"
	"github.com/contentgen/contentgen/templates/fields"
)

// op is one operation of the document.
type op struct {
	method, path string
	id, summary  string
	desc         string
	tag          string
	params       []obj
	// body is the JSON request body schema, nil for none.
	body obj
	// bodyRequired marks a body that must be sent.
	bodyRequired bool
	// requestBody replaces the JSON request body (multipart uploads).
	requestBody obj
	// answer is the JSON schema of the 200 answer.
	answer obj
	// response replaces the 200 response (event streams).
	response obj
	// errs are the error statuses beyond 401, 403, 429 and 500.
	errs []int
	// plainErrs are the statuses answered with the error envelope
	// without code only; eitherErrs those answered with either envelope.
	// plainNote says when the envelope has no code.
	plainErrs, eitherErrs []int
	plainNote             string
	// route is the router pattern serving the operation when it is not
	// the operation's own method and path.
	route string
	// status is the status of success; 0 means 200.
	status int
}

// Parameters.

func pathParam(name string, schema obj, desc string) obj {
	return obj{"name": name, "in": "path", "required": true, "schema": schema, "description": desc}
}

func queryParam(name string, schema obj, desc string) obj {
	if schema["type"] == "string" && schema["enum"] == nil {
		// The server refuses an empty value of any parameter it reads.
		schema["minLength"] = 1
	}
	p := obj{"name": name, "in": "query", "schema": schema}
	if desc != "" {
		p["description"] = desc
	}
	return p
}

// arrayParam is a repeated query parameter name[]=v.
func arrayParam(name string, items obj, desc string) obj {
	return obj{"name": name + "[]", "in": "query", "style": "form", "explode": true, "schema": arr(items, ""), "description": desc}
}

var (
	postTypePath = pathParam("post_type", str(""), "A registered post type slug.")
	numericID    = pathParam("id", id(""), "")
	runID        = pathParam("id", str(""), "A run's id.")
	generatedQ   = queryParam("generated", boolean(""), "true lists only generated items (and, for media, uploaded ones), false only the others; absent lists all.")
	searchQ      = queryParam("search", str(""), "Matches names, titles or e-mail addresses.")
	perPageQ     = queryParam("per_page", withDefault(intIn(1, 100, ""), 20), "")
	pageQ        = queryParam("page", withDefault(intIn(1, 1000000, ""), 1), "")
	orderQ       = queryParam("order", withDefault(enum("", "desc", "asc"), "desc"), "desc lists the newest first (by id), asc the oldest first.")
)

// list is the answer of a content read endpoint.
func list(key, item string) obj {
	return ok(props{key: arr(ref(item), ""), "total": count("Matching items."), "pages": count("Pages of per_page items.")})
}

func operations() []op {
	tplID := pathParam("id", id(""), "A template id.")
	return []op{
		// Generation.
		{method: "POST", path: "/generate/posts", id: "generatePosts", tag: "Generation", summary: "Generate posts",
			desc: "Creates posts of one post type with featured images, terms, authors, comments, custom field values and related posts as asked. A failed image never fails the run.",
			body: ref("PostsRequest"), answer: ref("PostsResult"), errs: []int{400, 404, 409, 413}},
		{method: "POST", path: "/generate/posts/stream", id: "generatePostsStream", tag: "Generation", summary: "Generate posts, reporting progress as Server-Sent Events",
			desc: "Takes the parameters of POST /generate/posts. A request rejected before the run starts gets the JSON error answer; otherwise the answer is an event stream: one `data: <JSON object>` line and a blank line per event (see StreamEvent), and the comment line `: ping` while no event is due.",
			body: ref("PostsRequest"), response: streamResponse(), errs: []int{400, 404, 409, 413}},
		{method: "POST", path: "/generate/terms", id: "generateTerms", tag: "Generation", summary: "Generate taxonomy terms",
			body: body("", props{
				"taxonomy":           withDefault(str("A registered taxonomy."), "category"),
				"count":              withDefault(intIn(1, 500, "Ignored with generate_hierarchy."), 5),
				"generate_hierarchy": withDefault(boolean("A nested tree; non-hierarchical taxonomies stay flat."), false),
				"depth":              withDefault(intIn(1, 5, ""), 3),
				"breadth":            withDefault(intIn(1, 10, "Terms per level."), 3),
				"delete_existing":    withDefault(boolean("Delete the generated terms of the taxonomy first."), false),
				"locale":             str(""),
				"seed":               integer(""),
			}), answer: ref("ItemsResult"), errs: []int{400, 409, 413}},
		{method: "POST", path: "/generate/users", id: "generateUsers", tag: "Generation", summary: "Generate users",
			body: body("", props{
				"count":            withDefault(intIn(1, 500, ""), 5),
				"role":             str("All users get this role; empty picks from allowed_roles."),
				"allowed_roles":    withDefault(strList(""), []string{"subscriber", "contributor", "author"}),
				"generate_avatars": withDefault(boolean(""), true),
				"avatar_provider":  enum("Default: the default_image_provider setting.", imageProviders...),
				"delete_existing":  withDefault(boolean(""), false),
				"locale":           str(""),
				"seed":             integer(""),
			}), answer: ref("ItemsResult"), errs: []int{400, 409, 413}},
		{method: "POST", path: "/generate/comments", id: "generateComments", tag: "Generation", summary: "Generate comments",
			body: body("", props{
				"post_type":             withDefault(str(""), "post"),
				"post_ids":              ids("Empty targets all published posts of the type."),
				"comments_per_post_min": withDefault(intIn(1, 100, ""), 1),
				"comments_per_post_max": withDefault(intIn(1, 100, ""), 15),
				"enable_threading":      withDefault(boolean(""), true),
				"reply_probability":     withDefault(intIn(0, 100, ""), 40),
				"pending_percentage":    withDefault(intIn(0, 100, ""), 10),
				"anonymous_percentage":  withDefault(intIn(0, 100, ""), 70),
				"avatar_percentage":     withDefault(intIn(0, 100, ""), 60),
				"avatar_provider":       enum("Default: the default_image_provider setting.", imageProviders...),
				"locale":                str(""),
				"delete_existing":       withDefault(boolean(""), false),
				"date_from":             str("YYYY-MM-DD or YYYY-MM-DD HH:MM:SS."),
				"date_to":               str(""),
				"seed":                  integer(""),
			}), answer: ref("ItemsResult"), errs: []int{400, 409, 413}},
		{method: "DELETE", path: "/generate/delete", id: "deleteGenerated", tag: "Generation", summary: "Delete generated items of one kind",
			body: body("", props{
				"type":  enum("", "post", "term", "user", "comment"),
				"ids":   ids("Only these items; empty deletes every generated item of the type."),
				"force": withDefault(boolean("true deletes permanently; false moves to the trash where the host has one."), false),
			}, "type"), bodyRequired: true,
			answer: ok(props{"deleted": count(""), "message": str("")}), errs: []int{400, 413}},
		{method: "POST", path: "/generate/posts/delete", id: "deletePosts", tag: "Generation", summary: "Delete generated posts with what was made for them",
			body: body("", props{
				"post_type":               str(""),
				"delete_scope":            withDefault(enum("", "current_type", "all"), "current_type"),
				"delete_related_media":    boolean("Featured images generated with the posts; defaults to the setting (the delete_media_with_posts setting deletes them always)."),
				"delete_related_terms":    boolean("Terms created during generation; defaults to the setting."),
				"delete_related_authors":  boolean("Authors created during generation; defaults to the setting."),
				"delete_related_comments": boolean("Defaults to the setting."),
				"delete_related_cpts":     boolean("Related posts linked through cross-type relationships."),
			}, "post_type"), bodyRequired: true,
			answer: ok(props{
				"deleted_count":        count("Posts deleted."),
				"deleted_stats":        record(props{"posts": count(""), "media": count(""), "terms": count(""), "authors": count("")}),
				"deleted_related_cpts": mapOf(count(""), "Post type to related posts deleted."),
				"message":              str(""),
			}), errs: []int{400, 413}},

		// History.
		{method: "GET", path: "/history", id: "listHistory", tag: "History", summary: "List history entries",
			params: []obj{
				queryParam("type", enum("", contentTypes...), ""),
				queryParam("limit", withDefault(intIn(1, 1000, ""), 50), ""),
				queryParam("offset", withDefault(count(""), 0), ""),
			},
			answer: ok(props{"history": arr(ref("HistoryEntry"), ""), "total": count("Matching entries.")}), errs: []int{400}},
		{method: "GET", path: "/history/stats", id: "historyStats", tag: "History", summary: "History statistics",
			answer: ok(props{"stats": record(props{
				"total":   count(""),
				"by_type": mapOf(count(""), "Content type to entries."),
				"by_subtype": arr(record(props{
					"content_type": enum("", contentTypes...), "content_subtype": str(""), "count": digits("A count, as a string."),
				}), ""),
				"recent_activity": arr(record(props{
					"date":  obj{"type": "string", "pattern": `^[0-9]{4}-[0-9]{2}-[0-9]{2}$`},
					"count": digits("A count, as a string."),
				}), "Entries per day of the last 30 days."),
				"existing": mapOf(count(""), "Content type to items that still exist, checked live."),
			})})},
		{method: "DELETE", path: "/history/clear", id: "clearHistory", tag: "History", summary: "Remove every history entry; content stays",
			answer: ref("Success")},
		{method: "DELETE", path: "/history/{id}", id: "deleteHistoryEntry", tag: "History", summary: "Delete a history entry, and its content unless asked not to",
			params: []obj{
				pathParam("id", str(""), "The entry id."),
				queryParam("delete_content", withDefault(boolean("Also delete the content; may also come in the JSON body."), true), ""),
			},
			body: body("", props{"delete_content": boolean("Used when the query has no delete_content.")}),
			answer: ok(props{
				"message": str(""), "entry_deleted": constant(true, ""),
				"content_deleted": boolean("True only when asked and the content existed."),
			}), errs: []int{400, 413}, plainErrs: []int{404}, plainNote: "An unknown entry is answered without code."},
		{method: "POST", path: "/history/cleanup", id: "cleanupHistory", tag: "History", summary: "Remove the entries whose content no longer exists",
			answer: ok(props{"cleaned": count(""), "message": str("")})},
		{method: "GET", path: "/time-saved", id: "timeSaved", tag: "History", summary: "Estimated time and money saved",
			answer: ok(props{"time_savings": record(props{
				"total": ref("Duration"),
				"by_type": record(props{
					"posts": ref("Duration"), "terms": ref("Duration"), "users": ref("Duration"), "comments": ref("Duration"),
				}),
				"work_days_equivalent": number("Eight-hour days."),
				"money_saved":          record(props{"amount": number(""), "currency": constant("USD", ""), "hourly_rate": number("")}),
				"last_updated":         nullable(timestamp("")),
				"estimates_based_on": record(props{
					"post_basic": str(""), "post_with_image_and_fields": str(""), "term": str(""), "user": str(""), "comment": str(""),
				}),
			})})},
		{method: "DELETE", path: "/time-saved", id: "resetTimeSaved", tag: "History", summary: "Reset time saved to zero",
			answer: ref("Success")},
		{method: "DELETE", path: "/cleanup/all", id: "cleanupAll", tag: "History", summary: "Delete everything generated",
			desc:   "Permanently deletes all generated posts of every type, terms, users and media, found through the history and the _svc_generated marker, then clears the history.",
			answer: ok(props{"message": str(""), "stats": record(props{"posts": count(""), "terms": count(""), "users": count(""), "media": count("")})})},

		// Settings.
		{method: "GET", path: "/settings", id: "getSettings", tag: "Settings", summary: "Read the settings",
			answer: ok(props{"settings": record(props{"general": ref("GeneralSettings"), "ai": ref("AISettings")})})},
		{method: "POST", path: "/settings", id: "updateSettings", tag: "Settings", summary: "Change general settings; omitted ones keep their value",
			body: body("", props{
				"admin_locale": str(""), "locale": str(""),
				"default_post_count": intIn(1, contentgen.DefaultMaxCount, ""), "default_term_count": intIn(1, contentgen.DefaultMaxCount, ""),
				"default_user_count":           intIn(1, contentgen.DefaultMaxCount, ""),
				"delete_history_on_deactivate": boolean(""), "delete_media_with_posts": boolean(""),
				"auto_select_default_template": boolean(""),
				"delete_related_media":         boolean(""), "delete_related_terms": boolean(""),
				"delete_related_authors": boolean(""), "delete_related_comments": boolean(""),
				"default_image_provider": enum("", imageProviders...), "telemetry_enabled": boolean(""),
				"save_and_generate_auto_run": boolean(""), "child_generate_behavior": enum("", "ask", "child_only", "parent_chain"),
				"hourly_rate": withMax(withMin(number(""), 1), maxHourlyRate), "text_source": enum(textSourceDesc, textSources...),
			}),
			answer: ok(props{"message": str(""), "settings": ref("GeneralSettings")}), errs: []int{400, 413}},
		{method: "GET", path: "/settings/ai", id: "getAISettings", tag: "Settings", summary: "Read the AI settings; keys only masked",
			answer: ok(props{"settings": ref("AISettingsDetail")})},
		{method: "POST", path: "/settings/ai", id: "updateAISettings", tag: "Settings", summary: "Change AI settings and keys",
			body: body("Omitting a key keeps the stored one.", props{
				"enabled": boolean(""), "provider": enum("", aiProviders...), "secondary_ai_enabled": boolean(""),
				"ai_one_api_key": str(""), "ai_two_api_key": str(""), "ai_three_api_key": str(""),
			}),
			answer: ok(props{"message": str(""), "settings": ref("AISettingsDetail")}), errs: []int{400, 413}},
		{method: "POST", path: "/settings/ai/test", id: "testAI", tag: "Settings", summary: "Test the AI provider's key",
			desc:   "A completed test answers 200: success true, or success false with the reason (no key, key rejected, provider unreachable).",
			answer: record(props{"success": boolean(""), "message": str("")})},
		{method: "POST", path: "/settings/ai/clear-cache", id: "clearAICache", tag: "Settings", summary: "Clear cached field detections",
			answer: ref("Success")},
		{method: "DELETE", path: "/field-detections", id: "clearFieldDetections", tag: "Settings", summary: "Clear cached field detections of all post types",
			answer: ok(props{"message": str(""), "deleted": count("")})},
		{method: "DELETE", path: "/field-detections/{post_type}", id: "clearPostTypeFieldDetections", tag: "Settings", summary: "Clear cached field detections of one post type",
			params: []obj{postTypePath}, answer: ok(props{"message": str(""), "deleted": count("")})},

		// Information.
		{method: "GET", path: "/cpts/all", id: "listPostTypes", tag: "Information", summary: "Public post types (legacy envelope)",
			answer: legacy("result", arr(ref("PostType"), ""))},
		{method: "GET", path: "/cpts/supports/{post_type}", id: "postTypeSupports", tag: "Information", summary: "Features of a post type (legacy envelope)",
			params: []obj{postTypePath},
			answer: legacy("result", record(props{"post_type": str(""), "supports": mapOf(boolean(""), "")})), errs: []int{400}},
		{method: "GET", path: "/taxonomies/all", id: "listTaxonomies", tag: "Information", summary: "Taxonomies (legacy envelope)",
			answer: legacy("result", arr(ref("Taxonomy"), ""))},
		{method: "GET", path: "/taxonomies/{taxonomy}/terms", id: "listTaxonomyTerms", tag: "Information", summary: "Terms of a taxonomy",
			params: []obj{
				pathParam("taxonomy", str(""), "A registered taxonomy."),
				queryParam("search", str(""), "Part of the name."),
				queryParam("parent", withMin(integer("0 lists top-level terms."), 0), ""),
				queryParam("per_page", withDefault(intIn(1, 1000, ""), 100), ""),
			},
			answer: ok(props{"taxonomy": str(""), "terms": arr(ref("Term"), ""), "total": count("")}), errs: []int{400}},
		{method: "GET", path: "/variation-profiles", id: "variationProfiles", tag: "Information", summary: "Variation profiles",
			answer: ok(props{
				"profiles": record(props{
					"random":  record(props{"name": str(""), "description": str("")}),
					"minimal": record(props{"name": str(""), "description": str("")}),
					"partial": record(props{"name": str(""), "description": str("")}),
				}),
				"default": enum("", variationProfile...),
			})},
		{method: "GET", path: "/languages", id: "languages", tag: "Information", summary: "Supported locales",
			answer: ok(props{"languages": arr(ref("Language"), ""), "default": str("A locale code.")})},
		{method: "GET", path: "/post-meta/{id}", id: "postMeta", tag: "Information", summary: "Whether a post was generated, and with which template",
			params: []obj{pathParam("id", id(""), "A post id.")},
			answer: record(props{"is_generated": boolean(""), "template_id": count("0 when no template was used.")}), errs: []int{400, 404}},
		{method: "GET", path: "/urls", id: "urls", tag: "Information", summary: "Addresses and the session nonce (legacy envelope)",
			answer: legacy("urls", record(props{
				"plugin_url": str(""), "api_url": str("The API root as the client reached it."), "admin_url": str(""), "ajax_url": str(""),
				"logo_url": str(""), "plugin_dir": str(""), "plugin_file": str(""), "plugin_name": str(""),
				"nonce": str("The X-Host-Nonce value of a cookie session; empty otherwise."),
			}))},
		{method: "GET", path: "/users", id: "listUsers", tag: "Information", summary: "Users",
			params: []obj{
				arrayParam("roles", str(""), "Role slugs (also roles=a,b)."),
				queryParam("search", str(""), "Name or e-mail address."),
				queryParam("per_page", withDefault(intIn(1, 1000, ""), 50), ""),
			},
			answer: ok(props{"users": arr(ref("User"), ""), "total": count("")}), errs: []int{400}},
		{method: "GET", path: "/users/roles", id: "listRoles", tag: "Information", summary: "Registered roles",
			answer: ok(props{"roles": arr(record(props{"slug": str(""), "name": str("")}), "")})},
		{method: "GET", path: "/license", id: "license", tag: "Information", summary: "Licence status",
			answer: ref("LicenseAnswer")},
		{method: "POST", path: "/license/activate", id: "activateLicense", tag: "Information", summary: "Activate a licence key",
			body: body("", props{"license_key": str("")}, "license_key"), bodyRequired: true,
			answer: ref("LicenseAnswer"), errs: []int{400, 413, 503}},
		{method: "POST", path: "/license/deactivate", id: "deactivateLicense", tag: "Information", summary: "Deactivate the licence",
			answer: ref("LicenseAnswer"), errs: []int{503}},
		{method: "POST", path: "/license/refresh", id: "refreshLicense", tag: "Information", summary: "Check the licence again",
			answer: ref("LicenseAnswer"), errs: []int{503}},
		{method: "GET", path: "/addons", id: "listAddons", tag: "Information", summary: "Registered addons",
			answer: ok(props{"addons": arr(record(props{
				"name": str(""), "slug": str(""), "version": str(""), "active": boolean(""), "description": str(""),
			}), "")})},
		{method: "GET", path: "/openapi.json", id: "openAPI", tag: "Information", summary: "This document",
			answer: withDesc(obj{"type": "object", "required": []string{"openapi", "info", "paths"}}, "The OpenAPI 3.1 description of the API.")},

		// Media.
		{method: "GET", path: "/image-providers", id: "imageProviders", tag: "Media", summary: "Image providers and categories",
			answer: ok(props{
				"providers":  mapOf(ref("ImageProvider"), "Provider slug to provider."),
				"categories": mapOf(str(""), "Category slug to label."),
				"default":    enum("The default_image_provider setting.", imageProviders...),
			})},
		{method: "GET", path: "/media/images", id: "listImages", tag: "Media", summary: "Images of the media library",
			params: []obj{
				queryParam("per_page", withDefault(intIn(1, 100, ""), 20), ""),
				queryParam("page", withDefault(intIn(1, 1000000, ""), 1), ""),
				queryParam("search", str(""), "Part of the title."),
			},
			answer: ok(props{"images": arr(ref("MediaImage"), ""), "total": count(""), "total_pages": count(""), "page": id("")}), errs: []int{400}},
		{method: "POST", path: "/media/download", id: "downloadImages", tag: "Media", summary: "Download images into the media library",
			body: body("", props{
				"count":        withDefault(intIn(1, 20, ""), 5),
				"provider":     withDefault(enum("", imageProviders...), "provider_random"),
				"category":     str("For providers with category support."),
				"width":        withDefault(intIn(100, 4000, ""), 1200),
				"height":       intIn(100, 4000, "Calculated from aspect_ratio when unset."),
				"aspect_ratio": withDefault(str(""), "3:2"),
				"random_size":  withDefault(boolean("Draw the width between width_min and width_max."), false),
				"width_min":    withDefault(intIn(100, 4000, ""), 800),
				"width_max":    withDefault(intIn(100, 4000, ""), 1600),
				"seed":         integer(""),
			}),
			answer: ok(props{
				"message": str(""), "count": count(""), "images": arr(ref("DownloadedImage"), ""),
				"warnings": strList("Images that could not be fetched."),
			}), errs: []int{400, 409, 413}},
		{method: "GET", path: "/media/files", id: "listFiles", tag: "Media", summary: "Files of the media library",
			params: []obj{
				queryParam("per_page", withDefault(intIn(1, 100, ""), 50), ""),
				queryParam("page", withDefault(intIn(1, 1000000, ""), 1), ""),
				queryParam("file_type", enum("", "pdf", "document", "spreadsheet", "archive"), ""),
			},
			answer: ok(props{"files": arr(ref("MediaFile"), ""), "total": count(""), "total_pages": count(""), "page": id("")}), errs: []int{400}},
		{method: "POST", path: "/media/upload", id: "uploadFile", tag: "Media", summary: "Upload a file",
			desc: "The file's content must be of an allowed type (images, PDF, office documents, spreadsheets, archives, plain text) and within the upload limit (20 MiB by default). A MAX_FILE_SIZE field sent before the file sets a lower limit. Failures answer {success: false, message} with the specification's messages.",
			requestBody: obj{"required": true, "content": obj{"multipart/form-data": obj{"schema": obj{
				"type": "object", "required": []string{"file"},
				"properties": obj{
					"file":          obj{"type": "string", "contentMediaType": "application/octet-stream", "description": "The file, with its file name."},
					"MAX_FILE_SIZE": integer("Optional lower size limit in bytes, as HTML forms send it."),
				},
			}}}},
			answer: ref("UploadResult"), plainErrs: []int{400, 409, 413, 415, 503, 507}, eitherErrs: []int{500},
			plainNote: "Failures of the upload carry no code; their messages are the specification's: " +
				"Keine Datei hochgeladen (no file), Datei zu groß (PHP-Limit) (over the upload limit), Datei zu groß (Formular-Limit) (over MAX_FILE_SIZE), " +
				"Datei nur teilweise hochgeladen (the upload broke off), Dateityp nicht erlaubt (type not allowed), Fehler beim Schreiben der Datei (the file could not be stored)."},
		{method: "POST", path: "/media/upload-url", id: "uploadURL", tag: "Media", summary: "Import a file from a public address",
			desc: "Fetches only public http(s) addresses: loopback, private, link-local and metadata addresses are refused after DNS resolution and after every redirect.",
			body: body("", props{"url": str("An absolute http or https address.")}, "url"), bodyRequired: true,
			answer: ref("UploadResult"), plainErrs: []int{409, 415, 503, 507}, eitherErrs: []int{400, 413, 500},
			plainNote: "Failures of the import carry no code (a disallowed type is Dateityp nicht erlaubt); a malformed request body has one."},

		// Templates.
		{method: "GET", path: "/templates", id: "listTemplates", tag: "Templates", summary: "List templates",
			params: []obj{
				queryParam("post_type", str(""), ""),
				queryParam("is_system", boolean(""), "true lists system templates only, false user templates only."),
			},
			answer: ok(props{
				"templates": arr(ref("TemplateSummary"), ""),
				"total":     count(""),
				"stale":     arr(ref("StaleTemplate"), "The listed templates that are stale."),
				"adapter_info": mapOf(record(props{"fields": strList(""), "taxonomies": strList(""), "adapters": strList("The winning adapter first.")}),
					"Post type to its custom fields, taxonomies and field adapters."),
			}), errs: []int{400}},
		{method: "POST", path: "/templates", id: "createTemplate", tag: "Templates", summary: "Create a template",
			body: body("", props{
				"name": nonEmpty(""), "post_type": nonEmpty(""), "description": str(""),
				"is_default":   boolean("Unsets the flag on the other templates of the post type."),
				"field_config": ref("FieldConfig"), "taxonomy_config": ref("TaxonomyConfig"),
			}, "name", "post_type"), bodyRequired: true,
			answer: ref("TemplateAnswer"), errs: []int{400, 409, 413}},
		{method: "GET", path: "/templates/export", id: "exportTemplates", tag: "Templates", summary: "Export templates",
			params: []obj{
				arrayParam("ids", id(""), "Template ids; post_type is then ignored."),
				queryParam("post_type", str(""), ""),
			},
			answer: ok(props{
				"templates": arr(ref("ExportedTemplate"), ""), "count": count(""),
				"version": constant(templates.ExportVersion, "Export format version."), "exported": timestamp(""),
			}), errs: []int{400, 404}},
		{method: "POST", path: "/templates/import", id: "importTemplates", tag: "Templates", summary: "Import exported templates",
			desc: "Reports every item; an item that fails is not stored at all.",
			body: body("", props{"templates": arr(anyValue("An exported template, as ExportedTemplate describes it."),
				"The templates array of an export. Each item is checked on its own: one that is not a valid template (a missing post_type, an unknown mode, not even an object) fails alone and is reported in results.")}, "templates"),
			bodyRequired: true,
			answer: record(props{
				"success": boolean("False when nothing was imported and something failed."),
				"message": str("Imported and failed counts."),
				"results": arr(record(props{"success": boolean(""), "name": str(""), "id": count("0 when the item failed."), "error": str("Why the item failed.")}, "error"), ""),
			}), errs: []int{400, 413}},
		{method: "GET", path: "/templates/stale", id: "staleTemplates", tag: "Templates", summary: "Templates whose post type's fields changed",
			answer: ok(props{"stale": arr(ref("StaleTemplate"), ""), "count": count("")})},
		{method: "GET", path: "/templates/{id}", id: "getTemplate", tag: "Templates", summary: "Read a template",
			params: []obj{tplID}, answer: ref("TemplateAnswer"), errs: []int{400, 404}},
		{method: "PUT", path: "/templates/{id}", id: "updateTemplate", tag: "Templates", summary: "Change a template; only sent properties change",
			params: []obj{tplID},
			body: body("post_type cannot change.", props{
				"name": nonEmpty(""), "description": str(""), "post_type": str("Must equal the template's."),
				"is_default": boolean(""), "field_config": ref("FieldConfig"), "taxonomy_config": ref("TaxonomyConfig"),
			}),
			answer: ref("TemplateAnswer"), errs: []int{400, 404, 409, 413}},
		{method: "DELETE", path: "/templates/{id}", id: "deleteTemplate", tag: "Templates", summary: "Delete a template and its variants",
			params: []obj{tplID, queryParam("new_default_id", id(""), "Becomes the default when the deleted template was; may also come in the JSON body.")},
			body:   body("", props{"new_default_id": id("")}),
			answer: ok(props{"message": str(""), "variants_deleted": count("")}), errs: []int{400, 404, 409, 413}},
		{method: "POST", path: "/templates/{id}/default", id: "setDefaultTemplate", tag: "Templates", summary: "Make a template its post type's default",
			params: []obj{tplID}, answer: ref("TemplateAnswer"), errs: []int{400, 404, 409}},
		{method: "POST", path: "/templates/{id}/duplicate", id: "duplicateTemplate", tag: "Templates", summary: "Copy a template (name plus (Copy), not default)",
			params: []obj{tplID}, answer: ref("TemplateAnswer"), errs: []int{400, 404, 409}},
		{method: "POST", path: "/templates/{id}/variant", id: "createVariant", tag: "Templates", summary: "Create a variant of a template",
			desc:   "A variant stores only what it overrides and is deleted with its parent. A body, when sent, names it and sets its overrides like an update.",
			params: []obj{tplID},
			body: body("", props{
				"name": str(""), "description": str(""), "is_default": boolean(""),
				"field_config": ref("FieldConfig"), "taxonomy_config": ref("TaxonomyConfig"),
			}),
			answer: ref("TemplateAnswer"), errs: []int{400, 404, 409, 413}},
		{method: "GET", path: "/templates/{id}/effective-config", id: "effectiveConfig", tag: "Templates", summary: "A template's configuration merged with its parents'",
			params: []obj{tplID}, route: "GET /templates/{first}/{second}",
			answer: ok(props{
				"template_id": id(""), "post_type": str(""), "is_variant": boolean(""), "parent_id": nullable(id("")),
				"field_config": ref("FieldConfig"), "taxonomy_config": ref("TaxonomyConfig"),
			}), errs: []int{400, 404}},
		{method: "GET", path: "/templates/fields/{post_type}", id: "templateFields", tag: "Templates", summary: "The fields a template of a post type can configure",
			params: []obj{postTypePath}, route: "GET /templates/{first}/{second}",
			answer: ok(props{
				"post_type":   str(""),
				"core_fields": mapOf(ref("FieldInfo"), "Core field name to field."),
				"custom_fields": mapOf(record(props{"group_title": str(""), "fields": arr(ref("FieldInfo"), "")}),
					"Field adapter slug to its fields."),
			}), errs: []int{400}},
		{method: "GET", path: "/templates/taxonomies/{post_type}", id: "templateTaxonomies", tag: "Templates", summary: "The taxonomies a template of a post type can configure",
			params: []obj{postTypePath}, route: "GET /templates/{first}/{second}",
			answer: ok(props{"post_type": str(""), "taxonomies": arr(ref("TaxonomyOption"), ""), "count": count("")}), errs: []int{400}},
		{method: "GET", path: "/fields/{post_type}", id: "customFields", tag: "Templates", summary: "Custom fields of a post type, with their detected meaning",
			params: []obj{postTypePath},
			answer: ok(props{"post_type": str(""), "fields": arr(ref("CustomField"), ""), "count": count("")}), errs: []int{400}},
		{method: "GET", path: "/field-plugins", id: "fieldPlugins", tag: "Templates", summary: "Field adapters",
			answer: ok(props{
				"adapters": arr(record(props{"name": str(""), "slug": str(""), "version": str(""), "active": boolean(""), "primary": boolean("")}), ""),
				"primary":  nullable(str("Name of the adapter whose definitions win; null when none.")),
			})},
		{method: "GET", path: "/detected-plugins", id: "detectedPlugins", tag: "Templates", summary: "Field plugins found, active or not",
			answer: ok(props{
				"plugins": arr(record(props{"name": str(""), "slug": str(""), "version": str(""), "active": boolean("")}), ""),
				"summary": record(props{"total": count(""), "active": count(""), "inactive": count("")}),
			})},
		{method: "GET", path: "/dependencies/{post_type}", id: "dependencies", tag: "Templates", summary: "Relational fields of a post type and their targets",
			params: []obj{postTypePath},
			answer: ok(props{
				"post_type": str(""),
				"dependencies": arr(record(props{
					"field_name": str(""), "field_type": str("relationship, post_object, ..."),
					"target_post_types": strList("Empty targets any post type."),
					"target_labels":     mapOf(str(""), "Target post type to label."),
					"is_multiple":       boolean(""),
					"source":            enum("field for field plugin fields, relation for relation definitions.", fields.SourceField, fields.SourceRelation),
					"cardinality":       enum("", cardinalities...),
					"required":          boolean(""),
				}), ""),
				"unique_targets": mapOf(record(props{
					"label": str(""), "plural_label": str(""), "existing_count": count("Published posts."),
					"has_template": boolean(""), "template_name": nullable(str("The target's default template.")),
					"is_required": boolean(""), "required_by_fields": strList(""),
				}), "Target post type to what generation knows about it."),
				"count": count(""),
			}), errs: []int{400}},
		{method: "GET", path: "/field-schema/{field_type}", id: "fieldSchema", tag: "Templates", summary: "Creation methods and options of a field type",
			params: []obj{pathParam("field_type", enum("", fields.Types()...), "")},
			answer: ok(props{
				"field_type": str(""), "category": enum("", fieldCategories...),
				"modes":   arr(enum("", modes...), ""),
				"methods": strList("Create methods; auto for types generated from their settings only."),
				"options": arr(record(props{
					"name": str(""), "type": enum("", "integer", "number", "boolean", "string"), "default": anyValue(""),
					"min": number(""), "max": number(""), "values": strList(""), "description": str(""),
				}, "min", "max", "values"), "The create options the type honours."),
				"selection_modes": arr(enum("", selectionModes...), "Empty when mode choose does not apply."),
				"semantic":        boolean("Values follow the detected semantic type of the field."),
			}), errs: []int{400}},
		{method: "GET", path: "/sync/status", id: "syncStatus", tag: "Templates", summary: "Whether templates are in sync with their post types' fields",
			answer: ok(syncProps())},
		{method: "POST", path: "/sync/mark-seen", id: "syncMarkSeen", tag: "Templates", summary: "Acknowledge the current field changes",
			answer: ok(merge(syncProps(), props{"message": str("")}))},

		// Runs.
		{method: "POST", path: "/runs", id: "submitRun", tag: "Runs", summary: "Start a run: generation of any size as a durable job",
			desc: "Takes kind and count (no upper limit) and the parameters of the generate endpoint of the kind (POST /generate/posts, /generate/terms, /generate/users or /generate/comments), whose own count is ignored; delete_existing_before_generate and delete_existing are refused (delete first), and so is generate_hierarchy (a run makes count flat terms). The run is split into batches of batch_size items, each a job that any worker process on the same database takes; a batch's content, history and completion commit together, so a run survives a crash and resumes where it stopped. Answers 202 with the run queued. Options are checked when the run is asked for, as the generate endpoint of the kind checks them (the post type, taxonomy and roles exist, every option is in range, batch_size is at most the server's per-request count): a request it would refuse gets its 400 answer and no run is recorded. A run whose options stop fitting the site after it was recorded (its template deleted) fails at its next batch. A run of comments makes count comments in all on the posts of post_ids, or else on the published posts of post_type (there must be one): the posts take turns in the order of their ids, each getting comments_per_post_min to comments_per_post_max comments a turn, and each batch of batch_size comments starts at the post the batches before it reach on average, so that the run walks the posts and starts again from the first, about count divided by the posts on each.",
			body: ref("RunRequest"), bodyRequired: true, status: 202, answer: ok(props{"id": str("The run's id."), "run": ref("Run")}), errs: []int{400, 413, 503}},
		{method: "GET", path: "/runs", id: "listRuns", tag: "Runs", summary: "The runs, newest first (at most 100)",
			answer: ok(props{"runs": arr(ref("Run"), "")}), errs: []int{503}},
		{method: "GET", path: "/runs/{id}", id: "getRun", tag: "Runs", summary: "A run's progress",
			params: []obj{runID}, answer: ok(props{"run": ref("Run")}), errs: []int{404, 503}},
		{method: "DELETE", path: "/runs/{id}", id: "cancelRun", tag: "Runs", summary: "Cancel a run",
			desc:   "The run's batches that no worker has taken are removed with the status change; a batch being written finishes and is counted. What the run made stays in the history and is deleted like any generated content. Cancelling a finished run changes nothing.",
			params: []obj{runID}, answer: ok(props{"run": ref("Run")}), errs: []int{404, 503}},
		{method: "POST", path: "/runs/{id}/resume", id: "resumeRun", tag: "Runs", summary: "Resume a cancelled or failed run",
			desc:   "Queues again the batches the run has not done and makes it queued (running when it had started); batches done stay done and are not made again. Answers 202 with the run, as POST /runs does. A run that is queued, running or succeeded has nothing to resume: 409 with a message naming its status. Takes no body.",
			params: []obj{runID}, status: 202, answer: ok(props{"run": ref("Run")}), errs: []int{404, 409, 503}},
		{method: "GET", path: "/runs/{id}/events", id: "runEvents", tag: "Runs", summary: "A run's progress as Server-Sent Events",
			desc:   "One progress event with the run at once and whenever it changes (a batch done, an error, a new status), and one complete event once it is succeeded, failed or cancelled; then the stream ends. An unknown run gets the JSON error answer.",
			params: []obj{runID}, response: eventStream("RunEvent"), errs: []int{404, 503}},

		// Content.
		{method: "GET", path: "/content/posts", id: "contentPosts", tag: "Content", summary: "Posts as a reader sees them, generated or not",
			params: []obj{
				queryParam("post_type", str(""), "Absent lists every type that is not internal."),
				queryParam("status", str(""), "A post status."),
				searchQ, generatedQ, orderQ, perPageQ, pageQ,
			},
			answer: list("posts", "ContentPost"), errs: []int{400}},
		{method: "GET", path: "/content/posts/{id}", id: "contentPost", tag: "Content", summary: "A post with its body, meta and comments",
			params: []obj{numericID},
			answer: ok(props{"post": ref("ContentPostDetail")}), errs: []int{400, 404}},
		{method: "GET", path: "/content/users", id: "contentUsers", tag: "Content", summary: "Users",
			params: []obj{queryParam("role", str(""), ""), searchQ, generatedQ, perPageQ, pageQ},
			answer: list("users", "ContentUser"), errs: []int{400}},
		{method: "GET", path: "/content/terms", id: "contentTerms", tag: "Content", summary: "Terms",
			params: []obj{queryParam("taxonomy", str(""), ""), searchQ, generatedQ, perPageQ, pageQ},
			answer: list("terms", "Term"), errs: []int{400}},
		{method: "GET", path: "/content/media", id: "contentMedia", tag: "Content", summary: "Media items",
			params: []obj{searchQ, generatedQ, orderQ, perPageQ, pageQ},
			answer: list("media", "ContentMedia"), errs: []int{400}},
	}
}

// legacy is the legacy envelope {status: 200, key: v}.
func legacy(key string, v obj) obj {
	return record(props{"status": constant(200, "Always 200."), key: v})
}

func streamResponse() obj { return eventStream("StreamEvent") }

// eventStream is the answer of an event stream whose events are of the
// schema named event.
func eventStream(event string) obj {
	return obj{
		"description": "The event stream.",
		"headers": obj{
			"Cache-Control":     obj{"schema": constant("no-store", "")},
			"X-Accel-Buffering": obj{"schema": constant("no", "")},
		},
		"content": obj{"text/event-stream": obj{
			"schema":         obj{"type": "string", "description": "Lines `data: <JSON>` (each followed by a blank line) carrying " + event + " objects, and `: ping` comment lines."},
			"x-event-schema": ref(event),
		}},
	}
}

// Responses of failures, by status.

// errorResponses are the components.responses of the statuses.
var errorStatuses = map[int]struct {
	name, desc string
	codes      []string
}{
	400: {"BadRequest", "A parameter is missing or invalid; the message names it.", codesBadRequest},
	401: {"Unauthorized", "No valid credentials.", []string{"rest_not_logged_in"}},
	403: {"Forbidden", "The user lacks the manage_options capability (rest_forbidden), or a state-changing request came from a page of another origin (cross_origin_request: its Origin or Sec-Fetch-Site header names another site), which is refused before authentication.", []string{"rest_forbidden", "cross_origin_request"}},
	404: {"NotFound", "The item does not exist.", []string{"not_found"}},
	409: {"Conflict", "A concurrent change got in the way; retrying may succeed.", []string{"conflict"}},
	413: {"TooLarge", "The request body or file is larger than allowed.", codesTooLarge},
	415: {"UnsupportedType", "The file type is not allowed (unsupported_type), or a request body was not sent as Content-Type application/json (unsupported_media_type), which is refused before authentication.", []string{"unsupported_type", "unsupported_media_type"}},
	429: {"TooManyAttempts", "Too many failed logins of this user from this client, of this client, or of this user from clients it never signed in from: the credentials were not checked. Retry after the seconds of Retry-After.", []string{"too_many_attempts"}},
	500: {"InternalError", "An unexpected failure on the server; its cause is logged, not sent.", codesInternal},
	503: {"Unavailable", "The feature is not configured on this server.", []string{"not_configured"}},
	507: {"InsufficientStorage", "The site's storage (its database or media files) is full; nothing of the request was kept. Deleting generated content still works and frees space.", []string{"insufficient_storage"}},
}

func errorSchemaName(status int) string { return "Error" + errorStatuses[status].name }

func errorSchemas() obj {
	out := obj{}
	for status, e := range errorStatuses {
		out[errorSchemaName(status)] = record(props{
			"success": constant(false, ""),
			"code":    enum("", e.codes...),
			"message": str(""),
		})
	}
	return out
}

func errorResponses() obj {
	out := obj{}
	for status, e := range errorStatuses {
		r := obj{
			"description": e.desc,
			"content":     obj{"application/json": obj{"schema": ref(errorSchemaName(status))}},
		}
		switch status {
		case 401:
			r["headers"] = obj{
				"WWW-Authenticate": obj{"schema": str(""), "description": `Basic realm="...", charset="UTF-8"`},
			}
		case 429:
			r["headers"] = obj{
				"Retry-After": obj{"schema": integer(""), "description": "Seconds to wait before the next login attempt can be checked."},
			}
		}
		out[e.name] = r
	}
	return out
}

func (o *op) operation() obj {
	x := obj{"operationId": o.id, "summary": o.summary, "tags": []string{o.tag}}
	if o.desc != "" {
		x["description"] = o.desc
	}
	if len(o.params) > 0 {
		ps := make([]any, len(o.params))
		for i, p := range o.params {
			ps[i] = p
		}
		x["parameters"] = ps
	}
	switch {
	case o.requestBody != nil:
		x["requestBody"] = o.requestBody
	case o.body != nil:
		x["requestBody"] = obj{"required": o.bodyRequired, "content": obj{"application/json": obj{"schema": o.body}}}
	}
	responses := obj{}
	success := "200"
	if o.status != 0 {
		success = strconv.Itoa(o.status)
	}
	if o.response != nil {
		responses[success] = o.response
	} else {
		responses[success] = obj{"description": "Success.", "content": obj{"application/json": obj{"schema": o.answer}}}
	}
	statuses := append([]int{401, 403, 429, 500}, o.errs...)
	if o.method != "GET" && !slices.Contains(o.plainErrs, 507) {
		// Every write may find the storage full.
		statuses = append(statuses, 507)
	}
	plainErrs, eitherErrs := o.plainErrs, o.eitherErrs
	if o.method != "GET" && o.requestBody == nil {
		// A body that is not declared as JSON is refused before any
		// handler runs, in the envelope with a code.
		statuses = append(statuses, 415)
		if slices.Contains(plainErrs, 415) {
			plainErrs = slices.DeleteFunc(slices.Clone(plainErrs), func(s int) bool { return s == 415 })
			eitherErrs = append(slices.Clone(eitherErrs), 415)
		}
	}
	statuses = append(append(statuses, plainErrs...), eitherErrs...)
	slices.Sort(statuses)
	for _, s := range slices.Compact(statuses) {
		key := strconv.Itoa(s)
		var schema obj
		switch {
		case slices.Contains(plainErrs, s):
			schema = ref("ErrorWithoutCode")
		case slices.Contains(eitherErrs, s):
			schema = obj{"oneOf": []any{ref(errorSchemaName(s)), ref("ErrorWithoutCode")}}
		}
		if schema != nil {
			responses[key] = obj{
				"description": errorStatuses[s].desc + " " + o.plainNote,
				"content":     obj{"application/json": obj{"schema": schema}},
			}
			continue
		}
		responses[key] = obj{"$ref": "#/components/responses/" + errorStatuses[s].name}
	}
	x["responses"] = responses
	if o.route != "" {
		x["x-route"] = o.route
	}
	return x
}

// routeOf is the router pattern of o.
func (o *op) routeOf() string {
	if o.route != "" {
		return o.route
	}
	return o.method + " " + o.path
}

func pathsObject() obj {
	out := obj{}
	for _, o := range operations() {
		item, _ := out[o.path].(obj)
		if item == nil {
			item = obj{}
			out[o.path] = item
		}
		m := strings.ToLower(o.method)
		if _, dup := item[m]; dup {
			panic("openapidoc: " + o.method + " " + o.path + " is described twice")
		}
		item[m] = o.operation()
	}
	return out
}
