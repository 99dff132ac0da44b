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
    /// The folder of `count` tasting notes at schema `version` made by the benchmark's generator,
    /// `../shared/bench/gen_notes.py` beside the checkout (its docstring names the files:
    /// `notes.jsonl`, `notes.json`, `wineNotes.csv` or `wineTastingNotes.csv`), made once per test
    /// run into a temporary folder; nil when the generator or `python3` is absent (tests then skip
    /// with a message, as for the corpus).
    public static func generatedNotes(_ count: Int, version: Int) -> URL? {
        generatedNotesLock.lock()
        defer { generatedNotesLock.unlock() }
        let key = "\(count)-v\(version)"
        if let made = generatedNotesFolders[key] { return made }
        let generator = packageRoot.deletingLastPathComponent().appendingPathComponent("shared/bench/gen_notes.py")
        guard FileManager.default.fileExists(atPath: generator.path) else { return nil }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("ferry-notes-\(getpid())-\(key)")
        try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", generator.path, String(count), folder.path, "--version", String(version)]
        process.standardOutput = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return nil }
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { return nil }
        generatedNotesFolders[key] = folder
        return folder
    }

    nonisolated(unsafe) private static var generatedNotesFolders: [String: URL] = [:]
    private static let generatedNotesLock = NSLock()
}
