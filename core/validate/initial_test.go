package validate_test

import (
	"testing"

	"github.com/prloop/gh-prloop/core/canon"
	"github.com/prloop/gh-prloop/core/fixture"
	"github.com/prloop/gh-prloop/core/internal/ruletest"
	"github.com/prloop/gh-prloop/core/policy"
	"github.com/prloop/gh-prloop/core/problems"
	"github.com/prloop/gh-prloop/core/validate"
)

const (
	sp = "/initial_snapshot"
	mp = "/initial_manifest"
)

func snap(doc map[string]any) map[string]any { return ruletest.Obj(doc, "initial_snapshot") }
func man(doc map[string]any) map[string]any  { return ruletest.Obj(doc, "initial_manifest") }
func boundary(doc map[string]any) map[string]any {
	return ruletest.Obj(doc, "initial_snapshot", "execution_boundary")
}
func gitb(doc map[string]any) map[string]any {
	return ruletest.Obj(doc, "initial_snapshot", "execution_boundary", "git")
}

// setPaths replaces paths and path_records with one record per path, in the
// given order, so a case can test a single path rule.
func setPaths(doc map[string]any, paths ...string) {
	ps := make([]any, len(paths))
	rs := make([]any, len(paths))
	for i, p := range paths {
		ps[i] = p
		rs[i] = map[string]any{
			"inside_worktree": true, "lstat_chain_sha256": fixture.InitialDigest("l" + p),
			"outside_git_metadata": true, "path": p, "resolved_target_sha256": fixture.InitialDigest("t" + p),
		}
	}
	snap(doc)["paths"] = ps
	snap(doc)["path_records"] = rs
}

var allVariants = map[string]fixture.InitialOptions{
	"MaximalNewPR":              {},
	"NoCommands":                {NoCommands: true},
	"ReusedPR":                  {ReusePR: true},
	"NoCommitNoPush":            {NoCommit: true},
	"Autonomous":                {Autonomous: true},
	"ExplicitRiskAcceptance":    {RiskAcceptance: true},
	"NonASCIIPaths":             {NonASCIIPaths: true},
	"NoCreateBranch":            {NoCreateBranch: true},
	"MinimalReusedNoCommitAuto": {NoCommands: true, ReusePR: true, NoCommit: true, Autonomous: true, NoCreateBranch: true},
}

func TestInitialValidVariantsPass(t *testing.T) {
	for name, opts := range allVariants {
		t.Run(name, func(t *testing.T) {
			doc := fixture.InitialDocument(opts)
			res, errs := validate.Initial(doc)
			ruletest.AssertProblems(t, errs)
			planHash, _ := canon.HashValue(doc["initial_manifest"])
			snapHash, _ := canon.HashValue(doc["initial_snapshot"])
			if res.PlanHash != planHash || res.PlanHash != doc["initial_plan_hash"] {
				t.Errorf("PlanHash %s, want %s", res.PlanHash, planHash)
			}
			if res.SnapshotSHA256 != snapHash {
				t.Errorf("SnapshotSHA256 %s, want %s", res.SnapshotSHA256, snapHash)
			}
			wantOps := fixture.InitialOperations(opts)
			if len(res.Operations) != len(wantOps) {
				t.Fatalf("Operations %v, want %v", res.Operations, wantOps)
			}
			for i := range wantOps {
				if res.Operations[i] != wantOps[i] {
					t.Errorf("Operations %v, want %v", res.Operations, wantOps)
				}
			}
			if res.Doc.InitialManifest.RunID != fixture.InitialRunID {
				t.Errorf("Doc not decoded: run id %q", res.Doc.InitialManifest.RunID)
			}
		})
	}
}

// ruleCase breaks exactly one rule of a valid fixture. Unless raw is set the
// document is re-sealed afterwards, so no digest can be what rejects it.
type ruleCase struct {
	name   string
	opts   fixture.InitialOptions
	mutate func(doc map[string]any)
	raw    bool
	want   []want
}

func runInitialCases(t *testing.T, cases []ruleCase) {
	t.Helper()
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			doc := fixture.InitialDocument(c.opts)
			c.mutate(doc)
			if !c.raw {
				fixture.RecomputeInitial(doc)
			}
			if len(c.want) == 0 {
				t.Fatal("a rule case must expect at least one problem")
			}
			_, errs := validate.Initial(doc)
			ruletest.AssertProblems(t, errs, c.want...)
		})
	}
}

