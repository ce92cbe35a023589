package c

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"modernc.org/cc/v4"
)

// TestHostConfigCache: the configuration read back from the cache file is
// cc.NewConfig's (every exported field, for both targets); a changed
// include directory or compiler stamp, another version, a C23 compiler or
// NCMC_CC_CACHE=off make it compute afresh.
func TestHostConfigCache(t *testing.T) {
	for _, tc := range []struct {
		arch string
		opts []string
	}{{"amd64", nil}, {"386", []string{"-mx32"}}} {
		t.Run(tc.arch, func(t *testing.T) {
			dir := t.TempDir()
			t.Setenv("XDG_CACHE_HOME", dir)
			t.Setenv("NCMC_CC_CACHE", "")
			want, err := cc.NewConfig("linux", tc.arch, tc.opts...)
			if err != nil {
				t.Skipf("no host compiler for %s: %v", tc.arch, err)
			}
			key, ok := compilerKey(tc.arch, tc.opts)
			if !ok {
				t.Fatal("no compiler key")
			}
			if _, err := hostConfig(tc.arch, tc.opts...); err != nil { // computes and writes
				t.Fatal(err)
			}
			files, _ := filepath.Glob(filepath.Join(dir, "ncmc", "hostcfg-*.json"))
			if len(files) != 1 {
				t.Fatalf("cache files %v, want one", files)
			}
			got := readHostCfg(files[0], key, tc.arch)
			if got == nil {
				t.Fatal("the file just written is not valid")
			}
			same := func(a, b *cc.Config) bool {
				return a.CC == b.CC && a.Predefined == b.Predefined && reflect.DeepEqual(a.ABI, b.ABI) &&
					reflect.DeepEqual(a.HostIncludePaths, b.HostIncludePaths) && reflect.DeepEqual(a.HostSysIncludePaths, b.HostSysIncludePaths) &&
					reflect.DeepEqual(a.IncludePaths, b.IncludePaths) && reflect.DeepEqual(a.SysIncludePaths, b.SysIncludePaths)
			}
			if !same(got, want) {
				t.Fatalf("cached config differs from NewConfig's:\n%+v\n%+v", got, want)
			}
			// A program translates alike with either.
			src := []byte("#include <pthread.h>\n#include <stdatomic.h>\n#include <assert.h>\natomic_int x;\nint main(void) { x = sizeof(long); assert(x == 4 || x == 8); return 0; }\n")
			if _, err := Compile("t.c", src, Options{DataModel: map[string]DataModel{"amd64": LP64, "386": ILP32}[tc.arch]}); err != nil {
				t.Fatal(err)
			}
			data, _ := os.ReadFile(files[0])
			for name, edit := range map[string]func(f *hostCfgFile){
				"dir stamp": func(f *hostCfgFile) { f.Dirs[0] += "1" },
				"version":   func(f *hostCfgFile) { f.Version = "old" },
				"c23":       func(f *hostCfgFile) { f.Predefined += "\n#define __STDC_VERSION__ 202311L" },
			} {
				var f hostCfgFile
				if err := json.Unmarshal(data, &f); err != nil || len(f.Dirs) == 0 {
					t.Fatalf("cache file: %v, %d directories", err, len(f.Dirs))
				}
				edit(&f)
				changed, _ := json.Marshal(&f)
				os.WriteFile(files[0], changed, 0o644)
				if readHostCfg(files[0], key, tc.arch) != nil {
					t.Errorf("%s changed, the file is still used", name)
				}
			}
			os.WriteFile(files[0], data, 0o644)
			if readHostCfg(files[0], key+"x", tc.arch) != nil {
				t.Error("another compiler key, the file is still used")
			}
		})
	}
	dir := t.TempDir()
	t.Setenv("XDG_CACHE_HOME", dir)
	t.Setenv("NCMC_CC_CACHE", "off")
	if _, err := hostConfig("amd64"); err != nil {
		t.Fatal(err)
	}
	if files, _ := filepath.Glob(filepath.Join(dir, "ncmc", "*")); len(files) != 0 {
		t.Errorf("NCMC_CC_CACHE=off wrote %v", files)
	}
}
