package initial

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/prloop/gh-prloop/core/canon"
	"github.com/prloop/gh-prloop/core/problems"
	"github.com/prloop/gh-prloop/core/schema"
	"github.com/prloop/gh-prloop/loop/journal"
	"github.com/prloop/gh-prloop/planner"
	"github.com/prloop/gh-prloop/statestore"
)

// InputsFile records the plan's inputs beside its approval: the rebuild
// before fetch-base must observe exactly what the approved plan observed
// (same checkout, remote, branches, title, body and command lines), and the
// approved document binds title and body only by their hashes.
const InputsFile = "inputs-initial.json"

type inputsRecord struct {
	AcceptRisk bool     `json:"accept_risk"`
	Base       string   `json:"base"`
	Body       string   `json:"body"`
	Dir        string   `json:"dir"`
	Head       string   `json:"head"`
	Host       string   `json:"host"`
	Mode       string   `json:"mode"`
	Remote     string   `json:"remote"`
	Title      string   `json:"title"`
	Validate   []string `json:"validate"`
	Version    int      `json:"version"`
}

// WriteInputs records in (Dir made absolute) in the locked run directory.
func WriteInputs(run *statestore.Run, in planner.Inputs) error {
	dir, err := filepath.Abs(in.Dir)
	if err != nil {
		return err
	}
	v := in.Validate
	if v == nil {
		v = []string{}
	}
	data, err := canon.Marshal(inputsRecord{AcceptRisk: in.AcceptRisk, Base: in.Base, Body: in.Body, Dir: dir, Head: in.Head, Host: in.Host,
		Mode: in.Mode, Remote: in.Remote, Title: in.Title, Validate: v, Version: 1})
	if err != nil {
		return err
	}
	return run.WriteAtomic(InputsFile, data)
}

// ReadInputs reads and validates the recorded inputs.
func ReadInputs(run *statestore.Run) (planner.Inputs, error) {
	data, err := run.Read(InputsFile)
	if err != nil {
		return planner.Inputs{}, err
	}
	c, err := canon.Canonicalize(data)
	if err != nil || !bytes.Equal(c, data) {
		return planner.Inputs{}, fmt.Errorf("%s is not canonical JSON", InputsFile)
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	var r inputsRecord
	if err := dec.Decode(&r); err != nil {
		return planner.Inputs{}, fmt.Errorf("%s: %w", InputsFile, err)
	}
	if r.Version != 1 || !filepath.IsAbs(r.Dir) || r.Validate == nil {
		return planner.Inputs{}, fmt.Errorf("%s: version, dir or validate is invalid", InputsFile)
	}
	return planner.Inputs{AcceptRisk: r.AcceptRisk, Base: r.Base, Body: r.Body, Dir: r.Dir, Head: r.Head, Host: r.Host,
		Mode: r.Mode, Remote: r.Remote, Title: r.Title, Validate: r.Validate}, nil
}

// RecordApproval writes the approval and the inputs of a plan into its run
// directory under one hold of the run's lock.
func RecordApproval(ctx context.Context, root, runID string, a statestore.Approval, in planner.Inputs) (string, error) {
	run, err := statestore.OpenPlan(root, runID)
	if err != nil {
		return "", err
	}
	unlock, err := run.Lock(ctx)
	if err != nil {
		return "", err
	}
	defer unlock()
	if err := run.WriteApproval(a); err != nil {
		return "", err
	}
	if err := WriteInputs(run, in); err != nil {
		return "", err
	}
	return run.Dir(), nil
}

// Pending lists the run ids under root whose approved initial plan was
// made in checkout (its absolute root directory) and has not finished:
// what `apply` without an argument picks from.
func Pending(root, checkout string) ([]string, error) {
	entries, err := os.ReadDir(filepath.Join(root, "runs"))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var out []string
	for _, e := range entries {
		if !e.IsDir() || !strings.HasPrefix(e.Name(), "plan-") {
			continue
		}
		key, err := os.ReadFile(filepath.Join(root, "runs", e.Name(), "key"))
		if err != nil {
			continue
		}
		id, ok := strings.CutPrefix(string(key), "plan/")
		if !ok {
			continue
		}
		run, err := statestore.OpenPlan(root, id)
		if err != nil {
			continue
		}
		in, err := ReadInputs(run)
		if err != nil || in.Dir != checkout {
			continue
		}
		if _, err := run.ReadApproval(); err != nil {
			continue
		}
		if done, _ := Finished(run); done {
			continue
		}
		out = append(out, id)
	}
	sort.Strings(out)
	return out, nil
}

// Finished reports whether every operation of the run's approved initial
// plan has its receipt.
func Finished(run *statestore.Run) (bool, error) {
	a, err := run.ReadApproval()
	if err != nil {
		return false, err
	}
	raw, err := canon.Parse(a.Document)
	if err != nil {
		return false, err
	}
	var errs problems.List
	doc := schema.DecodeInitialDocument(raw, "", &errs)
	if !errs.Empty() {
		return false, errs
	}
	j, err := journal.New(run, Phase, a.PlanHash, doc.InitialManifest.Operations, nil)
	if err != nil {
		return false, err
	}
	entries, err := j.Load()
	if err != nil {
		return false, err
	}
	return entries[len(entries)-1].Done(), nil
}
