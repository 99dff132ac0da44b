import CLibArchive
import FerryCore

#if canImport(Glibc)
import Glibc
#endif

// The files that call libarchive (LibArchive.swift, ArchiveReader.swift, ArchiveWriter.swift).
// Everything else in FormatBundle goes through ArchiveReader and ArchiveWriter, so the C calls,
// their return codes and their error strings are handled in these three files only.

/// What a tar member is (its file type in the header).
public enum ArchiveEntryKind: Sendable, Hashable {
    case file, directory, symbolicLink, hardLink, characterDevice, blockDevice, fifo, socket, unknown
}

/// One member header as libarchive read it.
public struct ArchiveEntry: Sendable, Hashable {
    /// The member's path as UTF-8, or nil when its bytes are not valid UTF-8 (`rawPath` holds them).
    public var path: String?
    /// The path bytes as stored (after libarchive joined GNU long names and pax `path` records).
    public var rawPath: [UInt8]
    public var kind: ArchiveEntryKind
    /// The size in bytes of the member's content (for sparse files, the expanded size); nil if unset.
    public var size: Int64?
    /// The permission bits including setuid (0o4000), setgid (0o2000) and sticky (0o1000).
    public var permissions: UInt32
    /// The target of a symbolic or hard link.
    public var linkTarget: String?
    /// True when the member is a sparse file (GNU or pax sparse forms).
    public var isSparse: Bool
    /// True when the member's content is encrypted (a zip member with a password), which Ferry
    /// does not read.
    public var isEncrypted = false
    /// Modification time, seconds since 1970.
    public var modificationTime: Int64 = 0
    /// Owner and group ids and names as stored.
    public var uid: Int64 = 0
    public var gid: Int64 = 0
    public var userName: String?
    public var groupName: String?

    /// The path for messages: the UTF-8 path, or the raw bytes decoded with replacement characters.
    public var displayPath: String { path ?? String(decoding: rawPath, as: UTF8.self) }
}

/// Runs `body` with a UTF-8 `LC_CTYPE` for this thread (`uselocale(3)`), so libarchive converts
/// member names as UTF-8 and its pax writer never marks them `hdrcharset=BINARY`. The process-wide
/// locale is left alone.
func withUTF8CType<T>(_ body: () throws -> T) rethrows -> T {
    guard let locale = utf8CTypeLocale.value else { return try body() }
    let previous = uselocale(locale)
    defer { uselocale(previous) }
    return try body()
}

/// The UTF-8 ctype locale, created once (Swift globals are initialised lazily and thread-safely).
private let utf8CTypeLocale = LocaleHandle(ferry_archive_new_utf8_ctype_locale())

private final class LocaleHandle: @unchecked Sendable {
    let value: locale_t?
    init(_ value: locale_t?) { self.value = value }
}

/// libarchive's return codes (archive.h).
enum ArchiveStatus {
    static let ok: Int32 = 0
    static let eof: Int32 = 1
    static let retry: Int32 = -10
    static let warn: Int32 = -20
}

/// The archive's current error string, or a fallback. libarchive capitalises its messages
/// (`Truncated tar archive`); Ferry's start lower-case, so the first letter is lowered unless
/// the word is an acronym (its second letter upper-case too: `ZIP`).
func errorString(_ archive: OpaquePointer, fallback: String) -> String {
    guard let message = archive_error_string(archive) else { return fallback }
    return lowerCasingFirstWord(String(cString: message))
}

/// `message` with its first letter lower-cased, unless its first two letters are capitals.
func lowerCasingFirstWord(_ message: String) -> String {
    guard let first = message.first, first.isUppercase else { return message }
    let second = message.dropFirst().first
    if let second, second.isUppercase { return message }
    return first.lowercased() + message.dropFirst()
}

/// `truncated-archive` when libarchive says the input ended early, else `malformed-archive`.
func archiveErrorCode(forMessage message: String) -> Diagnostic.Code {
    let lower = message.lowercased()
    if lower.contains("truncated") || lower.contains("premature") || lower.contains("unexpected end") {
        return .truncatedArchive
    }
    return .malformedArchive
}
