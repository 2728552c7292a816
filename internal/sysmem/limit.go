package sysmem

import (
	"bufio"
	"bytes"
	"io/fs"
	"os"
	"path"
	"strconv"
	"strings"
)

// A Limit is a bound on the memory this process may use, and where it was
// read.
type Limit struct {
	// Source names where the bound comes from: "physical memory", "cgroup
	// v2 /sys/fs/cgroup/…/memory.max", "cgroup v1 …", "Slurm
	// SLURM_MEM_PER_NODE".
	Source string
	Bytes  uint64
}

// Limits returns every bound on this process's memory that the system
// states: the physical memory, the memory limit of its cgroup (v1 or v2,
// the least along the cgroup's path, as the kernel applies it) and the
// memory Slurm allocated to the job (SLURM_MEM_PER_NODE, or
// SLURM_MEM_PER_CPU times the job's CPUs on this node). Bounds that say
// "no limit" are left out.
func Limits() []Limit {
	var out []Limit
	if t, ok := Total(); ok && t > 0 {
		out = append(out, Limit{"physical memory", t})
	}
	out = append(out, cgroupLimits(os.DirFS("/"))...)
	if l, ok := slurmLimit(os.Getenv); ok {
		out = append(out, l)
	}
	return out
}

// Smallest returns the least of Limits, and false when the system states
// none.
func Smallest() (Limit, bool) { return smallest(Limits()) }

func smallest(ls []Limit) (Limit, bool) {
	if len(ls) == 0 {
		return Limit{}, false
	}
	m := ls[0]
	for _, l := range ls[1:] {
		if l.Bytes < m.Bytes {
			m = l
		}
	}
	return m, true
}

// DefaultLimit is the memory a count may plan for when no limit is
// given: half the smallest of Limits (the physical memory, the cgroup's
// limit, Slurm's allocation), leaving the rest to the system and to
// whatever else the machine or the container runs; 4 GiB when the system
// states none.
func DefaultLimit() uint64 {
	if l, ok := Smallest(); ok {
		return l.Bytes / 2
	}
	return 4 << 30
}

// noLimit is the least value a cgroup v1 file holds for "no limit" (the
// kernel writes the largest multiple of the page size below 2^63).
const noLimit = 1 << 62

// cgroupLimits reads the memory limits of this process's cgroups under
// root (the file system's root): /proc/self/cgroup names the cgroup of
// each hierarchy; the v2 limit is memory.max, the v1 one
// memory.limit_in_bytes, each the least along the path from the cgroup
// to the mount's root. In a container the mount often holds only the
// container's own cgroup, whose path /proc/self/cgroup gives from the
// host's root: then the path is not found and the mount's root is read.
func cgroupLimits(root fs.FS) []Limit {
	b, err := fs.ReadFile(root, "proc/self/cgroup")
	if err != nil {
		return nil
	}
	var out []Limit
	seen := map[string]bool{}
	sc := bufio.NewScanner(bytes.NewReader(b))
	for sc.Scan() {
		// hierarchy-ID:controller-list:cgroup-path
		f := strings.SplitN(sc.Text(), ":", 3)
		if len(f) != 3 {
			continue
		}
		var dir, file, kind string
		switch {
		case f[0] == "0" && f[1] == "":
			kind, file = "cgroup v2", "memory.max"
			dir = "sys/fs/cgroup"
			if _, err := fs.Stat(root, "sys/fs/cgroup/cgroup.controllers"); err != nil {
				dir = "sys/fs/cgroup/unified" // the hybrid layout
			}
		case hasController(f[1], "memory"):
			kind, file = "cgroup v1", "memory.limit_in_bytes"
			dir = "sys/fs/cgroup/memory"
		default:
			continue
		}
		if seen[dir] {
			continue
		}
		seen[dir] = true
		if l, ok := leastOnPath(root, dir, f[2], file); ok {
			l.Source = kind + " /" + l.Source
			out = append(out, l)
		}
	}
	return out
}

func hasController(list, c string) bool {
	for _, x := range strings.Split(list, ",") {
		if x == c {
			return true
		}
	}
	return false
}

// leastOnPath returns the least limit in file along the cgroup path p
// under mount dir, from p up to the mount's root; where p is not under
// the mount, the mount's root alone. Its Source is the file that set it.
func leastOnPath(root fs.FS, dir, p, file string) (Limit, bool) {
	p = path.Clean("/" + p)
	if _, err := fs.Stat(root, path.Join(dir, p)); err != nil {
		p = "/"
	}
	var best Limit
	found := false
	for {
		name := path.Join(dir, p, file)
		if v, ok := readLimit(root, name); ok && (!found || v < best.Bytes) {
			best, found = Limit{Source: name, Bytes: v}, true
		}
		if p == "/" {
			return best, found
		}
		p = path.Dir(p)
	}
}

// readLimit reads a limit file: a number of bytes, or "max" (v2) or a
// value of 2^62 and more (v1) for none.
func readLimit(root fs.FS, name string) (uint64, bool) {
	b, err := fs.ReadFile(root, name)
	if err != nil || len(b) > 64 {
		return 0, false
	}
	s := strings.TrimSpace(string(b))
	v, err := strconv.ParseUint(s, 10, 64)
	if err != nil || v == 0 || v >= noLimit {
		return 0, false
	}
	return v, true
}

// slurmLimit reads the memory Slurm allocated to the job on this node:
// SLURM_MEM_PER_NODE (MiB), else SLURM_MEM_PER_CPU (MiB) times the CPUs
// (SLURM_CPUS_ON_NODE, else the first count of SLURM_JOB_CPUS_PER_NODE,
// "4(x2),2" giving 4).
func slurmLimit(env func(string) string) (Limit, bool) {
	mib := func(name string) (uint64, bool) {
		v, err := strconv.ParseUint(strings.TrimSpace(env(name)), 10, 64)
		if err != nil || v == 0 || v > 1<<40 {
			return 0, false
		}
		return v, true
	}
	if v, ok := mib("SLURM_MEM_PER_NODE"); ok {
		return Limit{"Slurm SLURM_MEM_PER_NODE", v << 20}, true
	}
	per, ok := mib("SLURM_MEM_PER_CPU")
	if !ok {
		return Limit{}, false
	}
	cpus, ok := mib("SLURM_CPUS_ON_NODE")
	src := "Slurm SLURM_MEM_PER_CPU × SLURM_CPUS_ON_NODE"
	if !ok {
		s := env("SLURM_JOB_CPUS_PER_NODE")
		if i := strings.IndexAny(s, "(,"); i >= 0 {
			s = s[:i]
		}
		n, err := strconv.ParseUint(s, 10, 64)
		if err != nil || n == 0 || n > 1<<20 {
			return Limit{}, false
		}
		cpus, src = n, "Slurm SLURM_MEM_PER_CPU × SLURM_JOB_CPUS_PER_NODE"
	}
	return Limit{src, per * cpus << 20}, true
}
