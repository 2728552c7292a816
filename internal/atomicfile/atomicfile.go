// Package atomicfile writes a file so that a crash never leaves it half
// written: the data goes to a temporary file in the same folder, which is
// synced and then renamed over the target, and the folder is synced so the
// rename itself survives a power cut. Journals and shard result files use
// it.
//
// Only regular files are ever replaced. A target that is a FIFO, a device,
// a socket or a directory is refused with an error wrapping ErrNotRegular
// (renaming over /dev/null, as root, would replace the machine's
// /dev/null). A symbolic link to a regular file is written through: the
// file it points to is replaced and the link stays, since a link made by
// hand is most likely meant to send the output elsewhere. A dangling link
// is refused rather than followed into a file nobody named.
//
// New files get mode 0666 less the umask, like any file a shell redirection
// creates (a merge on a shared file system may run as another user); a
// replaced file keeps its permission bits.
package atomicfile

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// ErrNotRegular is wrapped by the errors for targets that are neither
// absent nor regular files (nor links to one).
var ErrNotRegular = errors.New("not a regular file")

// NotRegular returns the error for a target path whose mode is not that of
// a regular file; the message names what it is.
func NotRegular(path string, mode fs.FileMode) error {
	return fmt.Errorf("%s is %s, %w: refusing to write to it (give the name of a regular file)", path, Kind(mode), ErrNotRegular)
}

// Kind names the type of file a mode describes, with its article: "a
// directory", "a FIFO (named pipe)", "a regular file".
func Kind(mode fs.FileMode) string {
	switch t := mode.Type(); {
	case t == 0:
		return "a regular file"
	case t&fs.ModeDir != 0:
		return "a directory"
	case t&fs.ModeSymlink != 0:
		return "a symbolic link"
	case t&fs.ModeNamedPipe != 0:
		return "a FIFO (named pipe)"
	case t&fs.ModeSocket != 0:
		return "a socket"
	case t&fs.ModeCharDevice != 0:
		return "a character device"
	case t&fs.ModeDevice != 0:
		return "a block device"
	}
	return "not a regular file"
}

// Target returns the file that WriteFile(path) would replace or create:
// path itself, or the regular file a symbolic link at path points to. It
// fails, wrapping ErrNotRegular, when that is anything but a regular file,
// and when path is a dangling link. exists reports whether the file is
// there already.
func Target(path string) (target string, exists bool, err error) {
	fi, err := os.Lstat(path)
	if errors.Is(err, fs.ErrNotExist) {
		return path, false, nil
	}
	if err != nil {
		return "", false, err
	}
	if fi.Mode()&fs.ModeSymlink != 0 {
		real, err := filepath.EvalSymlinks(path)
		if errors.Is(err, fs.ErrNotExist) {
			return "", false, fmt.Errorf("%s is a symbolic link to a missing file, %w: refusing to follow it (remove the link or create its target)", path, ErrNotRegular)
		}
		if err != nil {
			return "", false, err
		}
		if fi, err = os.Stat(real); err != nil {
			return "", false, err
		}
		if !fi.Mode().IsRegular() {
			return "", false, fmt.Errorf("%s links to %s, which is %s, %w: refusing to write to it", path, real, Kind(fi.Mode()), ErrNotRegular)
		}
		return real, true, nil
	}
	if !fi.Mode().IsRegular() {
		return "", false, NotRegular(path, fi.Mode())
	}
	return path, true, nil
}

// Check reports, before any work is done, whether WriteFile(path) can
// succeed: the target is absent or a regular file (see Target) and its
// folder accepts new files, which it tests by creating and removing a
// temporary file there.
func Check(path string) error {
	target, _, err := Target(path)
	if err != nil {
		return err
	}
	f, err := createTemp(target, 0o666)
	if err != nil {
		return err
	}
	name := f.Name()
	f.Close()
	return os.Remove(name)
}

// WriteFile replaces path with data atomically (see the package comment for
// links and special files). On error the target is unchanged and no
// temporary file is left.
func WriteFile(path string, data []byte) error {
	return WriteFileIf(path, data, nil)
}

