package e2e

import (
	"bytes"
	"context"
	"errors"
	"io"
	"net/http"
	"sync"
	"testing"

	"github.com/prloop/gh-prloop/ghclient"
	"github.com/prloop/gh-prloop/ghsim"
)

// Each ghclient write meets a fault after GitHub applied it: answered 5xx,
// or the connection dropped (what a timeout after delivery looks like). The
// client reports "delivery unknown" and sends nothing again, and the world
// holds exactly one copy of the write: what the executor's reconciliation
// then observes (loop/initial: TestWritesUnderInjectedFaults).
// MarkReadyForReview is a query and then a mutation on the same endpoint,
// which a path-matched fault cannot single out: its fault is injected by the
// transport right before the mutation's request goes out.
func TestEveryWriteUnderFaultsAfterDelivery(t *testing.T) {
	kinds := map[string]ghsim.FaultKind{"5xx after delivery": ghsim.FaultStatusAfter, "dropped after delivery": ghsim.FaultDropAfter}
	for kname, kind := range kinds {
		t.Run(kname, func(t *testing.T) {
			arm := &armTransport{}
			e := newEnv(t, func(o *ghclient.Options) { arm.next = o.BaseTransport; o.BaseTransport = arm })
			arm.sim = e.sim
			ctx := context.Background()
			threads := e.pr.Threads()
			if len(threads) < 2 {
				t.Fatalf("the demo PR has %d threads, want 2 or more", len(threads))
			}
			repo := e.pr.Repo()
			head, ok := repo.Branch(e.pr.Data().Head)
			if !ok {
				t.Fatal("the demo PR's head branch is missing")
			}
			repo.SetBranch("other", head)
			count := func(pred func() bool) int {
				if pred() {
					return 1
				}
				return 0
			}
			e.pr.Update(func(p *ghsim.PullRequest) { p.Draft = true })
			writes := []struct {
				name  string
				match ghsim.Match
				call  func() error
				count func() int
				// mutation, when set, is the GraphQL mutation field the fault
				// waits for (a read goes first); sent is then 2.
				mutation string
			}{
				{"create-pr", ghsim.Match{Method: "POST", Path: "/repos/*/*/pulls"},
					func() error {
						_, err := e.client.CreatePR(ctx, demoRepo, ghclient.NewPR{Title: "t", Body: "b", Head: "other", Base: e.pr.Data().Base})
						return err
					},
					func() int {
						n := 0
						for i := 1; i <= 100; i++ {
							if p, ok := repo.PR(i); ok && p.Data().Head == "other" {
								n++
							}
						}
						return n
					}, ""},
				{"post-comment", ghsim.Match{Method: "POST", Path: "/repos/*/*/issues/*/comments"},
					func() error {
						_, err := e.client.PostComment(ctx, demoRepo, int64(e.pr.Number()), "posted once")
						return err
					},
					func() int {
						n := 0
						for _, c := range e.pr.Comments() {
							n += count(func() bool { return c.Body == "posted once" })
						}
						return n
					}, ""},
				{"reply-to-thread", ghsim.Match{Kind: ghsim.KindGraphQL},
					func() error { _, err := e.client.ReplyToThread(ctx, threads[0].NodeID, "replied once"); return err },
					func() int {
						n := 0
						for _, c := range e.pr.ReviewComments() {
							n += count(func() bool { return c.Body == "replied once" })
						}
						return n
					}, ""},
				{"resolve-thread", ghsim.Match{Kind: ghsim.KindGraphQL},
					func() error { return e.client.ResolveThread(ctx, threads[1].NodeID) },
					func() int {
						for _, th := range e.pr.Threads() {
							if th.NodeID == threads[1].NodeID && th.Resolved {
								return 1
							}
						}
						return 0
					}, ""},
				{"mark-ready-for-review", ghsim.Match{Kind: ghsim.KindGraphQL},
					func() error { return e.client.MarkReadyForReview(ctx, demoRepo, int64(e.pr.Number())) },
					func() int { return count(func() bool { return !e.pr.Data().Draft }) },
					"markPullRequestReadyForReview"},
			}
			for _, w := range writes {
				before := e.sim.Stats()
				sent := 1
				if w.mutation != "" {
					arm.arm(w.mutation, ghsim.Fault{Kind: kind, Match: w.match})
					sent = 2
				} else {
					e.sim.InjectFault(ghsim.Fault{Kind: kind, Match: w.match})
				}
				err := w.call()
				var du *ghclient.DeliveryUnknownError
				if !errors.As(err, &du) {
					t.Fatalf("%s: err = %v, want DeliveryUnknownError", w.name, err)
				}
				if n := w.count(); n != 1 {
					t.Fatalf("%s: %d copies in the world after one ambiguous write, want exactly 1", w.name, n)
				}
				if after := e.sim.Stats(); after.REST+after.GraphQL-before.REST-before.GraphQL != sent {
					t.Fatalf("%s: %d requests sent, want exactly %d (never retried)", w.name, after.REST+after.GraphQL-before.REST-before.GraphQL, sent)
				}
				if arm.pending() {
					t.Fatalf("%s: the fault was never injected: no %s mutation was sent", w.name, w.mutation)
				}
			}
		})
	}
}

// armTransport injects a fault into the simulator right before the next
// GraphQL request naming mutation goes out, so a fault can single out the
// mutation of a write that reads first on the same endpoint.
type armTransport struct {
	next     http.RoundTripper
	sim      *ghsim.Server
	mu       sync.Mutex
	mutation string
	fault    ghsim.Fault
}

func (a *armTransport) arm(mutation string, f ghsim.Fault) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.mutation, a.fault = mutation, f
}

func (a *armTransport) pending() bool {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.mutation != ""
}

func (a *armTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.mutation != "" && r.Body != nil {
		body, err := io.ReadAll(r.Body)
		r.Body.Close()
		if err != nil {
			return nil, err
		}
		r.Body = io.NopCloser(bytes.NewReader(body))
		if bytes.Contains(body, []byte("mutation")) && bytes.Contains(body, []byte(a.mutation)) {
			a.sim.InjectFault(a.fault)
			a.mutation = ""
		}
	}
	return a.next.RoundTrip(r)
}
