// Package svcomp checks SV-COMP verification tasks: it reads task
// definitions and property files, maps the results of ncmc's explorers to
// SV-COMP answers (true, false, unknown), runs the staged portfolio that
// `ncmc sweep` and `ncmc verify --property` use, scores answers and writes
// GraphML violation witnesses. A Go caller of Check gets the answer the
// command line prints.
package svcomp

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"gopkg.in/yaml.v3"
)

// TaskDef is a task-definition file (formats 1.x and 2.x of the format
// BenchExec reads): the program, the properties to check with their
// expected verdicts, and the options (language, data model).
type TaskDef struct {
	// Path is the file the definition was read from; input and property
	// files are relative to its directory.
	Path string `yaml:"-"`
	// FormatVersion is the format_version field, e.g. "2.0".
	FormatVersion string `yaml:"format_version"`
	// InputFiles is input_files: a pattern or a list of patterns.
	InputFiles any `yaml:"input_files"`
	// Properties are the properties to check, each with its expected verdict.
	Properties []PropertyDef `yaml:"properties"`
	// Options are the task's options; ncmc reads the language and the data model.
	Options struct {
		Language  string `yaml:"language"`
		DataModel string `yaml:"data_model"`
	} `yaml:"options"`
}

// PropertyDef is one entry of a task's properties list.
type PropertyDef struct {
	// PropertyFile is the path of the property file (.prp), relative to
	// the task definition.
	PropertyFile string `yaml:"property_file"`
	// ExpectedVerdict is the expected answer; nil if not known.
	ExpectedVerdict *bool `yaml:"expected_verdict"`
	// Subproperty names the subproperty a false verdict violates, if any.
	Subproperty string `yaml:"subproperty"`
}

// Name is the property's name: the base name of its property file
// without .prp (unreach-call, no-data-race, ...).
func (p PropertyDef) Name() string {
	return strings.TrimSuffix(filepath.Base(p.PropertyFile), ".prp")
}

// Expected is the expected answer: True, False, or "" when the task
// gives none.
func (p PropertyDef) Expected() Answer {
	if p.ExpectedVerdict == nil {
		return ""
	}
	if *p.ExpectedVerdict {
		return True
	}
	return False
}

// ReadTask reads and parses the task-definition file at path.
func ReadTask(path string) (*TaskDef, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return ParseTask(path, data)
}

// ParseTask parses the task definition data read from path.
func ParseTask(path string, data []byte) (*TaskDef, error) {
	var td TaskDef
	if err := yaml.Unmarshal(data, &td); err != nil {
		return nil, fmt.Errorf("%s: %v", path, err)
	}
	td.Path = path
	return &td, nil
}

// TaskName is the name of the task defined in the file at path: its base
// name without .yml or .yaml.
func TaskName(path string) string {
	return strings.TrimSuffix(strings.TrimSuffix(filepath.Base(path), ".yml"), ".yaml")
}

// InputFile resolves input_files (a pattern or a list of them, relative to
// the task definition) to exactly one program file.
func (t *TaskDef) InputFile() (string, error) {
	var pats []string
	switch x := t.InputFiles.(type) {
	case string:
		pats = []string{x}
	case []any:
		for _, p := range x {
			s, ok := p.(string)
			if !ok {
				return "", fmt.Errorf("%s: input_files must be strings", t.Path)
			}
			pats = append(pats, s)
		}
	default:
		return "", fmt.Errorf("%s: no input_files", t.Path)
	}
	var files []string
	for _, p := range pats {
		m, err := filepath.Glob(filepath.Join(filepath.Dir(t.Path), p))
		if err != nil {
			return "", err
		}
		files = append(files, m...)
	}
	if len(files) != 1 {
		return "", fmt.Errorf("%s: input_files must name exactly one file (found %d)", t.Path, len(files))
	}
	return files[0], nil
}

// PropertyFile finds the property file of a task's property in the usual
// sv-benchmarks layout (../properties/<name>.prp or properties/<name>.prp
// next to the task's directory), or "" if none exists.
func PropertyFile(yml, name string) string {
	dirs := []string{filepath.Join(filepath.Dir(yml), "..", "properties"), filepath.Join(filepath.Dir(yml), "properties")}
	for _, dir := range dirs {
		p := filepath.Join(dir, name+".prp")
		if _, err := os.Stat(p); err == nil {
			return p
		}
	}
	return ""
}
