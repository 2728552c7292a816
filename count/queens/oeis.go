package queens

// Known values from the OEIS, built in so that every count can be checked
// without network or data files. The tests compare these tables with the
// copies in ../shared/oeis/ when that folder is present.

// knownTotal[n] is A000170(n), the number of solutions on an n×n board.
var knownTotal = [...]uint64{
	0,                  // n = 0 is not a board this package counts
	1,                  // n = 1
	0,                  // n = 2
	0,                  // n = 3
	2,                  // n = 4
	10,                 // n = 5
	4,                  // n = 6
	40,                 // n = 7
	92,                 // n = 8
	352,                // n = 9
	724,                // n = 10
	2680,               // n = 11
	14200,              // n = 12
	73712,              // n = 13
	365596,             // n = 14
	2279184,            // n = 15
	14772512,           // n = 16
	95815104,           // n = 17
	666090624,          // n = 18
	4968057848,         // n = 19
	39029188884,        // n = 20
	314666222712,       // n = 21
	2691008701644,      // n = 22
	24233937684440,     // n = 23
	227514171973736,    // n = 24
	2207893435808352,   // n = 25
	22317699616364044,  // n = 26
	234907967154122528, // n = 27
}

// knownUnique[n] is A002562(n), the number of solutions up to the 8
// symmetries of the square.
var knownUnique = [...]uint64{
	0,
	1,                 // n = 1
	0,                 // n = 2
	0,                 // n = 3
	1,                 // n = 4
	2,                 // n = 5
	1,                 // n = 6
	6,                 // n = 7
	12,                // n = 8
	46,                // n = 9
	92,                // n = 10
	341,               // n = 11
	1787,              // n = 12
	9233,              // n = 13
	45752,             // n = 14
	285053,            // n = 15
	1846955,           // n = 16
	11977939,          // n = 17
	83263591,          // n = 18
	621012754,         // n = 19
	4878666808,        // n = 20
	39333324973,       // n = 21
	336376244042,      // n = 22
	3029242658210,     // n = 23
	28439272956934,    // n = 24
	275986683743434,   // n = 25
	2789712466510289,  // n = 26
	29363495934315694, // n = 27
}

// Known returns A000170(n) and true, or 0 and false when no value is known
// (n < 1 or n > 27: Q(28) has never been computed).
func Known(n int) (uint64, bool) {
	if n < 1 || n >= len(knownTotal) {
		return 0, false
	}
	return knownTotal[n], true
}

// KnownUnique returns A002562(n) and true, or 0 and false when no value is
// known.
func KnownUnique(n int) (uint64, bool) {
	if n < 1 || n >= len(knownUnique) {
		return 0, false
	}
	return knownUnique[n], true
}

// MaxKnown is the largest n with a known count.
const MaxKnown = len(knownTotal) - 1
