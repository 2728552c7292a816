package logic

func seUniqueLoops(e *seEngine, b *board) (seHint, bool) { return seHint{}, false }
func seBUG(e *seEngine, b *board) (seHint, bool)         { return seHint{}, false }
func seALSWing(n int) func(e *seEngine, b *board) (seHint, bool) {
	return func(e *seEngine, b *board) (seHint, bool) { return seHint{}, false }
}
func seAlignedExclusion(n int) func(e *seEngine, b *board) (seHint, bool) {
	return func(e *seEngine, b *board) (seHint, bool) { return seHint{}, false }
}
