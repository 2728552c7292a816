package cli

import "fmt"

// Rate formats a per-second figure with an SI prefix, as the commands and
// the benchmarks print rates: "1.23 G", "45.6 M", "7.8 k", "950".
func Rate(v float64) string {
	switch {
	case v >= 1e9:
		return fmt.Sprintf("%.2f G", v/1e9)
	case v >= 1e6:
		return fmt.Sprintf("%.1f M", v/1e6)
	case v >= 1e3:
		return fmt.Sprintf("%.1f k", v/1e3)
	}
	return fmt.Sprintf("%.0f", v)
}
