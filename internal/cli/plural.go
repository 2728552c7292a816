package cli

type integer interface {
	~int | ~int8 | ~int16 | ~int32 | ~int64 | ~uint | ~uint8 | ~uint16 | ~uint32 | ~uint64 | ~uintptr
}

// Plural returns one when n is 1 and many otherwise, for messages such as
// "1 worker", "2 workers": fmt.Sprintf("%d %s", n, Plural(n, "worker", "workers")).
func Plural[T integer](n T, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// MaxWorkers is the largest --workers the commands accept: far more
// goroutines than any machine has cores, few enough that the per-worker
// buffers of every command stay small (a typo such as --workers 10000000
// is refused instead of exhausting memory).
const MaxWorkers = 1024
