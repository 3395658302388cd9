package locales

import (
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestWordFromTakesWholeWords: whatever byte and stretch it is given,
// wordFrom returns a whole word (no letter just before or just after it)
// that starts inside the stretch and after the start of any word the
// stretch cut, in scripts with and without spaces and with combining marks.
func TestWordFromTakesWholeWords(t *testing.T) {
	texts := []string{
		"One green basket, quietly explores every voice near the song.",
		"Der frühe Himmel erklärt „diesen“ Kunden; über 42 Brücken.",
		"Тот самый знаменитый кинотеатр покупает метро.",
		"写真家は誕生日に、この茶色の献立表を預けて、大家さんは先月。",
		"e\u0301cole de\u0301ja\u0300 vu, cafe\u0301!",
	}
	r := rand.New(rand.NewPCG(1, 2))
	for _, s := range texts {
		text := []byte(s)
		for range 2000 {
			lo := r.IntN(len(text))
			hi := lo + 1 + r.IntN(len(text)-lo)
			p := lo + r.IntN(hi-lo)
			wlo, whi, ok := wordFrom(text, p, lo, hi)
			if !ok {
				continue
			}
			require.GreaterOrEqual(t, wlo, lo, "%q [%d,%d) at %d", s, lo, hi, p)
			require.Less(t, wlo, hi, "%q", s)
			require.Less(t, wlo, whi, "%q", s)
			_, before := wordBefore(text, wlo)
			require.False(t, before, "%q: %q starts inside a word", s, text[wlo:whi])
			if whi < len(text) {
				in, _ := wordRune(text, whi, true)
				require.False(t, in, "%q: %q ends inside a word", s, text[wlo:whi])
			}
		}
	}
}

// TestArticleFollowsTheSound: English takes "an" before a vowel sound and
// "a" before a consonant sound, whatever the first letter says.
func TestArticleFollowsTheSound(t *testing.T) {
	for _, code := range []string{"en_US", "en_GB"} {
		p, err := NewRegistry().Lookup(code)
		require.NoError(t, err)
		w := NewWriter(p, RealText, rand.New(rand.NewPCG(1, 2)))
		for word, vowel := range map[string]bool{
			"apple": true, "urban": true, "unusual": true, "hour": true, "honest": true, "Heirloom": true,
			"university": false, "unique": false, "useful": false, "European": false, "hotel": false, "bridge": false,
		} {
			require.Equal(t, vowel, w.startsWithVowel(word), "%s: %q", code, word)
		}
	}
}
