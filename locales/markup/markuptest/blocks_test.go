package markuptest_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/contentgen/contentgen/locales/markup/markuptest"
)

// A post as the block editor saves it: a heading, a paragraph and a list
// with list-item inner blocks.
const saved = "<!-- wp:heading -->\n<h2 class=\"wp-block-heading\">Title</h2>\n<!-- /wp:heading -->\n\n" +
	"<!-- wp:paragraph -->\n<p>Fish &amp; chips.</p>\n<!-- /wp:paragraph -->\n\n" +
	"<!-- wp:list -->\n<ul class=\"wp-block-list\"><!-- wp:list-item -->\n<li>One</li>\n<!-- /wp:list-item -->\n\n" +
	"<!-- wp:list-item -->\n<li>Two</li>\n<!-- /wp:list-item --></ul>\n<!-- /wp:list -->"

func TestParseBlocks(t *testing.T) {
	t.Parallel()
	blocks, err := markuptest.ParseBlocks(saved + "\n\n<!-- wp:separator /-->\n\n<!-- wp:acme/box {\"a\":{\"b\":1}} -->\n<div></div>\n<!-- /wp:acme/box -->")
	require.NoError(t, err)
	var names []string
	for _, b := range blocks {
		names = append(names, b.Name)
	}
	require.Equal(t, []string{"core/heading", "", "core/paragraph", "", "core/list", "", "core/separator", "", "acme/box"}, names)
	list := blocks[4]
	require.Len(t, list.InnerBlocks, 2)
	require.Equal(t, "core/list-item", list.InnerBlocks[1].Name)
	require.Equal(t, "\n<li>Two</li>\n", list.InnerBlocks[1].InnerHTML())
	require.True(t, blocks[6].SelfClosing)
	require.Equal(t, `{"a":{"b":1}}`, blocks[8].Attrs)
	require.Equal(t, "\n<ul class=\"wp-block-list\">\n\n</ul>\n", list.InnerHTML())
}

func TestCheckBlocks(t *testing.T) {
	t.Parallel()
	require.NoError(t, markuptest.CheckBlocks(saved))
	for name, doc := range map[string]string{
		"stray html":         saved + "\n\n<p>loose</p>",
		"stray text inside":  "<!-- wp:list -->\n<ul class=\"wp-block-list\">x<!-- wp:list-item -->\n<li>One</li>\n<!-- /wp:list-item --></ul>\n<!-- /wp:list -->",
		"level 2 attribute":  "<!-- wp:heading {\"level\":2} -->\n<h2 class=\"wp-block-heading\">T</h2>\n<!-- /wp:heading -->",
		"level mismatch":     "<!-- wp:heading {\"level\":3} -->\n<h4 class=\"wp-block-heading\">T</h4>\n<!-- /wp:heading -->",
		"heading no class":   "<!-- wp:heading -->\n<h2>T</h2>\n<!-- /wp:heading -->",
		"list without class": "<!-- wp:list -->\n<ul><!-- wp:list-item -->\n<li>One</li>\n<!-- /wp:list-item --></ul>\n<!-- /wp:list -->",
		"item outside list":  "<!-- wp:list-item -->\n<li>One</li>\n<!-- /wp:list-item -->",
		"unclosed":           "<!-- wp:paragraph -->\n<p>T</p>\n",
		"mismatched close":   "<!-- wp:paragraph -->\n<p>T</p>\n<!-- /wp:heading -->",
		"bad attributes":     "<!-- wp:paragraph {nope} -->\n<p>T</p>\n<!-- /wp:paragraph -->",
		"unescaped amp":      "<!-- wp:paragraph -->\n<p>Fish & chips</p>\n<!-- /wp:paragraph -->",
		"one newline apart":  "<!-- wp:paragraph -->\n<p>A</p>\n<!-- /wp:paragraph -->\n<!-- wp:paragraph -->\n<p>B</p>\n<!-- /wp:paragraph -->",
		"trailing newline":   saved + "\n",
		"inline markup":      "<!-- wp:paragraph -->\n<p>A <b>B</b></p>\n<!-- /wp:paragraph -->",
	} {
		require.Error(t, markuptest.CheckBlocks(doc), name)
	}
}

func TestOutline(t *testing.T) {
	t.Parallel()
	got, err := markuptest.Outline("<h2>A &amp; B</h2>\n<p> text </p>loose<ul><li>x</li></ul>")
	require.NoError(t, err)
	require.Equal(t, []string{"h2:A & B", "p:text", "#text:loose", "ul", "li:x"}, got)
}
