import FerryTestSupport
import Foundation
import Testing

/// The HTML report of a validation with 1,000 errors, opened in headless Chromium (Debian's
/// `chromium`, which `make test` installs): every diagnostic is in the DOM the browser built, and
/// a screenshot is written. Skipped when no Chromium is installed.
@Suite struct HTMLReportBrowserTests {
    /// The browser's path, nil when none is installed.
    static let chromium = toolOnPath("chromium") ?? toolOnPath("chromium-browser")

    /// A notes file whose `count` records each have a rating out of range, one record per line.
    static func thousandErrors(_ count: Int = 1_000) -> String {
        var text = "{\"domain\": \"notes\", \"schemaVersion\": 2, \"wineTastingNotes\": [\n"
        for index in 1...count {
            text += "  {\"id\": \"w\(index)\", \"title\": \"Wine \(index)\", \"category\": \"red\", \"createdAt\": \"2024-05-01T09:30:00Z\", "
                + "\"alcoholByVolume\": 12, \"look\": {\"tint\": \"ruby\", \"note\": \"\"}, \"smells\": [], \"tastes\": [], "
                + "\"grape\": {\"variety\": \"Syrah\"}, \"think\": \"\", \"rating\": 9, \"isFavorite\": false}"
            text += index == count ? "\n" : ",\n"
        }
        return text + "]}\n"
    }

    /// Runs the browser headless on `file`, with its own profile folder in `box`; standard output only.
    static func browse(_ arguments: [String], in box: Sandbox) throws -> (status: Int32, stdout: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try #require(chromium))
        process.arguments = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-extensions",
                             "--user-data-dir=" + box.url.appendingPathComponent("profile").path] + arguments
        process.currentDirectoryURL = box.url
        var environment = ProcessInfo.processInfo.environment
        environment["HOME"] = box.path
        process.environment = environment
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle(forWritingAtPath: "/dev/null")
        try process.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }

    @Test(.enabled(if: chromium != nil, "chromium is not installed (`make test` installs it with apt-get)"))
    func aPageOfAThousandDiagnosticsOpensWithEveryOneInTheDOM() throws {
        let box = try Sandbox()
        try box.write("notes.json", Self.thousandErrors())
        let run = try box.ferry(["validate", "notes.json", "--report", "html", "--report-file", "report.html", "--quiet"])
        #expect(run.status == 1)
        let page = box.url.appendingPathComponent("report.html")
        let dom = try Self.browse(["--dump-dom", page.absoluteString], in: box)
        #expect(dom.status == 0)
        #expect(dom.stdout.components(separatedBy: "<li class=\"diagnostic error\"").count - 1 == 1_000)
        #expect(dom.stdout.components(separatedBy: "<pre class=\"frame\">").count - 1 == 1_000)
        #expect(dom.stdout.contains("id=\"f1-d1000\""))
        #expect(dom.stdout.contains("<mark>9</mark>"))
        let shot = try Self.browse(["--screenshot=" + box.url.appendingPathComponent("shot.png").path, "--window-size=1280,1600",
                                    "--hide-scrollbars", page.absoluteString], in: box)
        #expect(shot.status == 0)
        let png = try box.bytes("shot.png")
        #expect(png.count > 10_000)
        #expect(Array(png.prefix(8)) == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
    }
}
