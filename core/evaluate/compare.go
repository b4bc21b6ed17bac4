package evaluate

import (
	"fmt"
	"reflect"
	"slices"

	"github.com/prloop/gh-prloop/core/canon"
	"github.com/prloop/gh-prloop/core/problems"
	"github.com/prloop/gh-prloop/core/schema"
)

// The seed binds whole sub-documents of a plan to the evaluator snapshot
// ("exactly", "the same entries"). These helpers compare them and, when they
// differ, point at the leaf that differs so a human sees what drifted.

// sameAs records code at the deepest path where got and want differ.
func sameAs(got, want any, path, code, what string, errs *problems.List) {
	if reflect.DeepEqual(got, want) {
		return
	}
	g, err1 := toValue(got)
	w, err2 := toValue(want)
	if err1 != nil || err2 != nil {
		errs.Add(path, code, "must equal %s", what)
		return
	}
	diffValues(g, w, path, code, what, errs)
}

func toValue(v any) (any, error) {
	b, err := canon.Marshal(v)
	if err != nil {
		return nil, err
	}
	return canon.Parse(b)
}

func diffValues(g, w any, path, code, what string, errs *problems.List) {
	switch wv := w.(type) {
	case map[string]any:
		gv, ok := g.(map[string]any)
		if !ok {
			break
		}
		for _, k := range sortedKeys(wv) {
			diffValues(gv[k], wv[k], problems.Join(path, k), code, what, errs)
		}
		return
	case []any:
		gv, ok := g.([]any)
		if !ok || len(gv) != len(wv) {
			n := 0
			if ok {
				n = len(gv)
			}
			errs.Add(path, code, "has %d entries; %s has %d", n, what, len(wv))
			return
		}
		for i := range wv {
			diffValues(gv[i], wv[i], problems.Join(path, i), code, what, errs)
		}
		return
	}
	if !reflect.DeepEqual(g, w) {
		errs.Add(path, code, "must equal %s (%s)", what, short(w))
	}
}

func short(v any) string {
	b, err := canon.Encode(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	return clip(string(b))
}

func sortedKeys(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	for i := 1; i < len(keys); i++ {
		for j := i; j > 0 && keys[j] < keys[j-1]; j-- {
			keys[j], keys[j-1] = keys[j-1], keys[j]
		}
	}
	return keys
}

// sameThreads: a plan's thread list is sorted, unique, and exactly the state's.
func sameThreads(got, want []schema.Thread, path, what string, errs *problems.List) {
	checkThreadOrder(got, path, errs)
	if !slices.Equal(got, want) {
		sameAs(got, want, path, problems.Mismatch, what, errs)
	}
}

// sameResponses: a plan's responses are sorted, unique, and exactly the state's.
func sameResponses(got, want []schema.Response, path string, errs *problems.List) {
	checkResponseOrder(got, path, errs)
	if !slices.EqualFunc(got, want, equalResponse) {
		sameAs(got, want, path, problems.Mismatch, "the state's responses", errs)
	}
}

// equalResponse is == over a response, following its two pointers.
func equalResponse(a, b schema.Response) bool {
	return a.BodySHA256 == b.BodySHA256 && a.BotID == b.BotID && a.BotType == b.BotType &&
		equalPtr(a.CommitSHA, b.CommitSHA) && a.ContentVersionAt == b.ContentVersionAt &&
		a.CreatedAt == b.CreatedAt && a.ID == b.ID && a.Source == b.Source &&
		equalPtr(a.TriggerRequestCommentID, b.TriggerRequestCommentID) && a.ZeroFindingsSignal == b.ZeroFindingsSignal
}

func equalPtr[T comparable](a, b *T) bool {
	return (a == nil && b == nil) || (a != nil && b != nil && *a == *b)
}

// sameRaw checks that the decoded manifest m and its raw form are one
// document, so the plan hash (always taken from the raw form) describes what
// was validated. decode is the schema decoder of m's type.
func sameRaw[M any](m M, raw any, decode func(any, string, *problems.List) M, path string, errs *problems.List) {
	if raw == nil {
		return
	}
	derrs := problems.List{}
	if d := decode(raw, path, &derrs); !derrs.Empty() {
		errs.Merge(derrs)
		return
	} else if reflect.DeepEqual(d, m) {
		return
	}
	// DeepEqual tells nil from empty lists; the canonical bytes do not.
	a, err1 := canon.HashValue(m)
	b, err2 := canon.HashValue(raw)
	if err1 != nil || err2 != nil || a != b {
		errs.Add(path, problems.HashMismatch, "the raw manifest and the decoded manifest differ")
	}
}
