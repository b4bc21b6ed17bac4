package ghclient

import (
	"encoding/json"
	"fmt"
	"math"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/prloop/gh-prloop/ghclient/gqlschema"
	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/parser"
	"github.com/vektah/gqlparser/v2/validator"
)

// A small GraphQL executor over an in-memory object graph, enough to answer
// the documents ghclient sends the way GitHub would. Every incoming
// document is validated against GitHub's published schema first, so a test
// fails if ghclient ever sends something GitHub would reject.

// obj is one GraphQL object: its concrete type and its fields. A field value
// is a scalar, *obj, []*obj, *conn, or func(args) any.
type obj struct {
	typ    string
	fields map[string]any
}

// conn is a connection with GitHub's cursor semantics. edges, when set,
// are its items' edges (for edge types with fields of their own).
type conn struct {
	items []*obj
	edges []*obj
}

type resolver func(args map[string]any) (any, error)

func testSchema(t testing.TB) *ast.Schema {
	t.Helper()
	s, err := gqlschema.Reference()
	if err != nil {
		t.Fatalf("loading reference schema: %v", err)
	}
	return s
}

// estimateCost applies GitHub's documented formula: one request per
// connection, multiplied by the page sizes of the connections above it;
// the sum divided by 100, rounded, at least 1.
func estimateCost(doc *ast.QueryDocument) int {
	requests := 0
	var walk func(set ast.SelectionSet, mult int)
	walk = func(set ast.SelectionSet, mult int) {
		for _, sel := range set {
			switch s := sel.(type) {
			case *ast.Field:
				if s.Definition != nil && strings.HasSuffix(s.Definition.Type.Name(), "Connection") {
					n := 0
					for _, a := range s.Arguments {
						if a.Name == "first" || a.Name == "last" {
							if v, err := strconv.Atoi(a.Value.Raw); err == nil {
								n = v
							}
						}
					}
					requests += mult
					walk(s.SelectionSet, mult*n)
					continue
				}
				walk(s.SelectionSet, mult)
			case *ast.InlineFragment:
				walk(s.SelectionSet, mult)
			case *ast.FragmentSpread:
				walk(s.Definition.SelectionSet, mult)
			}
		}
	}
	for _, op := range doc.Operations {
		walk(op.SelectionSet, 1)
	}
	return max(1, int(math.Round(float64(requests)/100)))
}

// fakeGitHub serves GraphQL from an object graph and REST from routes.
type fakeGitHub struct {
	t         testing.TB
	schema    *ast.Schema
	mu        sync.Mutex
	query     map[string]any // root Query fields
	mutation  map[string]any // root Mutation fields
	rest      map[string]http.HandlerFunc
	gqlCalls  int
	restCalls int
	docs      []string
	// fault, when set, may answer request n (1-based, per kind) itself.
	fault func(w http.ResponseWriter, r *http.Request, graphQL bool, n int) bool
}

func newFakeGitHub(t testing.TB) *fakeGitHub {
	return &fakeGitHub{t: t, schema: testSchema(t), query: map[string]any{}, mutation: map[string]any{}, rest: map[string]http.HandlerFunc{}}
}

func (f *fakeGitHub) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	isGQL := r.URL.Path == "/graphql"
	f.mu.Lock()
	var n int
	if isGQL {
		f.gqlCalls++
		n = f.gqlCalls
	} else {
		f.restCalls++
		n = f.restCalls
	}
	fault := f.fault
	f.mu.Unlock()
	if fault != nil && fault(w, r, isGQL, n) {
		return
	}
	if isGQL {
		f.serveGraphQL(w, r)
		return
	}
	h, ok := f.rest[r.URL.Path]
	if !ok {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusNotFound)
		fmt.Fprint(w, `{"message":"Not Found"}`)
		return
	}
	h(w, r)
}

func (f *fakeGitHub) serveGraphQL(w http.ResponseWriter, r *http.Request) {
	var req struct {
		Query     string         `json:"query"`
		Variables map[string]any `json:"variables"`
	}
	if err := json.NewDecoder(r.Body).Decode(&req); err != nil {
		f.t.Errorf("fake: bad GraphQL request: %v", err)
		http.Error(w, "bad request", http.StatusBadRequest)
		return
	}
	f.mu.Lock()
	f.docs = append(f.docs, req.Query)
	f.mu.Unlock()
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.Header().Set("X-RateLimit-Resource", "graphql")
	w.Header().Set("X-RateLimit-Remaining", "4990")
	doc, perr := parser.ParseQuery(&ast.Source{Input: req.Query})
	if perr == nil {
		if errs := validator.Validate(f.schema, doc); len(errs) > 0 {
			perr = errs
		}
	}
	if perr != nil {
		f.t.Errorf("fake: ghclient sent an invalid document: %v\n%s", perr, req.Query)
		json.NewEncoder(w).Encode(map[string]any{"errors": []any{map[string]any{"message": perr.Error()}}})
		return
	}
	op := doc.Operations[0]
	rootFields := f.query
	rootType := "Query"
	if op.Operation == ast.Mutation {
		rootFields, rootType = f.mutation, "Mutation"
	}
	cost := estimateCost(doc)
	root := &obj{typ: rootType, fields: map[string]any{}}
	f.mu.Lock()
	for k, v := range rootFields {
		root.fields[k] = v
	}
	f.mu.Unlock()
	root.fields["rateLimit"] = &obj{typ: "RateLimit", fields: map[string]any{"cost": cost, "remaining": 5000 - cost}}
	ex := &executor{schema: f.schema, vars: req.Variables}
	data := ex.selectSet(root, op.SelectionSet)
	out := map[string]any{"data": data}
	if len(ex.errs) > 0 {
		out["errors"] = ex.errs
	}
	json.NewEncoder(w).Encode(out)
}

