package main

import (
	"fmt"
	"os"
	"strings"

	"gopkg.in/yaml.v3"
)

// correction replaces the expected verdict of one (task, property) pair
// whose task file is believed to be wrong. A correction is documentation
// as much as data: it says what the task file claims, what the verdict
// should be, why, and where the evidence is. The sweep scores against the
// task files first and reports the corrected totals beside them, so a
// correction can never hide a disagreement.
type correction struct {
	Task     string   // task name: the task file's base name without .yml
	Property string   // property name, e.g. no-data-race
	TaskSays string   // the expected verdict in the task file ("true"/"false")
	Correct  string   // the corrected verdict
	Reason   string   // why the task file is wrong
	Evidence []string // pointers to the evidence
	Pos      string   // file:line:col of the entry
}

// corrections indexes corrections by task and property.
type corrections struct {
	file    string
	entries map[[2]string]*correction
}

// loadCorrections reads a corrections file:
//
//	corrections:
//	  - task: lamport
//	    property: no-data-race
//	    task_says: true
//	    correct: false
//	    reason: ...
//	    evidence: [...]
//
// Errors name the file, line and column.
func loadCorrections(file string) (*corrections, error) {
	data, err := os.ReadFile(file)
	if err != nil {
		return nil, err
	}
	errAt := func(n *yaml.Node, format string, args ...any) error {
		return fmt.Errorf("%s:%d:%d: %s", file, n.Line, n.Column, fmt.Sprintf(format, args...))
	}
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		return nil, fmt.Errorf("%s: %v", file, strings.TrimPrefix(err.Error(), "yaml: "))
	}
	cs := &corrections{file: file, entries: map[[2]string]*correction{}}
	if len(doc.Content) == 0 {
		return cs, nil
	}
	root := doc.Content[0]
	if root.Kind != yaml.MappingNode {
		return nil, errAt(root, "expected a mapping with the key 'corrections'")
	}
	var list *yaml.Node
	for i := 0; i+1 < len(root.Content); i += 2 {
		k, v := root.Content[i], root.Content[i+1]
		if k.Value != "corrections" {
			return nil, errAt(k, "unknown key %q (the file has one key, 'corrections')", k.Value)
		}
		list = v
	}
	if list == nil {
		return nil, errAt(root, "missing key 'corrections'")
	}
	if list.Kind != yaml.SequenceNode {
		return nil, errAt(list, "'corrections' must be a list")
	}
	for _, e := range list.Content {
		if e.Kind != yaml.MappingNode {
			return nil, errAt(e, "a correction must be a mapping (task, property, task_says, correct, reason, evidence)")
		}
		c := &correction{Pos: fmt.Sprintf("%s:%d:%d", file, e.Line, e.Column)}
		seen := map[string]bool{}
		for i := 0; i+1 < len(e.Content); i += 2 {
			k, v := e.Content[i], e.Content[i+1]
			if seen[k.Value] {
				return nil, errAt(k, "duplicate key %q", k.Value)
			}
			seen[k.Value] = true
			scalar := func() (string, error) {
				if v.Kind != yaml.ScalarNode || v.Value == "" {
					return "", errAt(v, "%q must be a non-empty scalar", k.Value)
				}
				return v.Value, nil
			}
			verdict := func() (string, error) {
				s, err := scalar()
				if err == nil && s != "true" && s != "false" {
					err = errAt(v, "%q must be true or false, not %q", k.Value, s)
				}
				return s, err
			}
			var err error
			switch k.Value {
			case "task":
				c.Task, err = scalar()
			case "property":
				c.Property, err = scalar()
			case "task_says":
				c.TaskSays, err = verdict()
			case "correct":
				c.Correct, err = verdict()
			case "reason":
				c.Reason, err = scalar()
			case "evidence":
				if v.Kind != yaml.SequenceNode {
					return nil, errAt(v, "'evidence' must be a list of strings")
				}
				for _, x := range v.Content {
					if x.Kind != yaml.ScalarNode {
						return nil, errAt(x, "'evidence' must be a list of strings")
					}
					c.Evidence = append(c.Evidence, x.Value)
				}
			default:
				err = errAt(k, "unknown key %q (allowed: task, property, task_says, correct, reason, evidence)", k.Value)
			}
			if err != nil {
				return nil, err
			}
		}
		for _, req := range []struct{ name, val string }{{"task", c.Task}, {"property", c.Property}, {"task_says", c.TaskSays}, {"correct", c.Correct}, {"reason", c.Reason}} {
			if req.val == "" {
				return nil, errAt(e, "the correction lacks %q", req.name)
			}
		}
		if c.TaskSays == c.Correct {
			return nil, errAt(e, "task_says and correct are both %s: nothing to correct", c.Correct)
		}
		key := [2]string{c.Task, c.Property}
		if old := cs.entries[key]; old != nil {
			return nil, errAt(e, "a second correction for %s %s (the first is at %s)", c.Task, c.Property, old.Pos)
		}
		cs.entries[key] = c
	}
	return cs, nil
}

// apply records the corrected expectation on each result it covers and
// returns warnings for corrections that no longer fit their task file
// (the task file says neither what the correction expects it to say nor
// the corrected verdict), which are not applied.
func (cs *corrections) apply(rs []sweepResult) []string {
	if cs == nil {
		return nil
	}
	var warn []string
	for i := range rs {
		r := &rs[i]
		c := cs.entries[[2]string{r.Task, r.Property}]
		if c == nil {
			continue
		}
		switch r.Expected {
		case c.TaskSays:
			r.Corrected = c.Correct
			r.Correction = c.Reason
			r.CorrectedCategory = categoryOf(c.Correct, r.Answer)
			r.CorrectedScore = scoreOf(c.Correct, r.Answer)
		case c.Correct:
			warn = append(warn, fmt.Sprintf("%s: %s %s: the task file already says %s; the correction is no longer needed", c.Pos, r.Task, r.Property, c.Correct))
		default:
			warn = append(warn, fmt.Sprintf("%s: %s %s: the task file says %q, not %s; correction not applied", c.Pos, r.Task, r.Property, orDash(r.Expected), c.TaskSays))
		}
	}
	return warn
}
