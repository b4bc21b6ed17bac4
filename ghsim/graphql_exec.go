package ghsim

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"

	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/gqlerror"
	"github.com/vektah/gqlparser/v2/parser"
)

// The executor is generic: it walks the parsed operation and, for every
// selected field, calls the resolver registered for (type name, field name).
// Objects are (type name, Go value) pairs; connections are generic. Only the
// selected fields are returned, in selection order, as GitHub does.

// object is a resolved GraphQL object value.
type object struct {
	typ string
	v   any
}

// fieldCtx is what a resolver sees.
type fieldCtx struct {
	ex    *executor
	obj   object
	args  map[string]any
	field *ast.Field
	path  []any
}

type resolver func(f *fieldCtx) (any, error)

// gqlError is GitHub's GraphQL error object.
type gqlError struct {
	Type       string         `json:"type,omitempty"`
	Path       []any          `json:"path,omitempty"`
	Extensions map[string]any `json:"extensions,omitempty"`
	Locations  []gqlLocation  `json:"locations,omitempty"`
	Message    string         `json:"message"`
}

type gqlLocation struct {
	Line   int `json:"line"`
	Column int `json:"column"`
}

// fieldError is returned by resolvers; the field becomes null and the error
// is reported with the field's path and location.
type fieldError struct {
	typ string // NOT_FOUND, FORBIDDEN, INTERNAL, UNPROCESSABLE, ...
	msg string
}

func (e *fieldError) Error() string { return e.msg }

func errorf(typ, format string, args ...any) error {
	return &fieldError{typ: typ, msg: fmt.Sprintf(format, args...)}
}

type executor struct {
	s         *Server
	c         *call
	doc       *ast.QueryDocument
	op        *ast.OperationDefinition
	vars      map[string]any
	cost      int // points this operation is charged (queryCost)
	errors    []*gqlError
	undefined []*gqlError // static errors: answer without data
	nodeCount int
}

type gqlResult struct {
	data   *omap
	errors []*gqlError
}

// execute runs one GraphQL request. charge is called once, before any field
// is resolved, with the points the request costs (1 when it never got as far
// as a valid operation), so that rateLimit.remaining already reflects it.
// The caller holds s.mu.
func (s *Server) executeLocked(c *call, query, opName string, rawVars map[string]any, charge func(points int)) gqlResult {
	charged := false
	defer func() {
		if !charged {
			charge(1)
		}
	}()
	doc, err := parser.ParseQuery(&ast.Source{Name: "query", Input: query})
	if err != nil {
		return gqlResult{errors: []*gqlError{parseError(err)}}
	}
	ex := &executor{s: s, c: c, doc: doc}
	op, gerr := pickOperation(doc, opName)
	if gerr != nil {
		return gqlResult{errors: []*gqlError{gerr}}
	}
	ex.op = op
	s.countOperationLocked(op.Name)
	vars, verrs := coerceVariables(op, rawVars)
	if len(verrs) > 0 {
		return gqlResult{errors: verrs}
	}
	ex.vars = vars
	ex.cost = ex.queryCost()
	charge(ex.cost)
	charged = true
	root := object{typ: "Query"}
	if op.Operation == ast.Mutation {
		root.typ = "Mutation"
	} else if op.Operation == ast.Subscription {
		return gqlResult{errors: []*gqlError{{Message: "Subscriptions are not supported"}}}
	}
	data := ex.selectObject(root, op.SelectionSet, nil)
	if len(ex.undefined) > 0 {
		return gqlResult{errors: ex.undefined}
	}
	return gqlResult{data: data, errors: ex.errors}
}

// parseError renders a syntax error the way GitHub words it:
// "Parse error on <what> at [line, column]".
func parseError(err error) *gqlError {
	var ge *gqlerror.Error
	if !errors.As(err, &ge) || len(ge.Locations) == 0 {
		return &gqlError{Message: "Parse error on " + err.Error()}
	}
	loc := ge.Locations[0]
	return &gqlError{
		Locations: []gqlLocation{{Line: loc.Line, Column: loc.Column}},
		Message:   fmt.Sprintf("Parse error on %s at [%d, %d]", ge.Message, loc.Line, loc.Column),
	}
}

func pickOperation(doc *ast.QueryDocument, name string) (*ast.OperationDefinition, *gqlError) {
	if len(doc.Operations) == 0 {
		return nil, &gqlError{Message: "No operations in query document"}
	}
	if name == "" {
		if len(doc.Operations) > 1 {
			return nil, &gqlError{Message: "An operation name is required"}
		}
		return doc.Operations[0], nil
	}
	op := doc.Operations.ForName(name)
	if op == nil {
		return nil, &gqlError{Message: fmt.Sprintf("No operation named %q", name)}
	}
	return op, nil
}

