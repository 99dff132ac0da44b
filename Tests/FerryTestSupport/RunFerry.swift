import Foundation

/// Runs the built `ferry` executable, as a user would, and captures what it printed.
public struct FerryRun: Sendable {
    public var stdout: String
    public var stderr: String
    public var status: Int32
}

/// The path of the built `ferry` binary beside the test bundle (`.build/<config>/ferry`).
public func ferryExecutable() -> URL {
    let products = Bundle.main.bundleURL
    let candidate = products.appendingPathComponent("ferry")
    if FileManager.default.fileExists(atPath: candidate.path) { return candidate }
    return Fixtures.packageRoot.appendingPathComponent(".build/debug/ferry")
}

/// Runs `ferry` with `arguments` in `directory` (default the package root), feeding `stdin` or
/// `stdinBytes` (binary input: a gzip stream) through a pipe, or the file `stdinFile` as standard
/// input (redirected from it: a regular file, which can be read again).
public func runFerry(
    _ arguments: [String], in directory: URL? = nil, stdin: String? = nil, stdinBytes: Data? = nil, stdinFile: URL? = nil,
    environment: [String: String] = [:]
) throws -> FerryRun {
    let process = Process()
    process.executableURL = ferryExecutable()
    process.arguments = arguments
    process.currentDirectoryURL = directory ?? Fixtures.packageRoot
    var env = ProcessInfo.processInfo.environment
    env.removeValue(forKey: "SOURCE_DATE_EPOCH")
    for (key, value) in environment { env[key] = value }
    process.environment = env
    let out = Pipe()
    let err = Pipe()
    let input = Pipe()
    process.standardOutput = out
    process.standardError = err
    if let stdinFile {
        process.standardInput = try FileHandle(forReadingFrom: stdinFile)
    } else {
        process.standardInput = input
    }
    try process.run()
    if let bytes = stdin.map({ Data($0.utf8) }) ?? stdinBytes { input.fileHandleForWriting.write(bytes) }
    try input.fileHandleForWriting.close()
    // Read both pipes concurrently so a full pipe never blocks the child.
    let errData = LockedData()
    let group = DispatchGroup()
    group.enter()
    DispatchQueue.global().async {
        errData.set(err.fileHandleForReading.readDataToEndOfFile())
        group.leave()
    }
    let outData = out.fileHandleForReading.readDataToEndOfFile()
    group.wait()
    process.waitUntilExit()
    return FerryRun(
        stdout: String(decoding: outData, as: UTF8.self), stderr: String(decoding: errData.get(), as: UTF8.self),
        status: process.terminationStatus)
}

private final class LockedData: @unchecked Sendable {
    private let lock = NSLock()
    private var data = Data()
    func set(_ d: Data) { lock.withLock { data = d } }
    func get() -> Data { lock.withLock { data } }
}

/// A fresh temporary directory, removed by the caller when done.
public func makeTemporaryDirectory() throws -> URL {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("ferry-test-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
}

/// A fresh temporary directory for the rest of the test process (inputs that several tests
/// copy, made once), removed when the process exits: a `static let` is never freed, so nothing
/// else would remove it.
public func makeProcessTemporaryDirectory() throws -> URL {
    let url = try makeTemporaryDirectory()
    ProcessTemporaryDirectories.shared.add(url)
    return url
}

/// The directories `makeProcessTemporaryDirectory` made, removed at exit.
private final class ProcessTemporaryDirectories: @unchecked Sendable {
    static let shared: ProcessTemporaryDirectories = {
        let directories = ProcessTemporaryDirectories()
        atexit { ProcessTemporaryDirectories.shared.removeAll() }
        return directories
    }()
    private let lock = NSLock()
    private var urls: [URL] = []

    func add(_ url: URL) { lock.withLock { urls.append(url) } }

    func removeAll() {
        for url in lock.withLock({ urls }) { try? FileManager.default.removeItem(at: url) }
    }
}
