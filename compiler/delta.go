package compiler

import (
	"math/rand/v2"
	"strconv"
	"unicode/utf8"
)

// maxOutSets is how many option sets' last generated Go a Workspace
// keeps for changes (Workspace.outs): the page uses two (its Go pane's and
// its Go interpreter's); a few more cost at most that many copies of the
// output.
const maxOutSets = 4

// optionsOut is the last generated Go made under one options string.
type optionsOut struct {
	options string
	files   map[string]fileRev
}

// delta records gen as the workspace's last generated Go under options
// and returns it as changes to the files have names (CompileRequest.Have):
// a file whose Rev the caller holds (for these options) is a change to
// that content, any other the whole file. A file keeps its Rev while its
// content stays the same. Revs are unique across option sets, so a Rev
// held for other options is unknown here and gets the whole file.
func (w *Workspace) delta(options string, gen []File, have map[string]string) []FileChange {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.revPrefix == "" {
		w.revPrefix = strconv.FormatUint(rand.Uint64(), 36)
	}
	var prev map[string]fileRev
	for i, o := range w.outs {
		if o.options == options {
			prev = o.files
			w.outs = append(w.outs[:i], w.outs[i+1:]...)
			break
		}
	}
	out := make(map[string]fileRev, len(gen))
	changes := make([]FileChange, len(gen))
	for i, f := range gen {
		last, ok := prev[f.Name]
		if !ok || last.content != f.Content {
			w.revs++
			out[f.Name] = fileRev{rev: w.revPrefix + "-" + strconv.Itoa(w.revs), content: f.Content}
		} else {
			out[f.Name] = last
		}
		cur := out[f.Name]
		c := FileChange{Name: f.Name, Rev: cur.rev}
		if have != nil {
			if base, held := have[f.Name]; held && ok && base == last.rev {
				c.Base = base
				c.From, c.To, c.Insert = textChange(last.content, f.Content)
			} else {
				c.To, c.Insert = 0, f.Content
			}
		}
		changes[i] = c
	}
	// Most recent first; the least recently used set beyond maxOutSets goes.
	w.outs = append([]optionsOut{{options: options, files: out}}, w.outs...)
	if len(w.outs) > maxOutSets {
		w.outs = w.outs[:maxOutSets]
	}
	return changes
}

// textChange returns the one replacement that turns old into new: the
// text between their common prefix and common suffix, which never split
// a UTF-8 sequence. from and to are positions in old, in UTF-16 code
// units; insert is the replacing text of new.
func textChange(old, new string) (from, to int, insert string) {
	p := commonPrefix(old, new)
	for p > 0 && p < len(old) && !utf8.RuneStart(old[p]) {
		p--
	}
	s := commonSuffix(old[p:], new[p:])
	for s > 0 && s < len(old)-p && !utf8.RuneStart(old[len(old)-s]) {
		s--
	}
	from = utf16Len(old[:p])
	to = from + utf16Len(old[p:len(old)-s])
	return from, to, new[p : len(new)-s]
}

// commonPrefix is the length of the longest common prefix of a and b,
// compared a block at a time (string equality is the runtime's memequal).
func commonPrefix(a, b string) int {
	n := min(len(a), len(b))
	const block = 512
	i := 0
	for i+block <= n && a[i:i+block] == b[i:i+block] {
		i += block
	}
	for i < n && a[i] == b[i] {
		i++
	}
	return i
}

// commonSuffix is the length of the longest common suffix of a and b.
func commonSuffix(a, b string) int {
	n := min(len(a), len(b))
	const block = 512
	i := 0
	for i+block <= n && a[len(a)-i-block:len(a)-i] == b[len(b)-i-block:len(b)-i] {
		i += block
	}
	for i < n && a[len(a)-1-i] == b[len(b)-1-i] {
		i++
	}
	return i
}

// utf16Len is the length of the UTF-8 text s in UTF-16 code units: one
// per rune, two for a rune above U+FFFF (an invalid byte, which
// JavaScript's decoder makes U+FFFD, counts one). ASCII is counted eight
// bytes at a time.
func utf16Len(s string) int {
	n := 0
	i := 0
	for i+8 <= len(s) {
		if (s[i]|s[i+1]|s[i+2]|s[i+3]|s[i+4]|s[i+5]|s[i+6]|s[i+7])&0x80 == 0 {
			n += 8
			i += 8
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		i += size
		n++
		if r > 0xffff {
			n++
		}
	}
	for i < len(s) {
		r, size := utf8.DecodeRuneInString(s[i:])
		i += size
		n++
		if r > 0xffff {
			n++
		}
	}
	return n
}