func TestInitialDocumentShape(t *testing.T) {
	runInitialCases(t, []ruleCase{
		{name: "OuterHasExactlyThreeFields/unknown", mutate: func(d map[string]any) { d["approved_by"] = "me" },
			want: []want{{"/approved_by", problems.UnknownField}}},
		{name: "OuterHasExactlyThreeFields/missing-plan-hash", raw: true, mutate: func(d map[string]any) { delete(d, "initial_plan_hash") },
			want: []want{{"/initial_plan_hash", problems.MissingField}}},
		{name: "OuterHasExactlyThreeFields/missing-snapshot", mutate: func(d map[string]any) { delete(d, "initial_snapshot") },
			want: []want{{"/initial_snapshot", problems.MissingField}}},
		{name: "SnapshotHasExactlyTheSeedFields/unknown", mutate: func(d map[string]any) { snap(d)["labels"] = []any{} },
			want: []want{{sp + "/labels", problems.UnknownField}}},
		{name: "SnapshotHasExactlyTheSeedFields/missing", mutate: func(d map[string]any) { delete(snap(d), "open_prs_sha256") },
			want: []want{{sp + "/open_prs_sha256", problems.MissingField}}},
		{name: "ManifestHasExactlyTheSeedFields/unknown", mutate: func(d map[string]any) { man(d)["approver"] = "me" },
			want: []want{{mp + "/approver", problems.UnknownField}}},
		{name: "ManifestHasExactlyTheSeedFields/missing", mutate: func(d map[string]any) { delete(man(d), "pr_body_sha256") },
			want: []want{{mp + "/pr_body_sha256", problems.MissingField}}},
		{name: "ManifestKindIsInitial", mutate: func(d map[string]any) { man(d)["kind"] = "remediation" },
			want: []want{{mp + "/kind", problems.InvalidValue}}},
		{name: "ManifestVersionIs1", mutate: func(d map[string]any) { man(d)["version"] = canon.Number("2") },
			want: []want{{mp + "/version", problems.Policy}}},
		{name: "PolicySchemaVersionIs1", mutate: func(d map[string]any) { snap(d)["policy_schema_version"] = canon.Number("2") },
			want: []want{{sp + "/policy_schema_version", problems.Policy}}},
		{name: "ModeCannotBeReportOnly", mutate: func(d map[string]any) { man(d)["mode"] = policy.ModeReportOnly },
			want: []want{{mp + "/mode", problems.InvalidValue}}},
		{name: "RunIDIs32LowercaseHex", mutate: func(d map[string]any) { man(d)["run_id"] = "0123456789ABCDEF0123456789ABCDEF" },
			want: []want{{mp + "/run_id", problems.InvalidValue}}},
		{name: "DigestsAreNonNull/pr_title", mutate: func(d map[string]any) { man(d)["pr_title_sha256"] = nil },
			want: []want{{mp + "/pr_title_sha256", problems.NullNotAllowed}}},
		{name: "DigestsAreLowercaseSHA256/pr_body", mutate: func(d map[string]any) {
			man(d)["pr_body_sha256"] = "ABCDEF0000000000000000000000000000000000000000000000000000000000"
		}, want: []want{{mp + "/pr_body_sha256", problems.InvalidValue}}},
		{name: "GitHubIDsArePositive", mutate: func(d map[string]any) { snap(d)["authenticated_user_id"] = canon.Number("0") },
			want: []want{{sp + "/authenticated_user_id", problems.OutOfRange}}},
		{name: "NotAnObject", raw: true, mutate: func(d map[string]any) { d["initial_snapshot"] = []any{} },
			want: []want{{sp, problems.WrongType}}},
	})
}

func TestInitialRootNotObject(t *testing.T) {
	for _, raw := range []any{nil, "x", []any{}, canon.Number("1"), true} {
		_, errs := validate.Initial(raw)
		if len(errs) != 1 || errs[0].Path != "" {
			t.Errorf("Initial(%#v) = %v, want one problem at the root", raw, errs)
		}
	}
}

func TestInitialExistingPR(t *testing.T) {
	reuse := fixture.InitialOptions{ReusePR: true}
	runInitialCases(t, []ruleCase{
		{name: "ExistingPRAllNullOrAllSet/one-null", opts: reuse,
			mutate: func(d map[string]any) { snap(d)["existing_pr_head_sha"] = nil },
			want:   []want{{sp + "/existing_pr_head_sha", problems.Mismatch}}},
		{name: "ExistingPRAllNullOrAllSet/one-set", mutate: func(d map[string]any) { snap(d)["existing_pr_same_repository"] = true },
			want: []want{
				{sp + "/existing_pr_base_branch", problems.Mismatch}, {sp + "/existing_pr_head_branch", problems.Mismatch},
				{sp + "/existing_pr_head_sha", problems.Mismatch}, {sp + "/existing_pr_number", problems.Mismatch},
			}},
		{name: "ExistingPRSameRepositoryTrue", opts: reuse,
			mutate: func(d map[string]any) { snap(d)["existing_pr_same_repository"] = false },
			want:   []want{{sp + "/existing_pr_same_repository", problems.InvalidValue}}},
		{name: "ExistingPRBaseBranchEqualsBaseBranch", opts: reuse,
			mutate: func(d map[string]any) { snap(d)["existing_pr_base_branch"] = "develop" },
			want:   []want{{sp + "/existing_pr_base_branch", problems.Mismatch}}},
		{name: "ExistingPRHeadBranchEqualsHeadBranch", opts: reuse,
			mutate: func(d map[string]any) { snap(d)["existing_pr_head_branch"] = "other" },
			want:   []want{{sp + "/existing_pr_head_branch", problems.Mismatch}}},
		{name: "ExistingPRHeadSHAEqualsCurrentHead", opts: reuse,
			mutate: func(d map[string]any) { snap(d)["existing_pr_head_sha"] = fixture.InitialBaseSHA },
			want:   []want{{sp + "/existing_pr_head_sha", problems.Mismatch}}},
	})
}

