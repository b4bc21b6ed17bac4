package ghclient

import (
	"context"
	"encoding/json"
	"errors"
	"sort"
	"strconv"

	"github.com/prloop/gh-prloop/core/observe"
)

// errPRChanged: the pull request moved (a push, a deleted thread) between
// the queries of one observation, so the pages do not describe one state.
var errPRChanged = errors.New("pull request changed while it was being read")

// observeRestarts is how many times a moving pull request is re-read from
// scratch before giving up.
const observeRestarts = 3

type observeData struct {
	Viewer *struct {
		DatabaseID *int64 `json:"databaseId"`
	} `json:"viewer"`
	Repository *struct {
		PullRequest *prData `json:"pullRequest"`
	} `json:"repository"`
	Request *requestNode `json:"request"`
}

// requestNode is the review request comment asked for by node id.
type requestNode struct {
	Typename       string              `json:"__typename"`
	ID             string              `json:"id"`
	FullDatabaseID bigInt              `json:"fullDatabaseId"`
	ReactionGroups []*gqlReactionGroup `json:"reactionGroups"`
}

type prData struct {
	ID                string              `json:"id"`
	Number            int64               `json:"number"`
	URL               string              `json:"url"`
	Title             string              `json:"title"`
	Body              string              `json:"body"`
	State             string              `json:"state"`
	IsDraft           bool                `json:"isDraft"`
	IsCrossRepository bool                `json:"isCrossRepository"`
	BaseRefName       string              `json:"baseRefName"`
	BaseRefOid        string              `json:"baseRefOid"`
	HeadRefName       string              `json:"headRefName"`
	HeadRefOid        string              `json:"headRefOid"`
	Mergeable         string              `json:"mergeable"`
	MergeStateStatus  string              `json:"mergeStateStatus"`
	ReviewDecision    *string             `json:"reviewDecision"`
	Comments          json.RawMessage     `json:"comments"`
	Reviews           json.RawMessage     `json:"reviews"`
	ReviewThreads     json.RawMessage     `json:"reviewThreads"`
	ReactionGroups    []*gqlReactionGroup `json:"reactionGroups"`
	Commits           *struct {
		Nodes []*struct {
			Commit *struct {
				OID               string `json:"oid"`
				StatusCheckRollup *struct {
					ID       string          `json:"id"`
					Contexts json.RawMessage `json:"contexts"`
				} `json:"statusCheckRollup"`
			} `json:"commit"`
		} `json:"nodes"`
	} `json:"commits"`
}

// prAcc accumulates every page of one observation.
type prAcc struct {
	pr        *prData
	viewerID  int64
	comments  []*gqlIssueComment
	reviews   []*gqlReview
	threads   []*threadAcc
	reactions []observe.Reaction
	// reactionsCut: a reaction group had more than one page of reactors,
	// so the PR's reactions are read over REST instead.
	reactionsCut bool
	contexts     []*gqlContext
	checksRead   bool
	pending      []pendingPage
	cursors      map[string]bool
}

type threadAcc struct {
	t        *gqlThread
	comments []*gqlReviewComment
}

// ObservePR reads everything prloop needs about one pull request with one
// GraphQL query plus, only when some connection has more than 100 items,
// follow-up queries for exactly those connections (and the REST list of the
// PR's reactions when more than 100 share one emoji). It returns a complete
// observation or an error, never a partial PR. See doc.go for its cost.
func (c *Client) ObservePR(ctx context.Context, repo Repo, number int64) (*observe.PR, Cost, error) {
	pr, _, cost, err := c.ObservePRWithRequest(ctx, repo, number, "")
	return pr, cost, err
}

