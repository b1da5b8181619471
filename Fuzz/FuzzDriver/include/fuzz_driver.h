// libFuzzer's entry for programs with their own main (llvm.org/docs/LibFuzzer.html, "Using libFuzzer as a
// library"). SwiftPM links an executable's main to `<Module>_main`, the module's top-level code, even with
// -parse-as-library (swiftlang/swift-package-manager#8731), so libFuzzer's own main never runs: each fuzz
// target's top-level code calls this driver instead. libFuzzer's main is linked all the same and refers to
// LLVMFuzzerTestOneInput, so each target also exports its callback under that name.
#ifndef FUZZ_DRIVER_H
#define FUZZ_DRIVER_H

#include <stddef.h>
#include <stdint.h>

int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*callback)(const uint8_t *data, size_t size));

#endif
