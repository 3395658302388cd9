package auth

import (
	"errors"
	"net/http"
	"testing"
	"time"
)

// lockedThrottle returns a throttle that refuses admin from 192.0.2.1.
func lockedThrottle(b *testing.B) *loginThrottle {
	b.Helper()
	clock := newFakeClock()
	th, err := newLoginThrottle(&ThrottleOptions{Now: clock.Now})
	if err != nil {
		b.Fatal(err)
	}
	for range 5 {
		att, _, _ := th.begin("admin", "192.0.2.1")
		att.done(false)
	}
	if _, wait, _ := th.begin("admin", "192.0.2.1"); wait == 0 {
		b.Fatal("not throttled")
	}
	return th
}

// BenchmarkThrottleRefused is the throttle's decision for a refused
// attempt: the work a guess costs once its user or address is throttled.
func BenchmarkThrottleRefused(b *testing.B) {
	th := lockedThrottle(b)
	b.ReportAllocs()
	for b.Loop() {
		if _, wait, _ := th.begin("admin", "192.0.2.1"); wait == 0 {
			b.Fatal("admitted")
		}
	}
}

// BenchmarkThrottleFloor is the floor of BenchmarkThrottleRefused: one
// map lookup of the user name.
func BenchmarkThrottleFloor(b *testing.B) {
	m := map[string]*entry{"admin": {key: "admin", failures: 5, until: time.Now().Add(time.Hour)}}
	b.ReportAllocs()
	var hit int
	for b.Loop() {
		if e := m["admin"]; e != nil {
			hit++
		}
	}
	if hit == 0 {
		b.Fatal("no hit")
	}
}

// BenchmarkBasicAuthRefused is a throttled attempt through Basic:
// decoding the header, the remembered-credentials check and the throttle.
func BenchmarkBasicAuthRefused(b *testing.B) {
	benchBasicAuth(b, nil)
}

// BenchmarkBasicAuthWrongPassword is an attempt the throttle admits: the
// cost of every guess before throttling, and of each guess it admits.
func BenchmarkBasicAuthWrongPassword(b *testing.B) {
	benchBasicAuth(b, &ThrottleOptions{UserFailures: 1 << 30, AddrFailures: 1 << 30, UserFailuresAnyClient: 1 << 30})
}

func benchBasicAuth(b *testing.B, to *ThrottleOptions) {
	clock := newFakeClock()
	pw, err := NewPasswords(&PasswordOptions{Now: clock.Now, Throttle: to})
	if err != nil {
		b.Fatal(err)
	}
	if _, err := pw.NewAppPassword("admin", "bench"); err != nil {
		b.Fatal(err)
	}
	a := &Basic{Passwords: pw, Users: staticDirectory{}}
	r, err := http.NewRequest("GET", "/", nil)
	if err != nil {
		b.Fatal(err)
	}
	r.RemoteAddr = "192.0.2.1:1000"
	r.SetBasicAuth("admin", "wrong guess")
	for range 6 {
		_, _ = a.Authenticate(r)
	}
	want := ErrTooManyAttempts
	if to != nil {
		want = ErrBadCredentials
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := a.Authenticate(r); !errors.Is(err, want) {
			b.Fatal(err)
		}
	}
}
