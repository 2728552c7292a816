package server

import "github.com/nqcount/nqcount/internal/sysmem"

// jetStreamMemory is the most JetStream may hold in memory (the
// memory-stored bucket of the workers' reports): a quarter of the least of
// the physical memory, the cgroup's limit and Slurm's allocation
// (sysmem.Smallest). NATS's own default, three quarters of the physical
// memory, ignores a container's limit: 17.7 GiB inside a 256 MiB cgroup.
// 0, NATS's default, when the system states no limit.
func jetStreamMemory() int64 {
	if l, ok := sysmem.Smallest(); ok {
		return int64(l.Bytes / 4)
	}
	return 0
}
