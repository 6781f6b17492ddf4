package protojson

import "testing"

// TestPlainByte: the table marks exactly printable ASCII but '"' and '\\'.
func TestPlainByte(t *testing.T) {
	for c := 0; c < 256; c++ {
		want := c >= 0x20 && c < 0x80 && c != '"' && c != '\\'
		if plainByte[c] != want {
			t.Errorf("plainByte[%#x] = %v, want %v", c, plainByte[c], want)
		}
	}
}
