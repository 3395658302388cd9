package wphost

import (
	"math"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestPHPSerialize(t *testing.T) {
	cases := []struct {
		name string
		in   any
		want string
	}{
		{"null", nil, "N;"},
		{"true", true, "b:1;"},
		{"false", false, "b:0;"},
		{"int", int64(-42), "i:-42;"},
		{"string counts bytes", "Grüße", `s:7:"Grüße";`},
		{"string with quotes", `a"b;c`, `s:5:"a"b;c";`},
		{"float", 0.1, "d:0.1;"},
		{"whole float", 2.0, "d:2;"},
		{"large float", 1e25, "d:1.0E+25;"},
		{"small float", 1.5e-7, "d:1.5E-7;"},
		{"capabilities", phpArray{{"author", true}}, `a:1:{s:6:"author";b:1;}`},
		{"list", phpArray{{int64(0), "x"}, {int64(1), int64(2)}}, `a:2:{i:0;s:1:"x";i:1;i:2;}`},
		{"empty", phpArray{}, "a:0:{}"},
		{"nested", phpArray{{"sizes", phpArray{{"thumbnail", phpArray{{"width", int64(150)}}}}}},
			`a:1:{s:5:"sizes";a:1:{s:9:"thumbnail";a:1:{s:5:"width";i:150;}}}`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got, err := phpSerialize(tc.in)
			require.NoError(t, err)
			require.Equal(t, tc.want, got)
			back, err := phpUnserialize(got)
			require.NoError(t, err)
			if f, ok := tc.in.(float64); ok {
				require.InDelta(t, f, back, 0)
				return
			}
			require.Equal(t, tc.in, back)
		})
	}
	_, err := phpSerialize(struct{}{})
	require.Error(t, err)
	_, err = phpSerialize(phpArray{{1.5, "x"}})
	require.Error(t, err)
}

func TestPHPUnserialize(t *testing.T) {
	// As WordPress stores the roles of a fresh site (abridged).
	roles := `a:2:{s:13:"administrator";a:2:{s:4:"name";s:13:"Administrator";s:12:"capabilities";a:2:{s:13:"switch_themes";b:1;s:8:"level_10";b:1;}}s:10:"subscriber";a:2:{s:4:"name";s:10:"Subscriber";s:12:"capabilities";a:2:{s:4:"read";b:1;s:7:"level_0";b:1;}}}`
	v, err := phpUnserialize(roles)
	require.NoError(t, err)
	arr := v.(phpArray)
	require.Len(t, arr, 2)
	admin, ok := arr.get("administrator")
	require.True(t, ok)
	name, _ := admin.(phpArray).get("name")
	require.Equal(t, "Administrator", name)

	for _, in := range []string{"d:INF;", "d:-INF;"} {
		f, err := phpUnserialize(in)
		require.NoError(t, err)
		require.True(t, math.IsInf(f.(float64), 0))
	}
	f, err := phpUnserialize("d:NAN;")
	require.NoError(t, err)
	require.True(t, math.IsNaN(f.(float64)))
	f, err = phpUnserialize("d:1.0E+25;")
	require.NoError(t, err)
	require.Equal(t, 1e25, f)

	bad := []string{
		"", "x", "N", "b:2;", "i:1.5;", "i:1", `s:3:"ab";`, `s:1:"ab";`, `s:-1:"";`,
		"a:1:{}", "a:1:{i:0;}", "a:99:{i:0;i:0;}", "a:1:{d:1;i:0;}", "a:1:{N;i:0;}",
		`O:8:"stdClass":0:{}`, "i:1;i:2;", "d:x;", "a:0:{",
	}
	for _, in := range bad {
		_, err := phpUnserialize(in)
		require.ErrorIs(t, err, errPHPSyntax, "%q", in)
	}
	deep := ""
	for range 100 {
		deep += "a:1:{i:0;"
	}
	_, err = phpUnserialize(deep + "N;")
	require.ErrorIs(t, err, errPHPSyntax)
}

func FuzzPHPUnserialize(f *testing.F) {
	f.Add(`a:1:{s:6:"author";b:1;}`)
	f.Add(`a:2:{i:0;d:0.5;i:1;N;}`)
	f.Fuzz(func(t *testing.T, in string) {
		v, err := phpUnserialize(in)
		if err != nil {
			return
		}
		out, err := phpSerialize(v)
		require.NoError(t, err)
		again, err := phpUnserialize(out)
		require.NoError(t, err)
		out2, err := phpSerialize(again)
		require.NoError(t, err)
		require.Equal(t, out, out2)
	})
}
