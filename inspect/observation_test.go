package inspect

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

func savedSample(t *testing.T) map[string]any {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "cmd", "gh-prloop", "testdata", "replay", "clean-by-reaction.json"))
	if err != nil {
		t.Fatal(err)
	}
	var doc map[string]any
	if err := json.Unmarshal(b, &doc); err != nil {
		t.Fatal(err)
	}
	return doc
}

func load(t *testing.T, doc map[string]any) error {
	t.Helper()
	b, err := json.Marshal(doc)
	if err != nil {
		t.Fatal(err)
	}
	_, err = LoadObservation(bytes.NewReader(b))
	return err
}

func TestObservationRoundTrip(t *testing.T) {
	doc := savedSample(t)
	b, _ := json.Marshal(doc)
	obs, err := LoadObservation(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	again, err := EncodeObservation(obs)
	if err != nil {
		t.Fatal(err)
	}
	obs2, err := LoadObservation(bytes.NewReader(again))
	if err != nil || !reflect.DeepEqual(obs, obs2) {
		t.Fatalf("re-encoded observation differs: %v", err)
	}
}

// Every refusal names where and why, with a stable code.
func TestObservationRefusals(t *testing.T) {
	obsOf := func(d map[string]any) map[string]any { return d["observation"].(map[string]any) }
	cases := map[string]struct {
		mutate     func(map[string]any)
		path, code string
	}{
		"missing observation key": {func(d map[string]any) { delete(obsOf(d), "reactions") }, "/observation/reactions", CodeObsMissingField},
		"missing top key":         {func(d map[string]any) { delete(d, "version") }, "/version", CodeObsMissingField},
		"unknown nested field":    {func(d map[string]any) { obsOf(d)["pull_request"].(map[string]any)["merged"] = true }, "", CodeObsUnknownField},
		"uppercase repository":    {func(d map[string]any) { obsOf(d)["repository"] = "Octo-Org/widgets" }, "/observation/repository", CodeObsInvalidValue},
		"observed_at not product": {func(d map[string]any) { obsOf(d)["observed_at"] = "2026-03-02T09:06:00+01:00" }, "/observation/observed_at", CodeObsInvalidValue},
		"short head":              {func(d map[string]any) { obsOf(d)["pull_request"].(map[string]any)["head_sha"] = "f1d0c0de" }, "/observation/pull_request/head_sha", CodeObsInvalidValue},
		"null comments":           {func(d map[string]any) { obsOf(d)["issue_comments"] = nil }, "/observation/issue_comments", CodeObsInvalidValue},
		"string id":               {func(d map[string]any) { obsOf(d)["issue_comments"].([]any)[0].(map[string]any)["id"] = "1" }, "/observation/issue_comments/id", CodeObsInvalidValue},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			doc := savedSample(t)
			tc.mutate(doc)
			err := load(t, doc)
			var oe *ObservationError
			if !errors.As(err, &oe) || oe.Code != tc.code || oe.Path != tc.path {
				t.Fatalf("error %v, want %s at %q", err, tc.code, tc.path)
			}
		})
	}
}

func TestObservationTooLarge(t *testing.T) {
	defer func(n int64) { readLimit = n }(readLimit)
	readLimit = 1 << 10
	big := bytes.Repeat([]byte(" "), 1<<10+1)
	var oe *ObservationError
	if _, err := LoadObservation(bytes.NewReader(big)); !errors.As(err, &oe) || oe.Code != CodeObsTooLarge {
		t.Fatalf("error %v", err)
	}
}

func TestSaveObservationIsAtomic(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "obs.json")
	b, _ := json.Marshal(savedSample(t))
	obs, err := LoadObservation(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	if err := SaveObservation(path, obs); err != nil {
		t.Fatal(err)
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 {
		t.Fatalf("left behind %v", entries)
	}
	f, _ := os.Open(path)
	defer f.Close()
	if got, err := LoadObservation(f); err != nil || !reflect.DeepEqual(got, obs) {
		t.Fatalf("saved file does not load back: %v", err)
	}
}

// The summary's security row and marker reach the live view and --json, and
// the verdict stays the code review's.
func TestSecurityReviewShownInLiveViews(t *testing.T) {
	f, err := os.Open(filepath.Join("..", "cmd", "gh-prloop", "testdata", "replay", "clean-by-reaction-on-pr.json"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	obs, err := LoadObservation(f)
	if err != nil {
		t.Fatal(err)
	}
	r, err := Replay(obs)
	if err != nil {
		t.Fatal(err)
	}
	doc := r.JSON()
	if doc.Live.SecurityState != "completed" || !doc.Live.SecurityMarker || doc.Result.Classification != "zero-findings" {
		t.Fatalf("live %+v result %+v", doc.Live, doc.Result)
	}
	if v := r.View(); v.SummaryState != "completed · security completed" {
		t.Errorf("view summary %q", v.SummaryState)
	}
}
