package sysmem

import (
	"testing"
	"testing/fstest"
)

func TestCgroupLimits(t *testing.T) {
	file := func(s string) *fstest.MapFile { return &fstest.MapFile{Data: []byte(s)} }
	for _, c := range []struct {
		name  string
		files fstest.MapFS
		want  []Limit
	}{
		{"v2 container", fstest.MapFS{
			"proc/self/cgroup":                 file("0::/\n"),
			"sys/fs/cgroup/cgroup.controllers": file("memory cpu\n"),
			"sys/fs/cgroup/memory.max":         file("536870912\n"),
		}, []Limit{{"cgroup v2 /sys/fs/cgroup/memory.max", 512 << 20}}},
		{"v2 nested, the parent's lower", fstest.MapFS{
			"proc/self/cgroup":                  file("0::/job/step\n"),
			"sys/fs/cgroup/cgroup.controllers":  file("memory\n"),
			"sys/fs/cgroup/job/memory.max":      file("1073741824\n"),
			"sys/fs/cgroup/job/step/memory.max": file("max\n"),
			"sys/fs/cgroup/memory.max":          file("max\n"),
		}, []Limit{{"cgroup v2 /sys/fs/cgroup/job/memory.max", 1 << 30}}},
		{"v2 unlimited", fstest.MapFS{
			"proc/self/cgroup":                 file("0::/a\n"),
			"sys/fs/cgroup/cgroup.controllers": file("memory\n"),
			"sys/fs/cgroup/a/memory.max":       file("max\n"),
		}, nil},
		{"v1 with the host's path absent (a container)", fstest.MapFS{
			"proc/self/cgroup":                           file("9:name=systemd:/\n4:memory:/docker/abc\n3:cpu:/\n0::/\n"),
			"sys/fs/cgroup/memory/memory.limit_in_bytes": file("2147483648\n"),
		}, []Limit{{"cgroup v1 /sys/fs/cgroup/memory/memory.limit_in_bytes", 2 << 30}}},
		{"v1 unlimited (2^63 less a page)", fstest.MapFS{
			"proc/self/cgroup": file("4:memory:/x\n"),
			"sys/fs/cgroup/memory/x/memory.limit_in_bytes": file("9223372036854771712\n"),
			"sys/fs/cgroup/memory/memory.limit_in_bytes":   file("9223372036854771712\n"),
		}, nil},
		{"v1 combined controllers, nested", fstest.MapFS{
			"proc/self/cgroup": file("4:cpu,memory:/slurm/uid_1/job_7\n"),
			"sys/fs/cgroup/memory/slurm/uid_1/job_7/memory.limit_in_bytes": file("4294967296\n"),
			"sys/fs/cgroup/memory/slurm/memory.limit_in_bytes":             file("8589934592\n"),
		}, []Limit{{"cgroup v1 /sys/fs/cgroup/memory/slurm/uid_1/job_7/memory.limit_in_bytes", 4 << 30}}},
		{"junk", fstest.MapFS{
			"proc/self/cgroup":         file("garbage\n0::/\n"),
			"sys/fs/cgroup/memory.max": file("lots\n"),
		}, nil},
		{"no proc", fstest.MapFS{}, nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			got := cgroupLimits(c.files)
			if len(got) != len(c.want) {
				t.Fatalf("got %+v, want %+v", got, c.want)
			}
			for i := range got {
				if got[i] != c.want[i] {
					t.Errorf("got %+v, want %+v", got[i], c.want[i])
				}
			}
		})
	}
}

func TestSlurmLimit(t *testing.T) {
	for _, c := range []struct {
		env  map[string]string
		want uint64
		ok   bool
	}{
		{map[string]string{"SLURM_MEM_PER_NODE": "4096"}, 4 << 30, true},
		{map[string]string{"SLURM_MEM_PER_CPU": "1000", "SLURM_CPUS_ON_NODE": "4"}, 4000 << 20, true},
		{map[string]string{"SLURM_MEM_PER_CPU": "2048", "SLURM_JOB_CPUS_PER_NODE": "8(x2),4"}, 16 << 30, true},
		{map[string]string{"SLURM_MEM_PER_CPU": "2048"}, 0, false},
		{map[string]string{"SLURM_MEM_PER_NODE": "0"}, 0, false},
		{map[string]string{"SLURM_MEM_PER_NODE": "-5"}, 0, false},
		{map[string]string{"SLURM_MEM_PER_NODE": "99999999999999999999"}, 0, false},
		{map[string]string{}, 0, false},
	} {
		l, ok := slurmLimit(func(k string) string { return c.env[k] })
		if ok != c.ok || l.Bytes != c.want {
			t.Errorf("%v: got %+v %v, want %d %v", c.env, l, ok, c.want, c.ok)
		}
	}
}

func TestSmallest(t *testing.T) {
	if _, ok := smallest(nil); ok {
		t.Fatal("smallest of none")
	}
	l, _ := smallest([]Limit{{"a", 10}, {"b", 3}, {"c", 7}})
	if l.Source != "b" {
		t.Fatalf("got %+v", l)
	}
}
