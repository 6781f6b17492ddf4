package interp_test

import (
	"strings"
	"testing"

	"github.com/protoplay/protoplay/compiler"
	"github.com/protoplay/protoplay/interp"
)

// A program of the Run tab that uses the standard library beyond what
// the generated code imports: time, os (Args, the environment, Stdout,
// Stderr, Exit), encoding/json, encoding/hex, sort, strings, log and
// bufio, with the example's generated code.
func TestSessionRunStandardLibrary(t *testing.T) {
	s, _ := pageChecks(t, compiler.Sources{"example.proto": readExample(t, "example.proto")}, "")
	const program = `package main

import (
	"bufio"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"log"
	"os"
	"sort"
	"strings"
	"time"

	addressbookv1 "example.com/addressbook/v1"
)

type row struct {
	Name string ` + "`json:\"name\"`" + `
	ID   int32  ` + "`json:\"id\"`" + `
}

func main() {
	start := time.Now()
	time.Sleep(2 * time.Millisecond)
	if time.Since(start) < 2*time.Millisecond {
		fmt.Println("slept too little")
	}
	people := []*addressbookv1.Person{{Name: "Grace", Id: 2}, {Name: "Ada", Id: 1}}
	sort.Slice(people, func(i, j int) bool { return people[i].Name < people[j].Name })
	var rows []row
	for _, p := range people {
		rows = append(rows, row{p.Name, p.Id})
	}
	j, err := json.Marshal(rows)
	if err != nil {
		panic(err)
	}
	fmt.Fprintln(os.Stdout, string(j))
	b, _ := people[0].Marshal()
	os.Stdout.WriteString(hex.EncodeToString(b) + "\n")
	names := []string{"b", "a"}
	sort.Strings(names)
	w := bufio.NewWriter(os.Stdout)
	fmt.Fprintf(w, "%s args=%d home=%q\n", strings.Join(names, ","), len(os.Args), os.Getenv("HOME"))
	w.Flush()
	os.Setenv("GREETING", "hi")
	fmt.Println(os.ExpandEnv("$GREETING there"))
	log.SetFlags(0)
	log.Println("to stderr")
	fmt.Fprintln(os.Stderr, "also stderr")
	sc := bufio.NewScanner(strings.NewReader("x\ny\n"))
	n := 0
	for sc.Scan() {
		n++
	}
	fmt.Println("lines:", n, time.Duration(90)*time.Second)
	os.Exit(3)
	fmt.Println("not reached")
}
`
	r, err := s.Run(interp.RunRequest{Source: program})
	if err != nil {
		t.Fatal(err)
	}
	const want = `[{"name":"Ada","id":1},{"name":"Grace","id":2}]` + "\n" +
		"0a034164611001\n" +
		"a,b args=1 home=\"\"\n" +
		"hi there\n" +
		"lines: 2 1m30s\n"
	if r.Stdout != want {
		t.Errorf("stdout:\n%s\nwant:\n%s", r.Stdout, want)
	}
	if r.Stderr != "to stderr\nalso stderr\nexit status 3\n" {
		t.Errorf("stderr: %q", r.Stderr)
	}
	if r.Panicked || r.Error != nil || r.ExitCode != 3 {
		t.Errorf("os.Exit(3): panicked %v, error %+v, exit code %d; want exit code 3 and no error", r.Panicked, r.Error, r.ExitCode)
	}

	// os.Exit(0) is a normal end; what reaches outside the interpreter
	// does not compile.
	r, err = s.Run(interp.RunRequest{Source: "package main\n\nimport (\n\t\"fmt\"\n\t\"os\"\n)\n\nfunc main() {\n\tfmt.Println(\"done\")\n\tos.Exit(0)\n}\n"})
	if err != nil || r.Error != nil || r.Stdout != "done\n" || r.Stderr != "" || r.ExitCode != 0 {
		t.Errorf("os.Exit(0): %+v, %v", r, err)
	}
	for _, src := range []string{
		"package main\n\nimport \"os\"\n\nfunc main() {\n\tos.WriteFile(\"x\", nil, 0o644)\n}\n",
		"package main\n\nimport \"os\"\n\nfunc main() {\n\tos.Stdout.Close()\n}\n",
		"package main\n\nimport \"os/exec\"\n\nfunc main() {\n\texec.Command(\"ls\").Run()\n}\n",
		"package main\n\nimport \"net/http\"\n\nfunc main() {\n\thttp.Get(\"http://example.com\")\n}\n",
		"package main\n\nimport \"unsafe\"\n\nfunc main() {\n\t_ = unsafe.Sizeof(0)\n}\n",
		"package main\n\nimport \"net\"\n\nfunc main() {\n\tnet.Dial(\"tcp\", \"example.com:80\")\n}\n",
		"package main\n\nimport \"syscall/js\"\n\nfunc main() {\n\tjs.Global().Call(\"fetch\", \"/\")\n}\n",
		"package main\n\nimport \"syscall\"\n\nfunc main() {\n\tsyscall.Getpid()\n}\n",
		"package main\n\nimport \"plugin\"\n\nfunc main() {\n\tplugin.Open(\"x.so\")\n}\n",
	} {
		r, err := s.Run(interp.RunRequest{Source: src})
		if err != nil || r.Error == nil || r.Panicked {
			t.Errorf("%s: ran (%+v, %v); want a compile error", strings.Split(src, "\n")[2], r, err)
		}
	}
}

