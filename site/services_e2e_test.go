package site_test

// The services= generator option in the page (issue 17): a select in the
// Options panel, the service files under their own "Services" group of the
// Go tabs, and the option kept by the share link. At a person's pace: each
// step waits for the compile it started to settle.

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

const (
	serviceTabs = `[...document.querySelectorAll('[data-testid=go-file-tab][data-group=services]')].map(e => e.dataset.name)`
	goGroups    = `[...document.querySelectorAll('[data-testid=go-group]')].map(e => e.textContent)`
)

// setServices picks v in the Options panel's services select, as a person
// does (the select fires input), and waits for the compile.
func setServices(t *testing.T, ctx context.Context, v string) {
	t.Helper()
	n := eval[int](t, ctx, compiles)
	do(t, ctx, script(`const s = document.querySelector('[data-testid=opt-services]'); s.focus(); s.value = `+jsString(v)+`; s.dispatchEvent(new Event('input', {bubbles: true})); s.dispatchEvent(new Event('change', {bubbles: true}))`))
	settle(t, ctx, n)
}

func TestServicesTab(t *testing.T) {
	t.Parallel()
	ctx := openExample(t)
	n := eval[int](t, ctx, compiles)
	do(t, ctx,
		chromedp.Click(chromedp.CSS(`[data-testid=examples-button]`)),
		chromedp.Click(chromedp.CSS(`[data-testid=example-item][data-name="library/v1/library.proto"]`)),
	)
	settle(t, ctx, n)
	if got := eval[[]string](t, ctx, serviceTabs); len(got) != 0 {
		t.Fatalf("service tabs %q with services off (the default)", got)
	}
	if got := eval[[]string](t, ctx, goGroups); len(got) != 0 {
		t.Errorf("Go tab groups %q with no service files", got)
	}
	do(t, ctx, chromedp.Click(chromedp.CSS(`[data-testid=options-toggle]`)))

	const grpcFile = "example.com/library/v1/library_grpc.pb.go"
	setServices(t, ctx, "grpc")
	if got := eval[[]string](t, ctx, serviceTabs); len(got) != 1 || got[0] != grpcFile {
		t.Fatalf("services=grpc: service tabs %q, want [%s]", got, grpcFile)
	}
	if got := eval[[]string](t, ctx, goGroups); strings.Join(got, ",") != "Messages,Services" {
		t.Errorf("Go tab groups %q, want Messages, Services", got)
	}
	if got := eval[[]string](t, ctx, goFileTabs); !contains(got, "example.com/library/v1/library.pb.go") {
		t.Errorf("the messages file is gone from the Go tabs %q", got)
	}
	if s := eval[string](t, ctx, `document.querySelector('[data-testid=opt-string]').innerText`); s != "services=grpc" {
		t.Errorf("option string %q, want services=grpc", s)
	}
	do(t, ctx, chromedp.Click(chromedp.CSS(`[data-testid=go-file-tab][data-name="`+grpcFile+`"]`)))
	waitJS(t, ctx, "the gRPC file in the viewer", goText+`.includes("func RegisterLibraryServer(s grpc.ServiceRegistrar, srv LibraryServer)")`, 10*time.Second)

	// The .zip is a Go module with no requirements: the service files are
	// left out of it, the google/api, google/type and longrunning files the
	// example imports are in it, and it builds and runs offline.
	zipped := downloadZip(t, ctx)
	for name := range zipped {
		if strings.HasSuffix(name, "_grpc.pb.go") {
			t.Errorf("the zip holds service code %s", name)
		}
	}
	if _, ok := zipped["google.golang.org/genproto/googleapis/type/date/date.pb.go"]; !ok {
		t.Error("the zip lacks google/type/date.proto's Go")
	}
	checkModuleZip(t, zipped, "example.com/library", "v1/library.pb.go", "timestamppb")

	// The share link keeps the option: a fresh load of it compiles with
	// services=grpc and shows the same tab.
	waitJS(t, ctx, "the session in the URL hash with the option", `__protoplay.savedState()?.options === "services=grpc" && location.hash.startsWith('#s=')`, 30*time.Second)
	link := eval[string](t, ctx, `location.href`)
	do(t, ctx, chromedp.Navigate("about:blank"), chromedp.Navigate(link))
	waitJS(t, ctx, "the shared session's Go", compiles+` > 0 && __protoplay.idle() && `+serviceTabs+`.length > 0`, 60*time.Second)
	if got := eval[string](t, ctx, `document.querySelector('[data-testid=opt-services]').value`); got != "grpc" {
		t.Errorf("after the share link the services select is %q, want grpc", got)
	}
	if got := eval[[]string](t, ctx, serviceTabs); len(got) != 1 || got[0] != grpcFile {
		t.Errorf("after the share link: service tabs %q, want [%s]", got, grpcFile)
	}
	do(t, ctx, chromedp.Click(chromedp.CSS(`[data-testid=options-toggle]`)))

	setServices(t, ctx, "grpc+connect")
	const connectFile = "example.com/library/v1/libraryv1connect/library.connect.go"
	if got := eval[[]string](t, ctx, serviceTabs); strings.Join(got, ",") != grpcFile+","+connectFile {
		t.Errorf("services=grpc+connect: service tabs %q", got)
	}
	do(t, ctx, chromedp.Click(chromedp.CSS(`[data-testid=go-file-tab][data-name="`+connectFile+`"]`)))
	waitJS(t, ctx, "the Connect file in the viewer", goText+`.includes("func NewLibraryHandler(")`, 10*time.Second)

	// Off again: the service files and the group labels go, and the viewer
	// falls back to a messages file.
	setServices(t, ctx, "")
	if got := eval[[]string](t, ctx, serviceTabs); len(got) != 0 {
		t.Errorf("services off: service tabs %q remain", got)
	}
	if got := eval[[]string](t, ctx, goGroups); len(got) != 0 {
		t.Errorf("services off: Go tab groups %q remain", got)
	}
	if strings.Contains(eval[string](t, ctx, goText), "RegisterLibraryServer") {
		t.Error("services off: the viewer still shows service code")
	}
	if s := eval[string](t, ctx, `document.querySelector('[data-testid=opt-string]').innerText`); s != "(defaults)" {
		t.Errorf("option string %q, want (defaults)", s)
	}
}
