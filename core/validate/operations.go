package validate

import (
	"strings"

	"github.com/prloop/gh-prloop/core/policy"
	"github.com/prloop/gh-prloop/core/problems"
	"github.com/prloop/gh-prloop/core/schema"
)

// ExpectedInitialOperations is the one operation list the seed allows for a
// snapshot, in its fixed order.
func ExpectedInitialOperations(s schema.InitialSnapshot) []string {
	ops := []string{policy.OpFetchBase}
	if s.CreateBranchRequired {
		ops = append(ops, policy.OpCreateBranch)
	}
	if len(s.Commands) > 0 {
		ops = append(ops, policy.OpRunValidation)
	}
	if s.CommitRequired {
		ops = append(ops, policy.OpStageFiles, policy.OpCommit)
	}
	if s.PushRequired {
		ops = append(ops, policy.OpPush)
	}
	if s.ExistingPRNumber != nil {
		ops = append(ops, policy.OpReusePR)
	} else {
		ops = append(ops, policy.OpCreatePR)
	}
	return append(ops, policy.OpRequestCodexReview, policy.OpBootstrapAutomation)
}

// CheckOperations requires got to be exactly want. It reports one problem, at
// the first index where the lists part, because every later index is then
// shifted and saying so again would only repeat the same fault.
func CheckOperations(got, want []string, path string, errs *problems.List) {
	n := min(len(got), len(want))
	for i := 0; i < n; i++ {
		if got[i] != want[i] {
			errs.Add(problems.Join(path, i), problems.OperationOrder,
				"expected %q at position %d; the operations must be exactly [%s]", want[i], i, strings.Join(want, ", "))
			return
		}
	}
	if len(got) != len(want) {
		errs.Add(problems.Join(path, n), problems.OperationOrder,
			"expected %d operations, got %d; the operations must be exactly [%s]", len(want), len(got), strings.Join(want, ", "))
	}
}
