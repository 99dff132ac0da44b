import Foundation

/// Golden-file comparison: the expected bytes live in a file under the test target's `Fixtures/`.
/// Set `FERRY_RECORD_GOLDENS=1` to (re)write goldens from the actual output instead of comparing.
public enum Golden {
    /// Returns nil when `actual` matches the golden file's bytes exactly, else a message showing the
    /// first differing line. In recording mode writes the file and returns nil.
    public static func mismatch(_ actual: String, golden path: String, testFile: String = #filePath) -> String? {
        let url = Fixtures.url(path, testFile: testFile)
        if ProcessInfo.processInfo.environment["FERRY_RECORD_GOLDENS"] == "1" {
            try? FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try? Data(actual.utf8).write(to: url)
            return nil
        }
        guard let data = try? Data(contentsOf: url) else { return "golden file missing: \(url.path)" }
        let expected = String(decoding: data, as: UTF8.self)
        if expected == actual { return nil }
        let e = expected.split(separator: "\n", omittingEmptySubsequences: false)
        let a = actual.split(separator: "\n", omittingEmptySubsequences: false)
        for i in 0..<max(e.count, a.count) {
            let el = i < e.count ? String(e[i]) : "<end>"
            let al = i < a.count ? String(a[i]) : "<end>"
            if el != al { return "\(path): line \(i + 1) differs\n expected: \(el)\n   actual: \(al)" }
        }
        return "\(path): differs"
    }
}
