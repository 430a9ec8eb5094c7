package ground

import "unsafe"

// relation is a set of tuples of object indices with per-column indexes.
// An index is built the first time a lookup asks for its column and kept
// up to date as tuples are added.
type relation struct {
	arity int
	data  []int32 // tuples, arity values each
	set   map[string]int32
	index []map[int32][]int32 // per column; nil until used
	buf   []byte
}

func newRelation(arity int) *relation {
	return &relation{arity: arity, set: map[string]int32{}, index: make([]map[int32][]int32, arity)}
}

// key returns the tuple's bytes in a reused buffer (valid until the next
// call).
func (r *relation) key(t []int32) []byte {
	if len(t) == 0 {
		return r.buf[:0]
	}
	return unsafe.Slice((*byte)(unsafe.Pointer(&t[0])), 4*len(t))
}

// size is the number of tuples.
func (r *relation) size() int {
	if r.arity == 0 {
		return len(r.set)
	}
	return len(r.data) / r.arity
}

// tuple returns tuple i.
func (r *relation) tuple(i int32) []int32 {
	return r.data[int(i)*r.arity : int(i+1)*r.arity]
}

// find returns the index of t.
func (r *relation) find(t []int32) (int32, bool) {
	i, ok := r.set[string(r.key(t))]
	return i, ok
}

// add inserts t and returns its index and whether it is new.
func (r *relation) add(t []int32) (int32, bool) {
	k := r.key(t)
	if i, ok := r.set[string(k)]; ok {
		return i, false
	}
	i := int32(r.size())
	r.set[string(k)] = i
	r.data = append(r.data, t...)
	for col, idx := range r.index {
		if idx != nil {
			idx[t[col]] = append(idx[t[col]], i)
		}
	}
	return i, true
}

// lookup returns the indices of the tuples whose column col holds v.
func (r *relation) lookup(col int, v int32) []int32 {
	idx := r.index[col]
	if idx == nil {
		idx = map[int32][]int32{}
		for i := 0; i < r.size(); i++ {
			x := r.data[i*r.arity+col]
			idx[x] = append(idx[x], int32(i))
		}
		r.index[col] = idx
	}
	return idx[v]
}
