package secrets_test

import (
	"fmt"

	"github.com/contentgen/contentgen/contentgen/secrets"
)

func Example() {
	kr, err := secrets.NewKeyringFromKey(make([]byte, secrets.KeySize)) // use secrets.GenerateKey() in real code
	if err != nil {
		panic(err)
	}
	stored := kr.SealString("sk-example-1234567890WXYZ", "ai_api_key", "ai_one")
	fmt.Println(stored[:3])

	key, err := kr.OpenString(stored, "ai_api_key", "ai_one")
	fmt.Println(secrets.Mask(key), err)

	_, err = kr.OpenString(stored, "ai_api_key", "ai_two")
	fmt.Println(err)
	// Output:
	// v1:
	// ********WXYZ <nil>
	// secrets: cannot decrypt: wrong encryption key, wrong purpose or subject, or tampered ciphertext (key version 1)
}
