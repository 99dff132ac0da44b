import FerryCore

/// The bundle container in the format registry. It has no `FormatReader` / `FormatWriter`: the
/// pipeline uses `BundleReader` and `BundleWriter` directly, since a bundle is made of content
/// formats and media, not a stream of records.
public enum BundleFormat {
    /// `tar`: `.tar`, `.tar.gz`, `.tgz`, `.tar.zst`, `.tar.xz`, `.tar.bz2` (SCHEMAS.md "Formats: Bundle").
    public static let descriptor = FormatDescriptor(
        name: "tar", extensions: ["tar", "tar.gz", "tgz", "tar.zst", "tar.xz", "tar.bz2"],
        summary: "bundle: manifest.json, data/<collection>.<format> and media/ in a tar archive or a folder",
        isContainer: true, roles: .defaultBundle,
        // POSIX ustar and pax (`ustar\0`), GNU tar (`ustar  `); v7 archives carry no magic.
        recognize: { $0.bytes.count >= 262 && $0.bytes[257..<262].elementsEqual("ustar".utf8) ? .signature : nil },
        reader: nil, writer: nil)

    /// `zip`: `.zip`, the same layout in a zip archive (members deflated).
    public static let zipDescriptor = FormatDescriptor(
        name: "zip", extensions: ["zip"],
        summary: "bundle: manifest.json, data/<collection>.<format> and media/ in a zip archive",
        isContainer: true, recognize: { ArchiveContainer.forContent($0.bytes) == .zip ? .signature : nil },
        reader: nil, writer: nil)
}
