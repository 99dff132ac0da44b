import FerryTestSupport
import Foundation
import Testing

extension Sandbox {
    /// Packs the files of bundle folder `folder` (as `tar -cf` or `zip -r -X` run inside it)
    /// into `FOLDER.tar` or `FOLDER.zip` beside it; `archive` is `tar` or `zip`.
    func pack(_ folder: String, as archive: String) throws {
        let entries = try list(folder)
        let command = archive == "zip" ? ["zip", "-q", "-r", "-X", "../\(folder).zip"] : ["tar", "-cf", "../\(folder).tar"]
        let run = try runTool("/usr/bin/env", command + entries, in: url.appendingPathComponent(folder))
        try #require(run.status == 0, "\(run.output)")
    }

    /// Makes the BagIt files of the bundle folder `folder` agree with its payload again after a
    /// test edited it, as a tool that edits a bag properly would: `manifest-sha256.txt` lists
    /// every file under `data/` in byte order, `Payload-Oxum` counts them, and
    /// `tagmanifest-sha256.txt` digests the other tag files. Digests come from `sha256sum`, not
    /// from Ferry.
    func rebag(_ folder: String) throws {
        let payload = try files(under: folder + "/data").map { "data/" + $0 }.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
        let digests = try sha256sum(payload, in: folder)
        try write(folder + "/manifest-sha256.txt", zip(digests, payload).map { "\($0)  \($1)\n" }.joined())
        let bytes = try payload.reduce(0) { $0 + (try self.bytes(folder + "/" + $1).count) }
        var info = try text(folder + "/bag-info.txt")
        let oxum = try #require(info.range(of: #"Payload-Oxum: [0-9]+\.[0-9]+"#, options: .regularExpression))
        info.replaceSubrange(oxum, with: "Payload-Oxum: \(bytes).\(payload.count)")
        try write(folder + "/bag-info.txt", info)
        let tags = ["bag-info.txt", "bagit.txt", "manifest-sha256.txt", "manifest.json"]
        try write(folder + "/tagmanifest-sha256.txt", zip(try sha256sum(tags, in: folder), tags).map { "\($0)  \($1)\n" }.joined())
    }

    /// The SHA-256 of each file (relative to `folder`), in order.
    private func sha256sum(_ names: [String], in folder: String) throws -> [String] {
        let run = try runTool("/usr/bin/env", ["sha256sum", "--"] + names, in: url.appendingPathComponent(folder))
        #expect(run.status == 0, "\(run.output)")
        return run.output.split(separator: "\n").map { String($0.prefix(64)) }
    }
}
