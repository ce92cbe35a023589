package commspec

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// FuzzParse checks that Parse never panics, that every error is positioned
// in the file, and that accepted specs evaluate without panicking.
func FuzzParse(f *testing.F) {
	files, _ := filepath.Glob("../examples/*.yaml")
	for _, p := range files {
		if src, err := os.ReadFile(p); err == nil {
			f.Add(string(src))
		}
	}
	f.Add(setSpec)
	f.Fuzz(func(t *testing.T, src string) {
		s, err := Parse("f.yaml", []byte(src))
		if err != nil {
			if !strings.HasPrefix(err.Error(), "f.yaml:") {
				t.Fatalf("unpositioned error: %v", err)
			}
			return
		}
		for _, m1 := range s.Methods {
			for _, m2 := range s.Methods {
				a := Invocation{Method: m1.Name, Args: make([]int64, len(m1.Params)), Ret: 1}
				b := Invocation{Method: m2.Name, Args: make([]int64, len(m2.Params))}
				want := s.Commute(a, b)
				if got := s.AccessPoints().Commute(a, b); got != want {
					if _, err := s.Eval(a, b); err == nil {
						t.Fatalf("access points %v, direct %v for %v, %v", got, want, a, b)
					}
				}
			}
		}
	})
}
