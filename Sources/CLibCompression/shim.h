// The decompressors of gzip (zlib), xz (liblzma), bzip2 (libbz2) and zstd (libzstd), called directly where
// libarchive's filters would drop the block they were filling when the input ends early.
#include <bzlib.h>
#include <lzma.h>
#include <stdint.h>
#include <string.h>
#include <zlib.h>
#include <zstd.h>

// zlib's init is a macro (it passes the header's version and struct size), which Swift cannot call.
// 16 + MAX_WBITS: a gzip stream (RFC 1952), header and trailer checked.
static inline int ferry_inflate_init_gzip(z_stream *stream) {
    memset(stream, 0, sizeof *stream);
    return inflateInit2(stream, 16 + MAX_WBITS);
}

// LZMA_STREAM_INIT is a macro too. Concatenated .xz streams and their padding are read as one, as
// xz(1) does; the memory limit is libarchive's (1 GiB), so what it reads this reads.
static inline lzma_ret ferry_lzma_init_xz(lzma_stream *stream) {
    lzma_stream initial = LZMA_STREAM_INIT;
    *stream = initial;
    return lzma_stream_decoder(stream, (uint64_t)1 << 30, LZMA_CONCATENATED);
}

static inline int ferry_bzip2_init(bz_stream *stream) {
    memset(stream, 0, sizeof *stream);
    return BZ2_bzDecompressInit(stream, 0, 0);
}

// ZSTD_isError and ZSTD_getErrorName take the size_t a call returned; ZSTD_CONTENTSIZE_* and the
// window limit are macros. The window limit is libarchive's default (2^27, 128 MiB), so what it
// read this reads.
static inline int ferry_zstd_init(ZSTD_DStream **stream) {
    *stream = ZSTD_createDStream();
    if (*stream == NULL) return 0;
    if (ZSTD_isError(ZSTD_initDStream(*stream))) return 0;
    return !ZSTD_isError(ZSTD_DCtx_setParameter(*stream, ZSTD_d_windowLogMax, 27));
}
