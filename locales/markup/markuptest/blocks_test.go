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

// Blocks of a rich post as the block editor saves them.
const savedRich = "<!-- wp:paragraph -->\n<p>A <em>b</em> <strong>c</strong> <a href=\"https://example.com/?a=1&amp;b=2\">d</a> e > f</p>\n<!-- /wp:paragraph -->\n\n" +
	"<!-- wp:list {\"ordered\":true} -->\n<ol class=\"wp-block-list\"><!-- wp:list-item -->\n<li>One</li>\n<!-- /wp:list-item --></ol>\n<!-- /wp:list -->\n\n" +
	"<!-- wp:quote -->\n<blockquote class=\"wp-block-quote\"><!-- wp:paragraph -->\n<p>Q</p>\n<!-- /wp:paragraph -->\n\n<!-- wp:paragraph -->\n<p>R</p>\n<!-- /wp:paragraph --><cite>Ann</cite></blockquote>\n<!-- /wp:quote -->\n\n" +
	"<!-- wp:image {\"id\":7,\"sizeSlug\":\"large\",\"linkDestination\":\"none\"} -->\n<figure class=\"wp-block-image size-large\"><img src=\"/a.jpg\" alt=\"A &quot;b&quot;\" class=\"wp-image-7\"/><figcaption class=\"wp-element-caption\">Cap</figcaption></figure>\n<!-- /wp:image -->\n\n" +
	"<!-- wp:table -->\n<figure class=\"wp-block-table\"><table class=\"has-fixed-layout\"><thead><tr><th>A</th><th>B</th></tr></thead><tbody><tr><td>1</td><td>2</td></tr></tbody></table></figure>\n<!-- /wp:table -->\n\n" +
	"<!-- wp:code -->\n<pre class=\"wp-block-code\"><code>a &amp;&amp; b &lt; c&#91;0]\nhttps:&#47;&#47;example.com/\nhttps://example.org/</code></pre>\n<!-- /wp:code -->"

