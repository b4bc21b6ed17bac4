package validate

import (
	"strings"

	"github.com/prloop/gh-prloop/core/problems"
	"github.com/prloop/gh-prloop/core/schema"
)

// CheckCommands enforces the initial command schema: a non-empty argv whose
// executable is an absolute path, and no NUL anywhere (exec cannot pass one,
// so the approved argv could never be the one that runs). The list's order
// is the execution order, so it is neither sorted nor deduplicated.
func CheckCommands(cmds []schema.Command, path string, errs *problems.List) {
	for i, c := range cmds {
		argv := problems.Join(problems.Join(path, i), "argv")
		if len(c.Argv) == 0 {
			errs.Add(argv, problems.InvalidValue, "argv must not be empty")
			continue
		}
		if !strings.HasPrefix(c.Argv[0], "/") {
			errs.Add(problems.Join(argv, 0), problems.InvalidValue, "the executable must be an absolute path, got %q", c.Argv[0])
		}
		for j, a := range c.Argv {
			if strings.ContainsRune(a, 0) {
				errs.Add(problems.Join(argv, j), problems.InvalidValue, "must not contain NUL")
			}
		}
	}
}
