package httpapi

import (
	"errors"
	"net/http"
	"time"

	"github.com/contentgen/contentgen/contentgen"
	"github.com/contentgen/contentgen/httpapi/addons"
	"github.com/contentgen/contentgen/httpapi/license"
	"github.com/contentgen/contentgen/providers/ai"
)

func (a *API) aiRoutes() {
	a.handle("GET /settings/ai", a.aiSettings)
	a.handle("POST /settings/ai", a.updateAISettings)
	a.handle("POST /settings/ai/test", a.testAI)
	a.handle("POST /settings/ai/clear-cache", a.clearAICache)
	a.handle("DELETE /field-detections", a.clearFieldDetections)
	a.handle("DELETE /field-detections/{post_type}", a.clearFieldDetections)
	a.handle("GET /license", a.licenseStatus)
	a.handle("POST /license/activate", a.licenseActivate)
	a.handle("POST /license/deactivate", a.licenseChange(false))
	a.handle("POST /license/refresh", a.licenseChange(true))
	a.handle("GET /addons", a.addonList)
}

func (a *API) aiSettings(w http.ResponseWriter, r *http.Request) error {
	s, err := a.g.Settings().Get(r.Context())
	if err != nil {
		return err
	}
	return ok(w, struct {
		Success  bool             `json:"success"`
		Settings aiSettingsDetail `json:"settings"`
	}{true, newAISettingsDetail(&s)})
}

func (a *API) updateAISettings(w http.ResponseWriter, r *http.Request) error {
	var b aiSettingsBody
	if err := decodeJSON(w, r, a.maxBody, &b); err != nil {
		return err
	}
	var p Preferences
	s, err := a.g.Settings().UpdateWith(r.Context(), &p, b.apply)
	if err != nil {
		return err
	}
	return ok(w, struct {
		Success  bool             `json:"success"`
		Message  string           `json:"message"`
		Settings aiSettingsDetail `json:"settings"`
	}{true, a.messagesOf(r.Context(), p.AdminLocale).SettingsSaved(), newAISettingsDetail(&s)})
}

// testAI reports the outcome of the key check as data: success false with
// the reason is a completed test, answered with 200.
func (a *API) testAI(w http.ResponseWriter, r *http.Request) error {
	err := a.g.Settings().TestAI(r.Context())
	if r.Context().Err() != nil {
		return r.Context().Err()
	}
	msg := ai.TestMessage(err)
	var ce *contentgen.Error
	if errors.As(err, &ce) {
		msg = ce.Message
		if ce.Code != contentgen.CodeUnavailable {
			a.log.ErrorContext(r.Context(), "httpapi: AI connection test failed", "err", err)
		}
	}
	return ok(w, success{Success: err == nil, Message: msg})
}

func (a *API) clearAICache(w http.ResponseWriter, r *http.Request) error {
	n, err := a.g.Templates().ClearDetections(r.Context(), "")
	if err != nil {
		return err
	}
	return ok(w, success{true, a.messages(r.Context()).DetectionsCleared(n)})
}

func (a *API) clearFieldDetections(w http.ResponseWriter, r *http.Request) error {
	n, err := a.g.Templates().ClearDetections(r.Context(), r.PathValue("post_type"))
	if err != nil {
		return err
	}
	return ok(w, struct {
		Success bool   `json:"success"`
		Message string `json:"message"`
		Deleted int    `json:"deleted"`
	}{true, a.messages(r.Context()).DetectionsCleared(n), n})
}

// licenseRecord is a licence status with the timestamps of the records.
type licenseRecord struct {
	Status      string  `json:"status"`
	Plan        string  `json:"plan"`
	ExpiresAt   *string `json:"expires_at"`
	Site        string  `json:"site"`
	ActivatedAt *string `json:"activated_at"`
	CheckedAt   *string `json:"checked_at"`
	Key         string  `json:"license_key"`
	Message     string  `json:"message"`
}

func stampUTC(t *time.Time) *string {
	if t == nil {
		return nil
	}
	s := timestamp(t.UTC())
	return &s
}

func (a *API) writeLicense(w http.ResponseWriter, msg string, st license.Status) error {
	return ok(w, struct {
		Success bool          `json:"success"`
		Message string        `json:"message,omitempty"`
		License licenseRecord `json:"license"`
	}{true, msg, licenseRecord{
		Status: st.Status, Plan: st.Plan, ExpiresAt: stampUTC(st.ExpiresAt), Site: st.Site,
		ActivatedAt: stampUTC(st.ActivatedAt), CheckedAt: stampUTC(st.CheckedAt), Key: st.Key, Message: st.Message,
	}})
}

var errNoLicensing = contentgen.Errorf(codeUnavailable, "", "Licensing is not configured on this server.")

func (a *API) licenseStatus(w http.ResponseWriter, r *http.Request) error {
	if a.license == nil {
		return a.writeLicense(w, "", license.Status{Status: license.StatusInactive, Message: "Licensing is not configured on this server."})
	}
	st, err := a.license.Status(r.Context())
	if err != nil {
		return err
	}
	return a.writeLicense(w, "", st)
}

func (a *API) licenseActivate(w http.ResponseWriter, r *http.Request) error {
	var body struct {
		LicenseKey string `json:"license_key"`
	}
	if err := decodeJSON(w, r, a.maxBody, &body); err != nil {
		return err
	}
	if body.LicenseKey == "" {
		return paramError("license_key", "license_key is required")
	}
	if a.license == nil {
		return errNoLicensing
	}
	site, err := a.g.Content().Site(r.Context())
	if err != nil {
		return err
	}
	st, err := a.license.Activate(r.Context(), body.LicenseKey, site.URL)
	if license.IsKeyError(err) {
		return paramError("license_key", "%s", license.UserMessage(err))
	}
	if err != nil {
		return err
	}
	return a.writeLicense(w, "Licence activated.", st)
}

// licenseChange refreshes (refresh true) or deactivates the licence.
func (a *API) licenseChange(refresh bool) handlerFunc {
	return func(w http.ResponseWriter, r *http.Request) error {
		if a.license == nil {
			return errNoLicensing
		}
		var st license.Status
		var err error
		msg := "Licence deactivated."
		if refresh {
			msg = "Licence status refreshed."
			st, err = a.license.Refresh(r.Context())
		} else {
			st, err = a.license.Deactivate(r.Context())
		}
		if err != nil {
			if license.IsKeyError(err) {
				// The stored key no longer verifies; the status says why.
				return a.writeLicense(w, license.UserMessage(err), st)
			}
			return err
		}
		return a.writeLicense(w, msg, st)
	}
}

func (a *API) addonList(w http.ResponseWriter, r *http.Request) error {
	list := []addons.Addon{}
	if a.addons != nil {
		list = a.addons.List()
	}
	return ok(w, struct {
		Success bool           `json:"success"`
		Addons  []addons.Addon `json:"addons"`
	}{true, list})
}
