import FerryCLI

#if canImport(Glibc)
import Glibc

/// glibc's `int mallopt(int param, int value)` (malloc.h, which the Glibc module does not export).
@_silgen_name("mallopt") private func mallopt(_ parameter: Int32, _ value: Int32) -> Int32
/// malloc.h's `M_MMAP_THRESHOLD`.
private let mmapThreshold: Int32 = -3

// Buffers of 128 KiB and more (the id table's slot array as it doubles, spool and read blocks)
// get mappings of their own, returned to the system when freed. With glibc's default the
// threshold rises after the first such free, so later big buffers came from the heap and left
// holes that stayed resident: 3-4 MB more peak RSS with --jobs on 1,000,000 records (make bench).
_ = mallopt(mmapThreshold, 128 * 1024)
#endif

exit(FerryMain.run(Array(CommandLine.arguments.dropFirst())))