func TestInitialPolicyAndIdentity(t *testing.T) {
	runInitialCases(t, []ruleCase{
		{name: "HeartbeatRRuleEqualsPolicy", mutate: func(d map[string]any) { snap(d)["heartbeat_rrule"] = "FREQ=MINUTELY;INTERVAL=5" },
			want: []want{{sp + "/heartbeat_rrule", problems.Policy}}},
		{name: "HostEqualsPolicy", mutate: func(d map[string]any) { snap(d)["host"] = "github.example.com" },
			want: []want{{sp + "/host", problems.Policy}}},
		{name: "RepositoryIsLowercase", mutate: func(d map[string]any) { snap(d)["repository"] = "Octo-Org/hello-world" },
			want: []want{{sp + "/repository", problems.InvalidValue}}},
		{name: "RepositoryIsOwnerSlashRepo", mutate: func(d map[string]any) { snap(d)["repository"] = "hello-world" },
			want: []want{{sp + "/repository", problems.InvalidValue}}},
		{name: "RepositoryHasOneSlash", mutate: func(d map[string]any) { snap(d)["repository"] = "octo/hello/world" },
			want: []want{{sp + "/repository", problems.InvalidValue}}},
		{name: "BaseBranchIsARefName", mutate: func(d map[string]any) { snap(d)["base_branch"] = "ma..in" },
			want: []want{{sp + "/base_branch", problems.InvalidValue}}},
		{name: "HeadBranchIsARefName", mutate: func(d map[string]any) { snap(d)["head_branch"] = "-x" },
			want: []want{{sp + "/head_branch", problems.InvalidValue}}},
		{name: "HeadBranchDiffersFromBase", mutate: func(d map[string]any) { snap(d)["head_branch"] = fixture.InitialBaseBranch },
			want: []want{{sp + "/head_branch", problems.InvalidValue}}},
		{name: "RemoteNameIsARefName", mutate: func(d map[string]any) { snap(d)["remote_name"] = "my remote" },
			want: []want{{sp + "/remote_name", problems.InvalidValue}}},
		{name: "CommitRequiresPush", mutate: func(d map[string]any) {
			snap(d)["push_required"] = false
			man(d)["operations"] = removeOp(ruletest.Arr(d, "initial_manifest", "operations"), policy.OpPush)
		}, want: []want{{sp + "/push_required", problems.InvalidValue}}},
		{name: "CommitRequiresAPath", mutate: func(d map[string]any) { setPaths(d) },
			want: []want{{sp + "/paths", problems.InvalidValue}}},
	})
}

func removeOp(ops []any, op string) []any {
	var out []any
	for _, o := range ops {
		if o != op {
			out = append(out, o)
		}
	}
	return out
}