// ObservePRWithRequest is ObservePR that also reads, in the same query, the
// reactions (with their times) on the review request comment whose node id
// is requestNodeID: the loop knows its request from its checkpoint, a
// refreshing report from its previous reading. Codex's 👀 and its clean
// round's 👍 land there. withRequest is true when those reactions are in
// the observation (Subject = the comment's decimal id); it is false when
// requestNodeID is "" or names no issue comment, and then nothing about that
// comment was read. More than 100 reactors of one emoji are read over REST.
func (c *Client) ObservePRWithRequest(ctx context.Context, repo Repo, number int64, requestNodeID string) (pr *observe.PR, withRequest bool, cost Cost, err error) {
	ctx, m := withMeter(ctx)
	if err := repo.validate(); err != nil {
		return nil, false, m.snapshot(), err
	}
	for range observeRestarts {
		pr, withRequest, err = c.observeOnce(ctx, repo, number, requestNodeID)
		if err == nil {
			return pr, withRequest, m.snapshot(), nil
		}
		if !errors.Is(err, errPRChanged) {
			break
		}
	}
	if errors.Is(err, errPRChanged) {
		err = incomplete("%v (%d attempts)", err, observeRestarts)
	}
	return nil, false, m.snapshot(), c.red.err(err)
}

func (c *Client) observeOnce(ctx context.Context, repo Repo, number int64, requestNodeID string) (*observe.PR, bool, error) {
	var data observeData
	vars := map[string]any{"owner": repo.Owner, "name": repo.Name, "number": number,
		"request": requestNodeID, "withRequest": requestNodeID != ""}
	if requestNodeID == "" {
		vars["request"] = "-" // not sent to the resolver: @include(if: false)
	}
	if err := c.query(ctx, observePRDoc, vars, &data); err != nil {
		return nil, false, err
	}
	if data.Viewer == nil || data.Viewer.DatabaseID == nil {
		return nil, false, incomplete("viewer databaseId missing")
	}
	if data.Repository == nil || data.Repository.PullRequest == nil {
		return nil, false, incomplete("pull request %s#%d missing", repo, number)
	}
	a := &prAcc{pr: data.Repository.PullRequest, viewerID: *data.Viewer.DatabaseID, cursors: map[string]bool{}}
	if a.pr.ID == "" || a.pr.HeadRefOid == "" {
		return nil, false, incomplete("pull request %s#%d without id or head", repo, number)
	}
	if err := a.absorbFirst(); err != nil {
		return nil, false, err
	}
	if err := c.followUps(ctx, a); err != nil {
		return nil, false, err
	}
	if a.reactionsCut {
		rs, err := c.prReactions(ctx, repo, number)
		if err != nil {
			return nil, false, err
		}
		a.reactions = rs
	}
	withRequest := false
	if requestNodeID != "" {
		rs, ok, err := c.requestReactions(ctx, repo, data.Request, requestNodeID)
		if err != nil {
			return nil, false, err
		}
		a.reactions = append(a.reactions, rs...)
		withRequest = ok
	}
	pr, err := a.result(repo, c.now().UTC().Format("2006-01-02T15:04:05Z"))
	return pr, withRequest, err
}

// requestReactions reads the reactions of the review request comment from
// the query's answer. ok is false when the node is not an issue comment
// (a stale or foreign id): the caller then knows nothing about it.
func (c *Client) requestReactions(ctx context.Context, repo Repo, n *requestNode, nodeID string) ([]observe.Reaction, bool, error) {
	if n == nil || n.Typename != "IssueComment" {
		return nil, false, nil
	}
	if n.ID != nodeID || !n.FullDatabaseID.Set || n.FullDatabaseID.V <= 0 || n.ReactionGroups == nil {
		return nil, false, incomplete("review request comment %s without id or reaction groups", nodeID)
	}
	subject := strconv.FormatInt(n.FullDatabaseID.V, 10)
	var out []observe.Reaction
	for _, g := range n.ReactionGroups {
		rs, more, err := g.reactions(subject)
		if err != nil {
			return nil, false, err
		}
		if more { // one page of one emoji is not all of them: read the list
			rs, err := c.commentReactions(ctx, repo, n.FullDatabaseID.V)
			return rs, err == nil, err
		}
		out = append(out, rs...)
	}
	return out, true, nil
}

