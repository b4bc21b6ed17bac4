package inspect

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/prloop/gh-prloop/core/observe"
	"github.com/prloop/gh-prloop/core/schema"
)

// The saved-observation file (docs/observation.md): the complete raw
// observation a classification was made from, so that a report can be
// replayed offline, attached to a bug report, or kept as a real-world test.
const (
	ObservationFormat  = "gh-prloop-observation"
	ObservationVersion = 1
	// MaxObservationBytes bounds what a replay reads: a 1,000-thread PR
	// with 5,000 comments saves to a few megabytes.
	MaxObservationBytes = 64 << 20
)

// readLimit is MaxObservationBytes; tests lower it.
var readLimit int64 = MaxObservationBytes

// ObservationFile is the saved document. Observation is observe.PR exactly
// as ghclient returned it (and inspect.Observe completed it with the review
// request's reactions); nothing is classified or sanitized before saving.
type ObservationFile struct {
	Format      string      `json:"format"`
	Version     int         `json:"version"`
	Observation *observe.PR `json:"observation"`
}

// Observation error codes, stable for scripts and bug reports.
const (
	CodeObsSyntax       = "syntax"
	CodeObsUnknownField = "unknown-field"
	CodeObsMissingField = "missing-field"
	CodeObsInvalidValue = "invalid-value"
	CodeObsFormat       = "format"
	CodeObsVersion      = "version"
	CodeObsTooLarge     = "too-large"
)

// ObservationError says what is wrong with a saved observation and where
// (a JSON pointer).
type ObservationError struct {
	Path, Code, Message string
}

func (e *ObservationError) Error() string {
	return fmt.Sprintf("saved observation %s: %s: %s", e.Path, e.Code, e.Message)
}

func obsErr(path, code, format string, args ...any) error {
	return &ObservationError{Path: path, Code: code, Message: fmt.Sprintf(format, args...)}
}

// EncodeObservation is the file's bytes: indented JSON, one trailing newline.
func EncodeObservation(obs *observe.PR) ([]byte, error) {
	if obs == nil {
		return nil, errors.New("no observation to save")
	}
	b, err := json.MarshalIndent(ObservationFile{Format: ObservationFormat, Version: ObservationVersion, Observation: obs}, "", "  ")
	if err != nil {
		return nil, err
	}
	return append(b, '\n'), nil
}

// SaveObservation writes the file atomically (a temp file in the same
// directory, synced, then renamed), so a reader never sees half a file and
// an interrupted save leaves the previous one.
func SaveObservation(path string, obs *observe.PR) error {
	b, err := EncodeObservation(obs)
	if err != nil {
		return err
	}
	dir := filepath.Dir(path)
	tmp, err := os.CreateTemp(dir, "."+filepath.Base(path)+".tmp-*")
	if err != nil {
		return fmt.Errorf("save observation: %w", err)
	}
	defer os.Remove(tmp.Name()) // a no-op once renamed
	if _, err := tmp.Write(b); err != nil {
		tmp.Close()
		return fmt.Errorf("save observation: %w", err)
	}
	if err := tmp.Sync(); err != nil {
		tmp.Close()
		return fmt.Errorf("save observation: %w", err)
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("save observation: %w", err)
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		return fmt.Errorf("save observation: %w", err)
	}
	return nil
}

// LoadObservation reads and checks a saved observation. It fails closed:
// unknown fields, missing fields, a foreign format or version, and values a
// live observation could not hold are errors (*ObservationError), never
// repaired. The text inside stays untrusted, as it was when fetched.
func LoadObservation(r io.Reader) (*observe.PR, error) {
	data, err := io.ReadAll(io.LimitReader(r, readLimit+1))
	if err != nil {
		return nil, err
	}
	if int64(len(data)) > readLimit {
		return nil, obsErr("", CodeObsTooLarge, "larger than %d bytes", readLimit)
	}
	var top map[string]json.RawMessage
	if err := json.Unmarshal(data, &top); err != nil || top == nil {
		return nil, obsErr("", CodeObsSyntax, "not a JSON object")
	}
	if err := requireKeys("", top, "format", "version", "observation"); err != nil {
		return nil, err
	}
	var format string
	if json.Unmarshal(top["format"], &format) != nil || format != ObservationFormat {
		return nil, obsErr("/format", CodeObsFormat, "must be %q", ObservationFormat)
	}
	var version int
	if json.Unmarshal(top["version"], &version) != nil || version != ObservationVersion {
		return nil, obsErr("/version", CodeObsVersion, "this gh-prloop reads version %d", ObservationVersion)
	}
	var f ObservationFile
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&f); err != nil {
		return nil, decodeError(err)
	}
	if dec.More() {
		return nil, obsErr("", CodeObsSyntax, "more than one JSON value")
	}
	if f.Observation == nil {
		return nil, obsErr("/observation", CodeObsMissingField, "must be an object")
	}
	var obsKeys map[string]json.RawMessage
	_ = json.Unmarshal(top["observation"], &obsKeys)
	if err := requireKeys("/observation", obsKeys, "repository", "viewer_id", "observed_at", "pull_request", "issue_comments",
		"reviews", "review_comments", "threads", "reactions", "check_runs", "statuses", "checks_read"); err != nil {
		return nil, err
	}
	if err := checkObservation(f.Observation); err != nil {
		return nil, err
	}
	return f.Observation, nil
}

