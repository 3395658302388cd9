package wphost

import (
	"crypto/md5"
	"crypto/rand"
	"strings"
)

// itoa64 is the alphabet of phpass.
const itoa64 = "./0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"

// portableHashLog2 is the iteration count (2^13) of WordPress's phpass
// portable hash.
const portableHashLog2 = 13

// randomPasswordHash returns a phpass portable hash ("$P$B...") of a random
// password nobody knows: a user row WordPress accepts (wp_check_password
// verifies it) but that no one can log in to until the password is reset.
func randomPasswordHash() string {
	pw := make([]byte, 24)
	_, _ = rand.Read(pw)
	salt := make([]byte, 6)
	_, _ = rand.Read(salt)
	return portableHash(pw, salt, portableHashLog2)
}

// portableHash is phpass's crypt_private: md5 iterated 2^log2 times over
// an encoded salt and the password.
func portableHash(password, salt []byte, log2 int) string {
	return cryptPrivate(password, "$P$"+string(itoa64[log2])+encode64(salt, 6))
}

// cryptPrivate hashes password with the setting (the first 12 bytes of a
// portable hash: "$P$", the iteration count, 8 bytes of salt); "" for a
// setting of another form.
func cryptPrivate(password []byte, setting string) string {
	if len(setting) < 12 || setting[:3] != "$P$" {
		return ""
	}
	log2 := strings.IndexByte(itoa64, setting[3])
	if log2 < 7 || log2 > 30 {
		return ""
	}
	setting = setting[:12]
	h := md5.Sum(append([]byte(setting[4:12]), password...))
	for range 1 << log2 {
		h = md5.Sum(append(h[:], password...))
	}
	return setting + encode64(h[:], 16)
}

// encode64 is phpass's base-64 encoding of count bytes of in.
func encode64(in []byte, count int) string {
	var out []byte
	i := 0
	for i < count {
		v := int(in[i])
		i++
		out = append(out, itoa64[v&0x3f])
		if i < count {
			v |= int(in[i]) << 8
		}
		out = append(out, itoa64[(v>>6)&0x3f])
		if i >= count {
			break
		}
		i++
		if i < count {
			v |= int(in[i]) << 16
		}
		out = append(out, itoa64[(v>>12)&0x3f])
		if i >= count {
			break
		}
		i++
		out = append(out, itoa64[(v>>18)&0x3f])
	}
	return string(out)
}
