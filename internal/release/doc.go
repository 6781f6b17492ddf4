// Package release holds make release-check: the test that every place
// protoplay states its version agrees with internal/version.Base, the one
// place it is written (see release_test.go). It has no code of its own.
package release
