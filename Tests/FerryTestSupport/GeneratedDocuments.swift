import Foundation

/// V1 JSON documents of every domain from the benchmark's generators (`bench/gen_matrix.sh`
/// uses the same): `../shared/bench/gen_notes.py` beside the checkout for notes,
/// `bench/gen_pets.py` for pet-story, `bench/gen_vocabulary.py` (the flat layout) for vocabulary.
public enum GeneratedDocuments {
    /// The domains the generators write.
    public static let domains = ["notes", "pet-story", "vocabulary"]

    /// The V1 document of `domain` with `records` records in its main collection (wine notes,
    /// stories, words in books of 100), made once per test run; nil when a generator or
    /// `python3` is absent (tests then skip with a message, as for the corpus).
    public static func v1(_ domain: String, records: Int) -> [UInt8]? {
        lock.lock()
        defer { lock.unlock() }
        let key = "\(domain)-\(records)"
        if let made = made[key] { return made }
        let root = Fixtures.packageRoot
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("ferry-documents-\(getpid())-\(key)")
        try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let arguments: [String]
        let output: URL
        switch domain {
        case "notes":
            arguments = [root.deletingLastPathComponent().appendingPathComponent("shared/bench/gen_notes.py").path,
                         String(records), folder.path, "--version", "1"]
            output = folder.appendingPathComponent("notes.json")
        case "pet-story":
            output = folder.appendingPathComponent("pet-story.json")
            arguments = [root.appendingPathComponent("bench/gen_pets.py").path, "--records", String(records), output.path]
        case "vocabulary":
            let books = max(records / 100, 1)
            arguments = [root.appendingPathComponent("bench/gen_vocabulary.py").path, folder.path, String(books), String(records / books)]
            output = folder.appendingPathComponent("flat.json")
        default:
            return nil
        }
        guard FileManager.default.fileExists(atPath: arguments[0]) else { return nil }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3"] + arguments
        process.standardOutput = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return nil }
        process.waitUntilExit()
        guard process.terminationStatus == 0, let data = try? Data(contentsOf: output) else { return nil }
        made[key] = Array(data)
        return Array(data)
    }

    nonisolated(unsafe) private static var made: [String: [UInt8]] = [:]
    private static let lock = NSLock()
}
