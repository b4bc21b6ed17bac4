package planner

import "sort"

func sortByNumber(list []any) {
	sort.Slice(list, func(i, j int) bool {
		return list[i].(map[string]any)["number"].(int64) < list[j].(map[string]any)["number"].(int64)
	})
}
