// libFuzzer's driver entry point (compiler-rt FuzzerInterface.h). SwiftPM links each executable
// with `main` aliased to `<Module>_main`, so the targets call the driver from there instead of
// relying on libFuzzer's own `main`.
#include <stddef.h>
#include <stdint.h>

int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*callback)(const uint8_t *data, size_t size));
