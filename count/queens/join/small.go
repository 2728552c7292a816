package join

import (
	"math"
	"time"
)

// A join of a short side against a long one (under the diagonal
// symmetry, a row set's class of column sets equal to its own key against
// the classes above it) on the bounded path, where the long side does not
// fit in the budget: the passes would sort the long side, made again, for
// a handful of pairs each. joinSmall holds the short side's half boards
// whole and runs the long side's through them unsorted, a piece at a
// time, with no index bits, as the list join does for such lists
// (keylessCheaper): one orientation or the other, whichever costs less
// at modelPrices.

// smallPiece is how many of the long side's half boards joinSmall holds
// at once.
const smallPiece = 1 << 15

// smallPlan says whether the join of sides east and west is a small
// join, from their candidate pairs (about three for each half board),
// and whether the short side's half boards make the blocks.
func (f *frame) smallPlan(east, west *side, ls *scratch) (small, shortBlocks bool) {
	short, long := float64(min(east.bound, west.bound))/3, float64(max(east.bound, west.bound))/3
	if short == 0 || 3*short > smallPiece {
		return false, false
	}
	sorting := time.Duration(modelPrices.Sorted * (short + long))
	asBlocks, asItems := ls.unkeyedCost(short, long, f.m), ls.unkeyedCost(long, short, f.m)
	return min(asBlocks, asItems) < sorting, asBlocks <= asItems
}

// joinSmall counts the completions of the row set whose sides are east
// and west, one of them short (smallPlan), and adds its nodes, as the
// table path's, to s.halves.
func (f *frame) joinSmall(east, west *side, shortBlocks bool, s *bscratch) (uint64, error) {
	ls := s.listScratch()
	defer s.listsDone()
	short, long := east, west
	if west.bound < east.bound {
		short, long = west, east
	}
	ls.e, _ = f.makeList(short, ls.e[:0], math.MaxInt, s)
	nShort := uint64(len(ls.e))
	if nShort == 0 {
		if short == east {
			return 0, nil // no east half board: no nodes
		}
		n, err := f.streamCount(east, s) // the east side's nodes, pairing with nothing
		s.halves += n
		return 0, err
	}
	if need := smallPiece + vecPad; cap(ls.w) < need {
		ls.w = make([]uint64, 0, need)
	}
	var total, nLong uint64
	var pos genPos
	ce := []int32{0, int32(nShort)}
	for done := false; !done; {
		ls.w = ls.w[:0]
		var err error
		done, err = f.genFrom(long, &pos, s, func(pats []uint64) bool {
			ls.w = append(ls.w, pats...)
			return len(ls.w) < smallPiece-candFlush
		})
		if err != nil {
			return 0, err
		}
		if len(ls.w) == 0 {
			continue
		}
		nLong += uint64(len(ls.w))
		t0 := s.joinStart()
		cw := []int32{0, int32(len(ls.w))}
		var n uint64
		if shortBlocks {
			n, err = ls.joinBuckets(ls.e, ce, ls.w, cw, 0, f.m)
		} else {
			n, err = ls.joinBuckets(ls.w, cw, ls.e, ce, 0, f.m)
		}
		s.joinEnd(t0)
		if err != nil {
			return 0, err
		}
		total += n
	}
	if short == east || nLong > 0 {
		s.halves += nShort + nLong
	}
	return total, nil
}
