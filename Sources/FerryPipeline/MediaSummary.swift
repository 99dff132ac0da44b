import FerryCore
import FerrySchemas
import FormatBundle

/// The media files of a bundle or folder, as `ferry inspect` lists them: how many, how many bytes,
/// how many of each kind, and how many references have no file or files no reference.
public struct MediaSummary: Sendable {
    /// The number of media files.
    public var count: Int
    /// Their total size in bytes.
    public var bytes: Int64
    /// Files per kind, from the extension as a story's media item takes it (jpeg, png, heic, gif:
    /// photo; mp4, mov: video; m4a, mp3: audio; else unknown), in the order photo, video, audio,
    /// unknown, every kind present (0 when none).
    public var byKind: [(kind: String, count: Int)]
    /// Bytes per kind, in the order and with the kinds of `byKind`.
    public var bytesByKind: [(kind: String, bytes: Int64)]
    /// References that name no file (`missing-media` errors), set from the run's diagnostics.
    public var missing = 0
    /// Files that no record references (`orphan-media` warnings), set from the run's diagnostics.
    public var orphans = 0

    /// Sums `files` (a bundle's media members with their sizes).
    public init(files: [BundleMember]) {
        count = files.count
        bytes = files.reduce(0) { $0 + $1.size }
        var counts: [PetStoryV2.MediaKind: Int] = [:]
        var sizes: [PetStoryV2.MediaKind: Int64] = [:]
        for file in files {
            let kind = PetStoryV2.MediaKind(path: file.path)
            counts[kind, default: 0] += 1
            sizes[kind, default: 0] += file.size
        }
        byKind = PetStoryV2.MediaKind.allCases.map { ($0.rawValue, counts[$0] ?? 0) }
        bytesByKind = PetStoryV2.MediaKind.allCases.map { ($0.rawValue, sizes[$0] ?? 0) }
    }

    /// This summary with `missing` and `orphans` counted from the diagnostics of the run.
    public func counting(_ diagnostics: [Diagnostic]) -> MediaSummary {
        var summary = self
        summary.missing = diagnostics.filter { $0.code == .missingMedia && $0.severity == .error }.count
        summary.orphans = diagnostics.filter { $0.code == .orphanMedia }.count
        return summary
    }
}