func requireKeys(at string, obj map[string]json.RawMessage, keys ...string) error {
	for _, k := range keys {
		if _, ok := obj[k]; !ok {
			return obsErr(at+"/"+k, CodeObsMissingField, "required")
		}
	}
	return nil
}

var reUnknownField = regexp.MustCompile(`unknown field "([^"]*)"`)

// decodeError names the place encoding/json complains about.
func decodeError(err error) error {
	var te *json.UnmarshalTypeError
	if errors.As(err, &te) {
		return obsErr("/"+strings.ReplaceAll(te.Field, ".", "/"), CodeObsInvalidValue, "a %s cannot hold %s", te.Type, te.Value)
	}
	if m := reUnknownField.FindStringSubmatch(err.Error()); m != nil {
		return obsErr("", CodeObsUnknownField, "unknown field %q (this gh-prloop reads version %d)", m[1], ObservationVersion)
	}
	return obsErr("", CodeObsSyntax, "%v", err)
}

var reRepository = regexp.MustCompile(`^[a-z0-9_.-]+/[a-z0-9_.-]+$`)

// checkObservation holds a saved observation to what ghclient guarantees of
// a live one: the fields classification keys on are present and well formed.
// Lists are never null, so a truncated file cannot pass for an empty PR.
func checkObservation(o *observe.PR) error {
	if !reRepository.MatchString(o.Repository) {
		return obsErr("/observation/repository", CodeObsInvalidValue, "must be a lowercase owner/repo")
	}
	if o.ViewerID <= 0 {
		return obsErr("/observation/viewer_id", CodeObsInvalidValue, "must be a positive GitHub id")
	}
	if t, err := schema.ParseTime(o.ObservedAt); err != nil || schema.FormatTime(t) != o.ObservedAt {
		return obsErr("/observation/observed_at", CodeObsInvalidValue, "must be a UTC time in the form YYYY-MM-DDTHH:MM:SSZ")
	}
	if o.PullRequest.Number <= 0 {
		return obsErr("/observation/pull_request/number", CodeObsInvalidValue, "must be a positive pull request number")
	}
	if !isHex40(o.PullRequest.HeadSHA) {
		return obsErr("/observation/pull_request/head_sha", CodeObsInvalidValue, "must be a 40-hex commit")
	}
	lists := []struct {
		name string
		nil_ bool
	}{
		{"issue_comments", o.IssueComments == nil}, {"reviews", o.Reviews == nil}, {"review_comments", o.ReviewComments == nil},
		{"threads", o.Threads == nil}, {"reactions", o.Reactions == nil}, {"check_runs", o.CheckRuns == nil}, {"statuses", o.Statuses == nil},
	}
	for _, l := range lists {
		if l.nil_ {
			return obsErr("/observation/"+l.name, CodeObsInvalidValue, "must be a list (empty when there is nothing)")
		}
	}
	return nil
}

func isHex40(s string) bool {
	if len(s) != 40 {
		return false
	}
	for _, c := range s {
		if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F') {
			return false
		}
	}
	return true
}

// Replay classifies a saved observation offline: the same classification,
// evaluator and outputs as a live report, with no cost.
func Replay(obs *observe.PR) (*Result, error) {
	r, err := Evaluate(obs)
	if r != nil {
		// Nothing was asked of GitHub: its budgets are unknown (-1, as
		// docs/report-json.md says), not zero.
		r.Cost.RateRemaining, r.Cost.GraphQLRemaining = -1, -1
	}
	return r, err
}
