package ghclient

import (
	"embed"
	"fmt"
	"regexp"
	"sort"
	"strings"
)

//go:embed queries/*.graphql
var queryFiles embed.FS

var (
	fragmentHeadRE = regexp.MustCompile(`(?m)^fragment\s+([A-Za-z_][A-Za-z0-9_]*)\s`)
	spreadRE       = regexp.MustCompile(`\.\.\.\s*([A-Za-z_][A-Za-z0-9_]*)`)
	fragments      = splitFragments(mustRead("fragments.graphql"))
)

func mustRead(name string) string {
	b, err := queryFiles.ReadFile("queries/" + name)
	if err != nil {
		panic(err)
	}
	return string(b)
}

// splitFragments cuts fragments.graphql into one definition per name.
func splitFragments(src string) map[string]string {
	out := map[string]string{}
	locs := fragmentHeadRE.FindAllStringSubmatchIndex(src, -1)
	for i, loc := range locs {
		end := len(src)
		if i+1 < len(locs) {
			end = locs[i+1][0]
		}
		body := src[loc[0]:end]
		// Comments between definitions belong to the next fragment; drop them.
		if j := strings.LastIndex(body, "}"); j >= 0 {
			body = body[:j+1]
		}
		out[src[loc[2]:loc[3]]] = body
	}
	return out
}

// document appends to body exactly the fragments it uses, transitively,
// because GraphQL rejects documents with unused fragments.
func document(body string) string {
	need := map[string]bool{}
	var visit func(text string)
	visit = func(text string) {
		for _, m := range spreadRE.FindAllStringSubmatch(text, -1) {
			name := m[1]
			if name == "on" || need[name] {
				continue
			}
			frag, ok := fragments[name]
			if !ok {
				panic(fmt.Sprintf("ghclient: unknown fragment %q", name))
			}
			need[name] = true
			visit(frag)
		}
	}
	visit(body)
	names := make([]string, 0, len(need))
	for n := range need {
		names = append(names, n)
	}
	sort.Strings(names)
	var b strings.Builder
	b.WriteString(strings.TrimSpace(body))
	for _, n := range names {
		b.WriteString("\n\n")
		b.WriteString(fragments[n])
	}
	b.WriteString("\n")
	return b.String()
}

var (
	observePRDoc   = document(mustRead("observe_pr.graphql"))
	prNodeIDDoc    = document(mustRead("pr_node_id.graphql"))
	replyThreadDoc = document(mustRead("reply_to_thread.graphql"))
	resolveDoc     = document(mustRead("resolve_thread.graphql"))
	markReadyDoc   = document(mustRead("mark_ready.graphql"))
)
