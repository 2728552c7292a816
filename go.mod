module github.com/nqcount/nqcount

go 1.26.0

require (
	github.com/klauspost/cpuid/v2 v2.4.2
	golang.org/x/sync v0.25.0
)

require golang.org/x/sys v0.41.0 // indirect