// TestSessionRunMoreStandardLibrary: the other packages of
// symbols.Packages a playground program commonly imports run as in Go.
func TestSessionRunMoreStandardLibrary(t *testing.T) {
	s, _ := pageChecks(t, compiler.Sources{"example.proto": readExample(t, "example.proto")}, "")
	const program = `package main

import (
	"context"
	"encoding/base64"
	"encoding/binary"
	"encoding/csv"
	"fmt"
	"io"
	"math/bits"
	"math/rand"
	"os"
	"path"
	"regexp"
	"strings"
	"sync"
	"text/tabwriter"
	"unicode"
)

func main() {
	fmt.Println(base64.StdEncoding.EncodeToString([]byte("proto")), binary.BigEndian.Uint16([]byte{1, 2}), bits.OnesCount(255))
	recs, _ := csv.NewReader(strings.NewReader("a,b\nc,d\n")).ReadAll()
	fmt.Println(len(recs), recs[1][1], path.Join("a", "b"), regexp.MustCompile("[0-9]+").FindString("ab42"), unicode.IsUpper('Q'))
	var wg sync.WaitGroup
	var mu sync.Mutex
	sum := 0
	for i := 1; i <= 4; i++ {
		wg.Add(1)
		go func(n int) {
			defer wg.Done()
			mu.Lock()
			sum += n
			mu.Unlock()
		}(i)
	}
	wg.Wait()
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	r := rand.New(rand.NewSource(1))
	n := r.Intn(10)
	b, _ := io.ReadAll(strings.NewReader("xyz"))
	tw := tabwriter.NewWriter(os.Stdout, 0, 4, 1, ' ', 0)
	fmt.Fprintf(tw, "sum\t%d\nctx\t%v\nrand\t%v\nread\t%s\n", sum, ctx.Err(), n >= 0 && n < 10, b)
	tw.Flush()
}
`
	r, err := s.Run(interp.RunRequest{Source: program})
	if err != nil || r.Error != nil {
		t.Fatalf("run: %v %+v\nstderr %s", err, r.Error, r.Stderr)
	}
	const want = "cHJvdG8= 258 8\n2 d a/b 42 true\nsum  10\nctx  context canceled\nrand true\nread xyz\n"
	if r.Stdout != want {
		t.Errorf("stdout:\n%s\nwant:\n%s", r.Stdout, want)
	}
}
