//go:build !cadical

package satenc

// Linked is the linked CaDiCaL, or nil in a binary built without the tag
// cadical (this one).
func Linked() Solver { return nil }

// Default is the solver of the SAT engine when none is named: gophersat in
// this build (make build-cadical links CaDiCaL and makes it the default).
func Default() Solver { return Gophersat{} }
