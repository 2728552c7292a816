//go:build !amd64 || purego

package x86

func read() Features { return Features{} }