// coerceVariables applies defaults and rejects missing non-null variables
// with GitHub's message; JSON numbers become int64 where integral.
func coerceVariables(op *ast.OperationDefinition, raw map[string]any) (map[string]any, []*gqlError) {
	vars := map[string]any{}
	for k, v := range raw {
		vars[k] = normalizeJSON(v)
	}
	var errs []*gqlError
	for _, def := range op.VariableDefinitions {
		v, ok := vars[def.Variable]
		if (!ok || v == nil) && def.DefaultValue != nil {
			dv, _ := def.DefaultValue.Value(nil)
			vars[def.Variable] = dv
			continue
		}
		if (!ok || v == nil) && def.Type.NonNull {
			errs = append(errs, &gqlError{
				Extensions: map[string]any{"value": nil, "problems": []any{map[string]any{"path": []any{}, "explanation": "Expected value to not be null"}}},
				Locations:  locations(def.Position),
				Message:    fmt.Sprintf("Variable $%s of type %s was provided invalid value", def.Variable, def.Type.String()),
			})
		}
	}
	return vars, errs
}

func normalizeJSON(v any) any {
	switch t := v.(type) {
	case json.Number:
		if n, err := t.Int64(); err == nil {
			return n
		}
		f, _ := t.Float64()
		return f
	case map[string]any:
		out := make(map[string]any, len(t))
		for k, x := range t {
			out[k] = normalizeJSON(x)
		}
		return out
	case []any:
		out := make([]any, len(t))
		for i, x := range t {
			out[i] = normalizeJSON(x)
		}
		return out
	}
	return v
}

func locations(p *ast.Position) []gqlLocation {
	if p == nil {
		return nil
	}
	return []gqlLocation{{Line: p.Line, Column: p.Column}}
}

// collected is one response key with every field node merged into it.
type collected struct {
	key    string
	fields []*ast.Field
}

func (ex *executor) collect(typ string, sel ast.SelectionSet, out *[]*collected, seen map[string]bool) {
	for _, s := range sel {
		switch s := s.(type) {
		case *ast.Field:
			if ex.skipped(s.Directives) {
				continue
			}
			key := s.Alias
			if key == "" {
				key = s.Name
			}
			found := false
			for _, c := range *out {
				if c.key == key {
					c.fields = append(c.fields, s)
					found = true
					break
				}
			}
			if !found {
				*out = append(*out, &collected{key: key, fields: []*ast.Field{s}})
			}
		case *ast.InlineFragment:
			if ex.skipped(s.Directives) || (s.TypeCondition != "" && !typeMatches(typ, s.TypeCondition)) {
				continue
			}
			ex.collect(typ, s.SelectionSet, out, seen)
		case *ast.FragmentSpread:
			if ex.skipped(s.Directives) || seen[s.Name] {
				continue
			}
			frag := ex.doc.Fragments.ForName(s.Name)
			if frag == nil {
				ex.undefined = append(ex.undefined, &gqlError{
					Path:       []any{ex.opPath()},
					Extensions: map[string]any{"code": "useAndDefineFragment", "fragmentName": s.Name},
					Locations:  locations(s.Position),
					Message:    fmt.Sprintf("Fragment %s was used, but not defined", s.Name),
				})
				continue
			}
			if !typeMatches(typ, frag.TypeCondition) {
				continue
			}
			seen[s.Name] = true
			ex.collect(typ, frag.SelectionSet, out, seen)
			delete(seen, s.Name)
		}
	}
}

// skipped honours @skip(if:) and @include(if:).
func (ex *executor) skipped(dirs ast.DirectiveList) bool {
	for _, d := range dirs {
		arg := d.Arguments.ForName("if")
		if arg == nil {
			continue
		}
		v, _ := arg.Value.Value(ex.vars)
		b, _ := v.(bool)
		if (d.Name == "skip" && b) || (d.Name == "include" && !b) {
			return true
		}
	}
	return false
}

func (ex *executor) opPath() string {
	if ex.op.Name != "" {
		return string(ex.op.Operation) + " " + ex.op.Name
	}
	return string(ex.op.Operation)
}

