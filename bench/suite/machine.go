package suite

import (
	"fmt"
	"runtime"
	"strings"

	"github.com/klauspost/cpuid/v2"

	"github.com/nqcount/nqcount/bench/internal/meter"
)

// Machine describes the computer a suite ran on.
type Machine struct {
	CPU        string `json:"cpu"`
	OS         string `json:"os"`
	Arch       string `json:"arch"`
	GoVersion  string `json:"go_version"`
	NumCPU     int    `json:"num_cpu"` // logical CPUs this process may use
	GOMAXPROCS int    `json:"gomaxprocs"`
	// The topology as the CPUID instruction reports it (package
	// github.com/klauspost/cpuid/v2), for one processor package: in a
	// virtual machine it is what the hypervisor says, which may differ
	// from NumCPU.
	CPUIDLogicalCores   int `json:"cpuid_logical_cores"`    // 0: unknown
	CPUIDPhysicalCores  int `json:"cpuid_physical_cores"`   // 0: unknown
	CPUIDThreadsPerCore int `json:"cpuid_threads_per_core"` // 1 also when unknown
	// SMT is "yes" when cpuid reports more than one thread per core, "no"
	// when it reports one thread per core on a CPU whose physical cores it
	// can count, and "unknown" when it cannot count them (then one thread
	// per core is only cpuid's default).
	SMT string `json:"smt"`
	// Cores is the number of physical cores the P workers run on: the
	// logical CPUs they use (P, or NumCPU when P is larger) divided by the
	// threads per core when SMT is "yes", those CPUs themselves when it is
	// "no", 0 when unknown. With SMT the sweep adds a run on this many
	// workers; the operating system's scheduler spreads that many busy
	// threads over distinct cores first, so it measures one worker per
	// core without pinning threads.
	Cores int `json:"cores"`
	// Note says in words what was derived and what was assumed.
	Note string `json:"note"`
	// LoadAverage is the 1, 5 and 15 minute load average before the
	// suite, where the system has one ("" elsewhere).
	LoadAverage string `json:"load_average,omitempty"`
}

// Busy reports whether the 1-minute load average before the suite
// exceeded half the logical CPUs: other processes then competed for the
// cores, and the times, speed-ups and score are pessimistic.
func (m Machine) Busy() bool { return meter.Busy(m.LoadAverage, m.NumCPU) }

// Describe returns the machine this process runs on, for a suite on p
// workers.
func Describe(p int) Machine {
	c := cpuid.CPU
	m := Machine{
		CPU: strings.TrimSpace(c.BrandName), OS: runtime.GOOS, Arch: runtime.GOARCH, GoVersion: runtime.Version(),
		NumCPU: runtime.NumCPU(), GOMAXPROCS: runtime.GOMAXPROCS(0),
		CPUIDLogicalCores: c.LogicalCores, CPUIDPhysicalCores: c.PhysicalCores, CPUIDThreadsPerCore: c.ThreadsPerCore,
	}
	if m.CPU == "" || m.CPU == "unknown" {
		m.CPU = "unknown CPU"
	}
	m.LoadAverage = meter.LoadAverage()
	m.SMT, m.Cores, m.Note = topology(p, m.NumCPU, c.PhysicalCores, c.ThreadsPerCore)
	return m
}

// topology derives the SMT state and the physical cores of p workers from
// cpuid's physical cores and threads per core and the logical CPUs the
// operating system gives the process.
func topology(p, numCPU, physical, threads int) (smt string, cores int, note string) {
	switch {
	case physical <= 0:
		return "unknown", 0, "cpuid cannot count this CPU's physical cores, so it cannot tell them from SMT siblings: no physical-core run, and nodes/s per core counts each worker as a core"
	}
	used := min(p, numCPU)
	over := ""
	if p > numCPU {
		over = fmt.Sprintf("; the %d workers share %d logical CPUs", p, numCPU)
	}
	if threads <= 1 {
		return "no", used, "cpuid reports one thread per core: each worker up to the logical CPUs has a core of its own (in a virtual machine, as far as the hypervisor tells)" + over
	}
	cores = max(1, used/threads)
	note = fmt.Sprintf("cpuid reports %d threads per core: %d logical CPUs are %d cores, and the run on %d workers gives each worker a core of its own", threads, used, cores, cores)
	if used < numCPU {
		note += fmt.Sprintf(" (assuming the %d logical CPUs used are whole cores, both siblings)", used)
	}
	return "yes", cores, note + over
}

// coresFor is the number of cores w busy workers run on: one each up to
// the cores, then all of them (SMT siblings share one, extra workers share
// the CPUs). Without a known topology every worker counts as a core.
func (m Machine) coresFor(w int) int {
	if m.Cores > 0 {
		return max(1, min(w, m.Cores))
	}
	return max(1, w)
}

// smtCores is the physical-core point of the sweep: the cores of the P
// workers when they have SMT siblings, else 0.
func (m Machine) smtCores() int {
	if m.SMT == "yes" {
		return m.Cores
	}
	return 0
}
