package auth_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/contentgen/contentgen/httpapi/auth"
)

// users knows every login as an administrator.
type users struct{}

func (users) Lookup(_ context.Context, login string) (*auth.Principal, error) {
	return &auth.Principal{Login: login, Capabilities: []string{"manage_options"}}, nil
}

func TestNewValidates(t *testing.T) {
	t.Parallel()
	_, err := auth.New(nil, nil)
	require.ErrorContains(t, err, "users")
	_, err = auth.New(users{}, &auth.Options{Sessions: &auth.SessionOptions{MaxSessions: -1}})
	require.ErrorContains(t, err, "MaxSessions")
	_, err = auth.New(users{}, &auth.Options{TrustedOrigins: []string{"not an origin"}})
	require.ErrorContains(t, err, "TrustedOrigins")
}

// TestSetupLogsInOverBasicAndCookie follows a user through the setup:
// Basic credentials, a session from LoginHandler, then the session with
// its nonce.
func TestSetupLogsInOverBasicAndCookie(t *testing.T) {
	t.Parallel()
	a, err := auth.New(users{}, nil)
	require.NoError(t, err)
	pw, err := a.Passwords.NewAppPassword("admin", "tests")
	require.NoError(t, err)

	r := httptest.NewRequest("GET", "/", nil)
	p, err := a.Authenticate(r)
	require.NoError(t, err)
	require.Nil(t, p, "no credentials")

	r.SetBasicAuth("admin", pw)
	p, err = a.Authenticate(r)
	require.NoError(t, err)
	require.Equal(t, "application_password", p.Method)

	rec := httptest.NewRecorder()
	login := httptest.NewRequest("POST", "/login", nil)
	login.SetBasicAuth("admin", "wrong")
	a.LoginHandler().ServeHTTP(rec, login)
	require.Equal(t, http.StatusUnauthorized, rec.Code)
	require.Equal(t, `Basic realm="contentgen"`, rec.Header().Get("WWW-Authenticate"))

	rec = httptest.NewRecorder()
	login.SetBasicAuth("admin", pw)
	a.LoginHandler().ServeHTTP(rec, login)
	require.Equal(t, http.StatusOK, rec.Code, rec.Body.String())
	cookies := rec.Result().Cookies()
	require.Len(t, cookies, 1)

	r = httptest.NewRequest("GET", "/", nil)
	r.AddCookie(cookies[0])
	r.Header.Set("X-Host-Nonce", a.Sessions.Nonce(&auth.Principal{Login: "admin", Session: cookies[0].Value}))
	p, err = a.Authenticate(r)
	require.NoError(t, err)
	require.Equal(t, "cookie", p.Method)
}
