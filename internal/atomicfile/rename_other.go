//go:build !linux

package atomicfile

// renameNoReplace is not available here: a file system without hard links
// cannot be written without the risk of replacing a file.
func renameNoReplace(tmp, target string) error { return errNoRenameNoReplace }
