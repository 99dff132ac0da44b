// libarchive for tar bundles (.tar, .tar.gz, .tar.zst, .tar.xz) and single compressed files (raw format + filters).
#include <archive.h>
#include <archive_entry.h>
#include <locale.h>

// Swift cannot import LC_CTYPE_MASK reliably (a macro built from another macro), so the UTF-8 ctype
// locale that libarchive's name conversions run under is created here. Returns (locale_t)0 on failure.
static inline locale_t ferry_archive_new_utf8_ctype_locale(void) {
    locale_t l = newlocale(LC_CTYPE_MASK, "C.UTF-8", (locale_t)0);
    if (l == (locale_t)0) l = newlocale(LC_CTYPE_MASK, "C.utf8", (locale_t)0);
    return l;
}