func (ex *executor) selectObject(obj object, sel ast.SelectionSet, path []any) *omap {
	var fields []*collected
	ex.collect(obj.typ, sel, &fields, map[string]bool{})
	out := &omap{}
	for _, cf := range fields {
		f := cf.fields[0]
		p := append(append([]any{}, path...), cf.key)
		if f.Name == "__typename" {
			out.set(cf.key, obj.typ)
			continue
		}
		fn := lookupResolver(obj, f.Name)
		if fn == nil {
			static := []any{ex.opPath()}
			for _, e := range path {
				if s, ok := e.(string); ok {
					static = append(static, s)
				}
			}
			ex.undefined = append(ex.undefined, &gqlError{
				Path:       append(static, f.Name),
				Extensions: map[string]any{"code": "undefinedField", "typeName": obj.typ, "fieldName": f.Name},
				Locations:  locations(f.Position),
				Message:    fmt.Sprintf("Field '%s' doesn't exist on type '%s'", f.Name, obj.typ),
			})
			out.set(cf.key, nil)
			continue
		}
		args := map[string]any{}
		for _, a := range f.Arguments {
			v, err := a.Value.Value(ex.vars)
			if err != nil {
				ex.fail(f, p, errorf("ARGUMENT_ERROR", "Argument '%s' on Field '%s' has an invalid value (%s).", a.Name, f.Name, a.Value.String()))
				v = nil
			}
			args[a.Name] = v
		}
		val, err := fn(&fieldCtx{ex: ex, obj: obj, args: args, field: f, path: p})
		if err != nil {
			ex.fail(f, p, err)
			out.set(cf.key, nil)
			continue
		}
		out.set(cf.key, ex.complete(val, mergeSelections(cf.fields), p))
	}
	return out
}

func mergeSelections(fields []*ast.Field) ast.SelectionSet {
	if len(fields) == 1 {
		return fields[0].SelectionSet
	}
	var sel ast.SelectionSet
	for _, f := range fields {
		sel = append(sel, f.SelectionSet...)
	}
	return sel
}

func (ex *executor) fail(f *ast.Field, path []any, err error) {
	e := &gqlError{Path: path, Locations: locations(f.Position), Message: err.Error()}
	if fe, ok := err.(*fieldError); ok {
		e.Type = fe.typ
	}
	ex.errors = append(ex.errors, e)
}

// complete turns a resolver's value into JSON, recursing into objects.
func (ex *executor) complete(val any, sel ast.SelectionSet, path []any) any {
	switch v := val.(type) {
	case nil:
		return nil
	case object:
		if isNil(v.v) && v.typ != "Query" && v.typ != "Mutation" && v.typ != "RateLimit" {
			return nil
		}
		return ex.selectObject(v, sel, path)
	case []object:
		out := make([]any, len(v))
		for i, o := range v {
			out[i] = ex.complete(o, sel, append(append([]any{}, path...), i))
		}
		return out
	}
	return val
}

func isNil(v any) bool {
	if v == nil {
		return true
	}
	rv := reflect.ValueOf(v)
	switch rv.Kind() {
	case reflect.Pointer, reflect.Map, reflect.Slice, reflect.Interface:
		return rv.IsNil()
	}
	return false
}

// omap is a JSON object that keeps insertion order (selection order).
type omap struct {
	keys []string
	vals []any
}

func (m *omap) set(k string, v any) {
	for i, key := range m.keys {
		if key == k {
			m.vals[i] = v
			return
		}
	}
	m.keys = append(m.keys, k)
	m.vals = append(m.vals, v)
}

func (m *omap) MarshalJSON() ([]byte, error) {
	var buf bytes.Buffer
	w := newJSONWriter(&buf)
	w.object(m)
	return buf.Bytes(), w.err
}

// jsonWriter writes nested objects and lists itself: going through
// encoding/json at every level would re-validate each subtree once per
// level above it, and a fresh encoder per scalar dominates large pages.
type jsonWriter struct {
	out     *bytes.Buffer
	scratch bytes.Buffer
	enc     *json.Encoder
	err     error
}

func newJSONWriter(out *bytes.Buffer) *jsonWriter {
	w := &jsonWriter{out: out}
	w.enc = json.NewEncoder(&w.scratch)
	w.enc.SetEscapeHTML(false) // as encodeJSON: GitHub sends "<!--" literally
	return w
}

func (w *jsonWriter) object(m *omap) {
	w.out.WriteByte('{')
	for i, k := range m.keys {
		if i > 0 {
			w.out.WriteByte(',')
		}
		w.value(k)
		w.out.WriteByte(':')
		w.value(m.vals[i])
	}
	w.out.WriteByte('}')
}

func (w *jsonWriter) value(v any) {
	switch t := v.(type) {
	case *omap:
		if t == nil {
			w.out.WriteString("null")
			return
		}
		w.object(t)
	case []any:
		w.out.WriteByte('[')
		for i, x := range t {
			if i > 0 {
				w.out.WriteByte(',')
			}
			w.value(x)
		}
		w.out.WriteByte(']')
	default:
		w.scratch.Reset()
		if err := w.enc.Encode(v); err != nil && w.err == nil {
			w.err = err
		}
		w.out.Write(bytes.TrimRight(w.scratch.Bytes(), "\n"))
	}
}
