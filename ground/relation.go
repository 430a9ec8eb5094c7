package ground

import "unsafe"

// relation is a set of tuples of object indices with per-column indexes.
// An index is built the first time a lookup asks for its column and kept
// up to date as tuples are added.
//
// A tuple is keyed by one integer that packs its values, 64/arity bits
// each, when they fit (two values always do; four fit below 65,536
// objects); the rare tuple whose values do not fit is keyed by its bytes.
type relation struct {
	arity int
	data  []int32             // tuples, arity values each
	small map[uint64]int32    // tuples that pack
	set   map[string]int32    // tuples that do not; nil until needed
	index []map[int32][]int32 // per column; nil until used
	// multi holds, per set of two or more columns (a bit mask), an index
	// on their values together; built when a lookup first asks for it
	multi map[uint64]*multiIndex
}

// multiIndex maps the values of some columns, packed like a tuple's key,
// to the tuples that hold them.
type multiIndex struct {
	cols  []int
	small map[uint64][]int32
	big   map[string][]int32
}

func newRelation(arity int) *relation {
	return &relation{arity: arity, small: map[uint64]int32{}, index: make([]map[int32][]int32, arity)}
}

// pack returns the packed key of t and whether t's values fit.
func pack(t []int32) (uint64, bool) {
	if len(t) == 0 {
		return 0, true
	}
	bits := 64 / len(t)
	if bits > 32 {
		bits = 32
	}
	var k uint64
	for _, v := range t {
		if v < 0 || bits < 32 && v >= 1<<bits {
			return 0, false
		}
		k = k<<bits | uint64(uint32(v))
	}
	return k, true
}

// key returns the tuple's bytes, aliasing t.
func key(t []int32) []byte {
	return unsafe.Slice((*byte)(unsafe.Pointer(&t[0])), 4*len(t))
}

// size is the number of tuples.
func (r *relation) size() int {
	if r.arity == 0 {
		return len(r.small) // the empty tuple always packs
	}
	return len(r.data) / r.arity
}

// tuple returns tuple i.
func (r *relation) tuple(i int32) []int32 {
	return r.data[int(i)*r.arity : int(i+1)*r.arity]
}

// find returns the index of t.
func (r *relation) find(t []int32) (int32, bool) {
	if k, ok := pack(t); ok {
		i, ok := r.small[k]
		return i, ok
	}
	i, ok := r.set[string(key(t))]
	return i, ok
}

// add inserts t and returns its index and whether it is new.
func (r *relation) add(t []int32) (int32, bool) {
	i := int32(r.size())
	if k, ok := pack(t); ok {
		if j, ok := r.small[k]; ok {
			return j, false
		}
		r.small[k] = i
	} else {
		if j, ok := r.set[string(key(t))]; ok {
			return j, false
		}
		if r.set == nil {
			r.set = map[string]int32{}
		}
		r.set[string(key(t))] = i
	}
	r.data = append(r.data, t...)
	for col, idx := range r.index {
		if idx != nil {
			idx[t[col]] = append(idx[t[col]], i)
		}
	}
	for _, mi := range r.multi {
		mi.add(t, i)
	}
	return i, true
}

// add indexes tuple t, at index i.
func (mi *multiIndex) add(t []int32, i int32) {
	var buf [8]int32
	vals := buf[:0]
	for _, c := range mi.cols {
		vals = append(vals, t[c])
	}
	if k, ok := pack(vals); ok {
		mi.small[k] = append(mi.small[k], i)
		return
	}
	if mi.big == nil {
		mi.big = map[string][]int32{}
	}
	mi.big[string(key(vals))] = append(mi.big[string(key(vals))], i)
}

// lookupCols returns the indices of the tuples whose columns cols (two or
// more, in increasing order; mask has their bits) hold vals.
func (r *relation) lookupCols(mask uint64, cols []int, vals []int32) []int32 {
	mi := r.multi[mask]
	if mi == nil {
		mi = &multiIndex{cols: append([]int(nil), cols...), small: map[uint64][]int32{}}
		for i := 0; i < r.size(); i++ {
			mi.add(r.tuple(int32(i)), int32(i))
		}
		if r.multi == nil {
			r.multi = map[uint64]*multiIndex{}
		}
		r.multi[mask] = mi
	}
	if k, ok := pack(vals); ok {
		return mi.small[k]
	}
	return mi.big[string(key(vals))]
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
