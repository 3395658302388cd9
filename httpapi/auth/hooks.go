package auth

import "github.com/contentgen/contentgen/httpapi/internal/authhook"

func init() {
	authhook.CheapHashes = func(passwords any) {
		s := passwords.(*Passwords)
		s.derive = func(password string, salt []byte, _ int) ([]byte, error) {
			return pbkdf2Key(password, salt, 1)
		}
	}
}