func TestInitialPaths(t *testing.T) {
	record := func(d map[string]any, i int) map[string]any {
		return ruletest.Obj(d, "initial_snapshot", "path_records", i)
	}
	cases := []ruleCase{
		{name: "PathsSorted", mutate: func(d map[string]any) {
			ps := ruletest.Arr(d, "initial_snapshot", "paths")
			ps[0], ps[1] = ps[1], ps[0]
		}, want: []want{{sp + "/paths/1", problems.NotSorted}}},
		{name: "PathsUnique", mutate: func(d map[string]any) { setPaths(d, "README.md", "README.md", "src/a.go") },
			want: []want{{sp + "/paths/1", problems.Duplicate}, {sp + "/path_records/1/path", problems.Duplicate}}},
		{name: "PathRecordsSortedByPath", mutate: func(d map[string]any) {
			rs := ruletest.Arr(d, "initial_snapshot", "path_records")
			rs[1], rs[2] = rs[2], rs[1]
		}, want: []want{{sp + "/path_records/2/path", problems.NotSorted}}},
		{name: "PathRecordsUnique", mutate: func(d map[string]any) {
			rs := ruletest.Arr(d, "initial_snapshot", "path_records")
			snap(d)["path_records"] = append([]any{rs[0]}, rs...)
		}, want: []want{{sp + "/path_records/1/path", problems.Duplicate}}},
		{name: "PathRecordsMatchPaths/missing-record", mutate: func(d map[string]any) {
			rs := ruletest.Arr(d, "initial_snapshot", "path_records")
			snap(d)["path_records"] = rs[:2]
		}, want: []want{{sp + "/paths/2", problems.Mismatch}}},
		{name: "PathRecordsMatchPaths/extra-record", mutate: func(d map[string]any) {
			rs := ruletest.Arr(d, "initial_snapshot", "path_records")
			extra := map[string]any{}
			for k, v := range rs[2].(map[string]any) {
				extra[k] = v
			}
			extra["path"] = "zzz.txt"
			snap(d)["path_records"] = append(rs, extra)
		}, want: []want{{sp + "/path_records/3/path", problems.Mismatch}}},
		{name: "PathRecordsMatchPaths/renamed-record", mutate: func(d map[string]any) { record(d, 0)["path"] = "README.markdown" },
			want: []want{{sp + "/path_records/0/path", problems.Mismatch}, {sp + "/paths/0", problems.Mismatch}}},
		{name: "PathRecordInsideWorktree", mutate: func(d map[string]any) { record(d, 1)["inside_worktree"] = false },
			want: []want{{sp + "/path_records/1/inside_worktree", problems.InvalidValue}}},
		{name: "PathRecordOutsideGitMetadata", mutate: func(d map[string]any) { record(d, 2)["outside_git_metadata"] = false },
			want: []want{{sp + "/path_records/2/outside_git_metadata", problems.InvalidValue}}},
	}
	for _, bad := range []struct{ rule, path string }{
		{"PathNotEmpty", ""},
		{"PathRelative", "/etc/passwd"},
		{"PathNoTrailingSlash", "docs/"},
		{"PathNoDotSegment", "docs/./guide.md"},
		{"PathNoDotDotSegment", "docs/../../etc/passwd"},
		{"PathNoLeadingDotDot", "../outside"},
		{"PathNoEmptySegment", "docs//guide.md"},
		{"PathNoBackslash", `docs\guide.md`},
		{"PathNoNUL", "docs/a\x00b"},
		{"PathNoControlCharacter", "docs/a\x1b[2Jb"},
		{"PathNoDEL", "docs/a\x7fb"},
		{"PathNotInGitMetadata", ".git/config"},
		{"PathNotInGitMetadataAnyCase", "sub/.GiT/hooks/pre-commit"},
	} {
		cases = append(cases, ruleCase{name: bad.rule, mutate: func(d map[string]any) { setPaths(d, bad.path) },
			want: []want{{sp + "/paths/0", problems.InvalidValue}}})
	}
	runInitialCases(t, cases)
}

// Paths are compared as git reports them: an NFC and an NFD spelling are two
// different, valid paths, and neither is normalized into the other.
func TestInitialPathsAreNotUnicodeNormalized(t *testing.T) {
	nfc, nfd := "caf\u00e9.md", "cafe\u0301.md"
	doc := fixture.InitialDocument(fixture.InitialOptions{})
	setPaths(doc, nfd, nfc) // "e"+U+0301 sorts before U+00E9
	fixture.RecomputeInitial(doc)
	_, errs := validate.Initial(doc)
	ruletest.AssertProblems(t, errs)
	if validate.PathProblem(nfd) != "" || validate.PathProblem(nfc) != "" {
		t.Error("NFD and NFC spellings must both be canonical paths")
	}
	doc = fixture.InitialDocument(fixture.InitialOptions{})
	setPaths(doc, nfc, nfd)
	fixture.RecomputeInitial(doc)
	_, errs = validate.Initial(doc)
	ruletest.AssertProblems(t, errs, want{sp + "/paths/1", problems.NotSorted}, want{sp + "/path_records/1/path", problems.NotSorted})
}

func TestInitialCommands(t *testing.T) {
	cmd := func(d map[string]any, i int) map[string]any {
		return ruletest.Obj(d, "initial_snapshot", "commands", i)
	}
	runInitialCases(t, []ruleCase{
		{name: "CommandArgvNonEmpty", mutate: func(d map[string]any) { cmd(d, 0)["argv"] = []any{} },
			want: []want{{sp + "/commands/0/argv", problems.InvalidValue}}},
		{name: "CommandExecutableAbsolute", mutate: func(d map[string]any) { ruletest.Arr(cmd(d, 1), "argv")[0] = "make" },
			want: []want{{sp + "/commands/1/argv/0", problems.InvalidValue}}},
		{name: "CommandExecutableAbsolute/relative-dot", mutate: func(d map[string]any) { ruletest.Arr(cmd(d, 0), "argv")[0] = "./bin/go" },
			want: []want{{sp + "/commands/0/argv/0", problems.InvalidValue}}},
		{name: "CommandArgumentNoNUL", mutate: func(d map[string]any) { ruletest.Arr(cmd(d, 1), "argv")[1] = "li\x00nt" },
			want: []want{{sp + "/commands/1/argv/1", problems.InvalidValue}}},
		{name: "CommandHasExactFields", mutate: func(d map[string]any) { cmd(d, 0)["env"] = map[string]any{} },
			want: []want{{sp + "/commands/0/env", problems.UnknownField}}},
	})
}

