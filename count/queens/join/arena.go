package join

// arena holds the materialised side of a bounded join: join patterns
// filed by index key, in chunks of arenaChunk patterns drawn from one
// array of fixed capacity, so that filing needs no second copy and the
// memory never exceeds the capacity. When it is full, the join counts
// what it holds against the streamed side, empties it and goes on filing
// (see stream.go).
type arena struct {
	buf    []uint64  // the chunks so far: grown by doubling up to limit
	limit  int       // the capacity, in patterns
	used   int       // chunks handed out
	chunks [][]int32 // per key, its chunks in order
	last   []int32   // per key, the fill of its last chunk
	n      int       // patterns held
}

// arenaChunk is the number of patterns of a chunk: small enough that the
// last chunks of 256 buckets waste little, large enough that the kernels
// run long over each.
const arenaChunk = 256

// reset empties a and sizes it for capacity patterns (rounded down to
// whole chunks, at least one chunk per key) and nkeys keys. The memory
// is taken as the patterns come, doubling, so that an arena holds what
// the largest side it filed needed, up to its capacity.
func (a *arena) reset(capacity, nkeys int) {
	a.limit = max(capacity/arenaChunk, nkeys) * arenaChunk
	if len(a.buf) > a.limit {
		a.buf = nil
	}
	if a.buf == nil {
		a.buf = make([]uint64, min(a.limit, arenaStart))
	}
	if cap(a.chunks) < nkeys {
		a.chunks = make([][]int32, nkeys)
		a.last = make([]int32, nkeys)
	}
	a.chunks, a.last = a.chunks[:nkeys], a.last[:nkeys]
	a.clear()
}

// clear empties a, keeping its size.
func (a *arena) clear() {
	for k := range a.chunks {
		a.chunks[k] = a.chunks[k][:0]
		a.last[k] = arenaChunk
	}
	a.used, a.n = 0, 0
}

// room is the number of patterns a can take for certain, whatever their
// keys: what its free chunks hold (the free slots of the keys' last
// chunks come on top).
func (a *arena) room() int {
	return (a.limit/arenaChunk - a.used) * arenaChunk
}

// arenaStart is the size an arena starts at, in patterns.
const arenaStart = 256 * arenaChunk

// add files p under key k; it reports false, filing nothing, when a new
// chunk is needed and none is free.
func (a *arena) add(k uint32, p uint64) bool {
	if a.last[k] == arenaChunk {
		if a.used == len(a.buf)/arenaChunk {
			if len(a.buf) >= a.limit {
				return false
			}
			b := make([]uint64, min(2*len(a.buf), a.limit))
			copy(b, a.buf)
			a.buf = b
		}
		a.chunks[k] = append(a.chunks[k], int32(a.used))
		a.used++
		a.last[k] = 0
	}
	cs := a.chunks[k]
	a.buf[int(cs[len(cs)-1])*arenaChunk+int(a.last[k])] = p
	a.last[k]++
	a.n++
	return true
}

// each calls f with the patterns of key k, chunk by chunk.
func (a *arena) each(k uint32, f func([]uint64)) {
	cs := a.chunks[k]
	for i, c := range cs {
		end := arenaChunk
		if i == len(cs)-1 {
			end = int(a.last[k])
		}
		if end > 0 {
			o := int(c) * arenaChunk
			f(a.buf[o : o+end])
		}
	}
}

// bytes is the memory a holds.
func (a *arena) bytes() uint64 {
	return 8*uint64(cap(a.buf)) + 28*uint64(cap(a.chunks))
}