func (f *fakeGitHub) calls() (gql, rest int) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.gqlCalls, f.restCalls
}

type executor struct {
	schema *ast.Schema
	vars   map[string]any
	errs   []any
}

func (e *executor) fail(format string, args ...any) {
	e.errs = append(e.errs, map[string]any{"message": fmt.Sprintf(format, args...)})
}

func (e *executor) matches(typ, cond string) bool {
	if typ == cond {
		return true
	}
	def := e.schema.Types[cond]
	if def == nil {
		return false
	}
	for _, p := range e.schema.GetPossibleTypes(def) {
		if p.Name == typ {
			return true
		}
	}
	return false
}

func (e *executor) selectSet(o *obj, set ast.SelectionSet) map[string]any {
	out := map[string]any{}
	for _, sel := range set {
		switch s := sel.(type) {
		case *ast.Field:
			key := s.Alias
			if key == "" {
				key = s.Name
			}
			if s.Name == "__typename" {
				out[key] = o.typ
				continue
			}
			v, ok := o.fields[s.Name]
			if !ok {
				e.fail("fake has no field %s on %s", s.Name, o.typ)
				continue
			}
			merge(out, key, e.value(v, s.ArgumentMap(e.vars), s.SelectionSet, s.Definition.Type.Name()))
		case *ast.InlineFragment:
			if e.matches(o.typ, s.TypeCondition) {
				for k, v := range e.selectSet(o, s.SelectionSet) {
					merge(out, k, v)
				}
			}
		case *ast.FragmentSpread:
			if e.matches(o.typ, s.Definition.TypeCondition) {
				for k, v := range e.selectSet(o, s.Definition.SelectionSet) {
					merge(out, k, v)
				}
			}
		}
	}
	return out
}

func merge(out map[string]any, k string, v any) {
	prev, ok := out[k].(map[string]any)
	next, ok2 := v.(map[string]any)
	if ok && ok2 {
		for kk, vv := range next {
			merge(prev, kk, vv)
		}
		return
	}
	out[k] = v
}

func (e *executor) value(v any, args map[string]any, set ast.SelectionSet, typ string) any {
	switch x := v.(type) {
	case nil:
		return nil
	case resolver:
		r, err := x(args)
		if err != nil {
			e.fail("%v", err)
			return nil
		}
		return e.value(r, args, set, typ)
	case *obj:
		if x == nil {
			return nil
		}
		return e.selectSet(x, set)
	case []*obj:
		list := make([]any, len(x))
		for i, o := range x {
			list[i] = e.value(o, nil, set, typ)
		}
		return list
	case *conn:
		return e.selectSet(x.page(args, typ), set)
	default:
		return x
	}
}

func intArg(args map[string]any, k string) (int, bool) {
	switch v := args[k].(type) {
	case int64:
		return int(v), true
	case int:
		return v, true
	case float64:
		return int(v), true
	case json.Number:
		n, err := v.Int64()
		return int(n), err == nil
	}
	return 0, false
}

// page cuts the connection at first/after or last, with cursors "cN"
// meaning "after the N-th item".
func (c *conn) page(args map[string]any, typ string) *obj {
	start := 0
	if a, ok := args["after"].(string); ok && a != "" {
		n, err := strconv.Atoi(strings.TrimPrefix(a, "c"))
		if err != nil {
			panic("fake: bad cursor " + a)
		}
		start = n
	}
	end := len(c.items)
	if n, ok := intArg(args, "first"); ok {
		end = min(start+n, len(c.items))
	}
	if n, ok := intArg(args, "last"); ok {
		start = max(end-n, start)
	}
	items := c.items[start:end]
	var endCursor any
	if len(items) > 0 {
		endCursor = "c" + strconv.Itoa(end)
	}
	fields := map[string]any{
		"nodes":      items,
		"totalCount": len(c.items),
		"pageInfo": &obj{typ: "PageInfo", fields: map[string]any{
			"hasNextPage": end < len(c.items), "endCursor": endCursor,
		}},
	}
	if c.edges != nil {
		fields["edges"] = c.edges[start:end]
	}
	return &obj{typ: typ, fields: fields}
}

// mustValidate runs schema validation on q so that its fields carry their
// definitions (estimateCost needs them).
func mustValidate(t testing.TB, schema *ast.Schema, q *ast.QueryDocument) *ast.QueryDocument {
	t.Helper()
	if errs := validator.Validate(schema, q); len(errs) > 0 {
		t.Fatal(errs)
	}
	return q
}
