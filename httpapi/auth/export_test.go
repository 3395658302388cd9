package auth

// Hooks for the package's external tests, which drive the API over HTTP.

const (
	ChosenIterations    = chosenIterations
	GeneratedIterations = generatedIterations
	VerifiedTTL         = verifiedTTL
)

type (
	FakeClock         = fakeClock
	CountingPasswords = countingPasswords
)

var (
	NewFakeClock         = newFakeClock
	NewCountingPasswords = newCountingPasswords
)

// RoundsOf returns the PBKDF2 rounds spent by f.
func (c *countingPasswords) RoundsOf(f func()) int64 { return c.roundsOf(f) }

// Hold makes every hash wait until release is called and reports each
// hash as it starts on entered. Call it before the checks start.
func (c *countingPasswords) Hold() (entered <-chan struct{}, release func()) {
	c.block, c.entered = make(chan struct{}), make(chan struct{}, 64)
	return c.entered, func() { close(c.block) }
}

// Parked is the number of checks waiting for another check's result or
// for a place in the throttle.
func (c *countingPasswords) Parked() int64 { return c.Passwords.parked.Load() }
