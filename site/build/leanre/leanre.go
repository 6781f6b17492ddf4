// Package leanre holds the hand-written matchers that replace
// protocompile's regular expressions in protoplay's wasm core
// (site/build/lean.go). Each function does what the expression in its
// comment does with package regexp; leanre_test.go checks that on many
// inputs. leanTermColumn, a fast path of experimental/source's column
// count, is checked the same way against the released computation. The
// patches append the declarations below the marker line to
// each patched file, so they import nothing and their names start with
// "lean", which no protocompile package uses.
package leanre

// ---- appended to the patched files ----

// leanIsASCIIIdent: regexp `^[a-zA-Z_][0-9a-zA-Z_]*$`.MatchString.
func leanIsASCIIIdent(s string) bool {
	if s == "" || '0' <= s[0] && s[0] <= '9' {
		return false
	}
	for i := 0; i < len(s); i++ {
		if !leanIsDigit(s[i]) && !leanIsLetter(s[i]) && s[i] != '_' {
			return false
		}
	}
	return true
}

// leanIsOrdinaryFilePath: regexp `^[0-9a-zA-Z./_-]*$`.MatchString.
func leanIsOrdinaryFilePath(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !leanIsDigit(c) && !leanIsLetter(c) && c != '.' && c != '/' && c != '_' && c != '-' {
			return false
		}
	}
	return true
}

// leanTreatAsOctal: regexp `^[0-9a-dfA-DF_]+$`.MatchString.
func leanTreatAsOctal(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !leanIsDigit(c) && c != '_' && !('a' <= c && c <= 'd') && c != 'f' && !('A' <= c && c <= 'D') && c != 'F' {
			return false
		}
	}
	return true
}

// leanIsDecFloat: the lexer's fpRegexp("0-9", "eEpP").MatchString.
func leanIsDecFloat(s string) bool {
	return leanFloat(s, leanIsDigit, func(c byte) bool { return c == 'e' || c == 'E' || c == 'p' || c == 'P' })
}

// leanIsHexFloat: the lexer's fpRegexp("0-9a-fA-F", "pP").MatchString.
func leanIsHexFloat(s string) bool {
	return leanFloat(s, func(c byte) bool {
		return leanIsDigit(c) || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
	}, func(c byte) bool { return c == 'p' || c == 'P' })
}

// leanFloat matches s against
// `^((?:B)?(?:\.(?:B)?)?)(?:([X])([+-]?[0-9]+|[0-9][0-9_]+[0-9]))?$`,
// the lexer's expression, where B is `[D]+|[D][D_]+[D]` (digits, with
// underscores only between digits), D the digits isDigit accepts and X
// the exponent characters isExp accepts (none of them a digit). The
// exponent's sign binds to its first alternative only, so a signed
// exponent has no underscores.
func leanFloat(s string, isDigit, isExp func(byte) bool) bool {
	i := leanBlock(s, 0, isDigit)
	if i < 0 {
		return false
	}
	if i < len(s) && s[i] == '.' {
		if i = leanBlock(s, i+1, isDigit); i < 0 {
			return false
		}
	}
	if i == len(s) {
		return true
	}
	if !isExp(s[i]) {
		return false
	}
	i++
	// The expression's exponent is `[+-]?[0-9]+|[0-9][0-9_]+[0-9]`
	// (the sign binds to the first alternative only): a signed exponent
	// has no underscores.
	if i < len(s) && (s[i] == '+' || s[i] == '-') {
		i++
		if i == len(s) {
			return false
		}
		for ; i < len(s); i++ {
			if !leanIsDigit(s[i]) {
				return false
			}
		}
		return true
	}
	return i < len(s) && leanBlock(s, i, leanIsDigit) == len(s)
}

// leanBlock reads the run of digits and underscores at s[i:] and returns
// where it ends: i when it is empty, -1 when it does not start and end with
// a digit.
func leanBlock(s string, i int, isDigit func(byte) bool) int {
	j := i
	for j < len(s) && (isDigit(s[j]) || s[j] == '_') {
		j++
	}
	if j > i && (!isDigit(s[i]) || !isDigit(s[j-1])) {
		return -1
	}
	return j
}

