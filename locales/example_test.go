package locales_test

import (
	"fmt"
	"math/rand/v2"
	"time"

	"github.com/contentgen/contentgen/locales"
)

func Example() {
	reg := locales.NewRegistry()
	code, _ := reg.Match("de-AT") // the closest supported locale
	pack, err := reg.Lookup(code)
	if err != nil {
		panic(err)
	}
	w := locales.NewWriter(pack, locales.RealText, rand.New(rand.NewPCG(1, 2)))
	person := w.Person()
	fmt.Println(code)
	fmt.Println(person.Display, w.Email(person, 0))
	fmt.Println(w.Title())
	fmt.Println(pack.FormatDate(time.Date(2024, 3, 7, 0, 0, 0, 0, time.UTC)), pack.FormatNumber(1234.5, 2))
	// Output:
	// de_DE
	// Maja Wendt maja.wendt@beispiel.example
	// Meine Ausrüstung fürs Debugging
	// 7. März 2024 1.234,50
}
