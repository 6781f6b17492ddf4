package protojson_test

import (
	"encoding/json"
	"strings"
	"unicode/utf8"
)

// jsonValid is encoding/json's Valid, restricted as protojson's tokenizer
// is: strings must be valid UTF-8 and may not hold a lone surrogate escape.
func jsonValid(s string) bool {
	if !json.Valid([]byte(s)) || !utf8.ValidString(s) {
		return false
	}
	// A \uD800-\uDFFF escape must be the first half of a pair followed by
	// the second: encoding/json accepts lone ones (as U+FFFD).
	for i := strings.Index(s, `\u`); i >= 0; {
		// Only escapes inside strings matter; outside strings \u is
		// already invalid JSON.
		j := i + 2
		if j+4 <= len(s) && isSurrogateHex(s[j:j+4]) {
			if !isHighHex(s[j:j+4]) || j+10 > len(s) || s[j+4:j+6] != `\u` || !isLowHex(s[j+6:j+10]) {
				// An escaped backslash before \u makes it literal text.
				if !escapedBackslash(s, i) {
					return false
				}
			} else {
				i = j + 10
				k := strings.Index(s[i:], `\u`)
				if k < 0 {
					break
				}
				i += k
				continue
			}
		}
		k := strings.Index(s[i+2:], `\u`)
		if k < 0 {
			break
		}
		i += 2 + k
	}
	return true
}

func escapedBackslash(s string, i int) bool {
	n := 0
	for k := i - 1; k >= 0 && s[k] == '\\'; k-- {
		n++
	}
	return n%2 == 1
}

func hexVal(h string) int {
	v := 0
	for i := 0; i < len(h); i++ {
		c := h[i] | 0x20
		switch {
		case '0' <= h[i] && h[i] <= '9':
			v = v*16 + int(h[i]-'0')
		case 'a' <= c && c <= 'f':
			v = v*16 + int(c-'a'+10)
		default:
			return -1
		}
	}
	return v
}

func isSurrogateHex(h string) bool { v := hexVal(h); return v >= 0xd800 && v <= 0xdfff }
func isHighHex(h string) bool      { v := hexVal(h); return v >= 0xd800 && v <= 0xdbff }
func isLowHex(h string) bool       { v := hexVal(h); return v >= 0xdc00 && v <= 0xdfff }
