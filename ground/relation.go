package ground

import (
	"unsafe"

	"github.com/htnsat/htnsat/internal/sets"
)

// relation is a set of tuples of object indices with per-column indexes.
// An index is built the first time a lookup asks for its column and kept
// up to date as tuples are added.
//
// A tuple is keyed by one integer that packs its values, 64/arity bits
// each, when they fit (two values always do; four fit below 65,536
// objects); the rare tuple whose values do not fit is keyed by its bytes.
type relation struct {
	arity int
	data  []int32          // tuples, arity values each
	small sets.U64Map      // tuples that pack
	set   map[string]int32 // tuples that do not; nil until needed
	index []*colIndex      // per column; nil until used
	// multi holds, per set of two or more columns (a bit mask), an index
	// on their values together; built when a lookup first asks for it
	multi map[uint64]*multiIndex
}

// multiIndex maps the values of some columns, packed like a tuple's key,
// to the tuples that hold them.
type multiIndex struct {
	cols  []int
	small sets.U64Map // packed values -> position in lists
	lists [][]int32   // tuple indices
	big   map[string][]int32
}

// colIndex maps a column's value to the tuples that hold it: by position
// for the small non-negative values object indices are, else by a map.
type colIndex struct {
	dense    [][]int32
	other    map[int32][]int32
	distinct int // values with a tuple
}

// denseLimit bounds colIndex.dense (24 bytes a value).
const denseLimit = 4096

func (c *colIndex) add(v, i int32) {
	if v >= 0 && v < denseLimit {
		if int(v) >= len(c.dense) {
			c.dense = append(c.dense, make([][]int32, int(v)+1-len(c.dense))...)
		}
		if len(c.dense[v]) == 0 {
			c.distinct++
		}
		c.dense[v] = append(c.dense[v], i)
		return
	}
	if c.other == nil {
		c.other = map[int32][]int32{}
	}
	if len(c.other[v]) == 0 {
		c.distinct++
	}
	c.other[v] = append(c.other[v], i)
}

func (c *colIndex) get(v int32) []int32 {
	if v >= 0 && v < denseLimit {
		if int(v) < len(c.dense) {
			return c.dense[v]
		}
		return nil
	}
	return c.other[v]
}

func newRelation(arity int) *relation {
	return &relation{arity: arity, index: make([]*colIndex, arity)}
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
		return r.small.Len() // the empty tuple always packs
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
		return r.small.Get(k)
	}
	i, ok := r.set[string(key(t))]
	return i, ok
}

// add inserts t and returns its index and whether it is new.
func (r *relation) add(t []int32) (int32, bool) {
	i := int32(r.size())
	if k, ok := pack(t); ok {
		if j, fresh := r.small.GetOrPut(k, i); !fresh {
			return j, false
		}
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
			idx.add(t[col], i)
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
		j, fresh := mi.small.GetOrPut(k, int32(len(mi.lists)))
		if fresh {
			mi.lists = append(mi.lists, nil)
		}
		mi.lists[j] = append(mi.lists[j], i)
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
		mi = &multiIndex{cols: append([]int(nil), cols...)}
		for i := 0; i < r.size(); i++ {
			mi.add(r.tuple(int32(i)), int32(i))
		}
		if r.multi == nil {
			r.multi = map[uint64]*multiIndex{}
		}
		r.multi[mask] = mi
	}
	if k, ok := pack(vals); ok {
		if j, ok := mi.small.Get(k); ok {
			return mi.lists[j]
		}
		return nil
	}
	return mi.big[string(key(vals))]
}

// lookup returns the indices of the tuples whose column col holds v.
func (r *relation) lookup(col int, v int32) []int32 {
	return r.colIndex(col).get(v)
}

// distinct returns the number of distinct values in column col.
func (r *relation) distinct(col int) int {
	return r.colIndex(col).distinct
}

// colIndex returns the index of column col, built on first use.
func (r *relation) colIndex(col int) *colIndex {
	idx := r.index[col]
	if idx == nil {
		idx = &colIndex{}
		for i := 0; i < r.size(); i++ {
			idx.add(r.data[i*r.arity+col], int32(i))
		}
		r.index[col] = idx
	}
	return idx
}