// Commands keep their execution order; the validator never sorts them.
func TestInitialCommandOrderIsPreserved(t *testing.T) {
	doc := fixture.InitialDocument(fixture.InitialOptions{})
	cmds := ruletest.Arr(doc, "initial_snapshot", "commands")
	cmds[0], cmds[1] = cmds[1], cmds[0]
	fixture.RecomputeInitial(doc)
	res, errs := validate.Initial(doc)
	ruletest.AssertProblems(t, errs)
	if res.Doc.InitialSnapshot.Commands[0].Argv[0] != "/usr/bin/make" {
		t.Errorf("command order changed: %v", res.Doc.InitialSnapshot.Commands)
	}
}

func TestInitialBoundary(t *testing.T) {
	const bp, gp = sp + "/execution_boundary", sp + "/execution_boundary/git"
	risk := fixture.InitialOptions{RiskAcceptance: true}
	cases := []ruleCase{
		{name: "SafeProfileNoActiveCleanFilters", mutate: func(d map[string]any) { gitb(d)["active_clean_filters"] = []any{"lfs"} },
			want: []want{{gp + "/active_clean_filters", problems.Policy}}},
		{name: "SafeProfileCredentialStrategy", mutate: func(d map[string]any) { gitb(d)["credential_strategy"] = "ssh-agent" },
			want: []want{{gp + "/credential_strategy", problems.Policy}}},
		{name: "SafeIsolationRequiresSafeProfile", mutate: func(d map[string]any) { gitb(d)["profile"] = policy.RiskProfile },
			want: []want{{gp + "/profile", problems.Policy}}},
		{name: "SafeIsolationRequiresNullRiskAcceptance", mutate: func(d map[string]any) {
			boundary(d)["risk_acceptance_sha256"] = fixture.InitialDigest("risk")
		}, want: []want{{bp + "/risk_acceptance_sha256", problems.Policy}}},
		{name: "IsolationIsKnown", mutate: func(d map[string]any) { boundary(d)["isolation"] = "container" },
			want: []want{{bp + "/isolation", problems.InvalidValue}}},
		{name: "RiskIsolationRequiresRiskProfile", opts: risk, mutate: func(d map[string]any) { gitb(d)["profile"] = policy.SafeProfile },
			want: []want{{gp + "/profile", problems.Policy}}},
		{name: "RiskIsolationRequiresRiskAcceptanceDigest", opts: risk, mutate: func(d map[string]any) { boundary(d)["risk_acceptance_sha256"] = nil },
			want: []want{{bp + "/risk_acceptance_sha256", problems.Policy}}},
		{name: "RiskProfileCredentialStrategy", opts: risk, mutate: func(d map[string]any) { gitb(d)["credential_strategy"] = "store" },
			want: []want{{gp + "/credential_strategy", problems.Policy}}},
		{name: "ActiveCleanFiltersSorted", opts: risk, mutate: func(d map[string]any) { gitb(d)["active_clean_filters"] = []any{"lfs", "git-crypt"} },
			want: []want{{gp + "/active_clean_filters/1", problems.NotSorted}}},
		{name: "ActiveCleanFiltersUnique", opts: risk, mutate: func(d map[string]any) { gitb(d)["active_clean_filters"] = []any{"lfs", "lfs"} },
			want: []want{{gp + "/active_clean_filters/1", problems.Duplicate}}},
		{name: "ActiveCleanFiltersNonEmptyNames", opts: risk, mutate: func(d map[string]any) { gitb(d)["active_clean_filters"] = []any{""} },
			want: []want{{gp + "/active_clean_filters/0", problems.InvalidValue}}},
		{name: "BoundaryHasExactFields", mutate: func(d map[string]any) { gitb(d)["ssh_command"] = "ssh" },
			want: []want{{gp + "/ssh_command", problems.UnknownField}}},
	}
	for _, b := range []string{"external_diff_disabled", "fsmonitor_disabled", "hooks_disabled", "protect_hfs_enabled",
		"protect_ntfs_enabled", "protocol_restricted", "signing_disabled", "textconv_disabled"} {
		cases = append(cases, ruleCase{name: "SafeProfileRequires/" + b, mutate: func(d map[string]any) { gitb(d)[b] = false },
			want: []want{{gp + "/" + b, problems.Policy}}})
	}
	runInitialCases(t, cases)
}

// The risk profile records what was actually observed: every protection may
// be false and clean filters may be active.
func TestInitialRiskProfileMayWeakenEverything(t *testing.T) {
	doc := fixture.InitialDocument(fixture.InitialOptions{RiskAcceptance: true})
	for _, b := range []string{"external_diff_disabled", "fsmonitor_disabled", "hooks_disabled", "protect_hfs_enabled",
		"protect_ntfs_enabled", "protocol_restricted", "signing_disabled", "textconv_disabled"} {
		gitb(doc)[b] = false
	}
	fixture.RecomputeInitial(doc)
	_, errs := validate.Initial(doc)
	ruletest.AssertProblems(t, errs)
}

