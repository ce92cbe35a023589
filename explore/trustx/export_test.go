package trustx

// RunTrust is runTrust, for the benchmarks of package trustx_test.
var RunTrust = runTrust
