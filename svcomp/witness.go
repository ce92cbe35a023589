package svcomp

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/xml"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"time"

	"ncmc/interp"
	"ncmc/ncmc"
)

// This file writes SV-COMP violation witnesses in the GraphML format,
// version 1.0 (sv-witnesses, README-GraphML.md): a path automaton from an
// entry node to a violation node whose edges follow the counterexample
// step by step, with the source line, the thread that takes the step, the
// thread a pthread_create step creates and the function a new thread
// enters.

// WitnessInfo is what a witness says about the task besides the path.
type WitnessInfo struct {
	ProgramFile   string    // path of the verified program, as given
	Specification string    // the property's CHECK(...) text
	DataModel     string    // ILP32 or LP64 ("" : ILP32)
	Producer      string    // tool name and version, e.g. "ncmc 0.1"
	Created       time.Time // creation time (UTC in the file)
	Language      string    // source code language: C, or CIR
}

// GraphML is a GraphML document, as witnesses are written; it also reads
// them back (xml.Unmarshal).
type GraphML struct {
	XMLName xml.Name     `xml:"graphml"`
	XMLNS   string       `xml:"xmlns,attr"`
	XSI     string       `xml:"xmlns:xsi,attr,omitempty"`
	Keys    []GraphMLKey `xml:"key"`
	Graph   GraphMLGraph `xml:"graph"`
}

// GraphMLKey declares a data key.
type GraphMLKey struct {
	ID      string `xml:"id,attr"`
	For     string `xml:"for,attr"`
	Name    string `xml:"attr.name,attr"`
	Type    string `xml:"attr.type,attr"`
	Default string `xml:"default,omitempty"`
}

// GraphMLGraph is the graph: its data, nodes and edges.
type GraphMLGraph struct {
	EdgeDefault string        `xml:"edgedefault,attr"`
	Data        []GraphMLData `xml:"data"`
	Nodes       []GraphMLNode `xml:"node"`
	Edges       []GraphMLEdge `xml:"edge"`
}

// GraphMLData is one data value of a graph, node or edge.
type GraphMLData struct {
	Key   string `xml:"key,attr"`
	Value string `xml:",chardata"`
}

// GraphMLNode is a node with its data.
type GraphMLNode struct {
	ID   string        `xml:"id,attr"`
	Data []GraphMLData `xml:"data"`
}

// GraphMLEdge is an edge with its data.
type GraphMLEdge struct {
	Source string        `xml:"source,attr"`
	Target string        `xml:"target,attr"`
	Data   []GraphMLData `xml:"data"`
}

// witnessKeys are the key declarations of the GraphML witness format 1.0
// that ncmc uses.
var witnessKeys = []GraphMLKey{
	{ID: "witness-type", For: "graph", Name: "witness-type", Type: "string"},
	{ID: "sourcecodelang", For: "graph", Name: "sourcecodeLanguage", Type: "string"},
	{ID: "producer", For: "graph", Name: "producer", Type: "string"},
	{ID: "specification", For: "graph", Name: "specification", Type: "string"},
	{ID: "programfile", For: "graph", Name: "programFile", Type: "string"},
	{ID: "programhash", For: "graph", Name: "programHash", Type: "string"},
	{ID: "architecture", For: "graph", Name: "architecture", Type: "string"},
	{ID: "creationtime", For: "graph", Name: "creationTime", Type: "string"},
	{ID: "entry", For: "node", Name: "isEntryNode", Type: "boolean", Default: "false"},
	{ID: "violation", For: "node", Name: "isViolationNode", Type: "boolean", Default: "false"},
	{ID: "startline", For: "edge", Name: "startline", Type: "int"},
	{ID: "endline", For: "edge", Name: "endline", Type: "int"},
	{ID: "originfile", For: "edge", Name: "originFileName", Type: "string"},
	{ID: "threadId", For: "edge", Name: "threadId", Type: "string"},
	{ID: "createThread", For: "edge", Name: "createThread", Type: "string"},
	{ID: "enterFunction", For: "edge", Name: "enterFunction", Type: "string"},
}

var spawnRE = regexp.MustCompile(`^spawns (t\S+) running (\S+)`)

// architecture maps a data model to the witness's architecture value.
func architecture(dataModel string) string {
	if strings.EqualFold(dataModel, "LP64") {
		return "64bit"
	}
	return "32bit"
}

