package contentgen

// SplitPost exposes splitPost to the tests.
var SplitPost = splitPost