func TestInitialOperations(t *testing.T) {
	const op = mp + "/operations"
	set := func(d map[string]any, ops ...string) {
		a := make([]any, len(ops))
		for i, o := range ops {
			a[i] = o
		}
		man(d)["operations"] = a
	}
	runInitialCases(t, []ruleCase{
		{name: "OperationsStartWithFetchBase", mutate: func(d map[string]any) {
			ops := ruletest.Arr(d, "initial_manifest", "operations")
			man(d)["operations"] = ops[1:]
		}, want: []want{{op + "/0", problems.OperationOrder}}},
		{name: "CreateBranchOnlyWhenRequired", opts: fixture.InitialOptions{NoCreateBranch: true}, mutate: func(d map[string]any) {
			set(d, "fetch-base", "create-branch", "run-validation", "stage-files", "commit", "push", "create-pr", "request-codex-review", "bootstrap-automation")
		}, want: []want{{op + "/1", problems.OperationOrder}}},
		{name: "CreateBranchWhenRequired", mutate: func(d map[string]any) {
			set(d, "fetch-base", "run-validation", "stage-files", "commit", "push", "create-pr", "request-codex-review", "bootstrap-automation")
		}, want: []want{{op + "/1", problems.OperationOrder}}},
		{name: "RunValidationOnlyWithCommands", opts: fixture.InitialOptions{NoCommands: true}, mutate: func(d map[string]any) {
			set(d, "fetch-base", "create-branch", "run-validation", "stage-files", "commit", "push", "create-pr", "request-codex-review", "bootstrap-automation")
		}, want: []want{{op + "/2", problems.OperationOrder}}},
		{name: "StageFilesThenCommit", mutate: func(d map[string]any) {
			set(d, "fetch-base", "create-branch", "run-validation", "commit", "stage-files", "push", "create-pr", "request-codex-review", "bootstrap-automation")
		}, want: []want{{op + "/3", problems.OperationOrder}}},
		{name: "StageAndCommitOnlyWhenCommitRequired", opts: fixture.InitialOptions{NoCommit: true}, mutate: func(d map[string]any) {
			set(d, "fetch-base", "create-branch", "run-validation", "stage-files", "commit", "create-pr", "request-codex-review", "bootstrap-automation")
		}, want: []want{{op + "/3", problems.OperationOrder}}},
		{name: "PushOnlyWhenPushRequired", opts: fixture.InitialOptions{NoCommit: true}, mutate: func(d map[string]any) {
			set(d, "fetch-base", "create-branch", "run-validation", "push", "create-pr", "request-codex-review", "bootstrap-automation")
		}, want: []want{{op + "/3", problems.OperationOrder}}},
		{name: "CreatePRForANewPR", mutate: func(d map[string]any) {
			set(d, "fetch-base", "create-branch", "run-validation", "stage-files", "commit", "push", "reuse-pr", "request-codex-review", "bootstrap-automation")
		}, want: []want{{op + "/6", problems.OperationOrder}}},
		{name: "ReusePRForAnExistingPR", opts: fixture.InitialOptions{ReusePR: true}, mutate: func(d map[string]any) {
			set(d, "fetch-base", "run-validation", "stage-files", "commit", "push", "create-pr", "request-codex-review", "bootstrap-automation")
		}, want: []want{{op + "/5", problems.OperationOrder}}},
		{name: "ExactlyOneOfReuseOrCreate", mutate: func(d map[string]any) {
			set(d, "fetch-base", "create-branch", "run-validation", "stage-files", "commit", "push", "create-pr", "reuse-pr", "request-codex-review", "bootstrap-automation")
		}, want: []want{{op + "/7", problems.OperationOrder}}},
		{name: "AlwaysRequestCodexReview", mutate: func(d map[string]any) {
			set(d, "fetch-base", "create-branch", "run-validation", "stage-files", "commit", "push", "create-pr", "bootstrap-automation")
		}, want: []want{{op + "/7", problems.OperationOrder}}},
		{name: "AlwaysEndWithBootstrapAutomation", mutate: func(d map[string]any) {
			set(d, "fetch-base", "create-branch", "run-validation", "stage-files", "commit", "push", "create-pr", "request-codex-review")
		}, want: []want{{op + "/8", problems.OperationOrder}}},
		{name: "NothingAfterBootstrapAutomation", mutate: func(d map[string]any) {
			set(d, "fetch-base", "create-branch", "run-validation", "stage-files", "commit", "push", "create-pr", "request-codex-review", "bootstrap-automation", "push")
		}, want: []want{{op + "/9", problems.OperationOrder}}},
	})
}

