package queue

import (
	"fmt"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Every field a worker wrote (a record, a failure, a report) is checked
// when it is read, and text from one is escaped before it reaches a
// terminal (Printable): a worker is not trusted to name itself politely.

// maxWorkerID bounds a worker's id, and maxText any other text a worker
// writes (a program version, an error).
const (
	maxWorkerID = 128
	maxText     = 1000
)

// CheckWorkerID reports why id cannot name a worker, or nil: 1 to
// maxWorkerID letters, digits and - _ = . / (worker.Config.ID's rule).
func CheckWorkerID(id string) error {
	if id == "" || len(id) > maxWorkerID || strings.ContainsFunc(id, func(r rune) bool { return !WorkerIDChar(r) }) {
		return fmt.Errorf("worker id %s is not 1 to %d letters, digits and - _ = . /", Printable(Clip(id, maxWorkerID)), maxWorkerID)
	}
	return nil
}

// checkText reports why s, a text field of what field names, is not
// printable text of at most maxText bytes, or nil.
func checkText(field, s string) error {
	if len(s) > maxText || !utf8.ValidString(s) || strings.ContainsFunc(s, func(r rune) bool { return !unicode.IsGraphic(r) }) {
		return fmt.Errorf("its %s %s is not printable text of at most %d bytes", field, Printable(Clip(s, 64)), maxText)
	}
	return nil
}

// Clip cuts s to at most n bytes, marking the cut.
func Clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}

// Printable returns s as it may be written to a terminal: unchanged when
// it is valid UTF-8 of graphic characters without a backslash or a
// quote, else quoted as Go quotes strings, every control character
// escaped (so that an escape sequence in a worker's name is shown, not
// obeyed).
func Printable(s string) string {
	if utf8.ValidString(s) && !strings.ContainsFunc(s, func(r rune) bool { return !unicode.IsGraphic(r) || r == '\\' || r == '"' }) {
		return s
	}
	return strconv.QuoteToGraphic(s)
}

// CleanText makes a text field read from a worker safe to keep: at most
// maxText bytes, control characters escaped.
func CleanText(s string) string {
	if checkText("", s) == nil {
		return s
	}
	return Printable(Clip(s, maxText))
}

// CleanWorkerID returns a worker id read from a record as it may be kept
// and shown: itself when valid, else escaped and clipped.
func CleanWorkerID(id string) string {
	if CheckWorkerID(id) == nil {
		return id
	}
	return Printable(Clip(id, maxWorkerID))
}

// WorkerIDChar reports whether r may be in a worker's id.
func WorkerIDChar(r rune) bool {
	return r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("-_=./", r)
}
