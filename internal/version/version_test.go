package version

import (
	"regexp"
	"testing"
)

func TestBaseIsSemver(t *testing.T) {
	if !regexp.MustCompile(`^v\d+\.\d+\.\d+(-[0-9A-Za-z.-]+)?$`).MatchString(Base) {
		t.Errorf("Base = %q, want a semantic version with a leading v", Base)
	}
}

func TestReal(t *testing.T) {
	for v, want := range map[string]bool{
		"":                                     false,
		"(devel)":                              false,
		"v0.0.0-20261201114500-7eaa9cb1d2e3":   false,
		"v0.1.0":                               true,
		"v0.1.1-0.20261201114500-7eaa9cb1d2e3": true,
		"v1.2.3+dirty":                         true,
	} {
		if got := real(v); got != want {
			t.Errorf("real(%q) = %v, want %v", v, got, want)
		}
	}
	// A test binary's main module is the package under test, built from
	// the checkout: String falls back to Base.
	if s := String(); !real(s) {
		t.Errorf("String() = %q, not a version", s)
	}
}
