import FerryCore

/// A bundle that is a BagIt bag (RFC 8493): one Ferry writes (version 2: `manifest.json` beside
/// the tag files, the payload under `data/`), or a Ferry dataset bagged by another tool such as
/// bagit-python (`bagit.py --sha256 DIR` moves DIR's files under `data/`), with or without Ferry's
/// manifest: a version 1 bundle (`data/manifest.json`, `data/data/...`, `data/media/...`), data
/// files and media (`data/notes.json`, `data/media/...`), or an app Documents folder
/// (`data/pet-story.json`, `data/Stories/...`).
extension BundleReader {
    /// True for a payload file that belongs to the dataset: under `data/`, and not the Ferry
    /// manifest read from there.
    func isDatasetFile(_ path: String) -> Bool {
        path.hasPrefix(BagIt.payloadPrefix) && path != payloadManifestPath
    }

    /// Ends the scan of a bag without a `manifest.json` at its root: reads the payload's own
    /// manifest (a version 1 bundle bagged whole) or else tells its layout from its files.
    func finishBagScan(log: DiagnosticLog) {
        let inner = BagIt.payloadPrefix + "manifest.json"
        if fileIndex[inner] != nil {
            payloadManifestPath = inner
            do {
                let bytes = try readWhole(inner, limit: options.maximumManifestSize)
                var parsed = try BundleManifest(parsing: bytes, at: location(inner))
                // Its paths are relative to its own folder, the payload folder.
                for index in parsed.collections.indices { parsed.collections[index].path = BagIt.payloadPrefix + parsed.collections[index].path }
                for index in parsed.files.indices { parsed.files[index].path = BagIt.payloadPrefix + parsed.files[index].path }
                manifest = parsed
            } catch let error as FerryError {
                log.report(error.diagnostic)
            } catch {
                log.report(.error(.malformedJSON, "manifest: \(error)", at: location(inner)))
            }
            return
        }
        let payloadRoot = scannedFiles.map(\.path).filter {
            $0.hasPrefix(BagIt.payloadPrefix) && !$0.dropFirst(BagIt.payloadPrefix.count).contains("/")
        }
        let rootJSON = payloadRoot.filter { $0.hasSuffix(".json") }
        let hasDocumentsMedia = scannedFiles.contains { file in
            ["ProfileImages/", "MemberImages/", "Stories/"].contains { file.path.hasPrefix(BagIt.payloadPrefix + $0) }
        }
        let hasDataFolder = scannedFiles.contains { $0.path.hasPrefix(BagIt.payloadPrefix + "data/") }
        if hasDocumentsMedia, !hasDataFolder, let dataFile = rootJSON.count == 1
            ? rootJSON[0]
            : options.documentsDataFile?(rootJSON.map { String($0.dropFirst(BagIt.payloadPrefix.count)) })
                .map({ BagIt.payloadPrefix + $0 })
        {
            layout = .documentsFolder(dataFile: dataFile)
            log.report(.note(.assumption, "a BagIt bag without manifest.json: its payload is read as the app's Documents "
                + "folder; \(dataFile) is the data and media paths are relative to data/", at: location(nil)))
            return
        }
        log.report(.note(.assumption, "a BagIt bag without manifest.json: each payload file outside media folders is read "
            + "as the collection its name says", at: location(nil)))
    }

    /// A member's whole content, at most `limit` bytes.
    /// - Throws: `FerryError(.tooLarge)` naming the member past `limit`; `open(_:)`'s errors.
    private func readWhole(_ member: String, limit: Int) throws -> [UInt8] {
        do {
            return try open(member).readAll(limit: limit)
        } catch let error as FerryError where error.diagnostic.code == .tooLarge {
            throw FerryError(.tooLarge, "more than \(limit) bytes, the limit for a manifest or tag file; not read", at: location(member))
        }
    }

    /// A member's digest: the SHA-256 the scan computed, or another algorithm's computed now from
    /// the member's stored copy (only bags that list SHA-512, SHA-1 or MD5 ask for one).
    private func digest(of member: String, _ algorithm: BagIt.Algorithm, sha256: String) throws -> String {
        if algorithm == .sha256 { return sha256 }
        if member == "manifest.json", let bytes = rootManifestBytes {
            let hasher = SHA256Hasher(algorithm: algorithm)
            hasher.update(bytes)
            return try hasher.finalize()
        }
        let source = try open(member)
        let hasher = SHA256Hasher(algorithm: algorithm)
        var chunk = [UInt8](repeating: 0, count: 1 << 20)
        while true {
            let n = try chunk.withUnsafeMutableBytes { try source.read(into: $0) }
            if n == 0 { break }
            chunk.withUnsafeBytes { hasher.update(UnsafeRawBufferPointer(rebasing: $0[0..<n])) }
        }
        return try hasher.finalize()
    }