func TestExpectedInitialOperationsMaximalForm(t *testing.T) {
	doc := fixture.InitialDocument(fixture.InitialOptions{})
	res, errs := validate.Initial(doc)
	ruletest.AssertProblems(t, errs)
	got := validate.ExpectedInitialOperations(res.Doc.InitialSnapshot)
	wantOps := []string{"fetch-base", "create-branch", "run-validation", "stage-files", "commit", "push",
		"create-pr", "request-codex-review", "bootstrap-automation"}
	if len(got) != len(wantOps) {
		t.Fatalf("got %v", got)
	}
	for i := range got {
		if got[i] != wantOps[i] {
			t.Fatalf("got %v, want the seed's maximal form %v", got, wantOps)
		}
	}
}

func TestInitialTemplates(t *testing.T) {
	const rt, pt = mp + "/review_request_body_template", mp + "/automation_prompt_template"
	edit := func(key string, f func(string) string) func(map[string]any) {
		return func(d map[string]any) { man(d)[key] = f(man(d)[key].(string)) }
	}
	otherRun := "fedcba9876543210fedcba9876543210"
	runInitialCases(t, []ruleCase{
		{name: "ReviewTemplateMentionsCodex", mutate: edit("review_request_body_template", func(s string) string {
			return "@reviewer please review this pull request.\n" + policy.RequestMarker(fixture.InitialRunID, 0, policy.FinalHeadShaMarker)
		}), want: []want{{rt, problems.Template}}},
		{name: "ReviewTemplateExactlyOneFinalHeadPlaceholder/two", mutate: edit("review_request_body_template", func(s string) string {
			return s + "\nhead: {{FINAL_HEAD_SHA}}"
		}), want: []want{{rt, problems.Placeholder}}},
		{name: "ReviewTemplateExactlyOneFinalHeadPlaceholder/none", mutate: edit("review_request_body_template", func(s string) string {
			return "@codex review\n" + policy.RequestMarker(fixture.InitialRunID, 0, fixture.InitialHeadSHA)
		}), want: []want{{rt, problems.Placeholder}, {rt, problems.Template}}},
		{name: "ReviewTemplateNoOtherPlaceholder", mutate: edit("review_request_body_template", func(s string) string {
			return "@codex review\n{{PR_TITLE}}\n" + policy.RequestMarker(fixture.InitialRunID, 0, policy.FinalHeadShaMarker)
		}), want: []want{{rt, problems.Placeholder}}},
		{name: "ReviewTemplateIsTheReviewTrigger", mutate: edit("review_request_body_template", func(s string) string {
			return "@codex please review this pull request.\n" + policy.RequestMarker(fixture.InitialRunID, 0, policy.FinalHeadShaMarker)
		}), want: []want{{rt, problems.Template}}},
		{name: "ReviewTemplateNoStrayBraces", mutate: edit("review_request_body_template", func(s string) string { return s + " }}" }),
			want: []want{{rt, problems.Placeholder}}},
		{name: "ReviewTemplateCanonicalMarker/run", mutate: edit("review_request_body_template", func(s string) string {
			return "@codex review\n" + policy.RequestMarker(otherRun, 0, policy.FinalHeadShaMarker)
		}), want: []want{{rt, problems.Template}}},
		{name: "ReviewTemplateCanonicalMarker/round0", mutate: edit("review_request_body_template", func(s string) string {
			return "@codex review\n" + policy.RequestMarker(fixture.InitialRunID, 1, policy.FinalHeadShaMarker)
		}), want: []want{{rt, problems.Template}}},
		{name: "ReviewTemplateCanonicalMarker/spacing", mutate: edit("review_request_body_template", func(s string) string {
			return "@codex review\n<!--github-codex-pr-loop-request run=" + fixture.InitialRunID + " round=0 sha={{FINAL_HEAD_SHA}} -->"
		}), want: []want{{rt, problems.Template}}},
		{name: "ReviewTemplateExactlyOneMarker", mutate: edit("review_request_body_template", func(s string) string {
			return s + "\n" + policy.RequestMarker(otherRun, 0, fixture.InitialHeadSHA)
		}), want: []want{{rt, problems.Template}}},
		{name: "ReviewTemplateSHA256Matches", raw: true, mutate: func(d map[string]any) {
			man(d)["review_request_body_template_sha256"] = fixture.InitialDigest("other")
			fixture.RecomputeInitialPlanHash(d)
		}, want: []want{{mp + "/review_request_body_template_sha256", problems.HashMismatch}}},
		{name: "PromptTemplateEqualsPolicy", mutate: edit("automation_prompt_template", func(s string) string { return s + "\n" }),
			want: []want{{pt, problems.Template}}},
		{name: "PromptTemplateEqualsPolicy/crlf", mutate: edit("automation_prompt_template", func(s string) string {
			return "Continue $github-codex-pr-loop from the exact checkpoint below. Re-fetch all external state and follow only the installed evaluator's emitted action.\r\nLoop key: {{AUTOMATION_KEY}}\r\nBootstrap checkpoint JSON: {{BOOTSTRAP_CHECKPOINT_JSON}}"
		}), want: []want{{pt, problems.Template}}},
		{name: "PromptTemplatePlaceholdersOnce", mutate: edit("automation_prompt_template", func(s string) string { return s + "{{AUTOMATION_KEY}}" }),
			want: []want{{pt, problems.Template}, {pt, problems.Placeholder}}},
		{name: "PromptTemplateNoOtherPlaceholder", mutate: edit("automation_prompt_template", func(s string) string { return s + "{{RUN_ID}}" }),
			want: []want{{pt, problems.Template}, {pt, problems.Placeholder}}},
		{name: "PromptTemplateSHA256Matches", raw: true, mutate: func(d map[string]any) {
			man(d)["automation_prompt_template_sha256"] = fixture.InitialDigest("other")
			fixture.RecomputeInitialPlanHash(d)
		}, want: []want{{mp + "/automation_prompt_template_sha256", problems.HashMismatch}}},
	})
}

