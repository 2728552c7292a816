package join

// arena holds the materialised side of a bounded join: join patterns
// filed by index key, in chunks of arenaChunk patterns drawn from slabs
// allocated as the patterns come, up to a fixed capacity, so that filing
// needs no second copy, growing copies nothing, and the memory never
// exceeds the capacity. When it is full, the join counts what it holds
// against the streamed side, empties it and goes on filing (see
// stream.go). The slabs stay for the next row set.
type arena struct {
	slabs  [][]uint64 // each slabChunks chunks
	limit  int        // the capacity, in chunks
	used   int        // chunks handed out
	chunks [][]int32  // per key, its chunks in order
	last   []int32    // per key, the fill of its last chunk
	cur    [][]uint64 // per key, its last chunk, as filled (len = last)
	n      int        // patterns held
}

// arenaChunk is the number of patterns of a chunk: small enough that the
// last chunks of 4096 buckets waste little, large enough that the
// kernels run long over each.
const arenaChunk = 256

// slabChunks is the chunks of a slab: 2 MiB, the most an arena's last
// slab takes beyond what it holds.
const slabChunks = 1024

// reset empties a and sizes it for capacity patterns (rounded down to
// whole chunks, at least one chunk per key) and nkeys keys.
func (a *arena) reset(capacity, nkeys int) {
	a.limit = max(capacity/arenaChunk, nkeys)
	// Slabs beyond the capacity (a smaller arena than the last) go.
	for len(a.slabs) > 0 && (len(a.slabs)-1)*slabChunks >= a.limit {
		a.slabs[len(a.slabs)-1] = nil
		a.slabs = a.slabs[:len(a.slabs)-1]
	}
	if cap(a.chunks) < nkeys {
		a.chunks = make([][]int32, nkeys)
		a.last = make([]int32, nkeys)
		a.cur = make([][]uint64, nkeys)
	}
	a.chunks, a.last, a.cur = a.chunks[:nkeys], a.last[:nkeys], a.cur[:nkeys]
	a.clear()
}

// clear empties a, keeping its size.
func (a *arena) clear() {
	for k := range a.chunks {
		a.chunks[k] = a.chunks[k][:0]
		a.last[k] = arenaChunk
		a.cur[k] = nil
	}
	a.used, a.n = 0, 0
}

// room is the number of patterns a can take for certain, whatever their
// keys: what its free chunks hold (the free slots of the keys' last
// chunks come on top).
func (a *arena) room() int {
	return (a.limit - a.used) * arenaChunk
}

// chunk returns chunk c's patterns.
func (a *arena) chunk(c int32) []uint64 {
	s := a.slabs[int(c)/slabChunks]
	o := int(c) % slabChunks * arenaChunk
	return s[o : o+arenaChunk : o+arenaChunk]
}

// add files p under key k; it reports false, filing nothing, when a new
// chunk is needed and none is free.
func (a *arena) add(k uint32, p uint64) bool {
	c := a.cur[k]
	if len(c) == cap(c) {
		if a.used == a.limit {
			return false
		}
		if a.used == len(a.slabs)*slabChunks {
			a.slabs = append(a.slabs, make([]uint64, slabChunks*arenaChunk))
		}
		a.chunks[k] = append(a.chunks[k], int32(a.used))
		c = a.chunk(int32(a.used))[:0]
		a.used++
	}
	a.cur[k] = append(c, p)
	a.last[k] = int32(len(c) + 1)
	a.n++
	return true
}

// bytes is what a's slabs hold.
func (a *arena) bytes() uint64 {
	return uint64(len(a.slabs)) * slabChunks * arenaChunk * 8
}

// release lets a's slabs go (the next add draws new ones); a is empty.
func (a *arena) release() {
	clear(a.slabs)
	a.slabs = a.slabs[:0]
	a.clear()
}