    /// The bag's completeness and fixity (RFC 8493 section 3): `bagit.txt` declares a version
    /// and UTF-8; every entry of each payload manifest (`manifest-sha256.txt`,
    /// `manifest-sha512.txt`, and the weak `manifest-sha1.txt`, `manifest-md5.txt` with a note
    /// saying so) names a payload file (`missing-file`) whose digest matches
    /// (`checksum-mismatch`, one per file naming every manifest it fails); every payload file is
    /// listed in each of them (`unlisted-file`, one per file naming every manifest without it);
    /// every entry of a tag manifest names a tag file with that digest; when all that holds,
    /// `Payload-Oxum` of `bag-info.txt` matches the payload's bytes and file count
    /// (`checksum-mismatch`).
    /// A manifest path is read with `%25`, `%0D`, `%0A` decoded, else as listed (bagit-python
    /// never encodes `%`).
    /// - Returns: the paths a diagnostic named, so `manifest.json` does not name them again.
    func verifyBag(log: DiagnosticLog) -> Set<String> {
        resolveDeferredHashes()
        var reported: Set<String> = []
        checkDeclaration(log: log)
        var present = Dictionary(scannedFiles.map { ($0.path, $0) }, uniquingKeysWith: { first, _ in first })
        if let bytes = rootManifestBytes {
            present["manifest.json"] = BundleMember(
                path: "manifest.json", size: Int64(bytes.count), sha256: (try? SHA256Hasher.hex(of: bytes)) ?? "")
        }
        let payload = scannedFiles.filter { $0.path.hasPrefix(BagIt.payloadPrefix) }
        var checked = 0
        // A file that fails several manifests (or is missing from several) is named once, with
        // every manifest: one problem, however many algorithms see it.
        var missing: [String: String] = [:]
        var mismatches: [String: [String]] = [:]
        var unlisted: [String: [String]] = [:]
        var problemOrder: [String] = []  // paths in the order their first problem was found
        func noteProblem(at path: String) {
            if missing[path] == nil, mismatches[path] == nil, unlisted[path] == nil { problemOrder.append(path) }
        }
        for kind in ["manifest", "tagmanifest"] {
            for algorithm in BagIt.Algorithm.allCases {
                let name = "\(kind)-\(algorithm.rawValue).txt"
                guard present[name] != nil else { continue }
                if algorithm.isWeak {
                    log.report(.note(.assumption, "\(name) lists \(algorithm.displayName) digests, which detect accidental "
                        + "changes but not deliberate ones; checked all the same", at: location(name)))
                }
                let entries: [BagIt.ManifestEntry]
                do {
                    entries = try BagIt.parseManifest(
                        readWhole(name, limit: options.maximumManifestSize), algorithm: algorithm, at: location(name))
                } catch let error as FerryError {
                    log.report(error.diagnostic)
                    continue
                } catch {
                    log.report(.error(.internalError, "\(error)", at: location(name)))
                    continue
                }
                let isPayload = kind == "manifest"
                if isPayload { checked += 1 }
                var listed: Set<String> = []
                for entry in entries {
                    let decoded = MemberPath.nfc(BagIt.decodePath(entry.listedPath))
                    let raw = MemberPath.nfc(entry.listedPath)
                    let path = present[decoded] == nil && present[raw] != nil ? raw : decoded
                    let line = location(name, line: entry.line)
                    guard case .safe(let safe) = MemberPath.check(path), safe == path else {
                        log.report(.error(.unsafePath, "\(name) lists '\(DiagnosticText.escaped(path))', which is not a "
                            + "safe relative path; not read", at: line))
                        continue
                    }
                    if isPayload != path.hasPrefix(BagIt.payloadPrefix) {
                        log.report(.error(.invalidValue, "\(name) lists '\(DiagnosticText.escaped(path))', "
                            + (isPayload ? "outside the payload folder data/" : "a payload file"), at: line))
                        continue
                    }
                    guard listed.insert(path).inserted else {
                        log.report(.error(.invalidValue, "\(name) lists '\(DiagnosticText.escaped(path))' twice", at: line))
                        continue
                    }
                    guard let found = present[path] else {
                        if reportedMissing.insert(path).inserted {
                            noteProblem(at: path)
                            missing[path] = name
                        }
                        reported.insert(path)
                        continue
                    }
                    do {
                        let actual = try digest(of: path, algorithm, sha256: found.sha256)
                        if actual != entry.digest {
                            noteProblem(at: path)
                            mismatches[path, default: []].append("\(algorithm.displayName) is \(actual), \(name) says \(entry.digest)")
                            reported.insert(path)
                        }
                    } catch let error as FerryError {
                        log.report(error.diagnostic)
                        reported.insert(path)
                    } catch {
                        log.report(.error(.internalError, "\(error)", at: location(path)))
                    }
                }
                guard isPayload else { continue }
                for file in payload where !listed.contains(file.path) {
                    noteProblem(at: file.path)
                    unlisted[file.path, default: []].append(name)
                    reported.insert(file.path)
                }
            }
        }
        for path in problemOrder {
            if let name = missing[path] {
                log.report(.error(.missingFile, "listed in \(name) but not in the bag", at: location(path)))
            }
            if let lines = mismatches[path] {
                log.report(.error(.checksumMismatch, lines.joined(separator: "; "), at: location(path)))
            }
            if let names = unlisted[path] {
                log.report(.error(.unlistedFile, "present in the payload but not listed in " + names.joined(separator: ", "),
                    at: location(path)))
            }
        }
        if checked == 0 {
            let names = BagIt.Algorithm.allCases.map { "manifest-\($0.rawValue).txt" }
            let others = scannedFiles.map(\.path).filter { $0.hasPrefix("manifest-") && !$0.contains("/") }
            log.report(.error(.missingFile, "the bag has no payload manifest ferry checks ("
                + names.dropLast().joined(separator: ", ") + " or " + names.last! + ")"
                + (others.isEmpty ? "" : "; not checked: " + others.joined(separator: ", ")),
                at: location("manifest-sha256.txt")))
        }
        // The file count and bytes only sum up what the manifests check file by file: said only
        // when they found nothing (a payload changed after its manifests were made).
        if reported.isEmpty { checkPayloadOxum(payload, log: log) }
        return reported
    }

