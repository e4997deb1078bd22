// Declarations only: libFuzzer itself comes with -sanitize=fuzzer.
#include "CFuzzer.h"
