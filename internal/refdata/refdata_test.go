package refdata

import (
	"bytes"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

func TestDirFound(t *testing.T) {
	dir := t.TempDir()
	if err := os.Mkdir(filepath.Join(dir, "oeis"), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("NQCOUNT_SHARED", dir)
	if got := Dir(t, "oeis"); got != filepath.Join(dir, "oeis") {
		t.Errorf("Dir = %q", got)
	}
}

// An absent folder skips the check and says so once, visibly.
func TestAbsentSkipsWithOneNotice(t *testing.T) {
	t.Setenv("NQCOUNT_SHARED", filepath.Join(t.TempDir(), "nowhere"))
	t.Setenv("NQCOUNT_REQUIRE_SHARED", "")
	var buf bytes.Buffer
	noticeOnce, noticeTo = sync.Once{}, func() (io.Writer, func()) { return &buf, func() {} }
	defer func() { noticeOnce, noticeTo = sync.Once{}, terminal }()
	for range 2 {
		ran := false
		t.Run("needs data", func(t *testing.T) {
			Dir(t, "oeis")
			ran = true
		})
		if ran {
			t.Fatal("Dir returned for an absent folder")
		}
	}
	if got := buf.String(); strings.Count(got, "\n") != 1 || !strings.Contains(got, "reference checks SKIPPED") {
		t.Errorf("notice %q: want one line", got)
	}
}

// TestRequireHelper is run by TestRequireFails in a process of its own.
func TestRequireHelper(t *testing.T) {
	if os.Getenv("REFDATA_HELPER") != "1" {
		t.Skip("run by TestRequireFails")
	}
	Dir(t, "oeis")
}

// Under NQCOUNT_REQUIRE_SHARED=1 (CI) an absent folder is a failure.
func TestRequireFails(t *testing.T) {
	cmd := exec.Command(os.Args[0], "-test.run=^TestRequireHelper$")
	cmd.Env = append(os.Environ(), "REFDATA_HELPER=1", "NQCOUNT_REQUIRE_SHARED=1", "NQCOUNT_SHARED="+filepath.Join(t.TempDir(), "nowhere"))
	out, err := cmd.CombinedOutput()
	if err == nil || !strings.Contains(string(out), "NQCOUNT_REQUIRE_SHARED=1 forbids skipping") {
		t.Errorf("err %v, output:\n%s", err, out)
	}
}
