package schema

// Command is one validation command, preserved in execution order.
type Command struct {
	Argv             []string `json:"argv"`
	DefinitionSHA256 string   `json:"definition_sha256"`
}

// PathRecord binds one path to its fresh lstat chain and resolved target.
type PathRecord struct {
	InsideWorktree       bool   `json:"inside_worktree"`
	LstatChainSHA256     string `json:"lstat_chain_sha256"`
	OutsideGitMetadata   bool   `json:"outside_git_metadata"`
	Path                 string `json:"path"`
	ResolvedTargetSHA256 string `json:"resolved_target_sha256"`
}

func decodeCommands(o *obj, key string) []Command {
	out := []Command{}
	o.array(key, func(v any, path string) {
		c := newObj(v, path, o.errs)
		cmd := Command{Argv: c.strings("argv"), DefinitionSHA256: c.sha256("definition_sha256")}
		c.done()
		out = append(out, cmd)
	})
	return out
}

func decodePathRecords(o *obj, key string) []PathRecord {
	out := []PathRecord{}
	o.array(key, func(v any, path string) {
		r := newObj(v, path, o.errs)
		rec := PathRecord{
			InsideWorktree:       r.boolean("inside_worktree"),
			LstatChainSHA256:     r.sha256("lstat_chain_sha256"),
			OutsideGitMetadata:   r.boolean("outside_git_metadata"),
			Path:                 r.str("path"),
			ResolvedTargetSHA256: r.sha256("resolved_target_sha256"),
		}
		r.done()
		out = append(out, rec)
	})
	return out
}
