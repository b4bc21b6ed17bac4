package evaluate_test

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"testing"

	"github.com/prloop/gh-prloop/core/canon"
	"github.com/prloop/gh-prloop/core/evaluate"
	"github.com/prloop/gh-prloop/core/fixture"
	"github.com/prloop/gh-prloop/core/problems"
	"github.com/prloop/gh-prloop/core/schema"
)

var actions = map[string]bool{
	"wait": true, "await-approval": true, "plan-remediation": true, "execute-remediation": true,
	"plan-finalization": true, "execute-finalization": true, "finish-finalization": true,
	"done": true, "halt": true, "report": true,
}

// fuzzSeeds are canonical fixture states: every scenario in every mode.
func fuzzSeeds(t testing.TB, filter func(fixture.StateScenario) bool) [][]byte {
	var out [][]byte
	for _, mode := range []string{"", "autonomous", "report-only"} {
		for sc := fixture.StateAwaiting; sc <= fixture.StateNoRequest; sc++ {
			if !filter(sc) {
				continue
			}
			b, err := canon.Encode(fixture.State(fixture.StateOptions{Scenario: sc, Mode: mode}))
			if err != nil {
				t.Fatal(err)
			}
			out = append(out, b)
		}
	}
	return out
}

func all(fixture.StateScenario) bool { return true }

func remediationScenarios(sc fixture.StateScenario) bool {
	return sc == fixture.StateRemediationPlanned || sc == fixture.StateRemediationApproved || sc == fixture.StateClaimed
}

func finalizationScenarios(sc fixture.StateScenario) bool {
	return sc == fixture.StateFinalizationPlanned || sc == fixture.StatePostMutation || sc == fixture.StateFinalized
}

// sameCanonical requires canonical bytes to be a fixed point.
func sameCanonical(t *testing.T, v any) []byte {
	b1, err := canon.Encode(v)
	if err != nil {
		t.Fatalf("accepted input does not encode: %v", err)
	}
	b2, err := canon.Canonicalize(b1)
	if err != nil || !bytes.Equal(b1, b2) {
		t.Fatalf("accepted input does not re-canonicalize to the same bytes: %v", err)
	}
	return b1
}

func FuzzEvaluate(f *testing.F) {
	for _, s := range fuzzSeeds(f, all) {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		v, err := canon.Parse(data)
		if err != nil {
			return
		}
		r := evaluate.Evaluate(v)
		if !actions[r.Action] || r.Reason == "" || r.Errors == nil || r.OK != (r.Action != "halt") {
			t.Fatalf("result outside the vocabulary: %+v", r)
		}
		if (r.Action == "report") != (r.Classification != "") {
			t.Fatalf("classification only in reports: %+v", r)
		}
		if r.Action == "halt" && r.Reason == "schema" {
			if len(r.Errors) == 0 {
				t.Fatal("a schema halt lists its problems")
			}
			return
		}
		b := sameCanonical(t, v)
		again, _ := canon.Parse(b)
		if r2 := evaluate.Evaluate(again); !reflect.DeepEqual(r, r2) {
			t.Fatalf("not deterministic over its canonical form:\n%+v\n%+v", r, r2)
		}
	})
}

func decodeFuzz(data []byte) (schema.State, map[string]any, bool) {
	v, err := canon.Parse(data)
	if err != nil {
		return schema.State{}, nil, false
	}
	errs := problems.List{}
	s := schema.DecodeState(v, "", &errs)
	raw, _ := v.(map[string]any)
	return s, raw, errs.Empty() && raw != nil
}

func FuzzRemediation(f *testing.F) {
	for _, s := range fuzzSeeds(f, remediationScenarios) {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		s, raw, ok := decodeFuzz(data)
		if !ok || s.RemediationManifest == nil {
			return
		}
		m := *s.RemediationManifest
		if errs := evaluate.Remediation(m, raw["remediation_manifest"], s, rm); !errs.Empty() {
			return
		}
		// Accepted: the plan is fully determined by the state and its input.
		got := sameCanonical(t, raw["remediation_manifest"])
		built, err := canon.Marshal(evaluate.BuildRemediation(s, evaluate.RemediationInput{
			Paths: m.Paths, PathRecords: m.PathRecords, Commands: m.Commands}))
		if err != nil || !bytes.Equal(got, built) {
			t.Fatalf("accepted plan differs from the built one:\n%s\n%s", got, built)
		}
	})
}

func FuzzFinalization(f *testing.F) {
	for _, s := range fuzzSeeds(f, finalizationScenarios) {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		s, raw, ok := decodeFuzz(data)
		if !ok || s.FinalizationManifest == nil {
			return
		}
		if errs := evaluate.Finalization(*s.FinalizationManifest, raw["finalization_manifest"], s, fm); !errs.Empty() {
			return
		}
		got := sameCanonical(t, raw["finalization_manifest"])
		built, err := canon.Marshal(evaluate.BuildFinalization(s))
		if err != nil || !bytes.Equal(got, built) {
			t.Fatalf("accepted plan differs from the built one:\n%s\n%s", got, built)
		}
	})
}

// TestWriteFuzzCorpus regenerates testdata/fuzz from the fixtures when
// PRLOOP_WRITE_CORPUS=1; otherwise it checks the committed corpus exists.
func TestWriteFuzzCorpus(t *testing.T) {
	targets := map[string]func(fixture.StateScenario) bool{
		"FuzzEvaluate": all, "FuzzRemediation": remediationScenarios, "FuzzFinalization": finalizationScenarios,
	}
	for name, filter := range targets {
		dir := filepath.Join("testdata", "fuzz", name)
		if os.Getenv("PRLOOP_WRITE_CORPUS") != "1" {
			entries, err := os.ReadDir(dir)
			if err != nil || len(entries) == 0 {
				t.Fatalf("no committed seed corpus in %s", dir)
			}
			continue
		}
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		for i, s := range fuzzSeeds(t, filter) {
			body := "go test fuzz v1\n[]byte(" + strconv.Quote(string(s)) + ")\n"
			if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("fixture-%02d", i)), []byte(body), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
}
