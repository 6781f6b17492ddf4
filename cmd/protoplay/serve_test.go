package main

import (
	"bufio"
	"io"
	"net/http"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/protoplay/protoplay/site"
)

func TestServeBadUsage(t *testing.T) {
	var out, errb strings.Builder
	if code := run([]string{"serve", "extra"}, nil, &out, &errb); code != 2 {
		t.Errorf("exit %d, want 2", code)
	}
	if code := run([]string{"serve", "--addr", "256.0.0.1:x"}, nil, &out, &errb); code != 1 {
		t.Errorf("bad address: exit %d, want 1", code)
	}
}

func TestServeAnswers(t *testing.T) {
	pr, pw := io.Pipe()
	var errb strings.Builder
	go run([]string{"serve", "--addr", "127.0.0.1:0"}, nil, pw, &errb)
	line, err := bufio.NewReader(pr).ReadString('\n')
	if err != nil {
		t.Fatal(err)
	}
	url := regexp.MustCompile(`http://\S+/`).FindString(line)
	if url == "" {
		t.Fatalf("no address in %q", line)
	}
	c := &http.Client{Timeout: 10 * time.Second}
	res, err := c.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(res.Body)
	res.Body.Close()
	if site.Dist == nil {
		// Built without the page (the default for go test): the server
		// says how to get it.
		if res.StatusCode != http.StatusServiceUnavailable || !strings.Contains(string(body), "make serve") {
			t.Errorf("%d %s", res.StatusCode, body)
		}
		return
	}
	if res.StatusCode != http.StatusOK || !strings.Contains(string(body), "protoplay") {
		t.Errorf("%d %s", res.StatusCode, body)
	}
}
