// Package builtin assembles the four image providers of the
// specification — provider_keyword, provider_curated, provider_random and
// provider_local — in one call, for wiring a Generator.
package builtin
