package docdiff

// gap is a run of unmatched elements between two matched ones: indices into
// the old array and into the new one.
type gap struct {
	old, new []int
}

// maxLCSCells bounds the quadratic alignment. Beyond it (two arrays of
// thousands of elements that differ in their middles) the middles are
// compared index by index: still every difference is reported, only less
// tidily.
const maxLCSCells = 4 << 20

// alignArrays matches equal elements (by canonical encoding) of a and b in
// order, as a longest common subsequence, and returns the gaps between
// matches. A common prefix and suffix are matched first, which is all most
// plan drifts need (one path added, one digest changed).
func alignArrays(a, b []string) []gap {
	p := 0
	for p < len(a) && p < len(b) && a[p] == b[p] {
		p++
	}
	s := 0
	for s < len(a)-p && s < len(b)-p && a[len(a)-1-s] == b[len(b)-1-s] {
		s++
	}
	ma, mb := a[p:len(a)-s], b[p:len(b)-s]
	if len(ma) == 0 && len(mb) == 0 {
		return nil
	}
	if len(ma)*len(mb) > maxLCSCells {
		return []gap{{old: span(p, len(ma)), new: span(p, len(mb))}}
	}
	return lcsGaps(ma, mb, p)
}

func lcsGaps(a, b []string, offset int) []gap {
	n, m := len(a), len(b)
	// t[i][j] is the LCS length of a[i:] and b[j:], flattened.
	w := m + 1
	t := make([]int32, (n+1)*w)
	for i := n - 1; i >= 0; i-- {
		for j := m - 1; j >= 0; j-- {
			if a[i] == b[j] {
				t[i*w+j] = t[(i+1)*w+j+1] + 1
			} else {
				t[i*w+j] = max(t[(i+1)*w+j], t[i*w+j+1])
			}
		}
	}
	var gaps []gap
	var cur gap
	flush := func() {
		if len(cur.old) > 0 || len(cur.new) > 0 {
			gaps = append(gaps, cur)
			cur = gap{}
		}
	}
	i, j := 0, 0
	for i < n || j < m {
		switch {
		case i < n && j < m && a[i] == b[j]:
			flush()
			i++
			j++
		case j >= m || (i < n && t[(i+1)*w+j] >= t[i*w+j+1]):
			cur.old = append(cur.old, offset+i)
			i++
		default:
			cur.new = append(cur.new, offset+j)
			j++
		}
	}
	flush()
	return gaps
}

func span(from, n int) []int {
	out := make([]int, n)
	for i := range out {
		out[i] = from + i
	}
	return out
}
