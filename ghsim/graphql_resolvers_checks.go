package ghsim

import (
	"fmt"
	"strings"
)

func lower(s string) string { return strings.ToLower(s) }

// rollupContexts are the check runs and latest statuses of a commit, in the
// order GitHub lists them (check runs first).
func rollupContexts(st *repoState, sha string) []object {
	var items []object
	for _, cr := range st.checkRuns {
		if cr.HeadSHA == sha {
			items = append(items, object{typ: "CheckRun", v: checkObj{st, cr}})
		}
	}
	for _, cs := range latestStatuses(st, sha) {
		items = append(items, object{typ: "StatusContext", v: statusObj{st, cs}})
	}
	return items
}

// rollupState folds contexts the way GitHub's StatusCheckRollup does.
func rollupState(items []object) string {
	state := "SUCCESS"
	for _, it := range items {
		switch v := it.v.(type) {
		case checkObj:
			if v.cr.Status != "completed" {
				if state != "FAILURE" {
					state = "PENDING"
				}
				continue
			}
			switch v.cr.Conclusion {
			case "failure", "timed_out", "cancelled", "action_required", "startup_failure", "stale":
				return "FAILURE"
			}
		case statusObj:
			switch v.cs.State {
			case "failure":
				return "FAILURE"
			case "error":
				return "ERROR"
			case "pending":
				if state != "FAILURE" {
					state = "PENDING"
				}
			}
		}
	}
	return state
}

