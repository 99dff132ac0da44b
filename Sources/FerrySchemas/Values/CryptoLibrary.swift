import CLibCrypto

/// libcrypto (OpenSSL 3), set up once for the process.
public enum CryptoLibrary {
    /// Sets libcrypto up without its clean-up at exit (`OPENSSL_INIT_NO_ATEXIT`,
    /// OPENSSL_init_crypto(3)). OpenSSL frees its name tables in an `atexit` handler; a process
    /// that exits on an error while a worker thread still hashes (a derived id, a bundle's
    /// checksum) would crash there with the worker in a freed table. Call it before any thread
    /// uses libcrypto (a later call does nothing, and one after libcrypto set itself up cannot
    /// take the handler back). The memory is the process's and goes with it.
    public static func setUp() {
        _ = initialized
    }

    private static let initialized: Bool = OPENSSL_init_crypto(UInt64(OPENSSL_INIT_NO_ATEXIT), nil) == 1
}
