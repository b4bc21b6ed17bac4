package ghsim

import (
	"encoding/base64"
	"strconv"
	"strings"
)

// connection is the generic Relay connection every list field returns.
type connection struct {
	items    []object
	lo, hi   int            // the selected window of items
	extra    map[string]any // connection-specific scalar fields (e.g. checkRunCount)
	edgeData []any          // per item, for edge types with fields of their own (ReactorEdge.reactedAt)
}

type edge struct {
	cursor string
	node   object
	data   any // edgeData of its item
}

type pageInfo struct {
	hasNext, hasPrev    bool
	startCursor, endCur any
}

const maxPageSize = 100

func encodeCursor(i int) string {
	return base64.StdEncoding.EncodeToString([]byte("cursor:v2:" + strconv.Itoa(i)))
}

func decodeCursor(c string) (int, bool) {
	raw, err := base64.StdEncoding.DecodeString(c)
	if err != nil {
		return 0, false
	}
	n, ok := strings.CutPrefix(string(raw), "cursor:v2:")
	if !ok {
		return 0, false
	}
	i, err := strconv.Atoi(n)
	return i, err == nil && i >= 0
}

// paginate applies first/after/last/before with GitHub's rules: one of
// first or last is required, neither may exceed 100, cursors are opaque.
// A page fault injected for this connection fires here.
func (f *fieldCtx) paginate(connType string, items []object) (any, error) {
	name := f.field.Name
	first, hasFirst := argInt(f.args, "first")
	last, hasLast := argInt(f.args, "last")
	// GitHub lets totalCount-only selections go without bounds; asking for
	// nodes or edges without first/last is refused.
	if !hasFirst && !hasLast && f.selectsItems(connType) {
		return nil, errorf("MISSING_PAGINATION_BOUNDARIES", "You must provide a `first` or `last` value to properly paginate the `%s` connection.", name)
	}
	if hasFirst && first > maxPageSize {
		return nil, errorf("EXCESSIVE_PAGINATION", "Requesting %d records on the `%s` connection exceeds the `first` limit of %d records.", first, name, maxPageSize)
	}
	if hasLast && last > maxPageSize {
		return nil, errorf("EXCESSIVE_PAGINATION", "Requesting %d records on the `%s` connection exceeds the `last` limit of %d records.", last, name, maxPageSize)
	}
	if (hasFirst && first < 0) || (hasLast && last < 0) {
		return nil, errorf("INVALID_PAGINATION", "`first` and `last` must be nonnegative integers")
	}
	lo, hi := 0, len(items)
	if a, ok := f.args["after"].(string); ok {
		i, valid := decodeCursor(a)
		if !valid {
			return nil, errorf("INVALID_CURSOR_ARGUMENTS", "`%s` does not appear to be a valid cursor.", a)
		}
		lo = min(i+1, len(items))
	}
	if b, ok := f.args["before"].(string); ok {
		i, valid := decodeCursor(b)
		if !valid {
			return nil, errorf("INVALID_CURSOR_ARGUMENTS", "`%s` does not appear to be a valid cursor.", b)
		}
		hi = min(i, hi)
	}
	if hi < lo {
		hi = lo
	}
	size := 0
	if hasFirst {
		hi = min(hi, lo+first)
		size = first
	}
	if hasLast {
		lo = max(lo, hi-last)
		size = last
	}
	f.ex.nodeCount += size
	page := 1
	if size > 0 {
		page = lo/size + 1
	}
	if err := f.ex.s.pageFaultLocked(f.ex.c.reqID, name, page); err != nil {
		return nil, err
	}
	return object{typ: connType, v: &connection{items: items, lo: lo, hi: hi}}, nil
}

var connectionFields = map[string]resolver{
	"totalCount": func(f *fieldCtx) (any, error) { return len(f.obj.v.(*connection).items), nil },
	"nodes": func(f *fieldCtx) (any, error) {
		c := f.obj.v.(*connection)
		return append([]object{}, c.items[c.lo:c.hi]...), nil
	},
	"edges": func(f *fieldCtx) (any, error) {
		c := f.obj.v.(*connection)
		edgeType := strings.TrimSuffix(f.obj.typ, "Connection") + "Edge"
		out := make([]object, 0, c.hi-c.lo)
		for i := c.lo; i < c.hi; i++ {
			e := &edge{cursor: encodeCursor(i), node: c.items[i]}
			if i < len(c.edgeData) {
				e.data = c.edgeData[i]
			}
			out = append(out, object{typ: edgeType, v: e})
		}
		return out, nil
	},
	"pageInfo": func(f *fieldCtx) (any, error) {
		c := f.obj.v.(*connection)
		pi := &pageInfo{hasNext: c.hi < len(c.items), hasPrev: c.lo > 0}
		if c.hi > c.lo {
			pi.startCursor, pi.endCur = encodeCursor(c.lo), encodeCursor(c.hi-1)
		}
		return object{typ: "PageInfo", v: pi}, nil
	},
}

var edgeFields = map[string]resolver{
	"cursor": func(f *fieldCtx) (any, error) { return f.obj.v.(*edge).cursor, nil },
	"node":   func(f *fieldCtx) (any, error) { return f.obj.v.(*edge).node, nil },
}

var pageInfoFields = map[string]resolver{
	"hasNextPage":     func(f *fieldCtx) (any, error) { return f.obj.v.(*pageInfo).hasNext, nil },
	"hasPreviousPage": func(f *fieldCtx) (any, error) { return f.obj.v.(*pageInfo).hasPrev, nil },
	"startCursor":     func(f *fieldCtx) (any, error) { return f.obj.v.(*pageInfo).startCursor, nil },
	"endCursor":       func(f *fieldCtx) (any, error) { return f.obj.v.(*pageInfo).endCur, nil },
}

func argInt(args map[string]any, name string) (int, bool) {
	switch v := args[name].(type) {
	case int64:
		return int(v), true
	case int:
		return v, true
	case float64:
		return int(v), true
	}
	return 0, false
}

func argString(args map[string]any, name string) string {
	s, _ := args[name].(string)
	return s
}

func argStrings(args map[string]any, name string) []string {
	switch v := args[name].(type) {
	case string:
		return []string{v}
	case []any:
		var out []string
		for _, x := range v {
			if s, ok := x.(string); ok {
				out = append(out, s)
			}
		}
		return out
	}
	return nil
}

func (f *fieldCtx) selectsItems(connType string) bool {
	var fields []*collected
	f.ex.collect(connType, f.field.SelectionSet, &fields, map[string]bool{})
	for _, c := range fields {
		switch c.fields[0].Name {
		case "nodes", "edges":
			return true
		}
	}
	return false
}
