package addons_test

import (
	"encoding/json"
	"fmt"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/contentgen/contentgen/httpapi/addons"
)

func TestEmptyByDefault(t *testing.T) {
	t.Parallel()
	var r addons.Registry
	list := r.List()
	require.NotNil(t, list)
	require.Empty(t, list)
	b, err := json.Marshal(list)
	require.NoError(t, err)
	require.JSONEq(t, `[]`, string(b))
	_, ok := r.Get("x")
	require.False(t, ok)
	require.False(t, r.Remove("x"))
	require.False(t, r.SetActive("x", true))
}

func TestRegistry(t *testing.T) {
	t.Parallel()
	r, err := addons.NewRegistry(
		addons.Addon{Name: "Woo Data", Slug: "woo", Version: "1.2.0", Active: true, Description: "Shop products"},
		addons.Addon{Name: "Events", Slug: "events", Version: "0.9.1"},
	)
	require.NoError(t, err)
	require.NoError(t, r.Register(addons.Addon{Name: "Woo Data", Slug: " woo ", Version: "1.3.0", Active: true}))
	require.True(t, r.SetActive("events", true))
	list := r.List()
	require.Equal(t, []string{"woo", "events"}, []string{list[0].Slug, list[1].Slug}, "replacing keeps the position")
	require.Equal(t, "1.3.0", list[0].Version)
	require.True(t, list[1].Active)

	list[0].Name = "changed"
	a, ok := r.Get("woo")
	require.True(t, ok)
	require.Equal(t, "Woo Data", a.Name, "List returns a copy")

	b, err := json.Marshal(a)
	require.NoError(t, err)
	require.JSONEq(t, `{"name":"Woo Data","slug":"woo","version":"1.3.0","active":true,"description":""}`, string(b))

	require.True(t, r.Remove("woo"))
	require.Len(t, r.List(), 1)

	for _, bad := range []addons.Addon{{Name: "x"}, {Slug: "x"}, {Slug: "  ", Name: "x"}} {
		require.ErrorIs(t, r.Register(bad), addons.ErrInvalid)
	}
	_, err = addons.NewRegistry(addons.Addon{})
	require.ErrorIs(t, err, addons.ErrInvalid)
}

func TestConcurrent(t *testing.T) {
	t.Parallel()
	var r addons.Registry
	var wg sync.WaitGroup
	for i := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := range 50 {
				slug := fmt.Sprintf("a%d", (i*50+j)%20)
				_ = r.Register(addons.Addon{Name: slug, Slug: slug})
				r.SetActive(slug, j%2 == 0)
				_ = r.List()
				if j%7 == 0 {
					r.Remove(slug)
				}
			}
		}()
	}
	wg.Wait()
	require.LessOrEqual(t, len(r.List()), 20)
}

func ExampleRegistry() {
	var r addons.Registry
	_ = r.Register(addons.Addon{Name: "Events", Slug: "events", Version: "1.0.0", Active: true, Description: "Event post types"})
	b, _ := json.Marshal(r.List())
	fmt.Println(string(b))
	// Output:
	// [{"name":"Events","slug":"events","version":"1.0.0","active":true,"description":"Event post types"}]
}
