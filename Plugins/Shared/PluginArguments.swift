import Foundation

/// Splits plugin arguments into paths and the options passed through to `ferry`.
enum PluginArguments {
    /// Arguments before the first one starting with `-` are paths; the rest are options.
    static func split(_ arguments: [String]) -> (paths: [String], options: [String]) {
        guard let firstOption = arguments.firstIndex(where: { $0.hasPrefix("-") }) else { return (arguments, []) }
        return (Array(arguments[..<firstOption]), Array(arguments[firstOption...]))
    }

    /// A path given to the plugin, relative to the package root unless absolute.
    static func resolve(_ path: String, root: URL) -> URL {
        path.hasPrefix("/") ? URL(fileURLWithPath: path) : root.appendingPathComponent(path)
    }
}

/// A plugin failure carrying ferry's exit status.
struct PluginFailure: Error, CustomStringConvertible {
    var status: Int32
    var description: String { "ferry exited \(status)" }
}
