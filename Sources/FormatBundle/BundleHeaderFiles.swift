/// The members a bundle writer puts before its payload (SCHEMAS.md "Formats: Bundle"):
/// `manifest.json`, then the BagIt tag files that make the bundle a bag (RFC 8493):
/// `bagit.txt`, `bag-info.txt`, `manifest-sha256.txt` (every payload file) and
/// `tagmanifest-sha256.txt` (the four tag files before it, `manifest.json` among them), in that
/// order. Every payload path starts with `data/`.
///
/// They hold digests of the payload: a writer that learns some only while it writes the payload
/// (a plain tar) makes them first with placeholder digests of the same length and rewrites them
/// in place; `make` gives texts of the same lengths either way.
struct BundleHeaderFiles {
    /// The Ferry manifest.
    var manifest: BundleManifest
    /// Path and content of each member, in the order written.
    var members: [(path: String, bytes: [UInt8])]

    /// - Parameters:
    ///   - manifest: the Ferry manifest; its `files` are the payload (sizes and SHA-256).
    ///   - baggingDate: `YYYY-MM-DD`, the day of `createdAt` in UTC.
    /// - Throws: `FerryError(.internalError)` when OpenSSL cannot digest a tag file.
    init(manifest: BundleManifest, baggingDate: String) throws {
        self.manifest = manifest
        let manifestJSON = manifest.encoded()
        let declaration = BagIt.declaration()
        let info = BagIt.bagInfo(
            baggingDate: baggingDate, payloadBytes: manifest.files.reduce(0) { $0 + $1.size },
            payloadFiles: manifest.files.count, agent: manifest.generator)
        let payloadManifest = BagIt.manifest(manifest.files.map { ($0.path, $0.sha256) })
        var tagged: [(path: String, bytes: [UInt8])] = [
            ("bag-info.txt", info), ("bagit.txt", declaration), ("manifest-sha256.txt", payloadManifest),
            ("manifest.json", manifestJSON),
        ]
        tagged.sort { MemberPath.precedes($0.path, $1.path) }
        let tagManifest = BagIt.manifest(try tagged.map { ($0.path, try SHA256Hasher.hex(of: $0.bytes)) })
        members = [
            ("manifest.json", manifestJSON), ("bagit.txt", declaration), ("bag-info.txt", info),
            ("manifest-sha256.txt", payloadManifest), ("tagmanifest-sha256.txt", tagManifest),
        ]
    }
}
