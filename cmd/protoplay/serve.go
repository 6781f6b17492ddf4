package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/protoplay/protoplay/internal/cliflag"
	"github.com/protoplay/protoplay/site"
)

// runServe serves the playground page embedded in the binary (see package
// site) until interrupted. Everything the page computes, it computes in
// the browser; the server only hands out files.
func runServe(args []string, _ io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("protoplay serve", flag.ContinueOnError)
	addr := fs.String("addr", "127.0.0.1:8080", "listen on `HOST:PORT` (port 0 picks a free one)")
	fs.Usage = func() {
		fmt.Fprintln(fs.Output(), "usage: protoplay serve [--addr HOST:PORT]")
		fs.PrintDefaults()
	}
	rest, err := cliflag.Parse(fs, args, stdout, stderr)
	if err != nil {
		return cliflag.Status(err)
	}
	if len(rest) > 0 {
		return cliflag.Usage(fs, "unexpected argument %q", rest[0])
	}
	// An empty --addr (an unset shell variable) would listen on every
	// interface at a random port: HOST:PORT must be given whole
	// (":PORT", every interface, only when asked for).
	if _, _, err := net.SplitHostPort(*addr); err != nil {
		return cliflag.Usage(fs, "--addr %q: want HOST:PORT, such as 127.0.0.1:8080 (:PORT listens on every interface)", *addr)
	}
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		fmt.Fprintln(stderr, "protoplay serve:", err)
		return 1
	}
	if site.Dist == nil {
		fmt.Fprintln(stderr, "protoplay serve: this binary has no playground page (build it with `make serve`); serving instructions instead")
	}
	fmt.Fprintf(stdout, "protoplay: serving the playground on http://%s/ (Ctrl+C to stop)\n", ln.Addr())

	srv := &http.Server{
		Handler:           site.Handler(site.Dist),
		ReadHeaderTimeout: 10 * time.Second,
		IdleTimeout:       2 * time.Minute,
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	done := make(chan error, 1)
	go func() { done <- srv.Serve(ln) }()
	select {
	case err := <-done:
		fmt.Fprintln(stderr, "protoplay serve:", err)
		return 1
	case <-ctx.Done():
	}
	shutdown, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := srv.Shutdown(shutdown); err != nil && !errors.Is(err, http.ErrServerClosed) {
		fmt.Fprintln(stderr, "protoplay serve:", err)
		return 1
	}
	return 0
}
