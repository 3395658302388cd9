// Package locales holds the language data and the text writer that
// contentgen uses to make up titles, paragraphs, names, e-mail addresses and
// term names.
//
// A Registry knows the supported locales and matches near codes ("de-AT",
// "pt_pt", "nb") to the best one. Each Locale has a Pack: immutable word
// lists and rules for one language, built once per Registry and shared by
// every run. A Writer turns a Pack and a caller's random source into text;
// it is cheap to create, not safe for concurrent use, and reuses one buffer
// so that the only allocation per call is the returned string.
//
// Writer.Body writes a body in any format of its subpackage markup, the
// only package of the module it imports. HTMLOptions shape it: headings
// and sub-headings, bulleted or numbered lists, quotes with attribution,
// emphasis, links to addresses and images the caller supplies, and tables
// and code blocks for technical topics; the random choices never depend on
// the format.
//
// # Data files
//
// Each locale is one UTF-8 file in data/, embedded in the binary. A line
// "[name]" opens a section; "#" starts a comment line. A locale may extend
// another one's file (en_GB extends en_US): its sections replace whole
// sections of the base, its meta keys single keys.
//
// [meta] holds "key = value" lines: quotes (four marks: primary open and
// close, secondary open and close), date (a pattern of {d} {dd} {m} {mm}
// {month} {yyyy} and literal text), months, firstday (how day 1 is written,
// "1er"), decimal, group (a string or space, nbsp, nnbsp, none), mingroup
// (the fewest integer digits that are grouped, less 3), minus, titles
// (title or sentence case), nameorder ("family given"), namespace and
// textspace ("no" for scripts written without spaces), punctspace.before and
// punctspace.after (characters that take a narrow no-break space, as French
// ; : ! ?), termjoin (the "and" of two term names, "与|yu" with a
// romanisation), termjoin.alt, termlower, casing (turkish), and the grammar
// keys classes (noun classes, such as genders), nounforms, adjforms and
// verbforms (names of inflected forms besides the base; the verb forms fin
// and join end a sentence and a clause followed by another), adjpos (before
// or after the noun), adjchance, vowels (letters before which a
// determiner takes its elided form), and vowelstarts and consonantstarts
// (word beginnings that sound against their first letter, such as English
// "hour" and "uni", French aspirated "hé" of "héros").
//
// List sections hold entries separated by commas: female, male and family
// names ("Kowalski/Kowalska" gives masculine and feminine forms), nouns
// (prefixed by their class when the language has classes), adjectives,
// verbs, terms, cities, domains, and any other list a pattern names. An
// entry "base|form1|form2" gives inflected forms in the declared order; a
// missing form is derived by [rules], lines "kind form class
// suffix>replacement ...", the longest matching suffix winning. A name, term
// or city in a script without built-in romanisation is written "東京|tokyo".
//
// [np] lines "case class determiner adjective-form noun-form" define noun
// phrases per grammatical case: the determiner ("der", "l'/le" with its
// elided form, "-" for none), the adjective form it takes ("+f" when an
// adjective is required, "-" for none) and the noun form. [clauses],
// [titles], [bios] and [openers] are patterns, one per line: literal text
// with slots {case} (a noun phrase), {v} (a verb), {noun}, {adj}, {q} (a
// quoted term name) and {list} for any list section ({city}, {term}),
// optionally {slot.l} lower-cased or {slot.c} capitalised. [joiners] join
// clauses into sentences; [translit] lines "ä ae" give the locale's
// e-mail spelling of a letter.
//
// # Topics
//
// [topics] gives the locale's words for the fixed list of topics of
// TopicIDs (travel, road_trips, baking, programming ...), whose hierarchy
// (road_trips belongs to travel) is the same in every locale. Its lines
// are "id.names = ...", "id.nouns = ..." and "id.adjectives = ...",
// entries separated by commas as in the list sections, a key repeated to
// continue its list: term names (the main one first, "名前|roman" where
// the script needs a romanisation), at least 8 nouns written as in
// [nouns] (with their class and forms) and at least 3 adjectives written
// as in [adjectives]. The meta key topicshare (60 by default) is the
// percentage of nouns text about a topic takes from it, higher for a
// language whose patterns hold few noun phrases. A locale with the
// section must define every topic; one without it has no topics and
// writes as it did before. See data/TOPICS.md for a guide to adding the
// section.
//
// # Lexicon and frames
//
// A locale whose file has a [lexicon] section writes real text from
// sentence frames ([frames.ROLE] sections) whose slots take entries of
// one of ten types (person, role, thing, place, act, goal, problem,
// benefit, subject, event) of the post's topic, with every inflected form
// precomputed ([lexicon.forms], [lexicon.derive]). Writer.Title chooses a
// kind of post (how-to, tips, gear, mistakes, review, news, story) and its
// subject, which the body, excerpt and captions then follow;
// Writer.CommentOn and Writer.Reply speak of the subject a title names
// (Pack.TitleSubject). A subject may carry its own entries, which its
// posts draw from instead of the topic's; entries carry tags (a skill, a
// habit, a one-off act) that slots can ask for, and numbers, choices and
// street names that stay the same within a post and change from post to
// post; a post tells each personal story at most once. data/LEXICON.md is
// the guide to writing them. A locale without the section writes from its
// clause patterns.
//
// A Writer set to a topic (Writer.SetTopic) takes the topic share of the
// nouns and 40% of the adjectives of its real text from the topic, names a noun
// of the topic in every title, heading, excerpt and comment, and names
// terms after the topic. Without a topic it draws from the general
// vocabulary alone. Pack.TopicByTermName maps a category or tag name back
// to its topic.
package locales