// leanNormalizeReason does the four replacements of erredition's
// normalizeReason, in its order: `[ \t\r\n]+` by " "; ` See
// http:\/\/protobuf\.dev\/[^ ]+ for more information\.?` by ""; `\.(
// [A-Z]|$)` by "" at the end and by "; " and the letter in lower case
// elsewhere; and `edition [0-9]+` with its "e" capitalized.
func leanNormalizeReason(text string) string {
	// Whitespace runs.
	b := make([]byte, 0, len(text))
	for i := 0; i < len(text); i++ {
		if leanIsSpace(text[i]) {
			if i == 0 || !leanIsSpace(text[i-1]) {
				b = append(b, ' ')
			}
			continue
		}
		b = append(b, text[i])
	}
	text = string(b)

	// protobuf.dev links.
	const link, more = " See http://protobuf.dev/", " for more information"
	b = b[:0]
	for i := 0; i < len(text); {
		if leanHasPrefix(text[i:], link) {
			j := i + len(link)
			k := j
			for k < len(text) && text[k] != ' ' {
				k++
			}
			if k > j && leanHasPrefix(text[k:], more) {
				k += len(more)
				if k < len(text) && text[k] == '.' {
					k++
				}
				i = k
				continue
			}
		}
		b = append(b, text[i])
		i++
	}
	text = string(b)

	// Sentence-ending periods.
	b = b[:0]
	for i := 0; i < len(text); i++ {
		if text[i] == '.' {
			if i == len(text)-1 {
				continue
			}
			if i+2 < len(text) && text[i+1] == ' ' && 'A' <= text[i+2] && text[i+2] <= 'Z' {
				b = append(b, ';', ' ', text[i+2]+'a'-'A')
				i += 2
				continue
			}
		}
		b = append(b, text[i])
	}
	text = string(b)

	// "edition 2023" -> "Edition 2023".
	b = b[:0]
	for i := 0; i < len(text); {
		if leanHasPrefix(text[i:], "edition ") {
			j := i + len("edition ")
			k := j
			for k < len(text) && leanIsDigit(text[k]) {
				k++
			}
			if k > j {
				b = append(b, 'E')
				b = append(b, text[i+1:k]...)
				i = k
				continue
			}
		}
		b = append(b, text[i])
		i++
	}
	return string(b)
}

// leanANSIEscape: regexp "^\033\\[([\\d;]*)m".Find(b): the escape at the
// start of b, or nil.
func leanANSIEscape(b []byte) []byte {
	if len(b) < 3 || b[0] != '\033' || b[1] != '[' {
		return nil
	}
	for i := 2; i < len(b); i++ {
		switch c := b[i]; {
		case c == 'm':
			return b[:i+1]
		case c != ';' && !leanIsDigit(c):
			return nil
		}
	}
	return nil
}

func leanIsDigit(c byte) bool  { return '0' <= c && c <= '9' }
func leanIsLetter(c byte) bool { return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' }
func leanIsSpace(c byte) bool  { return c == ' ' || c == '\t' || c == '\r' || c == '\n' }

func leanHasPrefix(s, prefix string) bool {
	return len(s) >= len(prefix) && s[:len(prefix)] == prefix
}

// leanTermColumn is the column (0-based) that protocompile's
// experimental/source computes for the end of s, the text from a line's
// start, in length.TermWidth (internal/ext/unicodex.Width: each tab
// advances to the next multiple of 4, the rest counts
// uniseg.StringWidth), when s is printable ASCII and tabs: then each other
// byte is one grapheme of width 1. ok is false for any other byte, where
// the caller computes it the slow way.
func leanTermColumn(s string) (col int, ok bool) {
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == '\t':
			col += 4 - col%4
		case c < 0x20 || c >= 0x7f:
			return 0, false
		default:
			col++
		}
	}
	return col, true
}
