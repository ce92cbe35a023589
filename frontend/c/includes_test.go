package c

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"
)

// TestMissingIncludeNoParserLoop: after a missing include, inputs on which
// the C parser loops forever get the include error at once (not the
// parser's 10 s bound), and an include in a skipped conditional or one
// that exists changes nothing.
func TestMissingIncludeNoParserLoop(t *testing.T) {
	for _, c := range []struct {
		name, src, want string
	}{
		{"loops without the check", "#include<thrLad.h>\n*a)", "x.c:1:9: include file not found: <thrLad.h>"},
		{"the fuzzer's input", "#include<thrLad.h>t x;\n*a) { x++; return 0; }\nint main(void) { return x)", "x.c:1:9: include file not found: <thrLad.h>"},
		{"quoted", "#include \"nosuchfile.h\"\nint main(void) { return 0; }\n", "nosuchfile.h"},
		{"skipped conditional", "#if 0\n#include <nosuch.h>\n#endif\nint main(void) { return 0; }\n", ""},
		{"existing header", "#include <stdlib.h>\nint main(void) { return 0; }\n", ""},
	} {
		start := time.Now()
		_, err := Compile("x.c", []byte(c.src), Options{})
		if d := time.Since(start); d > 3*time.Second {
			t.Errorf("%s: %v to answer", c.name, d)
		}
		switch {
		case c.want == "" && err != nil:
			t.Errorf("%s: unexpected error %v", c.name, err)
		case c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)):
			t.Errorf("%s: error %v, want one containing %q", c.name, err, c.want)
		}
	}
}

// TestParserLoopBound: on an input where the C parser loops (the include
// check bypassed), ccTranslate gives up at its bound with "unsupported".
// The looping goroutine cannot be stopped, so the translation runs in a
// child process (this test binary again), which exits afterwards.
func TestParserLoopBound(t *testing.T) {
	if os.Getenv("NCMC_TEST_PARSER_LOOP") == "1" {
		src := []byte("#include<thrLad.h>\n*a)")
		cfg, sources, err := ccInput("x.c", src, Options{DataModel: ILP32})
		if err != nil {
			fmt.Println("setup:", err)
			os.Exit(1)
		}
		_, err = ccTranslateWithin(cfg, sources, time.Second)
		fmt.Println(err)
		os.Exit(0)
	}
	if testing.Short() {
		t.Skip("runs a child process")
	}
	start := time.Now()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, os.Args[0], "-test.run=^TestParserLoopBound$")
	cmd.Env = append(os.Environ(), "NCMC_TEST_PARSER_LOOP=1")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("child: %v\n%s", err, out)
	}
	if d := time.Since(start); d > 20*time.Second {
		t.Errorf("child took %v (bound 1 s)", d)
	}
	if !strings.Contains(string(out), "unsupported: the C parser did not finish within 1s") {
		t.Errorf("child printed %q, want the parser bound's message", out)
	}
}