func init() {
	register("PullRequestCommit", map[string]resolver{
		"id": func(f *fieldCtx) (any, error) {
			o := f.obj.v.(pullCommitObj)
			return fmt.Sprintf("PURC_kwDOsim%d_%s", o.p.pr.ID, short(o.sha, 12)), nil
		},
		"commit": func(f *fieldCtx) (any, error) {
			o := f.obj.v.(pullCommitObj)
			return object{typ: "Commit", v: commitObj{o.p.repo, o.sha}}, nil
		},
		"url": func(f *fieldCtx) (any, error) {
			o := f.obj.v.(pullCommitObj)
			return fmt.Sprintf("%s/%s/pull/%d/commits/%s", f.ex.s.opts.WebURL, o.p.repo.fullName(), o.p.pr.Number, o.sha), nil
		},
		"pullRequest": func(f *fieldCtx) (any, error) { return object{typ: "PullRequest", v: f.obj.v.(pullCommitObj).p}, nil },
	})

	register("Commit", map[string]resolver{
		"id":             func(f *fieldCtx) (any, error) { return "C_kwDOsim" + short(f.obj.v.(commitObj).sha, 12), nil },
		"oid":            func(f *fieldCtx) (any, error) { return f.obj.v.(commitObj).sha, nil },
		"abbreviatedOid": func(f *fieldCtx) (any, error) { return short(f.obj.v.(commitObj).sha, 7), nil },
		"url": func(f *fieldCtx) (any, error) {
			o := f.obj.v.(commitObj)
			return f.ex.s.opts.WebURL + "/" + o.st.fullName() + "/commit/" + o.sha, nil
		},
		"message": func(f *fieldCtx) (any, error) { return f.ex.s.commitMeta(f.obj.v.(commitObj).sha).Message, nil },
		"messageHeadline": func(f *fieldCtx) (any, error) {
			head, _, _ := strings.Cut(f.ex.s.commitMeta(f.obj.v.(commitObj).sha).Message, "\n")
			return head, nil
		},
		"committedDate": func(f *fieldCtx) (any, error) { return stamp(f.ex.s.commitMeta(f.obj.v.(commitObj).sha).Date), nil },
		"authoredDate":  func(f *fieldCtx) (any, error) { return stamp(f.ex.s.commitMeta(f.obj.v.(commitObj).sha).Date), nil },
		"statusCheckRollup": func(f *fieldCtx) (any, error) {
			o := f.obj.v.(commitObj)
			if len(rollupContexts(o.st, o.sha)) == 0 {
				return nil, nil
			}
			return object{typ: "StatusCheckRollup", v: o}, nil
		},
	})

	register("StatusCheckRollup", map[string]resolver{
		"id":     func(f *fieldCtx) (any, error) { return "SCR_kwDOsim" + short(f.obj.v.(commitObj).sha, 12), nil },
		"commit": func(f *fieldCtx) (any, error) { return object{typ: "Commit", v: f.obj.v.(commitObj)}, nil },
		"state": func(f *fieldCtx) (any, error) {
			o := f.obj.v.(commitObj)
			return rollupState(rollupContexts(o.st, o.sha)), nil
		},
		"contexts": func(f *fieldCtx) (any, error) {
			o := f.obj.v.(commitObj)
			items := rollupContexts(o.st, o.sha)
			conn, err := f.paginate("StatusCheckRollupContextConnection", items)
			if err != nil {
				return nil, err
			}
			checks, statuses := 0, 0
			for _, it := range items {
				if it.typ == "CheckRun" {
					checks++
				} else {
					statuses++
				}
			}
			conn.(object).v.(*connection).extra = map[string]any{"checkRunCount": checks, "statusContextCount": statuses}
			return conn, nil
		},
	})

	register("CheckRun", map[string]resolver{
		"id":          func(f *fieldCtx) (any, error) { return f.obj.v.(checkObj).cr.NodeID, nil },
		"databaseId":  func(f *fieldCtx) (any, error) { return f.obj.v.(checkObj).cr.ID, nil },
		"name":        func(f *fieldCtx) (any, error) { return f.obj.v.(checkObj).cr.Name, nil },
		"status":      func(f *fieldCtx) (any, error) { return strings.ToUpper(f.obj.v.(checkObj).cr.Status), nil },
		"conclusion":  func(f *fieldCtx) (any, error) { return upperOrNull(f.obj.v.(checkObj).cr.Conclusion), nil },
		"detailsUrl":  func(f *fieldCtx) (any, error) { return f.obj.v.(checkObj).cr.DetailsURL, nil },
		"url":         func(f *fieldCtx) (any, error) { return f.obj.v.(checkObj).cr.DetailsURL, nil },
		"permalink":   func(f *fieldCtx) (any, error) { return f.obj.v.(checkObj).cr.DetailsURL, nil },
		"startedAt":   func(f *fieldCtx) (any, error) { return timeOrNull(f.obj.v.(checkObj).cr.StartedAt), nil },
		"completedAt": func(f *fieldCtx) (any, error) { return timeOrNull(f.obj.v.(checkObj).cr.CompletedAt), nil },
		"isRequired":  func(f *fieldCtx) (any, error) { return false, nil },
		"title":       func(f *fieldCtx) (any, error) { return nil, nil },
		"summary":     func(f *fieldCtx) (any, error) { return nil, nil },
	})

	register("StatusContext", map[string]resolver{
		"id":          func(f *fieldCtx) (any, error) { return f.obj.v.(statusObj).cs.NodeID, nil },
		"context":     func(f *fieldCtx) (any, error) { return f.obj.v.(statusObj).cs.Context, nil },
		"state":       func(f *fieldCtx) (any, error) { return strings.ToUpper(f.obj.v.(statusObj).cs.State), nil },
		"description": func(f *fieldCtx) (any, error) { return nullable(f.obj.v.(statusObj).cs.Description), nil },
		"targetUrl":   func(f *fieldCtx) (any, error) { return nullable(f.obj.v.(statusObj).cs.TargetURL), nil },
		"createdAt":   func(f *fieldCtx) (any, error) { return stamp(f.obj.v.(statusObj).cs.CreatedAt), nil },
		"isRequired":  func(f *fieldCtx) (any, error) { return false, nil },
		"avatarUrl":   func(f *fieldCtx) (any, error) { return "https://avatars.githubusercontent.com/u/9919?v=4", nil },
	})
}

func (s *Server) commitMeta(sha string) *Commit {
	if c, ok := s.commits[sha]; ok {
		return c
	}
	return &Commit{SHA: sha, Message: "Update " + short(sha, 7), Date: s.now()}
}
