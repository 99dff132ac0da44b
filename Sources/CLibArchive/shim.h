// libarchive for tar bundles (.tar, .tar.gz, .tar.zst, .tar.xz) and single compressed files (raw format + filters).
#include <archive.h>
#include <archive_entry.h>