func TestPolicyTemplatesSatisfyTheirOwnRules(t *testing.T) {
	var errs problems.List
	validate.CheckPromptTemplate(policy.AutomationPromptTemplate, "/p", &errs)
	validate.CheckReviewTemplate(policy.InitialReviewTemplate(fixture.InitialRunID), fixture.InitialRunID, 0, "/r", &errs)
	validate.CheckReviewTemplate(policy.FixReviewTemplate(fixture.InitialRunID, 3), fixture.InitialRunID, 3, "/f", &errs)
	ruletest.AssertProblems(t, errs)
	validate.CheckReviewTemplate(policy.FixReviewTemplate(fixture.InitialRunID, 3), fixture.InitialRunID, 2, "/f", &errs)
	ruletest.AssertProblems(t, errs, want{"/f", problems.Template})
}

func TestInitialDigests(t *testing.T) {
	runInitialCases(t, []ruleCase{
		{name: "SnapshotSHA256IsTheSnapshotHash/drifted-snapshot", raw: true, mutate: func(d map[string]any) {
			snap(d)["open_prs_sha256"] = fixture.InitialDigest("another PR was opened")
		}, want: []want{{mp + "/snapshot_sha256", problems.HashMismatch}}},
		{name: "SnapshotSHA256IsTheSnapshotHash/forged", raw: true, mutate: func(d map[string]any) {
			man(d)["snapshot_sha256"] = fixture.InitialDigest("forged")
			fixture.RecomputeInitialPlanHash(d)
		}, want: []want{{mp + "/snapshot_sha256", problems.HashMismatch}}},
		{name: "PlanHashIsTheManifestHash/changed-manifest", raw: true, mutate: func(d map[string]any) {
			man(d)["pr_title_sha256"] = canon.Hash([]byte("another title"))
		}, want: []want{{"/initial_plan_hash", problems.HashMismatch}}},
		{name: "PlanHashIsTheManifestHash/not-the-snapshot-hash", raw: true, mutate: func(d map[string]any) {
			d["initial_plan_hash"] = man(d)["snapshot_sha256"]
		}, want: []want{{"/initial_plan_hash", problems.HashMismatch}}},
	})
}

// Every problem is reported, not just the first.
func TestInitialReportsEveryProblem(t *testing.T) {
	doc := fixture.InitialDocument(fixture.InitialOptions{})
	snap(doc)["host"] = "example.com"
	snap(doc)["heartbeat_rrule"] = "FREQ=HOURLY"
	gitb(doc)["hooks_disabled"] = false
	man(doc)["extra"] = true
	fixture.RecomputeInitial(doc)
	doc["initial_plan_hash"] = fixture.InitialDigest("wrong")
	_, errs := validate.Initial(doc)
	ruletest.AssertProblems(t, errs,
		want{sp + "/host", problems.Policy},
		want{sp + "/heartbeat_rrule", problems.Policy},
		want{sp + "/execution_boundary/git/hooks_disabled", problems.Policy},
		want{mp + "/extra", problems.UnknownField},
		want{"/initial_plan_hash", problems.HashMismatch},
	)
}

// A field already reported by the decoder is not reported again by every
// rule that reads it.
func TestInitialNoCascadeFromSchemaErrors(t *testing.T) {
	doc := fixture.InitialDocument(fixture.InitialOptions{})
	delete(snap(doc), "commands")
	snap(doc)["existing_pr_number"] = "17"
	man(doc)["review_request_body_template"] = canon.Number("5")
	fixture.RecomputeInitial(doc)
	_, errs := validate.Initial(doc)
	ruletest.AssertProblems(t, errs,
		want{sp + "/commands", problems.MissingField},
		want{sp + "/existing_pr_number", problems.WrongType},
		want{mp + "/review_request_body_template", problems.WrongType},
	)
}

// The validator only reads its input.
func TestInitialDoesNotMutateInput(t *testing.T) {
	doc := fixture.InitialDocument(fixture.InitialOptions{NonASCIIPaths: true})
	before, _ := canon.Encode(doc)
	validate.Initial(doc)
	after, _ := canon.Encode(doc)
	if string(before) != string(after) {
		t.Error("Initial changed its input")
	}
}
