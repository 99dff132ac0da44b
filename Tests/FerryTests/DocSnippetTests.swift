import FerryTestSupport
import Foundation
import Testing

/// Every fenced ```swift block of Docs/*.md compiles against the library, in a scratch package
/// outside this one that depends on Ferry by path, as an app would.
@Suite struct DocSnippetTests {
    @Test(.enabled(if: DocSnippets.swiftTool != nil, "swift is not on PATH: the Docs snippets are not compiled"))
    func docsSnippetsCompile() throws {
        let snippets = try DocSnippets.extract(from: Fixtures.packageRoot.appendingPathComponent("Docs"))
        #expect(snippets.count >= 10)
        let package = try DocSnippets.writePackage(snippets)
        let (status, output) = try DocSnippets.build(package)
        #expect(status == 0, "the Docs snippets do not compile:\n\(output)")
    }

    /// The extraction itself: statements are wrapped in a function, declarations stay at file
    /// scope, imports go first, and `#sourceLocation` points compiler errors at the doc's line.
    @Test func extraction() {
        let markdown = """
            Text.

            ```swift
            import Ferry

            let x = try f()
            ```

            ```swift
            struct S {}
            ```

            ```sh
            not swift
            ```
            """
        let snippets = DocSnippets.extract(markdown, document: "Docs/x.md")
        #expect(snippets.map(\.line) == [4, 10])
        #expect(snippets[0].source(name: "snippet1") == """
            import Ferry
            func snippet1() async throws {
            #sourceLocation(file: "Docs/x.md", line: 6)
            let x = try f()
            #sourceLocation()
            }

            """)
        #expect(snippets[1].source(name: "snippet2") == """
            #sourceLocation(file: "Docs/x.md", line: 10)
            struct S {}
            #sourceLocation()

            """)
    }
}

/// Finds, wraps and builds the Docs snippets.
enum DocSnippets {
    /// One ```swift block: its text and the line of its first line in the document.
    struct Snippet {
        var document: String
        var line: Int
        var lines: [String]

        /// True when the block only declares (types, functions, extensions): it then stands at
        /// file scope; a block with statements is wrapped in an `async throws` function.
        var isDeclarationsOnly: Bool {
            let starts = ["import ", "struct ", "final class ", "class ", "enum ", "extension ", "protocol ", "func ",
                          "@", "}", "//", "public ", "private ", "fileprivate "]
            return lines.allSatisfy { line in
                line.isEmpty || line.first == " " || starts.contains { line.hasPrefix($0) }
            }
        }

        /// The file's text: imports first, then the block at file scope or in `func NAME()`.
        func source(name: String) -> String {
            if isDeclarationsOnly {
                return "#sourceLocation(file: \"\(document)\", line: \(line))\n" + lines.joined(separator: "\n")
                    + "\n#sourceLocation()\n"
            }
            let imports = lines.filter { $0.hasPrefix("import ") }
            var body: [String] = []
            var first = line
            var leading = true
            for text in lines {
                if leading, text.hasPrefix("import ") || text.isEmpty {
                    first += 1
                    continue
                }
                leading = false
                body.append(text.hasPrefix("import ") ? "" : text)
            }
            return imports.map { $0 + "\n" }.joined() + "func \(name)() async throws {\n"
                + "#sourceLocation(file: \"\(document)\", line: \(first))\n" + body.joined(separator: "\n")
                + "\n#sourceLocation()\n}\n"
        }
    }

    /// `swift` on PATH, nil when there is none.
    static let swiftTool: URL? = {
        for folder in (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":") {
            let candidate = URL(fileURLWithPath: String(folder)).appendingPathComponent("swift")
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
        }
        return nil
    }()

    /// The blocks of every `*.md` in `folder`, in name order.
    static func extract(from folder: URL) throws -> [Snippet] {
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".md") }.sorted()
        return try names.flatMap { name in
            let text = try String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8)
            return extract(text, document: folder.appendingPathComponent(name).path)
        }
    }

    /// The ```swift blocks of one Markdown text.
    static func extract(_ markdown: String, document: String) -> [Snippet] {
        var snippets: [Snippet] = []
        var current: Snippet?
        for (index, line) in markdown.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            if current == nil, line.trimmingCharacters(in: .whitespaces) == "```swift" {
                current = Snippet(document: document, line: index + 2, lines: [])
            } else if let snippet = current, line.trimmingCharacters(in: .whitespaces) == "```" {
                snippets.append(snippet)
                current = nil
            } else if current != nil {
                current?.lines.append(String(line))
            }
        }
        return snippets
    }

    /// Writes the scratch package (`.build/doc-snippets/package`): one file a snippet.
    static func writePackage(_ snippets: [Snippet]) throws -> URL {
        let root = Fixtures.packageRoot.appendingPathComponent(".build/doc-snippets/package")
        let sources = root.appendingPathComponent("Sources/Snippets")
        try FileManager.default.createDirectory(at: sources, withIntermediateDirectories: true)
        let manifest = """
            // swift-tools-version: 6.0
            import PackageDescription

            let package = Package(
                name: "doc-snippets",
                dependencies: [.package(name: "ferry", path: "\(Fixtures.packageRoot.path)")],
                targets: [.target(name: "Snippets", dependencies: [.product(name: "Ferry", package: "ferry")])],
                swiftLanguageModes: [.v6]
            )

            """
        try writeIfChanged(manifest, to: root.appendingPathComponent("Package.swift"))
        var names: Set<String> = []
        for (index, snippet) in snippets.enumerated() {
            let name = "snippet\(index + 1)"
            names.insert("\(name).swift")
            try writeIfChanged(snippet.source(name: name), to: sources.appendingPathComponent("\(name).swift"))
        }
        for stale in try FileManager.default.contentsOfDirectory(atPath: sources.path) where !names.contains(stale) {
            try FileManager.default.removeItem(at: sources.appendingPathComponent(stale))
        }
        return root
    }

    /// Leaves a file that already holds `text` untouched, so the next build has nothing to redo.
    private static func writeIfChanged(_ text: String, to url: URL) throws {
        if let old = try? Data(contentsOf: url), old == Data(text.utf8) { return }
        try Data(text.utf8).write(to: url)
    }

    /// Builds the package; returns the exit status and what the build printed. The build plan is
    /// made anew (as `make consumer` makes it): a cached one keeps naming files deleted from
    /// `Sources/`, which SwiftPM does not notice in a path dependency.
    static func build(_ package: URL) throws -> (Int32, String) {
        let process = Process()
        process.executableURL = swiftTool
        process.arguments = [
            "build", "--package-path", package.path,
            "--scratch-path", Fixtures.packageRoot.appendingPathComponent(".build/library-consumers").path,
            "--disable-build-manifest-caching",
        ]
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let output = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: output, as: UTF8.self))
    }
}
