package automations

import (
	"bytes"
	"errors"
	"fmt"
	"sort"
	"strconv"

	"github.com/prloop/gh-prloop/core/canon"
	"github.com/prloop/gh-prloop/core/problems"
)

// FileName is the registry's file under the state root.
const FileName = "automations.json"

// FormatVersion is the registry file's version field.
const FormatVersion = 1

// ErrCorrupt is wrapped by every CorruptError.
var ErrCorrupt = errors.New("automations: the registry is invalid")

// CorruptError refuses a registry file that is not exactly what this
// package writes. Problems name each field by JSON path with a stable code
// (core/problems' vocabulary).
type CorruptError struct {
	File     string
	Problems problems.List
}

func (e *CorruptError) Error() string {
	return fmt.Sprintf("automations: the registry %s is invalid and is never repaired automatically (restore it, or move it away to start an empty one): %s", e.File, e.Problems.Error())
}

func (e *CorruptError) Unwrap() error { return ErrCorrupt }

type file struct {
	Automations []Record `json:"automations"`
	Version     int      `json:"version"`
}

var recordFields = []string{"created_at", "id", "key", "name", "prompt", "prompt_sha256", "reason", "rrule", "run_id", "status", "updated_at"}

// encode returns the canonical bytes of recs (already sorted and valid).
func encode(recs []Record) ([]byte, error) {
	if recs == nil {
		recs = []Record{}
	}
	return canon.Marshal(file{Automations: recs, Version: FormatVersion})
}

// decode parses and validates a whole registry file; path is for messages.
func decode(path string, data []byte) ([]Record, error) {
	var errs problems.List
	fail := func() error { return &CorruptError{File: path, Problems: errs} }
	v, err := canon.Parse(data)
	if err != nil {
		errs.Add("", problems.Syntax, "%v", err)
		return nil, fail()
	}
	canonical, err := canon.Canonicalize(data)
	if err != nil || !bytes.Equal(canonical, data) {
		errs.Add("", problems.Syntax, "is not in canonical JSON form (keys sorted, compact, no trailing newline)")
		return nil, fail()
	}
	top, ok := v.(map[string]any)
	if !ok {
		errs.Add("", problems.WrongType, "must be an object")
		return nil, fail()
	}
	fields(top, "", []string{"automations", "version"}, &errs)
	if n, ok := top["version"]; ok && !isNumber(n, FormatVersion) {
		errs.Add("/version", problems.InvalidValue, "must be %d", FormatVersion)
	}
	var recs []Record
	if arr, ok := top["automations"]; ok {
		list, isList := arr.([]any)
		if !isList {
			errs.Add("/automations", problems.WrongType, "must be an array")
		}
		for i, item := range list {
			p := problems.Join("/automations", i)
			obj, isObj := item.(map[string]any)
			if !isObj {
				errs.Add(p, problems.WrongType, "must be an object")
				continue
			}
			fields(obj, p, recordFields, &errs)
			str := func(f string) string {
				s, isStr := obj[f].(string)
				if _, present := obj[f]; present && !isStr {
					errs.Add(problems.Join(p, f), problems.WrongType, "must be a string")
				}
				return s
			}
			r := Record{
				ID: str("id"), Key: str("key"), Name: str("name"), Prompt: str("prompt"),
				PromptSHA256: str("prompt_sha256"), RRule: str("rrule"), Status: str("status"),
				RunID: str("run_id"), Reason: str("reason"), CreatedAt: str("created_at"), UpdatedAt: str("updated_at"),
			}
			r.validate(p, &errs)
			recs = append(recs, r)
		}
	}
	checkSet(recs, &errs)
	if !errs.Empty() {
		return nil, fail()
	}
	return recs, nil
}

// checkSet: keys strictly ascending (one record per key), ids unique.
func checkSet(recs []Record, errs *problems.List) {
	ids := map[string]int{}
	for i, r := range recs {
		p := problems.Join("/automations", i)
		if i > 0 {
			switch prev := recs[i-1].Key; {
			case r.Key == prev:
				errs.Add(problems.Join(p, "key"), problems.Duplicate, "another automation already has this key")
			case r.Key < prev:
				errs.Add(problems.Join(p, "key"), problems.NotSorted, "records must be sorted by key")
			}
		}
		if j, seen := ids[r.ID]; seen {
			errs.Add(problems.Join(p, "id"), problems.Duplicate, "is also the id of /automations/%d", j)
		}
		ids[r.ID] = i
	}
}

// fields reports missing and unknown members of obj.
func fields(obj map[string]any, p string, want []string, errs *problems.List) {
	known := map[string]bool{}
	for _, f := range want {
		known[f] = true
		if _, ok := obj[f]; !ok {
			errs.Add(problems.Join(p, f), problems.MissingField, "is required")
		}
	}
	var unknown []string
	for f := range obj {
		if !known[f] {
			unknown = append(unknown, f)
		}
	}
	sort.Strings(unknown)
	for _, f := range unknown {
		errs.Add(problems.Join(p, f), problems.UnknownField, "is not a field of %s", what(p))
	}
}

func what(p string) string {
	if p == "" {
		return "the registry"
	}
	return "an automation record"
}

// isNumber: canon.Parse yields numbers as canon.Number, their canonical text.
func isNumber(v any, want int) bool {
	n, ok := v.(canon.Number)
	return ok && string(n) == strconv.Itoa(want)
}
