package c

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"

	"modernc.org/cc/v4"
)

// The host C compiler's configuration (predefined macros, include paths)
// comes from cc.NewConfig, which runs the compiler twice per target. Those
// four process starts took about as long as GenMC's whole run on its small
// benchmark programs, so the result is kept in a file of the user's cache
// directory ($XDG_CACHE_HOME/ncmc or ~/.cache/ncmc) and used again while
// the compiler binary and every include directory are unchanged (size,
// modification time, inode). NCMC_CC_CACHE=off turns the file off.

// hostCfgVersion changes when the file's meaning changes (with the
// modernc.org/cc version whose NewConfig it records).
const hostCfgVersion = "ncmc-hostcfg-1 modernc.org/cc/v4@v4.31.0"

// hostCfgFile is what the cache file holds for one target.
type hostCfgFile struct {
	Version             string
	Key                 string   // the compiler binary and the target
	Dirs                []string // the include directories with their stamps, "path stamp"
	CC                  string
	Predefined          string
	HostIncludePaths    []string
	HostSysIncludePaths []string
	IncludePaths        []string
	SysIncludePaths     []string
}

// hostConfig returns cc.NewConfig("linux", goarch, opts...), from the cache
// file when it is valid, else computed and written there.
func hostConfig(goarch string, opts ...string) (*cc.Config, error) {
	dir := hostCfgDir()
	key, ok := compilerKey(goarch, opts)
	if dir == "" || !ok {
		return cc.NewConfig("linux", goarch, opts...)
	}
	sum := sha256.Sum256([]byte(key))
	file := filepath.Join(dir, "hostcfg-"+hex.EncodeToString(sum[:8])+".json")
	if c := readHostCfg(file, key, goarch); c != nil {
		return c, nil
	}
	c, err := cc.NewConfig("linux", goarch, opts...)
	if err != nil {
		return nil, err
	}
	writeHostCfg(dir, file, key, c)
	return c, nil
}

// hostCfgDir is the cache directory ("" when off or unknown).
func hostCfgDir() string {
	if v := os.Getenv("NCMC_CC_CACHE"); v == "off" || v == "0" {
		return ""
	}
	d, err := os.UserCacheDir()
	if err != nil {
		return ""
	}
	return filepath.Join(d, "ncmc")
}

// compilerKey names the compiler cc.NewConfig would run (the first of $CC,
// cc and gcc found on $PATH) by its path and stamp, with the target; ok is
// false when none is found (NewConfig then says why).
func compilerKey(goarch string, opts []string) (string, bool) {
	for _, name := range []string{os.Getenv("CC"), "cc", "gcc"} {
		if name == "" {
			continue
		}
		path, err := exec.LookPath(name)
		if err != nil {
			continue
		}
		st := stamp(path)
		if st == "missing" {
			return "", false
		}
		return fmt.Sprintf("%s\n%s %s\n%s\n%s", hostCfgVersion, path, st, goarch, strings.Join(opts, " ")), true
	}
	return "", false
}

// stamp identifies a file's version: size, modification time and inode of
// the file a path names (links followed), or "missing".
func stamp(path string) string {
	fi, err := os.Stat(path)
	if err != nil {
		return "missing"
	}
	ino := uint64(0)
	if s, ok := fi.Sys().(*syscall.Stat_t); ok {
		ino = s.Ino
	}
	return fmt.Sprintf("%d:%d:%d", fi.Size(), fi.ModTime().UnixNano(), ino)
}

var stdcVersionRE = regexp.MustCompile(`(?m)^#define __STDC_VERSION__ (\d+)L`)

// plainKeywords reports whether a configuration with these predefined
// macros has cc's default keywords: cc.NewConfig adds C23's for
// __STDC_VERSION__ >= 202000, which a Config built here cannot (the field
// is unexported), so such a compiler is never served from the file.
func plainKeywords(predefined string) bool {
	for _, m := range stdcVersionRE.FindAllStringSubmatch(predefined, -1) {
		if v, err := strconv.Atoi(m[1]); err != nil || v >= 202000 {
			return false
		}
	}
	return true
}

func readHostCfg(file, key, goarch string) *cc.Config {
	data, err := os.ReadFile(file)
	if err != nil {
		return nil
	}
	var f hostCfgFile
	if json.Unmarshal(data, &f) != nil || f.Version != hostCfgVersion || f.Key != key || !plainKeywords(f.Predefined) {
		return nil
	}
	for _, d := range f.Dirs {
		path, st, _ := strings.Cut(d, " ")
		if stamp(path) != st {
			return nil
		}
	}
	abi, err := cc.NewABI("linux", goarch)
	if err != nil {
		return nil
	}
	return &cc.Config{ABI: abi, CC: f.CC, Predefined: f.Predefined,
		HostIncludePaths: f.HostIncludePaths, HostSysIncludePaths: f.HostSysIncludePaths,
		IncludePaths: f.IncludePaths, SysIncludePaths: f.SysIncludePaths}
}

// writeHostCfg records c; failures only mean no file.
func writeHostCfg(dir, file, key string, c *cc.Config) {
	if !plainKeywords(c.Predefined) {
		return
	}
	f := hostCfgFile{Version: hostCfgVersion, Key: key, CC: c.CC, Predefined: c.Predefined,
		HostIncludePaths: c.HostIncludePaths, HostSysIncludePaths: c.HostSysIncludePaths,
		IncludePaths: c.IncludePaths, SysIncludePaths: c.SysIncludePaths}
	seen := map[string]bool{}
	for _, list := range [][]string{c.HostIncludePaths, c.HostSysIncludePaths, c.IncludePaths, c.SysIncludePaths} {
		for _, p := range list {
			if p == "" || seen[p] {
				continue
			}
			seen[p] = true
			f.Dirs = append(f.Dirs, p+" "+stamp(p))
		}
	}
	data, err := json.Marshal(&f)
	if err != nil || os.MkdirAll(dir, 0o755) != nil {
		return
	}
	tmp, err := os.CreateTemp(dir, "hostcfg-*.tmp")
	if err != nil {
		return
	}
	_, werr := tmp.Write(data)
	if cerr := tmp.Close(); werr != nil || cerr != nil {
		os.Remove(tmp.Name())
		return
	}
	if os.Rename(tmp.Name(), file) != nil { // atomic: concurrent runs see the old file or the new one
		os.Remove(tmp.Name())
	}
}