func (a *prAcc) absorbFirst() error {
	pr := a.pr
	steps := []error{
		follow(a, pr.Comments, specPRComments, pr.ID, func(n []*gqlIssueComment) error { a.comments = append(a.comments, n...); return nil }),
		follow(a, pr.Reviews, specPRReviews, pr.ID, func(n []*gqlReview) error { a.reviews = append(a.reviews, n...); return nil }),
		follow(a, pr.ReviewThreads, specPRThreads, pr.ID, a.addThreads),
		a.absorbReactions(),
		a.absorbRollup(),
	}
	return errors.Join(steps...)
}

// absorbRollup reads the checks of the PR's last commit. If that commit is
// not the head GitHub reported, the checks are unknown (ChecksRead false),
// never borrowed from another commit.
func (a *prAcc) absorbRollup() error {
	cs := a.pr.Commits
	if cs == nil || len(cs.Nodes) != 1 || cs.Nodes[0] == nil || cs.Nodes[0].Commit == nil {
		return incomplete("head commit missing")
	}
	commit := cs.Nodes[0].Commit
	if commit.OID != a.pr.HeadRefOid {
		return nil
	}
	a.checksRead = true
	if commit.StatusCheckRollup == nil {
		return nil // no checks and no statuses at all
	}
	r := commit.StatusCheckRollup
	if r.ID == "" {
		return incomplete("status check rollup without id")
	}
	return follow(a, r.Contexts, specContexts, r.ID, func(n []*gqlContext) error { a.contexts = append(a.contexts, n...); return nil })
}

func (a *prAcc) absorbReactions() error {
	if a.pr.ReactionGroups == nil {
		return incomplete("pull request reaction groups missing")
	}
	for _, g := range a.pr.ReactionGroups {
		rs, more, err := g.reactions("pr")
		if err != nil {
			return err
		}
		a.reactions = append(a.reactions, rs...)
		a.reactionsCut = a.reactionsCut || more
	}
	return nil
}

func (a *prAcc) addThreads(nodes []*gqlThread) error {
	for _, t := range nodes {
		if t.ID == "" {
			return incomplete("review thread without id")
		}
		ta := &threadAcc{t: t}
		a.threads = append(a.threads, ta)
		comments, next, err := checkPage(t.Comments, specThreadCommts.what)
		if err != nil {
			return err
		}
		ta.comments = append(ta.comments, comments...)
		if next != "" {
			enqueue(a, specThreadCommts, t.ID, next, func(n []*gqlReviewComment) error { ta.comments = append(ta.comments, n...); return nil })
		}
	}
	return nil
}

// follow absorbs one page and queues the next one when there is one.
func follow[T any](a *prAcc, raw json.RawMessage, spec connSpec, nodeID string, add func([]*T) error) error {
	nodes, next, err := decodePage[T](raw, spec.what)
	if err != nil {
		return err
	}
	if err := add(nodes); err != nil {
		return err
	}
	if next != "" {
		enqueue(a, spec, nodeID, next, add)
	}
	return nil
}

// enqueue records that a connection continues after cursor after.
func enqueue[T any](a *prAcc, spec connSpec, nodeID, after string, add func([]*T) error) {
	a.pending = append(a.pending, pendingPage{spec: spec, nodeID: nodeID, after: after, absorb: func(raw json.RawMessage) error {
		return follow(a, raw, spec, nodeID, add)
	}})
}

// followUps runs batched follow-up queries until no connection has pages left.
func (c *Client) followUps(ctx context.Context, a *prAcc) error {
	for round := 0; len(a.pending) > 0; round++ {
		if round >= maxFollowUpRounds {
			return incomplete("more than %d follow-up queries", maxFollowUpRounds)
		}
		n := min(len(a.pending), maxFollowUpConns)
		batch := append([]pendingPage(nil), a.pending[:n]...)
		a.pending = a.pending[n:]
		for _, p := range batch {
			key := p.nodeID + "\x00" + p.spec.field + "\x00" + p.after
			if a.cursors[key] {
				return incomplete("%s: cursor repeated", p.spec.what)
			}
			a.cursors[key] = true
		}
		f := buildFollowUp(batch)
		var data map[string]json.RawMessage
		if err := c.query(ctx, f.doc, f.vars, &data); err != nil {
			return err
		}
		if err := a.absorbFollowUp(f, data); err != nil {
			return err
		}
	}
	return nil
}

