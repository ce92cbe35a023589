package main

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"
)

// TestServeCommand starts ncmc serve on a free port, asks its API for the
// menu and stops it by cancelling its context.
func TestServeCommand(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	pr, pw := io.Pipe()
	var errb strings.Builder
	done := make(chan int, 1)
	go func() {
		done <- run(ctx, []string{"serve", "--addr", "127.0.0.1:0", "--dir", "../../examples/litmus"}, pw, &errb, false)
		pw.Close()
	}()
	line, err := bufio.NewReader(pr).ReadString('\n')
	if err != nil {
		t.Fatalf("no banner: %v (stderr %q)", err, errb.String())
	}
	go io.Copy(io.Discard, pr) // nothing more is expected; keep the writer unblocked
	_, url, ok := strings.Cut(strings.TrimSpace(line), "open ")
	url, _, _ = strings.Cut(url, " ")
	if !ok || !strings.HasPrefix(url, "http://127.0.0.1:") {
		t.Fatalf("banner %q", line)
	}
	resp, err := http.Get(url + "api/examples")
	if err != nil {
		t.Fatal(err)
	}
	var menu []map[string]string
	err = json.NewDecoder(resp.Body).Decode(&menu)
	resp.Body.Close()
	if err != nil || len(menu) < 4 || !strings.HasSuffix(menu[0]["id"], ".litmus") {
		t.Fatalf("menu %v (%v)", menu, err)
	}
	cancel()
	select {
	case code := <-done:
		if code != 0 {
			t.Errorf("exit %d, stderr %q", code, errb.String())
		}
	case <-time.After(10 * time.Second):
		t.Fatal("serve did not stop")
	}
}

func TestServeCommandBadInput(t *testing.T) {
	for _, args := range [][]string{
		{"serve", "--addr", "256.1.1.1:99999"},
		{"serve", "--max-executions", "0"},
	} {
		var out, errb strings.Builder
		if code := run(context.Background(), args, &out, &errb, false); code != exitBadInput {
			t.Errorf("%v: exit %d, want %d (stderr %q)", args, code, exitBadInput, errb.String())
		}
	}
}
