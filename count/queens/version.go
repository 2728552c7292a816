package queens

// AlgorithmVersion numbers the meaning of a task's count: the solutions
// that a task of a plan (identified by Plan.Hash) counts, with its weight.
// Bump it with any change that could make a task of any plan count
// differently (a kernel fix, a change of weights or of what a count
// includes), so that checkpoint journals, shard files and queued results
// from before are refused rather than mixed with new ones. Task lists are
// covered by the plan hash already, and a program version is not pinned:
// two builds of the same algorithm count the same.
const AlgorithmVersion = 1
