package leanre

import (
	"fmt"
	"math/rand/v2"
	"regexp"
	"strings"
	"testing"

	"github.com/rivo/uniseg"
)

// fpRegexp is protocompile's experimental/internal/lexer fpRegexp, as
// released.
func fpRegexp(digits string, exp string) *regexp.Regexp {
	block := func(digits string) string {
		return fmt.Sprintf(`[%[1]s]+|[%[1]s][%[1]s_]+[%[1]s]`, digits)
	}
	pat := fmt.Sprintf(
		`^((?:%[1]s)?(?:\.(?:%[1]s)?)?)(?:([%[2]s])([+-]?%[3]s))?$`,
		block(digits), exp, block("0-9"),
	)
	return regexp.MustCompile(pat)
}

// inputs returns every string over alphabet up to n bytes long, then
// random ones up to 24 bytes.
func inputs(alphabet string, n int) []string {
	out := []string{""}
	last := []string{""}
	for l := 1; l <= n; l++ {
		var next []string
		for _, s := range last {
			for i := 0; i < len(alphabet); i++ {
				next = append(next, s+alphabet[i:i+1])
			}
		}
		out = append(out, next...)
		last = next
	}
	r := rand.New(rand.NewPCG(1, 2))
	for range 20000 {
		b := make([]byte, r.IntN(25))
		for i := range b {
			b[i] = alphabet[r.IntN(len(alphabet))]
		}
		out = append(out, string(b))
	}
	return out
}

func TestMatchersAgreeWithRegexp(t *testing.T) {
	cases := []struct {
		name     string
		re       *regexp.Regexp
		f        func(string) bool
		alphabet string
	}{
		{"asciiIdent", regexp.MustCompile(`^[a-zA-Z_][0-9a-zA-Z_]*$`), leanIsASCIIIdent, "aZ_09.-\n\xff"},
		{"isOrdinaryFilePath", regexp.MustCompile(`^[0-9a-zA-Z./_-]*$`), leanIsOrdinaryFilePath, "aZ9./_- \\\n\xc3"},
		{"treatAsOctal", regexp.MustCompile("^[0-9a-dfA-DF_]+$"), leanTreatAsOctal, "09adfeADFE_.x"},
		{"decFloat", fpRegexp("0-9", "eEpP"), leanIsDecFloat, "09_.eEpP+-x"},
		{"hexFloat", fpRegexp("0-9a-fA-F", "pP"), leanIsHexFloat, "09aF_.pP+-eg"},
	}
	for _, c := range cases {
		for _, s := range inputs(c.alphabet, 5) {
			if got, want := c.f(s), c.re.MatchString(s); got != want {
				t.Errorf("%s(%q) = %v, regexp says %v", c.name, s, got, want)
			}
		}
	}
}

// normalizeReason's four replacements with the expressions, as
// protocompile's experimental/internal/erredition does them.
func normalizeWithRegexp(text string) string {
	text = regexp.MustCompile(`[ \t\r\n]+`).ReplaceAllString(text, " ")
	text = regexp.MustCompile(` See http:\/\/protobuf\.dev\/[^ ]+ for more information\.?`).ReplaceAllString(text, "")
	text = regexp.MustCompile(`\.( [A-Z]|$)`).ReplaceAllStringFunc(text, func(match string) string {
		if match == "." {
			return ""
		}
		return ";" + strings.ToLower(match[1:])
	})
	return regexp.MustCompile(`edition [0-9]+`).ReplaceAllStringFunc(text, func(s string) string {
		return "E" + s[1:]
	})
}

func TestNormalizeReasonAgreesWithRegexp(t *testing.T) {
	words := []string{" ", "  ", "\t", "\n", ".", ". ", "A", "b", "edition", "edition ", "2023", "1", "x",
		" See http://protobuf.dev/", "programming-guides/editions", " for more information", "Edition", "é", "\xff"}
	fixed := []string{
		"Use  features.field_presence instead.  See http://protobuf.dev/editions/features for more information.",
		"removed in edition 2024. Use X. see edition 2023.",
		" See http://protobuf.dev/ for more information.",
		" See http://protobuf.dev/a See http://protobuf.dev/b for more information",
		"edition 1edition 2. Z.",
	}
	r := rand.New(rand.NewPCG(3, 4))
	for range 50000 {
		var b strings.Builder
		for range r.IntN(8) {
			b.WriteString(words[r.IntN(len(words))])
		}
		fixed = append(fixed, b.String())
	}
	for _, s := range fixed {
		if got, want := leanNormalizeReason(s), normalizeWithRegexp(s); got != want {
			t.Errorf("leanNormalizeReason(%q) = %q, regexp gives %q", s, got, want)
		}
	}
}

func TestANSIEscapeAgreesWithRegexp(t *testing.T) {
	re := regexp.MustCompile("^\033\\[([\\d;]*)m")
	for _, s := range inputs("\033[m;09xa", 6) {
		got, want := leanANSIEscape([]byte(s)), re.Find([]byte(s))
		if string(got) != string(want) || (got == nil) != (want == nil) {
			t.Errorf("leanANSIEscape(%q) = %q, regexp finds %q", s, got, want)
		}
	}
}

// termWidth is protocompile's internal/ext/unicodex Width.WriteString (a
// column from 0, tabstop 4, printable text) as released: the column
// experimental/source computes in length.TermWidth.
func termWidth(s string) int {
	col := 0
	for i, next := range strings.Split(s, "\t") {
		if i > 0 {
			col += 4 - col%4
		}
		col += uniseg.StringWidth(next)
	}
	return col
}

// leanTermColumn agrees with the released computation wherever it answers,
// and answers for every string of printable ASCII and tabs.
func TestTermColumnAgrees(t *testing.T) {
	for _, s := range append(inputs("a \t~\x7f\x1f\r\né貓", 5), "\tmessage Foo {\t// x", strings.Repeat("ab\t", 40)) {
		got, ok := leanTermColumn(s)
		ascii := true
		for i := 0; i < len(s); i++ {
			if c := s[i]; c != '\t' && (c < 0x20 || c >= 0x7f) {
				ascii = false
			}
		}
		if ok != ascii {
			t.Fatalf("leanTermColumn(%q): ok %v, want %v", s, ok, ascii)
		}
		if ok && got != termWidth(s) {
			t.Fatalf("leanTermColumn(%q) = %d, want %d", s, got, termWidth(s))
		}
	}
}