func (a *prAcc) absorbFollowUp(f followUp, data map[string]json.RawMessage) error {
	for _, n := range f.nodes {
		var obj map[string]json.RawMessage
		if err := json.Unmarshal(data[n.alias], &obj); err != nil {
			return incomplete("follow-up %s: %v", n.alias, err)
		}
		if obj == nil {
			return errPRChanged // the node vanished between queries
		}
		if n.owner == "PullRequest" {
			var head string
			if err := json.Unmarshal(obj["headRefOid"], &head); err != nil || head != a.pr.HeadRefOid {
				return errPRChanged
			}
		}
		for _, c := range n.conns {
			if err := c.page.absorb(obj[c.alias]); err != nil {
				return err
			}
		}
	}
	return nil
}

func (a *prAcc) result(repo Repo, observedAt string) (*observe.PR, error) {
	pr := a.pr
	out := &observe.PR{
		Repository: repo.Lower(),
		ViewerID:   a.viewerID,
		ObservedAt: observedAt,
		PullRequest: observe.PullRequest{
			Number: pr.Number, URL: pr.URL, Title: pr.Title, Body: pr.Body, State: pr.State,
			IsDraft: pr.IsDraft, BaseRefName: pr.BaseRefName, BaseSHA: pr.BaseRefOid,
			HeadRefName: pr.HeadRefName, HeadSHA: pr.HeadRefOid, IsCrossRepository: pr.IsCrossRepository,
			Mergeable: pr.Mergeable, MergeStateStatus: pr.MergeStateStatus, ReviewDecision: str(pr.ReviewDecision),
		},
		IssueComments:  []observe.IssueComment{},
		Reviews:        []observe.Review{},
		ReviewComments: []observe.ReviewComment{},
		Threads:        []observe.Thread{},
		Reactions:      []observe.Reaction{},
		CheckRuns:      []observe.CheckRun{},
		Statuses:       []observe.CommitStatus{},
		ChecksRead:     a.checksRead,
	}
	for _, c := range a.comments {
		ic, err := c.observe()
		if err != nil {
			return nil, err
		}
		out.IssueComments = append(out.IssueComments, ic)
	}
	inline := map[int64]int{}
	for _, ta := range a.threads {
		t := observe.Thread{
			ID: ta.t.ID, IsResolved: ta.t.IsResolved, IsOutdated: ta.t.IsOutdated, Path: ta.t.Path,
			Line: ta.t.Line, OriginalLine: ta.t.OriginalLine, StartLine: ta.t.StartLine,
			Side: str(ta.t.DiffSide), Comments: []observe.ThreadComment{},
		}
		for _, rc := range ta.comments {
			if err := rc.check(); err != nil {
				return nil, err
			}
			t.Comments = append(t.Comments, rc.threadComment())
			out.ReviewComments = append(out.ReviewComments, rc.observe())
			if id := rc.reviewID(); id != 0 {
				inline[id]++
			}
		}
		out.Threads = append(out.Threads, t)
	}
	sort.SliceStable(out.ReviewComments, func(i, j int) bool { return out.ReviewComments[i].ID < out.ReviewComments[j].ID })
	for _, r := range a.reviews {
		rv, err := r.observe(inline)
		if err != nil {
			return nil, err
		}
		out.Reviews = append(out.Reviews, rv)
	}
	out.Reactions = append(out.Reactions, a.reactions...)
	sort.SliceStable(out.Reactions, func(i, j int) bool { return out.Reactions[i].CreatedAt < out.Reactions[j].CreatedAt })
	for _, x := range a.contexts {
		switch x.Typename {
		case "CheckRun":
			out.CheckRuns = append(out.CheckRuns, observe.CheckRun{Name: x.Name, Status: lower(x.Status), Conclusion: lower(str(x.Conclusion))})
		case "StatusContext":
			out.Statuses = append(out.Statuses, observe.CommitStatus{Context: x.Context, State: statusState(x.State)})
		default:
			return nil, incomplete("status check context of unknown type %q", x.Typename)
		}
	}
	return out, nil
}
