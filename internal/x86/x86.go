// Package x86 reads the CPU's identification on amd64 directly, with the
// CPUID and XGETBV instructions, for the kernels that check their
// features only when first asked: golang.org/x/sys/cpu reads every leaf
// at start-up, and CPUID traps to the hypervisor on a virtual machine
// (some 10 µs a leaf), which a short command pays for. On other
// architectures, and with the purego tag, the package is empty.
package x86
