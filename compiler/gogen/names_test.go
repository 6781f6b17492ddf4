package gogen

import "testing"

func TestGoCamelCase(t *testing.T) {
	for in, want := range map[string]string{
		"foo_bar":          "FooBar",
		"FooBar":           "FooBar",
		"foo__bar":         "Foo_Bar",
		"_foo":             "XFoo",
		"foo.bar":          "FooBar",
		"Foo.Bar":          "Foo_Bar",
		"foo1bar":          "Foo1Bar",
		"QUEUE_DEPTH":      "QUEUE_DEPTH",
		"queueDepth":       "QueueDepth",
		"tally_sheet":      "TallySheet",
		"Outer.Inner_Part": "Outer_Inner_Part",
	} {
		if got := goCamelCase(in); got != want {
			t.Errorf("goCamelCase(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestGoPackageName(t *testing.T) {
	for in, want := range map[string]string{
		"type":          "_type",
		"v1":            "v1",
		"1abc":          "_1abc",
		"foo-bar":       "foo_bar",
		"documentation": "_documentation",
	} {
		if got := goPackageName(in); got != want {
			t.Errorf("goPackageName(%q) = %q, want %q", in, got, want)
		}
	}
}