// WriteFileIf writes data to path atomically, as WriteFile does, but never
// replaces a file that may not be replaced, even when another process
// writes the same path at the same moment. A new file is created without
// replacing (link(2) of the temporary file to path, which fails if path
// appeared meanwhile; the temporary file is then unlinked). A file already
// there is locked (flock(2), where there is one), checked with may, which
// is given the file path resolves to and refuses by returning an error, and
// only then replaced, under the lock: a second writer waiting on the lock
// finds path holding a new file and checks that one. may nil allows any
// regular file. On error the target is unchanged and no temporary file is
// left.
func WriteFileIf(path string, data []byte, may func(target string) error) error {
	target, exists, err := Target(path)
	if err != nil {
		return err
	}
	perm := fs.FileMode(0o666)
	if exists {
		if fi, err := os.Stat(target); err == nil {
			perm = fi.Mode().Perm()
		}
	}
	tmp, err := createTemp(target, perm)
	if err != nil {
		return err
	}
	if exists {
		// O_CREATE applied the umask; a replaced file keeps its own bits.
		err = tmp.Chmod(perm)
	}
	if err == nil {
		_, err = tmp.Write(data)
	}
	if err == nil {
		err = tmp.Sync()
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		target, err = place(tmp.Name(), path, may)
	}
	// After a link the temporary name is a second name of the new file;
	// after a rename it is gone. Either way it is removed.
	os.Remove(tmp.Name())
	if err != nil {
		return err
	}
	if d, err := os.Open(filepath.Dir(target)); err == nil {
		d.Sync()
		d.Close()
	}
	return nil
}

// place puts the written temporary file tmp at path: linked to a new name,
// or renamed over an existing file that may allows, under that file's lock.
// It returns the file it wrote.
func place(tmp, path string, may func(string) error) (string, error) {
	for try := 0; ; try++ {
		target, exists, err := Target(path)
		if err != nil {
			return "", err
		}
		if !exists {
			if may != nil {
				if err := may(target); err != nil {
					return "", err
				}
			}
			err := createNew(tmp, target)
			if errors.Is(err, fs.ErrExist) && try < 100 {
				continue // written by another process since Target: check it
			}
			return target, err
		}
		done, err := replaceLocked(tmp, target, may)
		if err != nil || done {
			return target, err
		}
		if try >= 100 {
			return "", fmt.Errorf("cannot write %s: it keeps being replaced by another process", path)
		}
	}
}

// replaceLocked renames tmp over target if may allows what target holds,
// holding target's lock so that no other writer checks and replaces it
// meanwhile. It reports done false when target was replaced or removed
// before the lock was had (the caller looks again).
func replaceLocked(tmp, target string, may func(string) error) (done bool, err error) {
	// Opened for writing where allowed: NFS's emulation of flock(2)
	// locks only such files exclusively.
	f, err := os.OpenFile(target, os.O_RDWR|openFlags, 0)
	if errors.Is(err, fs.ErrPermission) {
		f, err = os.OpenFile(target, os.O_RDONLY|openFlags, 0)
	}
	if errors.Is(err, fs.ErrNotExist) {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("cannot write %s: %w", target, err)
	}
	defer f.Close()
	if err := lock(f); err != nil {
		return false, fmt.Errorf("cannot write %s: cannot lock it: %w", target, err)
	}
	locked, err := f.Stat()
	if err != nil {
		return false, err
	}
	if now, err := os.Stat(target); err != nil || !os.SameFile(locked, now) {
		return false, nil
	}
	if !locked.Mode().IsRegular() {
		return false, NotRegular(target, locked.Mode())
	}
	if may != nil {
		if err := may(target); err != nil {
			return false, err
		}
	}
	return true, os.Rename(tmp, target)
}

// createNew gives the file tmp the new name target, failing with an error
// wrapping fs.ErrExist if target exists: link(2), or where the file system
// has no hard links, a rename that does not replace (renameNoReplace).
// Where it has neither (some FUSE and SMB mounts), the file is renamed
// into place if nothing is there a moment before, as it was before this
// was atomic: a narrow window, rather than no file at all.
func createNew(tmp, target string) error {
	err := os.Link(tmp, target)
	if err == nil || errors.Is(err, fs.ErrExist) {
		return err
	}
	if rerr := renameNoReplace(tmp, target); rerr != errNoRenameNoReplace {
		return rerr
	}
	if _, serr := os.Lstat(target); serr == nil {
		return &os.LinkError{Op: "rename", Old: tmp, New: target, Err: fs.ErrExist}
	}
	return os.Rename(tmp, target)
}

// createTemp creates a new file beside target, named after it, with mode
// perm less the umask (os.CreateTemp would give 0600 whatever the umask).
func createTemp(target string, perm fs.FileMode) (*os.File, error) {
	dir, base := filepath.Dir(target), filepath.Base(target)
	var b [6]byte
	for try := 0; ; try++ {
		rand.Read(b[:])
		name := filepath.Join(dir, "."+base+".tmp"+hex.EncodeToString(b[:]))
		f, err := os.OpenFile(name, os.O_RDWR|os.O_CREATE|os.O_EXCL, perm)
		if errors.Is(err, fs.ErrExist) && try < 100 {
			continue
		}
		if err != nil {
			var pe *fs.PathError
			if errors.As(err, &pe) {
				err = pe.Err
			}
			return nil, fmt.Errorf("cannot write %s: cannot create a file in %s: %w", target, dir, err)
		}
		return f, nil
	}
}

// errNoRenameNoReplace is renameNoReplace's answer where it is not
// supported.
var errNoRenameNoReplace = errors.New("rename without replacing is not supported")