    /// `bagit.txt`: `BagIt-Version` 0.96 up to 1.x, `Tag-File-Character-Encoding` UTF-8.
    private func checkDeclaration(log: DiagnosticLog) {
        let name = "bagit.txt"
        guard fileIndex[name] != nil else { return }
        do {
            let tags = try BagIt.parseTags(readWhole(name, limit: 64 * 1024), at: location(name))
            func value(_ label: String) -> (String, Int)? {
                tags.first { $0.label.lowercased() == label.lowercased() }.map { ($0.value, $0.line) }
            }
            guard let (version, line) = value("BagIt-Version") else {
                log.report(.error(.invalidValue, "BagIt-Version is missing", at: location(name)))
                return
            }
            let parts = version.split(separator: ".").map { Int($0) }
            if parts.count != 2 || parts.contains(nil) || !((0, 96) <= (parts[0]!, parts[1]!) && parts[0]! < 2) {
                let where_ = location(name, line: line)
                log.report(.error(.unknownVersion, "BagIt-Version \(DiagnosticText.escaped(version)) is not supported "
                    + "(0.96 up to 1.x are)", at: where_))
            }
            if let (encoding, line) = value("Tag-File-Character-Encoding"), encoding.uppercased() != "UTF-8" {
                let where_ = location(name, line: line)
                log.report(.error(.invalidEncoding, "tag files in \(DiagnosticText.escaped(encoding)) are not read "
                    + "(UTF-8 is)", at: where_))
            }
        } catch let error as FerryError {
            log.report(error.diagnostic)
        } catch {
            log.report(.error(.internalError, "\(error)", at: location(name)))
        }
    }

    /// `Payload-Oxum: <bytes>.<files>` of `bag-info.txt`, when present, against the payload.
    private func checkPayloadOxum(_ payload: [BundleMember], log: DiagnosticLog) {
        let name = "bag-info.txt"
        guard fileIndex[name] != nil else { return }
        do {
            let tags = try BagIt.parseTags(readWhole(name, limit: options.maximumManifestSize), at: location(name))
            guard let oxum = tags.first(where: { $0.label.lowercased() == "payload-oxum" }) else { return }
            let where_ = location(name, line: oxum.line)
            let parts = oxum.value.split(separator: ".", omittingEmptySubsequences: false)
            guard parts.count == 2, let bytes = Int64(parts[0]), let count = Int(parts[1]) else {
                log.report(.error(.invalidValue, "Payload-Oxum '\(DiagnosticText.escaped(oxum.value))' is not "
                    + "<bytes>.<files>", at: where_))
                return
            }
            let actualBytes = payload.reduce(0) { $0 + $1.size }
            if bytes != actualBytes || count != payload.count {
                log.report(.error(.checksumMismatch, "Payload-Oxum says \(bytes) bytes in \(count) files, the payload holds "
                    + "\(actualBytes) bytes in \(payload.count) files", at: where_))
            }
        } catch let error as FerryError {
            log.report(error.diagnostic)
        } catch {
            log.report(.error(.internalError, "\(error)", at: location(name)))
        }
    }
}