// buildWitness turns a counterexample into a GraphML violation witness.
// Consecutive steps of one thread at one source line (the reads and
// writes of one statement) become one edge, so that every edge stands for
// a statement a validator can match; a step in another file than the
// program (a header) names that file in originfile. Thread ids are numbers
// in creation order, the main thread is 0.
func buildWitness(info WitnessInfo, programHash string, steps []interp.TraceStep) *GraphML {
	lang := info.Language
	if lang == "" {
		lang = "C"
	}
	spec := strings.TrimSpace(info.Specification)
	if spec == "" {
		spec = UnreachCallSpec
	}
	d := &GraphML{XMLNS: "http://graphml.graphdrawing.org/xmlns", XSI: "http://www.w3.org/2001/XMLSchema-instance", Keys: witnessKeys}
	g := &d.Graph
	g.EdgeDefault = "directed"
	g.Data = []GraphMLData{
		{"witness-type", "violation_witness"},
		{"sourcecodelang", lang},
		{"producer", info.Producer},
		{"specification", spec},
		{"programfile", info.ProgramFile},
		{"programhash", programHash},
		{"architecture", architecture(info.DataModel)},
		{"creationtime", info.Created.UTC().Format(time.RFC3339)},
	}
	ids := map[string]int{}        // thread name -> witness thread id
	entered := map[string]string{} // thread name -> function to enter on its first edge
	threadID := func(name string) int {
		if id, ok := ids[name]; ok {
			return id
		}
		ids[name] = len(ids)
		return ids[name]
	}
	if len(steps) > 0 && steps[0].Thread != "" {
		threadID(steps[0].Thread) // the main thread is 0
	}
	progBase := filepath.Clean(info.ProgramFile)
	g.Nodes = append(g.Nodes, GraphMLNode{ID: "N0", Data: []GraphMLData{{"entry", "true"}}})
	prevThread, prevLine := "", -1
	for _, st := range steps {
		m := spawnRE.FindStringSubmatch(st.What)
		if len(g.Edges) > 0 && m == nil && st.Thread == prevThread && st.Line == prevLine && entered[st.Thread] == "" {
			continue // the same statement as the previous edge
		}
		prevThread, prevLine = st.Thread, st.Line
		var data []GraphMLData
		if st.Line > 0 {
			data = append(data, GraphMLData{"startline", strconv.Itoa(st.Line)}, GraphMLData{"endline", strconv.Itoa(st.Line)})
			if f := st.Pos.File; f != "" && filepath.Clean(f) != progBase {
				data = append(data, GraphMLData{"originfile", f})
			}
		}
		if st.Thread != "" {
			data = append(data, GraphMLData{"threadId", strconv.Itoa(threadID(st.Thread))})
			if fn := entered[st.Thread]; fn != "" {
				data = append(data, GraphMLData{"enterFunction", fn})
				delete(entered, st.Thread)
			}
		}
		if m != nil {
			child := m[1]
			data = append(data, GraphMLData{"createThread", strconv.Itoa(threadID(child))})
			entered[child] = m[2]
		}
		src := g.Nodes[len(g.Nodes)-1].ID
		dst := fmt.Sprintf("N%d", len(g.Nodes))
		g.Nodes = append(g.Nodes, GraphMLNode{ID: dst})
		g.Edges = append(g.Edges, GraphMLEdge{Source: src, Target: dst, Data: data})
	}
	last := &g.Nodes[len(g.Nodes)-1]
	last.Data = append(last.Data, GraphMLData{"violation", "true"})
	return d
}

// WriteWitness writes the violation witness of steps for info to w. It
// reads the program file to compute its SHA-256 hash.
func WriteWitness(w io.Writer, info WitnessInfo, steps []interp.TraceStep) error {
	src, err := os.ReadFile(info.ProgramFile)
	if err != nil {
		return err
	}
	sum := sha256.Sum256(src)
	d := buildWitness(info, hex.EncodeToString(sum[:]), steps)
	if _, err := io.WriteString(w, xml.Header); err != nil {
		return err
	}
	enc := xml.NewEncoder(w)
	enc.Indent("", " ")
	if err := enc.Encode(d); err != nil {
		return err
	}
	_, err = io.WriteString(w, "\n")
	return err
}

// WriteWitnessFile writes the violation witness of steps for info to path.
func WriteWitnessFile(path string, info WitnessInfo, steps []interp.TraceStep) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if err := WriteWitness(f, info, steps); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// WitnessLanguage is the sourcecodelang of a program file: C or CIR.
func WitnessLanguage(file string) string {
	switch strings.ToLower(filepath.Ext(file)) {
	case ".c", ".i":
		return "C"
	}
	return "CIR"
}

// ErrorCallTrace returns the counterexample of res if it ends in a call
// of an error function (the witness of an unreach-call violation), else
// nil.
func ErrorCallTrace(res *ncmc.Result) []interp.TraceStep {
	steps := res.Counterexample
	if len(steps) == 0 || !UnreachCall.Violates("", steps[len(steps)-1].What) {
		return nil
	}
	return steps
}