func TestCheckRichBlocks(t *testing.T) {
	t.Parallel()
	require.NoError(t, markuptest.CheckBlocks(savedRich))
	image := func(attrs, html string) string {
		return "<!-- wp:image " + attrs + " -->\n" + html + "\n<!-- /wp:image -->"
	}
	okImage := `<figure class="wp-block-image size-large"><img src="/a.jpg" alt="" class="wp-image-7"/></figure>`
	require.NoError(t, markuptest.CheckBlocks(image(`{"id":7,"sizeSlug":"large","linkDestination":"none"}`, okImage)))
	for name, doc := range map[string]string{
		"unclosed em":           "<!-- wp:paragraph -->\n<p>A <em>b</p>\n<!-- /wp:paragraph -->",
		"crossed inline":        "<!-- wp:paragraph -->\n<p><em><strong>b</em></strong></p>\n<!-- /wp:paragraph -->",
		"link in link":          "<!-- wp:paragraph -->\n<p><a href=\"x\"><a href=\"y\">b</a></a></p>\n<!-- /wp:paragraph -->",
		"raw amp in href":       "<!-- wp:paragraph -->\n<p><a href=\"?a=1&b=2\">b</a></p>\n<!-- /wp:paragraph -->",
		"escaped gt in text":    "<!-- wp:paragraph -->\n<p>a &gt; b</p>\n<!-- /wp:paragraph -->",
		"ordered without attr":  "<!-- wp:list -->\n<ol class=\"wp-block-list\"><!-- wp:list-item -->\n<li>One</li>\n<!-- /wp:list-item --></ol>\n<!-- /wp:list -->",
		"quote without class":   "<!-- wp:quote -->\n<blockquote><!-- wp:paragraph -->\n<p>Q</p>\n<!-- /wp:paragraph --></blockquote>\n<!-- /wp:quote -->",
		"quote holding a list":  "<!-- wp:quote -->\n<blockquote class=\"wp-block-quote\"><!-- wp:list -->\n<ul class=\"wp-block-list\"><!-- wp:list-item -->\n<li>One</li>\n<!-- /wp:list-item --></ul>\n<!-- /wp:list --></blockquote>\n<!-- /wp:quote -->",
		"cite before paragraph": "<!-- wp:quote -->\n<blockquote class=\"wp-block-quote\"><cite>A</cite><!-- wp:paragraph -->\n<p>Q</p>\n<!-- /wp:paragraph --></blockquote>\n<!-- /wp:quote -->",
		"image id mismatch":     image(`{"id":8,"sizeSlug":"large","linkDestination":"none"}`, okImage),
		"image key order":       image(`{"sizeSlug":"large","id":7,"linkDestination":"none"}`, okImage),
		"image size mismatch":   image(`{"id":7,"sizeSlug":"full","linkDestination":"none"}`, okImage),
		"image no attributes":   "<!-- wp:image -->\n" + okImage + "\n<!-- /wp:image -->",
		"image caption class":   image(`{"id":7,"sizeSlug":"large","linkDestination":"none"}`, `<figure class="wp-block-image size-large"><img src="/a.jpg" alt="" class="wp-image-7"/><figcaption>C</figcaption></figure>`),
		"image raw gt":          image(`{"id":7,"sizeSlug":"large","linkDestination":"none"}`, `<figure class="wp-block-image size-large"><img src="/a.jpg" alt="a>b" class="wp-image-7"/></figure>`),
		"table without layout":  "<!-- wp:table -->\n<figure class=\"wp-block-table\"><table><tbody><tr><td>1</td></tr></tbody></table></figure>\n<!-- /wp:table -->",
		"table ragged":          "<!-- wp:table -->\n<figure class=\"wp-block-table\"><table class=\"has-fixed-layout\"><thead><tr><th>A</th><th>B</th></tr></thead><tbody><tr><td>1</td></tr></tbody></table></figure>\n<!-- /wp:table -->",
		"table on lines":        "<!-- wp:table -->\n<figure class=\"wp-block-table\"><table class=\"has-fixed-layout\">\n<tbody><tr><td>1</td></tr></tbody></table></figure>\n<!-- /wp:table -->",
		"code bracket":          "<!-- wp:code -->\n<pre class=\"wp-block-code\"><code>a[0]</code></pre>\n<!-- /wp:code -->",
		"code raw lt":           "<!-- wp:code -->\n<pre class=\"wp-block-code\"><code>a < b</code></pre>\n<!-- /wp:code -->",
		"code isolated url":     "<!-- wp:code -->\n<pre class=\"wp-block-code\"><code>https://example.com/</code></pre>\n<!-- /wp:code -->",
		"code language attr":    "<!-- wp:code {\"language\":\"go\"} -->\n<pre class=\"wp-block-code\"><code>a</code></pre>\n<!-- /wp:code -->",
	} {
		require.Error(t, markuptest.CheckBlocks(doc), name)
	}
}

func TestCheckBalanced(t *testing.T) {
	t.Parallel()
	require.NoError(t, markuptest.CheckBalanced("<p>a <em>b</em></p>\n<figure><img src=x alt=\"\"><figcaption>c</figcaption></figure><br/>"))
	require.NoError(t, markuptest.CheckBalanced(savedRich))
	for _, doc := range []string{"<p>a", "<p><em>a</p></em>", "</p>", "<p/>", "<img></img>", "<ul><li>a</ul>"} {
		require.Error(t, markuptest.CheckBalanced(doc), doc)
	}
}

func TestOutlineReadsMarkdownAsTheHTML(t *testing.T) {
	t.Parallel()
	html, err := markuptest.Outline("<figure><table><tr><td>1</td></tr></table></figure>" +
		"<blockquote><p>Q</p><cite>Ann</cite></blockquote><figure><img src=\"/a.jpg\" alt=\"A\"><figcaption>Cap</figcaption></figure><p><a href=\"/x\">l</a></p>")
	require.NoError(t, err)
	md, err := markuptest.Outline("<table><tr><td>1</td></tr></table>" +
		"<blockquote><p>Q</p><p>\u2014 Ann</p></blockquote><p><img src=\"/a.jpg\" alt=\"A\">\n<em>Cap</em></p><p><a href=\"/x\">l</a></p>")
	require.NoError(t, err)
	require.Equal(t, []string{"table", "tbody", "tr", "td:1", "blockquote", "p:Q", "cite:Ann", "figure", "img[/a.jpg|A]", "figcaption:Cap", "p", "a[/x]:l"}, html)
	require.Equal(t, html, md)
}
