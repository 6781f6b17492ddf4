package frontend

import "testing"

// A memory limit's message gives it in MiB when it is whole MiB, with a
// fraction above one MiB, and in bytes below (a limit of 1 byte once read
// "over 0 MiB").
func TestMiB(t *testing.T) {
	for n, want := range map[int64]string{1: "1 byte", 1 << 20: "1 MiB", 3 << 29: "1536 MiB", 1<<20 + 1<<19: "1.5 MiB", 1<<20 - 1: "1048575 bytes"} {
		if got := MiB(n); got != want {
			t.Errorf("MiB(%d) = %q, want %q", n, got, want)
		}
	}
}

func TestHasImportPublic(t *testing.T) {
	for text, want := range map[string]bool{
		`import public "a.proto";`:                            true,
		"syntax = \"proto3\";\nimport\n\tpublic \"a.proto\";": true,
		`import "a.proto";`:                                   false,
		`import publicity "a.proto";`:                         false,
		`reimport public "a.proto";`:                          false,
		`importpublic "a.proto";`:                             false,
		`import public`:                                       true,
		``:                                                    false,
	} {
		if got := hasImportPublic(text); got != want {
			t.Errorf("hasImportPublic(%q) = %v", text, got)
		}
	}
}
