// Package atomicfile writes a file so that a crash never leaves it half
// written: the data goes to a temporary file in the same folder, which is
// synced and then renamed over the target, and the folder is synced so the
// rename itself survives a power cut. Journals and shard result files use
// it.
package atomicfile

import (
	"os"
	"path/filepath"
)

// WriteFile replaces path with data atomically. On error the target is
// unchanged and no temporary file is left.
func WriteFile(path string, data []byte) error {
	dir := filepath.Dir(path)
	tmp, err := os.CreateTemp(dir, "."+filepath.Base(path)+".tmp*")
	if err != nil {
		return err
	}
	_, err = tmp.Write(data)
	if err == nil {
		err = tmp.Sync()
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp.Name(), path)
	}
	if err != nil {
		os.Remove(tmp.Name())
		return err
	}
	if d, err := os.Open(dir); err == nil {
		d.Sync()
		d.Close()
	}
	return nil
}
