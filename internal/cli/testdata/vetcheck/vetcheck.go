// Package vetcheck holds a deliberate printf mistake: TestVetChecksErrorf
// expects go vet to find it, which it does only while Env.Errorf is a
// printf wrapper vet recognises.
package vetcheck

import "github.com/nqcount/nqcount/internal/cli"

func wrong(e *cli.Env) {
	e.Errorf("%d workers", "four")
}
