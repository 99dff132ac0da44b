import Foundation

/// Finds fixtures, goldens and the shared corpus for tests.
public enum Fixtures {
    /// The package root, found from this file's own path.
    public static let packageRoot: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// `Tests/<Target>/Fixtures/<path>` for the test file at `testFile` (pass `#filePath`).
    public static func url(_ path: String, testFile: String = #filePath) -> URL {
        URL(fileURLWithPath: testFile).deletingLastPathComponent().appendingPathComponent("Fixtures")
            .appendingPathComponent(path)
    }

    /// `Samples/<path>` in the package.
    public static func sample(_ path: String) -> URL {
        packageRoot.appendingPathComponent("Samples").appendingPathComponent(path)
    }

    /// `../shared/corpus/<suite>` beside the checkout, or nil when it is absent (tests then skip
    /// with a message, as the corpus is never copied into the repository).
    public static func corpus(_ suite: String) -> URL? {
        let url = packageRoot.deletingLastPathComponent().appendingPathComponent("shared/corpus")
            .appendingPathComponent(suite)
        return FileManager.default.fileExists(atPath: url.path) ? url : nil
    }

    /// The bytes of a fixture file.
    public static func bytes(_ path: String, testFile: String = #filePath) throws -> [UInt8] {
        Array(try Data(contentsOf: url(path, testFile: testFile)))
    }

    /// The text of a fixture file.
    public static func text(_ path: String, testFile: String = #filePath) throws -> String {
        String(decoding: try bytes(path, testFile: testFile), as: UTF8.self)
    }
}
