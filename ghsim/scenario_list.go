package ghsim

import (
	"fmt"
	"slices"
	"strings"
)

// scenarioAliases are the short names `gh-prloop sim --scenario` documents
// beside the kinds' stable names.
var scenarioAliases = map[string]ScenarioKind{"notice-limit": NoticeUsageLimit}

// ScenarioNames lists every name ParseScenarioList accepts, sorted.
func ScenarioNames() []string {
	var names []string
	for _, k := range ScenarioKinds() {
		names = append(names, k.String())
	}
	for a := range scenarioAliases {
		names = append(names, a)
	}
	slices.Sort(names)
	return names
}

// ParseScenarioList reads a comma-separated list of outcomes, one per
// review round ("findings,findings,clean"). Blanks around names are
// ignored; an empty element or an unknown name is an error that names it
// and its position.
func ParseScenarioList(list string) ([]ScenarioKind, error) {
	if strings.TrimSpace(list) == "" {
		return nil, fmt.Errorf("empty scenario list; want names from: %s", strings.Join(ScenarioNames(), ", "))
	}
	var out []ScenarioKind
	for i, name := range strings.Split(list, ",") {
		name = strings.TrimSpace(name)
		k, ok := ParseScenarioKind(name)
		if !ok {
			k, ok = scenarioAliases[name]
		}
		if !ok {
			return nil, fmt.Errorf("scenario %d %q is not one of: %s", i+1, name, strings.Join(ScenarioNames(), ", "))
		}
		out = append(out, k)
	}
	return out, nil
}
