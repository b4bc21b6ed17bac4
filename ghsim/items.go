package ghsim

// jsonItems renders each element of list as a REST item, in order.
func jsonItems[T any](list []T, render func(T) any) []any {
	items := make([]any, len(list))
	for i, v := range list {
		items[i] = render(v)
	}
	return items
}

// orEmpty keeps a filtered list that matched nothing a JSON [] rather than
// null, as GitHub sends it.
func orEmpty(items []any) []any {
	if items == nil {
		return []any{}
	}
	return items
}

// copies returns the values behind ptrs, so a seeding handle can hand out
// a snapshot the server's later changes do not reach.
func copies[T any](ptrs []*T) []T {
	out := make([]T, len(ptrs))
	for i, p := range ptrs {
		out[i] = *p
	}
	return out
}
