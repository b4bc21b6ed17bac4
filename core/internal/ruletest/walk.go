package ruletest

// At walks a canon Value by object keys and array indexes.
func At(v any, keys ...any) any {
	for _, k := range keys {
		switch k := k.(type) {
		case string:
			v = v.(map[string]any)[k]
		case int:
			v = v.([]any)[k]
		}
	}
	return v
}

// Obj is At for a value that must be an object.
func Obj(v any, keys ...any) map[string]any { return At(v, keys...).(map[string]any) }

// Arr is At for a value that must be an array.
func Arr(v any, keys ...any) []any { return At(v, keys...).([]any) }
