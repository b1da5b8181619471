// The header is the whole target: SwiftPM wants one source file in a C target.
#include "fuzz_driver.h"
