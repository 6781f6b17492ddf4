package wire_test

import (
	"sync"
	"testing"

	"github.com/protoplay/protoplay/runtime/wire"
)

type lazyMsg struct{ n int }

// TestPublishMessage has many goroutines race to publish their own
// message into one nil field: every one of them must get the same
// message back, the one LoadMessage then reads (run it with -race).
func TestPublishMessage(t *testing.T) {
	var field *lazyMsg
	if got := wire.LoadMessage(&field); got != nil {
		t.Fatalf("LoadMessage of a nil field = %v, want nil", got)
	}
	const n = 16
	got := make([]*lazyMsg, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if x := wire.LoadMessage(&field); x != nil {
				got[i] = x
				return
			}
			got[i] = wire.PublishMessage(&field, &lazyMsg{n: i})
		}()
	}
	wg.Wait()
	won := wire.LoadMessage(&field)
	if won == nil {
		t.Fatal("no message was published")
	}
	for i, x := range got {
		if x != won {
			t.Errorf("goroutine %d got message %d, want the published %d", i, x.n, won.n)
		}
	}
	if x := wire.PublishMessage(&field, &lazyMsg{n: -1}); x != won {
		t.Errorf("PublishMessage over a set field returned message %d, want the one it holds (%d)", x.n, won.n)
	}
}
