import Foundation

/// Finds the datasets under the paths a plugin is given: data files by extension, and folders
/// that are datasets themselves (a bundle folder with `manifest.json`, or an app Documents folder
/// with `ProfileImages/`, `MemberImages/` or `Stories/`), which are passed whole.
enum DatasetFinder {
    static let dataExtensions = ["json", "jsonl", "ndjson", "csv", "tsv", "xml", "tar", "tgz", "gz", "zst", "xz"]
    static let bundleMarkers = ["manifest.json", "ProfileImages", "MemberImages", "Stories"]
    /// Folders of `Samples/` left out of the default run: broken data on purpose, and files that
    /// are not datasets (field mappings, pipeline files, adapter programs, the Swift package of
    /// the library example, whose test fixtures include JSON Schema documents).
    static let sampleFoldersLeftOut: Set<String> = ["broken", "mappings", "pipelines", "plugins", "swift-consumer"]

    /// The inputs under `paths`, sorted; inside the package's `samples` folder the folders of
    /// `sampleFoldersLeftOut` are left out.
    static func inputs(under paths: [URL], samples: URL) -> [String] {
        let samplesPath = samples.standardizedFileURL.path
        var found: [String] = []
        let fm = FileManager.default
        for path in paths {
            var isFolder: ObjCBool = false
            guard fm.fileExists(atPath: path.path, isDirectory: &isFolder) else {
                found.append(path.path)  // let ferry report it as unreadable
                continue
            }
            guard isFolder.boolValue else {
                found.append(path.path)
                continue
            }
            let isSamples = path.standardizedFileURL.path == samplesPath
            walk(path, excluding: isSamples ? sampleFoldersLeftOut : [], into: &found)
        }
        return found.sorted()
    }

    private static func walk(_ folder: URL, excluding: Set<String>, into found: inout [String]) {
        let fm = FileManager.default
        guard let names = try? fm.contentsOfDirectory(atPath: folder.path) else { return }
        if names.contains(where: bundleMarkers.contains) {
            found.append(folder.path)
            return
        }
        for name in names.sorted() where !name.hasPrefix(".") && !excluding.contains(name) {
            let url = folder.appendingPathComponent(name)
            var isFolder: ObjCBool = false
            guard fm.fileExists(atPath: url.path, isDirectory: &isFolder) else { continue }
            if isFolder.boolValue {
                walk(url, excluding: excluding, into: &found)
            } else if dataExtensions.contains(url.pathExtension.lowercased()) {
                found.append(url.path)
            }
        }
    }
}

/// Runs a tool and returns its exit status, with its output passed through.
enum ToolRunner {
    static func run(_ tool: URL, _ arguments: [String]) throws -> Int32 {
        let process = Process()
        process.executableURL = tool
        process.arguments = arguments
        try process.run()
        process.waitUntilExit()
        return process.terminationStatus
    }
}
