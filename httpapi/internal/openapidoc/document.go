package openapidoc

import (
	"bytes"
	"encoding/json"
	"maps"
)

// Version is the version of the API the document describes.
const Version = "1.0.0"

// Document returns the OpenAPI document as JSON values.
func Document() map[string]any {
	schemaSet := schemas()
	maps.Copy(schemaSet, errorSchemas())
	return obj{
		"openapi":           "3.1.0",
		"jsonSchemaDialect": "https://spec.openapis.org/oas/3.1/dialect/base",
		"info": obj{
			"title":   "contentgen HTTP API",
			"version": Version,
			"summary": "Generates realistic fake content for a content platform and removes exactly what it generated.",
			"description": "Every path is relative to the base the API is mounted under (/contentgen/v1 in the example server). " +
				"Every endpoint needs an authenticated user with the manage_options capability: HTTP Basic with an application password, " +
				"or a session cookie with its nonce in X-Host-Nonce (or X-WP-Nonce). " +
				"Request bodies are JSON objects of at most 1 MiB unless stated; unknown properties are ignored. " +
				"Array query parameters are sent as name[]=value, repeated. Timestamps are \"YYYY-MM-DD HH:MM:SS\". " +
				"Two envelopes exist: the legacy endpoints (/cpts/all, /cpts/supports/{post_type}, /taxonomies/all, /urls) answer status 200 plus result or urls; " +
				"the others answer success true plus data. Failures answer {success: false, code, message} with the status of the code; " +
				"an unknown path answers 404 not_found and a known path with another method 405 method_not_allowed, with an Allow header.",
		},
		"servers": []any{obj{"url": "/contentgen/v1", "description": "Where the example server mounts the API; it works under any prefix."}},
		"security": []any{
			obj{"applicationPassword": []string{}},
			obj{"sessionCookie": []string{}, "nonce": []string{}},
			obj{"sessionCookie": []string{}, "legacyNonce": []string{}},
		},
		"tags": []any{
			obj{"name": "Generation", "description": "Create and delete generated content."},
			obj{"name": "History", "description": "What was generated, statistics, time saved, cleanup."},
			obj{"name": "Settings", "description": "General and AI settings, detection caches."},
			obj{"name": "Information", "description": "The structure of the site, addresses, licence, addons, this document."},
			obj{"name": "Media", "description": "Image providers and the media library."},
			obj{"name": "Templates", "description": "Saved generation configurations, custom fields, dependencies, sync."},
			obj{"name": "Content", "description": "What exists on the site, generated or not, as a reader sees it."},
			obj{"name": "Runs", "description": "Generation of any size as durable jobs that survive restarts and spread over the worker processes of one database."},
		},
		"paths": pathsObject(),
		"components": obj{
			"schemas":   schemaSet,
			"responses": errorResponses(),
			"securitySchemes": obj{
				"applicationPassword": obj{
					"type": "http", "scheme": "basic",
					"description": "User name and application password. The password contains spaces; they are part of it. " +
						"The account password is accepted only where the server enables it for development.",
				},
				"sessionCookie": obj{
					"type": "apiKey", "in": "cookie", "name": "contentgen_session",
					"description": "The session cookie of a signed-in user (its name is configurable); valid only with the session's nonce.",
				},
				"nonce": obj{
					"type": "apiKey", "in": "header", "name": "X-Host-Nonce",
					"description": "The nonce of the cookie session, as GET /urls reports it.",
				},
				"legacyNonce": obj{
					"type": "apiKey", "in": "header", "name": "X-WP-Nonce",
					"description": "The same nonce under the header name the host platform uses; accepted when X-Host-Nonce is absent.",
				},
			},
		},
	}
}

// JSON returns the document as indented JSON ending in a newline, the
// form committed as httpapi/openapi.json.
func JSON() ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(Document()); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}
